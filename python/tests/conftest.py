"""Shared fixtures: the arena and reference bot binaries the tests run against (built by
scripts/test; `cargo build --bins -p arena -p sample-bots` by hand), and random play."""

import os
import pathlib
import random
import shutil
import stat
import tempfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))


def _binary(name):
    path = TARGET / "debug" / name
    if not path.exists():
        pytest.fail(f"{path} is missing: build it with `cargo build --bins -p arena -p sample-bots`")
    return str(path)


@pytest.fixture(scope="session")
def arena():
    return _binary("arena")


@pytest.fixture(scope="session")
def random_bot():
    return _binary("random-bot")


def _others_can_reach(path):
    """Every folder above `path` lets other users through."""
    return all(p.stat().st_mode & stat.S_IXOTH for p in path.resolve().parents)


@pytest.fixture
def bot_dir():
    """A folder for bot files that a bot's own user can read. Under root the arena runs a bot
    as a uid of its own, and pytest's tmp_path (in a 0700 folder) is out of its reach: this
    one is under the target directory (or /var/tmp when that is private), mode 0755, as the
    arena's own tests do."""
    parent = TARGET if TARGET.is_dir() and _others_can_reach(TARGET / "x") else pathlib.Path("/var/tmp")
    path = pathlib.Path(tempfile.mkdtemp(prefix="pytest-bots-", dir=parent))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def random_states(game, hands, seed=0, every_step=True):
    """States of `hands` random hands of `game` (a teenpatti.Game), at every decision and at
    the end (or at the end only), with uniformly random legal actions."""
    rng = random.Random(seed)
    for hand in range(hands):
        state = game.new_initial_state(seed=seed * 1_000_003 + hand, hand=hand)
        while not state.is_terminal():
            if every_step:
                yield state
            state.apply_action(rng.choice(state.legal_actions()))
        yield state
