//! `teenpatti.VecGame`: N hands of one table stepped together, one action per hand per call,
//! with numpy arrays in and out and a new hand dealt as soon as one ends (EnvPool's shape, in
//! one thread: the caller's core).

use std::sync::Arc;

use numpy::{AllowTypeChange, PyArray1, PyArray2, PyArrayLike1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use rules::{Event, Hand};

use crate::errors::IllegalActionError;
use crate::observation::HandSeat;
use crate::play::{self, TERMINAL, Table};
use crate::py_game::table_from;

/// The most games one batch holds (about 1 GB of hands).
const MAX_ENVS: usize = 1 << 20;

/// One game of the batch: its match seed and the next hand to deal.
struct Slot {
    hand: Hand,
    seed: u64,
    next_hand: u64,
}

/// N games stepped together.
#[pyclass(module = "teenpatti._core")]
pub struct VecGame {
    table: Arc<Table>,
    slots: Vec<Slot>,
    /// The engine's events of a step, dropped at once (reused: no allocation per step).
    events: Vec<Event>,
    /// Hands finished since `reset`.
    hands_done: u64,
}

/// A step's (observations, masks, players, rewards, dones).
type StepArrays<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

/// (observations, masks, players).
type Arrays<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray1<i64>>,
);

impl VecGame {
    /// Deals slot `i`'s next hands until one needs a decision; adds the chips of hands the
    /// deal settled on its own (a Lallan Kallan lone survivor) to `reward`. Returns whether
    /// any hand ended.
    fn deal(&mut self, i: usize, mut reward: Option<&mut [f32]>) -> bool {
        let table = &self.table;
        let slot = &mut self.slots[i];
        let mut ended = false;
        loop {
            let h = slot.next_hand;
            slot.next_hand += 1;
            self.events.clear();
            let dealer = (h % table.seats as u64) as usize;
            slot.hand = Hand::seeded_into(
                table.settings,
                table.seats,
                dealer,
                slot.seed,
                h,
                &mut self.events,
            )
            .expect("the table was validated when it was made");
            match slot.hand.payoffs() {
                None => return ended,
                Some(payoffs) => {
                    ended = true;
                    self.hands_done += 1;
                    if let Some(reward) = reward.as_deref_mut() {
                        for (r, &p) in reward.iter_mut().zip(payoffs) {
                            *r += p as f32;
                        }
                    }
                }
            }
        }
    }

    /// The observation, mask and player of every slot, into new arrays.
    fn arrays<'py>(&self, py: Python<'py>) -> Arrays<'py> {
        let n = self.slots.len();
        let (d, a) = (self.table.layout.len(), self.table.space.len());
        let obs = PyArray2::<f32>::zeros(py, [n, d], false);
        let mask = PyArray2::<bool>::zeros(py, [n, a], false);
        let player = PyArray1::<i64>::zeros(py, n, false);
        {
            // Fresh arrays of our own, C-contiguous, not shared with anyone yet.
            let mut obs_rw = obs.readwrite();
            let mut mask_rw = mask.readwrite();
            let mut player_rw = player.readwrite();
            let obs_s = obs_rw.as_slice_mut().expect("contiguous");
            let mask_s = mask_rw.as_slice_mut().expect("contiguous");
            let player_s = player_rw.as_slice_mut().expect("contiguous");
            for (i, slot) in self.slots.iter().enumerate() {
                let Some(decision) = slot.hand.to_act() else {
                    player_s[i] = TERMINAL;
                    continue;
                };
                player_s[i] = decision.seat as i64;
                let seen = HandSeat {
                    hand: &slot.hand,
                    seat: decision.seat,
                };
                self.table
                    .layout
                    .encode(&seen, &mut obs_s[i * d..(i + 1) * d]);
                self.table.space.fill_mask(
                    slot.hand.legal_set().iter(),
                    &mut mask_s[i * a..(i + 1) * a],
                );
            }
        }
        (obs, mask, player)
    }
}

