"""PettingZoo AEC environments for the three games: ``teenpatti.pettingzoo.env(game=..., seats=..., **table)``.

Shaped like PettingZoo's classic card games (``texas_holdem_v4``): one episode is one hand;
agents ``player_0 .. player_{N-1}`` are the seats; each observation is
``{"observation": float32 tensor, "action_mask": int8 mask}`` over the table's fixed action
space (python/README.md has both tables); the reward is each seat's net chips when the hand
ends (zero before).

Illegal moves: ``env()`` follows PettingZoo's documented convention for the classic games (its
``TerminateIllegalWrapper``): an illegal action ends the hand with ``illegal_reward`` (-1) for
the seat that made it and 0 for the others, with a warning. It is built into the environment
rather than stacked as PettingZoo's wrappers (order enforcing, bounds, illegal moves), whose
attribute forwarding cost more than the game itself (BENCHMARKS.md); the behaviour is theirs.
``raw_env`` raises ``teenpatti.IllegalActionError`` instead.

Seeds: ``reset(seed=s)`` plays hand 0 of the match the arena would deal with ``--seed s``;
``reset()`` without a seed plays the match's next hand.
"""

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import teenpatti
from teenpatti._bounds import observation_high


def env(game="closest-555", seats=2, render_mode=None, illegal_reward=-1, **table):
    """The environment with PettingZoo's illegal-move convention (see the module's docstring)."""
    return raw_env(game=game, seats=seats, render_mode=render_mode, illegal_reward=illegal_reward, **table)


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's name for the unwrapped class)
    metadata = {"render_modes": ["ansi"], "name": "teenpatti_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game="closest-555", seats=2, render_mode=None, illegal_reward=None, **table):
        """``illegal_reward=None``: an illegal action raises; a number: it ends the hand with
        that reward for the offender (``env()`` passes -1)."""
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: the modes are {self.metadata['render_modes']}")
        self.game = teenpatti.Game(game, seats, **table)
        self.render_mode = render_mode
        self._illegal_reward = illegal_reward
        self.possible_agents = [f"player_{i}" for i in range(seats)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        size = self.game.num_distinct_actions()
        obs = spaces.Box(low=0.0, high=observation_high(self.game), shape=(self.game.observation_tensor_size(),), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._size = size
        self._seed = None
        self._hand = 0
        self.state = None
        self._illegal_end = False

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        if self.state is None:
            raise RuntimeError("observe() before reset(): call env.reset() first")
        tensor, mask = self.state.observe(self._seats[agent])
        if self._illegal_end:
            mask[:] = 0
        return {"observation": tensor, "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed, self._hand = int(seed) % 2**64, 0
        elif self._seed is None:
            # No seed ever given: a match of the operating system's choosing.
            self._seed, self._hand = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]), 0
        else:
            self._hand += 1
        self.state = self.game.new_initial_state(self._seed, self._hand)
        self._illegal_end = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._settle()

    def _settle(self):
        """After a deal or an action: the next agent, or the payoffs of a finished hand."""
        player = self.state.current_player()
        if player < 0:
            for agent, chips in zip(self.possible_agents, self.state.returns()):
                self.rewards[agent] = chips
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[player]

    def step(self, action):
        if self.state is None:
            raise RuntimeError("step() before reset(): call env.reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        for a in self.agents:
            self.rewards[a] = 0
        try:
            self.state.apply(self._seats[agent], int(action))
        except teenpatti.IllegalActionError as error:
            if self._illegal_reward is None:
                raise
            self._end_illegal(agent, error)
            return
        self._settle()
        self._accumulate_rewards()

    def _end_illegal(self, agent, error):
        # TerminateIllegalWrapper's behaviour: everyone terminated, the offender punished.
        gymnasium.logger.warn(f"[WARNING]: Illegal move made, game terminating with current player losing. ({error})")
        self._illegal_end = True
        self.terminations = {a: True for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.rewards = {a: 0 for a in self.agents}
        self.rewards[agent] = float(self._illegal_reward)
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return str(self.state)

    def close(self):
        pass
