"""Any protocol bot as an in-Python opponent: ``teenpatti.Subprocess(command, game, seat)``.

The bot is started once and sees a match as the arena would show it: ``hello`` (the table, its
seat, its seed), then for every hand it plays, the events its seat may see
(``State.events(seat)``, the engine's own blanking) and a ``request`` whenever it must decide
(``State.observation_json(seat)`` with a request id), and ``match_end`` at ``close()``. Its
answer becomes an action id. A mixed answer (PROTOCOL.md) is drawn here, from a generator seeded
by ``seed``.

Unlike the arena this runs the bot without its sandbox or resource limits, as the user running
Python: use it with bots you trust (your own, the sample bots). A bot that answers late, badly
or illegally raises ``teenpatti.BotError`` with its line and the end of its stderr, instead of
the arena's fault-and-fallback: in research, a broken opponent should stop the run.
"""

import json
import os
import random
import selectors
import shlex
import subprocess
import tempfile
import time

import teenpatti


class BotError(RuntimeError):
    """The bot did not answer as the protocol asks (late, malformed, illegal, or gone)."""


class Subprocess:
    def __init__(self, command, game, seat, seed=0, name="bot", decision_ms=10_000, startup_ms=10_000):
        if not 0 <= seat < game.num_players():
            raise ValueError(f"seat {seat} does not exist: the seats are 0 to {game.num_players() - 1}")
        self.game, self.seat, self.name = game, seat, name
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self._decision_s = decision_ms / 1000
        self._stderr = tempfile.TemporaryFile()
        self._process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._process.stdout, selectors.EVENT_READ)
        self._buffer = b""
        self._draws = random.Random(seed)
        self._next_id = 1
        self._hand = None  # (seed, hand) of the hand being told
        self._told = 0  # events of that hand sent so far
        settings = json.loads(game.settings_json())
        self._send({
            "type": "hello", "protocol": 1, "game": settings["variant"], "settings": settings, "seat": seat,
            "seats": game.num_players(), "hands": 2**53 - 1, "first_hand": 0, "seed": seed % 2**53,
            "players": [name if s == seat else f"seat-{s}" for s in range(game.num_players())],
            "time": {"startup_ms": startup_ms, "decision_ms": decision_ms, "bank_ms": 0},
        })
        hello = self._read(startup_ms / 1000, "hello")
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            raise self._error(f"its first line is not a hello: {hello!r}")

    def action(self, state):
        """The bot's action id in `state`, whose seat to act must be the bot's."""
        if state.current_player() != self.seat:
            raise teenpatti.IllegalActionError(f"the bot plays seat {self.seat}, but seat {state.current_player()} is to decide")
        self.observe(state)
        request = json.loads(state.observation_json(self.seat))
        request.update(id=self._next_id, time_ms=int(self._decision_s * 1000), bank_ms=0)
        self._next_id += 1
        self._send(request)
        answer = self._read(self._decision_s, f"answer to request {request['id']}")
        if not isinstance(answer, dict) or answer.get("id") != request["id"]:
            raise self._error(f"answered request {request['id']} with {answer!r}")
        if "mix" in answer:
            entries = answer["mix"]
            chosen = self._draws.choices(entries, weights=[e.get("p", 0) for e in entries])[0]
        else:
            chosen = answer
        fields = {k: chosen[k] for k in ("action", "amount", "card") if k in chosen}
        try:
            action = state.action_from_json(json.dumps(fields))
        except ValueError as error:
            raise self._error(f"answered {answer!r}: {error}") from None
        if action not in state.legal_actions():
            legal = ", ".join(f"{a} {state.action_to_string(a)}" for a in state.legal_actions())
            raise self._error(f"answered {answer!r}, not legal here; legal: {legal}")
        return action

    def observe(self, state):
        """Sends the bot the events of `state`'s hand it has not been told yet (call it when a
        hand it played ends, so that it sees the end as in the arena)."""
        key = (state.seed, state.hand)
        if key != self._hand:
            self._hand, self._told = key, 0
        events = state.events(self.seat)
        for event in events[self._told:]:
            self._send({"type": "event", "hand": state.hand, **event})
        self._told = len(events)

    def close(self):
        """Ends the match (``match_end``) and the process."""
        if self._process.poll() is None:
            try:
                self._send({"type": "match_end", "hands": 0, "totals": [0] * self.game.num_players()})
                self._process.stdin.close()
                self._process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        self._selector.close()
        self._stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def __del__(self):
        if getattr(self, "_process", None) is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()

    def _send(self, message):
        try:
            self._process.stdin.write((json.dumps(message) + "\n").encode())
            self._process.stdin.flush()
        except OSError as error:
            raise self._error(f"cannot be written to ({error})") from None

    def _read(self, timeout, what):
        """One JSON line within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                raise self._error(f"gave no {what} within {timeout:g} s")
            chunk = os.read(self._process.stdout.fileno(), 65536)
            if not chunk:
                raise self._error(f"closed its stdout before {what}")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            raise self._error(f"wrote {line[:200]!r}, not JSON, for {what}") from None

    def _error(self, what):
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - 2000))
        tail = self._stderr.read().decode(errors="replace").strip()
        return BotError(f"{self.name} ({' '.join(self.command)}) {what}" + (f"\nits stderr ends:\n{tail}" if tail else ""))