#[pymethods]
impl VecGame {
    /// `num_envs` games of `game` at `seats` seats. Game `i` plays the hands of a match seeded
    /// `seed + i` in order (hand 0, 1, ...: the arena's deals for that seed).
    #[new]
    #[pyo3(signature = (game, seats, num_envs, seed=0, **table))]
    fn new(
        game: &str,
        seats: i64,
        num_envs: usize,
        seed: u64,
        table: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VecGame> {
        // A failed allocation aborts the process, interpreter and all: refuse sizes that could.
        if !(1..=MAX_ENVS).contains(&num_envs) {
            return Err(PyValueError::new_err(format!(
                "num_envs must be from 1 to {MAX_ENVS}, not {num_envs}"
            )));
        }
        let table = table_from(game, seats, table)?;
        let mut batch = VecGame {
            slots: (0..num_envs)
                .map(|i| Slot {
                    hand: play::Play::new(&table, 0, 0).hand,
                    seed: seed.wrapping_add(i as u64),
                    next_hand: 0,
                })
                .collect(),
            table,
            events: Vec::new(),
            hands_done: 0,
        };
        batch.restart(None);
        Ok(batch)
    }

    /// Starts every game again from its first hand (with `seed`, seeds `seed + i`, if given).
    /// Returns (observations [N, D] float32, masks [N, A] bool, players [N] int64): the seat
    /// to decide in each game and its view.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> Arrays<'py> {
        self.restart(seed);
        self.arrays(py)
    }

    /// Applies `actions[i]` (an id) for the seat to decide in game `i`, for every game. Every
    /// action is checked before any is applied: an illegal one raises `IllegalActionError`
    /// naming the game, and no game moves. Returns (observations, masks, players, rewards
    /// [N, seats] float32: the net chips of the hands that ended in this step, dones [N] bool:
    /// a hand ended; the game is already in its next hand, whose view the observation is).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyArrayLike1<'py, i64, AllowTypeChange>,
    ) -> PyResult<StepArrays<'py>> {
        let actions = actions.as_slice()?;
        let n = self.slots.len();
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "expected {n} actions (one per game), got {}",
                actions.len()
            )));
        }
        let mut chosen = Vec::with_capacity(n);
        for (i, (slot, &id)) in self.slots.iter().zip(actions).enumerate() {
            let (seat, idx) = play::check(&self.table, &slot.hand, None, id)
                .map_err(|e| IllegalActionError::new_err(format!("game {i}: {e}")))?;
            let action = play::action_of(&self.table, &slot.hand, seat, idx)
                .map_err(|e| IllegalActionError::new_err(format!("game {i}: {e}")))?;
            if !slot.hand.legal_set().iter().any(|l| l.allows(&action)) {
                // Only on this error path: the engine's own reason, from a copy.
                let why = slot
                    .hand
                    .clone()
                    .apply(seat, action)
                    .err()
                    .map(|e| e.to_string())
                    .unwrap_or_default();
                return Err(IllegalActionError::new_err(format!(
                    "game {i}: {}",
                    play::refusal(&self.table, &slot.hand, idx, &why)
                )));
            }
            chosen.push((seat, action));
        }
        let seats = self.table.seats;
        let mut rewards = vec![0.0f32; n * seats];
        let mut dones = vec![false; n];
        for (i, (seat, action)) in chosen.into_iter().enumerate() {
            self.events.clear();
            let slot = &mut self.slots[i];
            slot.hand
                .apply_into(seat, action, &mut self.events)
                .expect("checked above");
            if let Some(payoffs) = slot.hand.payoffs() {
                let reward = &mut rewards[i * seats..(i + 1) * seats];
                for (r, &p) in reward.iter_mut().zip(payoffs) {
                    *r = p as f32;
                }
                self.hands_done += 1;
                dones[i] = true;
                self.deal(i, Some(reward));
            }
        }
        let (obs, mask, player) = self.arrays(py);
        let rewards = PyArray1::from_vec(py, rewards).reshape([n, seats])?;
        Ok((obs, mask, player, rewards, PyArray1::from_vec(py, dones)))
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    fn num_distinct_actions(&self) -> usize {
        self.table.space.len()
    }

    fn observation_tensor_size(&self) -> usize {
        self.table.layout.len()
    }

    /// Hands finished since the last reset (those the deal settled included).
    #[getter]
    fn hands_done(&self) -> u64 {
        self.hands_done
    }

    /// Bytes of state per game (the engine's hand and the slot's seed and counter; the
    /// arrays returned by a step are the caller's and not counted).
    #[staticmethod]
    fn bytes_per_game() -> usize {
        std::mem::size_of::<Slot>()
    }
}

impl VecGame {
    fn restart(&mut self, seed: Option<u64>) {
        self.hands_done = 0;
        for i in 0..self.slots.len() {
            if let Some(seed) = seed {
                self.slots[i].seed = seed.wrapping_add(i as u64);
            }
            self.slots[i].next_hand = 0;
            self.deal(i, None);
        }
    }
}
