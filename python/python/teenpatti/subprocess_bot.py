"""Any protocol bot as an in-Python opponent: ``teenpatti.Subprocess(command, game, seat)``.

The bot is started once and sees a match as the arena would show it: ``hello`` (the table, its
seat, its seed), then for every hand it plays, the events its seat may see
(``State.events(seat)``, the engine's own blanking) and a ``request`` whenever it must decide
(``State.observation_json(seat)`` with a request id), and ``match_end`` at ``close()``. Its
answer becomes an action id. A mixed answer (PROTOCOL.md) is drawn here, from a generator seeded
by ``seed``.

The bot runs in the arena's sandbox, as a match runs it: ``arena run-bot`` starts it (the
sandbox level, a cleared environment, its own process group and cgroup, the memory, CPU-time and
process limits, bubblewrap where it works) and relays its lines, and when the bot is closed (or
Python goes) the arena kills it and everything it started. The ``arena`` program is found from
``arena=``, else the ``ARENA`` environment variable, else ``arena`` on ``PATH``, else a source
checkout's ``target/release/arena`` or ``target/debug/arena``; without one, a
``FileNotFoundError`` says how to point at one. ``sandbox`` is the level: ``"default"`` (the
strongest this machine supports), ``"bwrap"``, ``"limits"`` or ``"none"`` (no isolation, the
arena's cleanup only); ``arena_args`` adds options of ``arena run-bot`` (``["--memory-mb",
"512"]``; ``arena run-bot --help`` lists them). As in a match, the bot gets only ``PATH`` and
``HOME`` in its environment and runs in a private folder; relative paths in ``command`` are
taken from the current directory. ``sandbox=None`` runs the bot directly instead, without the
arena, as the user running Python: only for bots you trust (your own, the sample bots).

Time limits stay here (``startup_ms``, ``decision_ms``). A bot that answers late, badly or
illegally raises ``teenpatti.BotError`` with its line and the end of its stderr (where the
arena also says why it ended a bot, such as a limit reached), instead of the arena's
fault-and-fallback: in research, a broken opponent should stop the run.
"""

import json
import os
import pathlib
import random
import selectors
import shlex
import shutil
import subprocess
import tempfile
import time

import teenpatti


class BotError(RuntimeError):
    """The bot did not answer as the protocol asks (late, malformed, illegal, or gone)."""


SANDBOX_LEVELS = ("default", "bwrap", "limits", "none")

_NO_ARENA = (
    "no arena program to run the bot in its sandbox: pass arena='/path/to/arena', set the ARENA "
    "environment variable, put `arena` on PATH, or build it in the repository (`cargo build "
    "--release -p arena`, found there as target/release/arena). sandbox=None runs the bot "
    "without the arena instead: unsandboxed, as you, only for bots you trust"
)


def find_arena(arena=None):
    """The ``arena`` program that runs bots in their sandbox: ``arena`` if given, else the
    ``ARENA`` environment variable, else ``arena`` on ``PATH``, else ``target/release/arena``
    or ``target/debug/arena`` of a source checkout (above this module or the current
    directory). Raises ``FileNotFoundError`` saying how to point at one."""
    for given, origin in ((arena, "arena="), (os.environ.get("ARENA"), "ARENA=")):
        if given:
            found = shutil.which(os.fspath(given))
            if found is None:
                raise FileNotFoundError(f"{origin}{os.fspath(given)!r} is not an executable program; {_NO_ARENA}")
            return found
    found = shutil.which("arena")
    if found is not None:
        return found
    for checkout in _checkouts():
        for profile in ("release", "debug"):
            candidate = checkout / "target" / profile / "arena"
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    raise FileNotFoundError(_NO_ARENA)


def _checkouts():
    """Folders above this module and above the current directory that are the arena's
    repository (a workspace ``Cargo.toml`` beside ``arena/``)."""
    found = []
    for start in (pathlib.Path(__file__).resolve().parent, pathlib.Path.cwd()):
        for folder in (start, *start.parents):
            if folder not in found and (folder / "Cargo.toml").is_file() and (folder / "arena" / "Cargo.toml").is_file():
                found.append(folder)
    return found


