"""PettingZoo AEC environments for the three games: ``teenpatti.pettingzoo.env(game=..., seats=..., **table)``.

Shaped like PettingZoo's classic card games (``texas_holdem_v4``): one episode is one hand;
agents ``player_0 .. player_{N-1}`` are the seats; each observation is
``{"observation": float32 tensor, "action_mask": int8 mask}`` over the table's fixed action
space (python/README.md has both tables); the reward is each seat's net chips when the hand
ends (zero before). ``env()`` wraps the raw environment as the classic games do: an illegal
action ends the hand with ``illegal_reward`` (-1) for the seat that made it and 0 for the others
(PettingZoo's documented convention, ``TerminateIllegalWrapper``). ``raw_env`` raises
``teenpatti.IllegalActionError`` instead.

Seeds: ``reset(seed=s)`` plays hand 0 of the match the arena would deal with ``--seed s``;
``reset()`` without a seed plays the match's next hand.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import teenpatti
from teenpatti._bounds import observation_high


def env(game="closest-555", seats=2, render_mode=None, illegal_reward=-1, **table):
    """The wrapped environment (illegal moves end the hand; see the module's docstring)."""
    raw = raw_env(game=game, seats=seats, render_mode=render_mode, **table)
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's name for the unwrapped class)
    metadata = {"render_modes": ["ansi"], "name": "teenpatti_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game="closest-555", seats=2, render_mode=None, **table):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: the modes are {self.metadata['render_modes']}")
        self.game = teenpatti.Game(game, seats, **table)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self.agents = self.possible_agents[:]
        size = self.game.num_distinct_actions()
        obs = spaces.Box(low=0.0, high=observation_high(self.game), shape=(self.game.observation_tensor_size(),), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._seed = None
        self._hand = 0
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _seat(self, agent):
        return self.possible_agents.index(agent)

    def observe(self, agent):
        seat = self._seat(agent)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self.state.current_player() == seat:
            mask[:] = self.state.legal_actions_mask()
        return {"observation": self.state.observation_tensor(seat), "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed, self._hand = int(seed) % 2**64, 0
        elif self._seed is None:
            # No seed ever given: a match of the operating system's choosing.
            self._seed, self._hand = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]), 0
        else:
            self._hand += 1
        self.state = self.game.new_initial_state(self._seed, self._hand)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def _settle(self):
        """After a deal or an action: the next agent, or the payoffs of a finished hand."""
        if self.state.is_terminal():
            for agent, chips in zip(self.possible_agents, self.state.returns()):
                self.rewards[agent] = chips
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.state.apply(self._seat(agent), int(action))
        for a in self.agents:
            self.rewards[a] = 0
        self._settle()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return str(self.state)

    def close(self):
        pass
