"""The issue's end-to-end example: a Closest to 555 policy learnt by self-play in plain numpy
(python/examples/learn_closest555.py), served as a protocol bot, graded by `arena tournament`
against the passive and random reference bots (sample-bots/python), and passing both: the
lower end of each 95% interval of its edge above 0."""

import json
import subprocess
import sys

from conftest import REPO

EXAMPLE = REPO / "python" / "examples" / "learn_closest555.py"
BOTS = REPO / "sample-bots" / "python"


def test_a_policy_learnt_by_self_play_beats_passive_and_random_in_an_arena_tournament(arena, tmp_path):
    # The arena runs bots as users of their own: the folder must let them in.
    tmp_path.chmod(0o755)
    policy = tmp_path / "policy.npz"
    # A number of hands, not a time: the same table on every machine (trained for 30 s of CPU,
    # the policy depended on how many hands the machine managed, and once failed on random).
    subprocess.run([sys.executable, str(EXAMPLE), "train", str(policy), "--hands", "300000"], check=True, timeout=1200)
    policy.chmod(0o644)
    tournament = tmp_path / "gauntlet.toml"
    tournament.write_text(f'''
name = "learnt-555"
game = "closest-555"
format = "gauntlet"
candidates = ["learnt"]
seats = 2
hands = 100
rounds = 10
duplicate = true
seed = 20261203

[grading]
pass = {{ random = 0.0, passive = 0.0 }}

[[bot]]
name = "learnt"
command = "{sys.executable} {EXAMPLE} play {policy}"

[[bot]]
name = "random"
command = "python3 {BOTS / 'random_bot.py'}"

[[bot]]
name = "passive"
command = "python3 {BOTS / 'minimal_bot.py'}"
''')
    out = tmp_path / "out"
    result = subprocess.run([arena, "tournament", str(tournament), "--out", str(out)], capture_output=True, text=True, timeout=900)
    grades = json.loads((out / "grades.json").read_text())
    by_opponent = {g["opponent"]: g for g in grades["grades"]}
    summary = {o: (g["estimate"], g["lower"], g["upper"], g["pass"]) for o, g in by_opponent.items()}
    assert set(by_opponent) == {"random", "passive"}, result.stdout + result.stderr
    assert all(g["pass"] and g["lower"] > 0 for g in by_opponent.values()), summary
    assert all(g["blocks"] == 10 for g in by_opponent.values()), summary