class Subprocess:
    """A protocol bot program playing ``seat`` of ``game``: ``command`` (a list, or a string
    split like a shell), run through ``arena run-bot`` at ``sandbox`` level (see the module's
    documentation for ``sandbox``, ``arena`` and ``arena_args``; ``sandbox=None`` runs it
    unsandboxed). ``seed`` is the bot's hello seed and draws its mixed answers; ``name`` its
    name in hello and in errors; ``startup_ms`` and ``decision_ms`` the time it has for hello
    and for each answer."""

    def __init__(self, command, game, seat, seed=0, name="bot", decision_ms=10_000, startup_ms=10_000,
                 sandbox="default", arena=None, arena_args=()):
        if not 0 <= seat < game.num_players():
            raise ValueError(f"seat {seat} does not exist: the seats are 0 to {game.num_players() - 1}")
        self.game, self.seat, self.name = game, seat, name
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if sandbox is None:
            if arena is not None or arena_args:
                raise ValueError("arena= and arena_args= run the bot through the arena: they need a sandbox level, not sandbox=None")
            argv = self.command
        elif sandbox in SANDBOX_LEVELS:
            level = [] if sandbox == "default" else ["--sandbox", sandbox]
            argv = [find_arena(arena), "run-bot", *level, *map(str, arena_args), "--", *self.command]
        else:
            raise ValueError(f"sandbox {sandbox!r} is not one of {', '.join(map(repr, SANDBOX_LEVELS))} or None (unsandboxed)")
        self.sandbox = sandbox
        self._decision_s = decision_ms / 1000
        self._stderr = tempfile.TemporaryFile()
        self._process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._process.stdout, selectors.EVENT_READ)
        self._buffer = b""
        self._draws = random.Random(seed)
        self._next_id = 1
        self._hand = None  # (seed, hand) of the hand being told
        self._told = 0  # events of that hand sent so far
        settings = json.loads(game.settings_json())
        try:
            self._send({
                "type": "hello", "protocol": 1, "game": settings["variant"], "settings": settings, "seat": seat,
                "seats": game.num_players(), "hands": 2**53 - 1, "first_hand": 0, "seed": seed % 2**53,
                "players": [name if s == seat else f"seat-{s}" for s in range(game.num_players())],
                "time": {"startup_ms": startup_ms, "decision_ms": decision_ms, "bank_ms": 0},
            })
            hello = self._read(startup_ms / 1000, "hello")
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                raise self._error(f"its first line is not a hello: {hello!r}")
        except BaseException:
            # No half-started bot is left behind for the garbage collector.
            self._stop()
            self._selector.close()
            self._stderr.close()
            raise

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
        """Ends the match (``match_end``) and the process (the arena's: the bot's whole group)."""
        if self._process.poll() is None:
            try:
                self._send({"type": "match_end", "hands": 0, "totals": [0] * self.game.num_players()})
                self._process.stdin.close()
                # The arena gives the bot half a second to exit, then kills what is left.
                self._process.wait(timeout=2 if self.sandbox is None else 5)
            except (OSError, BotError, subprocess.TimeoutExpired):
                self._stop()
        self._selector.close()
        self._stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def __del__(self):
        if getattr(self, "_process", None) is not None and self._process.poll() is None:
            self._stop()

    def _stop(self):
        """Ends the process now. The arena, on SIGTERM, kills the bot and all it started before
        it exits; SIGKILL is the last resort (the arena's guard process then cleans up)."""
        if self._process.poll() is not None:
            return
        if self.sandbox is not None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
                return
            except subprocess.TimeoutExpired:
                pass
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

    def _settle_stderr(self, quiet_s=0.1, most_s=1.0):
        """Through the arena, stderr is passed on apart from stdout: what the bot wrote there just
        before its last line may arrive a moment after it. Waits until the file has stopped
        growing (for `quiet_s`, at most `most_s`), so that the error shows it."""
        deadline = time.monotonic() + most_s
        size = os.fstat(self._stderr.fileno()).st_size
        while time.monotonic() < deadline:
            time.sleep(quiet_s)
            now = os.fstat(self._stderr.fileno()).st_size
            if now == size:
                return
            size = now

    def _error(self, what):
        if self.sandbox is not None:
            self._settle_stderr()
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - 2000))
        tail = self._stderr.read().decode(errors="replace").strip()
        return BotError(f"{self.name} ({' '.join(self.command)}) {what}" + (f"\nits stderr ends:\n{tail}" if tail else ""))
