"""A Gymnasium single-agent environment: one seat learns, the others are reference bots played
in process (by name: ``"random"``, ``"passive"``, ``"strength"``, ``"montecarlo"``, or a
``teenpatti.Policy``: the same Rust code as the arena's bot binaries), protocol bot programs
(``teenpatti.Subprocess`` of their seat), or Python policies ``policy(observation,
action_mask) -> id`` (a frozen copy of the learner, for self-play), given their own seat's
view.

    env = teenpatti.gym.SingleAgentEnv("closest-555", seats=2, opponents="random")

One episode is one hand. The observation is the seat's float32 tensor; ``info["action_mask"]``
is its legal actions (int8) at every step. The reward is the seat's net chips when the hand
ends. An illegal action ends the hand with reward ``illegal_reward`` (-1) and
``info["illegal_action"]`` saying why, as PettingZoo's classic games do (so that
``gymnasium.utils.env_checker.check_env``'s random actions are well defined); pass
``illegal="raise"`` to get ``teenpatti.IllegalActionError`` instead.

A hand that ends before the seat has anything to decide (everyone else packed first; a dead
hand in Lallan Kallan) is not an episode: ``reset`` deals on, and ``info["skipped_chips"]``
adds up what the seat won or lost in such hands (for honest accounting).
"""

import gymnasium
import numpy as np
from gymnasium import spaces

import teenpatti
from teenpatti._bounds import observation_high


class SingleAgentEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game="closest-555", seats=2, seat=0, opponents="random", render_mode=None,
                 illegal="terminate", illegal_reward=-1.0, **table):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: the modes are {self.metadata['render_modes']}")
        if illegal not in ("terminate", "raise"):
            raise ValueError(f"illegal={illegal!r}: expected 'terminate' or 'raise'")
        self.game = teenpatti.Game(game, seats, **table)
        if not 0 <= seat < seats:
            raise ValueError(f"seat {seat} does not exist: the seats are 0 to {seats - 1}")
        others = [s for s in range(seats) if s != seat]
        if isinstance(opponents, str):
            opponents = [opponents] * len(others)
        if len(opponents) != len(others):
            raise ValueError(f"{len(opponents)} opponents for {len(others)} other seats")
        for name in opponents:
            if not callable(name) and not hasattr(name, "action") and name not in teenpatti.POLICY_NAMES:
                raise ValueError(f"unknown opponent {name!r}; the reference bots are {', '.join(teenpatti.POLICY_NAMES)}, "
                                 "or pass a callable policy(observation, action_mask) -> id")
        self.seat, self.render_mode = seat, render_mode
        self._names = dict(zip(others, opponents))
        self._illegal, self._illegal_reward = illegal, float(illegal_reward)
        size = self.game.num_distinct_actions()
        self.action_space = spaces.Discrete(size)
        self.observation_space = spaces.Box(low=0.0, high=observation_high(self.game), shape=(self.game.observation_tensor_size(),), dtype=np.float32)
        self._seed, self._hand, self.state, self._policies = None, 0, None, {}

    def _new_policies(self):
        # Each opponent's own randomness is fixed by the match seed and its seat.
        self._policies = {s: self._opponent(name, s) for s, name in self._names.items()}

    def _opponent(self, name, seat):
        """A function from a state to the opponent's action id."""
        if hasattr(name, "action"):  # a teenpatti.Policy or Subprocess of that seat
            if name.seat != seat:
                raise ValueError(f"the opponent for seat {seat} plays seat {name.seat}")
            return name.action
        if callable(name):
            def act(state):
                tensor, mask = state.observe(seat)
                return int(name(tensor, mask.astype(bool)))

            return act
        return teenpatti.Policy(name, self.game, seat, seed=(self._seed * 31 + seat) % 2**64).action

    def _opponents_play(self):
        state = self.state
        while not state.is_terminal() and state.current_player() != self.seat:
            state.apply_action(self._policies[state.current_player()](state))

    def _tell_the_end(self):
        # Protocol bots (teenpatti.Subprocess) hear the rest of a finished hand, as in the arena.
        for opponent in self._names.values():
            if hasattr(opponent, "observe"):
                opponent.observe(self.state)

    def _mask(self):
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self.state.is_terminal():
            mask[:] = self.state.legal_actions_mask()
        return mask

    def _obs(self):
        return self.state.observation_tensor(self.seat)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._hand = int(seed) % 2**64, 0
            self._new_policies()
        elif self._seed is None:
            self._seed, self._hand = int(self.np_random.integers(0, 2**63)), 0
            self._new_policies()
        else:
            self._hand += 1
        skipped = 0.0
        while True:
            self.state = self.game.new_initial_state(self._seed, self._hand)
            self._opponents_play()
            if not self.state.is_terminal():
                break
            self._tell_the_end()
            skipped += self.state.returns()[self.seat]
            self._hand += 1
        return self._obs(), {"action_mask": self._mask(), "skipped_chips": skipped, "hand": self._hand}

    def step(self, action):
        try:
            self.state.apply(self.seat, int(action))
        except teenpatti.IllegalActionError as error:
            if self._illegal == "raise":
                raise
            info = {"action_mask": np.zeros(self.game.num_distinct_actions(), dtype=np.int8), "illegal_action": str(error)}
            return self._obs(), self._illegal_reward, True, False, info
        self._opponents_play()
        done = self.state.is_terminal()
        if done:
            self._tell_the_end()
        reward = float(self.state.returns()[self.seat]) if done else 0.0
        return self._obs(), reward, done, False, {"action_mask": self._mask()}

    def render(self):
        if self.render_mode == "ansi":
            return str(self.state)
        return None
