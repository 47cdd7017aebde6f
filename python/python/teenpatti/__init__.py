"""Teen Patti (Closest to 555, Lallan Kallan, classic) for game research.

The arena's own rules engine (Rust) behind an OpenSpiel-shaped API:

    import teenpatti
    game = teenpatti.Game("closest-555", 3, boot=1, max_stake=64)
    state = game.new_initial_state(seed=42)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

`teenpatti.pettingzoo.env(...)` and `teenpatti.gym.SingleAgentEnv(...)` are the
environments; `teenpatti.VecGame` steps many games per call; `teenpatti.Policy` plays a
reference bot in process and `teenpatti.Subprocess` any protocol bot program (in the
arena's sandbox, through the `arena` program's `run-bot`);
`teenpatti.serve(policy)` makes a protocol bot of a policy. See python/README.md for the action and observation tables.
"""

from teenpatti._core import (  # noqa: F401
    GAMES,
    SETTING_NAMES,
    TERMINAL,
    Game,
    POLICY_NAMES,
    IllegalActionError,
    Policy,
    State,
    VecGame,
)

from teenpatti.serve import serve  # noqa: E402,F401
from teenpatti.subprocess_bot import BotError, Subprocess  # noqa: E402,F401

# `teenpatti.pettingzoo` and `teenpatti.gym` are imported on demand: they need the optional
# pettingzoo/gymnasium packages, the core does not.
__all__ = [
    "Game",
    "State",
    "VecGame",
    "Policy",
    "Subprocess",
    "BotError",
    "serve",
    "IllegalActionError",
    "GAMES",
    "SETTING_NAMES",
    "POLICY_NAMES",
    "TERMINAL",
]
