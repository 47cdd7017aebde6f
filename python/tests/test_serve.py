"""A Python policy served as a protocol bot: what it sees is what the state API gives, and the
arena's own check-bot passes it."""

import io
import json
import subprocess
import sys

import numpy as np

import teenpatti
from conftest import REPO, random_states


def test_a_request_gives_the_states_tensor_and_mask():
    for name, seats in [("classic", 3), ("closest-555", 4), ("lallan-kallan", 5)]:
        game = teenpatti.Game(name, seats)
        for state in random_states(game, 40, seed=3):
            if state.is_terminal():
                continue
            seat = state.current_player()
            tensor, mask = game.request_observation(seat, state.observation_json(seat))
            np.testing.assert_array_equal(tensor, state.observation_tensor(seat))
            np.testing.assert_array_equal(mask, state.legal_actions_mask())


def test_serve_answers_each_request_and_survives_a_failing_policy():
    game = teenpatti.Game("closest-555", 2)
    state = game.new_initial_state(seed=1)
    seat = state.current_player()
    settings = json.loads(game.settings_json())
    hello = {"type": "hello", "protocol": 1, "game": "closest-555", "settings": settings, "seat": seat, "seats": 2,
             "hands": 1, "first_hand": 0, "seed": 0, "players": ["a", "b"], "time": {"startup_ms": 1, "decision_ms": 1, "bank_ms": 1}}
    request = json.loads(state.observation_json(seat))
    request["id"] = 5
    lines = [json.dumps(hello), json.dumps(request), json.dumps(dict(request, id=6)), '{"type":"match_end","hands":1,"totals":[0,0]}']
    calls = []

    def policy(observation, mask):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("a bug in the policy")
        return int(np.flatnonzero(mask)[-1])  # the last legal: swap #2, the highest card

    out = io.StringIO()
    teenpatti.serve(policy, name="t", stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0]["type"] == "hello" and answers[0]["name"] == "t"
    # Swap #2 is the highest of the seat's cards in card-index order (rank, then suit c d h s).
    highest = max(state.cards(seat), key=lambda c: ("23456789TJQKA".index(c[0]), "cdhs".index(c[1])))
    assert answers[1] == {"id": 5, "action": "swap", "card": highest}
    assert answers[2] == {"id": 6, "action": "keep"}, "a failing policy gets the safe answer"


def test_arena_check_bot_passes_a_served_policy(arena, tmp_path):
    # The arena runs the bot as a user of its own: its folder must let others in.
    tmp_path.chmod(0o755)
    bot = tmp_path / "bot.py"
    bot.write_text(
        "import numpy as np, teenpatti\n"
        "rng = np.random.default_rng(0)\n"
        "teenpatti.serve(lambda obs, mask: int(rng.choice(np.flatnonzero(mask))), name='random-numpy')\n"
    )
    result = subprocess.run([arena, "check-bot", "--", sys.executable, str(bot)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 failed" in result.stdout and "sideshow_reply decisions" in result.stdout
    example = REPO / "python" / "examples" / "first_legal_bot.py"
    result = subprocess.run([arena, "check-bot", "--game", "closest-555", "--", sys.executable, str(example)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
