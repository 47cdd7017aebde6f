//! `teenpatti.State`: one hand in play, OpenSpiel's state API over the engine.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use protocol::{ArenaMessage, Request};
use rules::{Action, Event, Hand};

use crate::errors::IllegalActionError;
use crate::observation::HandSeat;
use crate::play::Play;
use crate::py_game::TensorAndMask;

/// One hand in play. Chance (the deal, Closest to 555's draws) is fixed by the seed: the state
/// is never a chance node.
#[pyclass(module = "teenpatti._core")]
#[derive(Clone)]
pub struct State {
    pub play: Play,
}

fn illegal(message: String) -> PyErr {
    IllegalActionError::new_err(message)
}

fn seat_index(play: &Play, seat: i64) -> PyResult<usize> {
    usize::try_from(seat)
        .ok()
        .filter(|&s| s < play.table.seats)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "seat {seat} does not exist: the seats are 0 to {}",
                play.table.seats - 1
            ))
        })
}

/// The protocol's JSON view of `seat`: a `request` line exactly as the arena would send it
/// (id, time and bank 0) when the seat must decide; otherwise the same fields with type
/// `"view"` and no `id`, `kind`, `time_ms`, `bank_ms` (and an empty `legal`).
pub fn view_json(hand: &Hand, hand_index: u64, seat: usize) -> String {
    match hand.to_act() {
        Some(d) if d.seat == seat => {
            ArenaMessage::Request(Request::from_hand(hand, hand_index, d.kind, seat, 0, 0, 0))
                .to_line()
        }
        _ => {
            let request =
                Request::from_hand(hand, hand_index, rules::DecisionKind::Bet, seat, 0, 0, 0);
            let mut value = serde_json::to_value(&request).expect("requests serialize");
            let object = value.as_object_mut().expect("a request is an object");
            for key in ["id", "kind", "time_ms", "bank_ms", "sideshow_from"] {
                object.remove(key);
            }
            let mut out = serde_json::Map::new();
            out.insert("type".into(), "view".into());
            out.extend(std::mem::take(object));
            serde_json::Value::Object(out).to_string()
        }
    }
}

fn events_json(events: &[Event], seat: Option<usize>, blind_start: bool) -> String {
    let shown: Vec<Event> = match seat {
        Some(s) => events.iter().map(|e| e.for_seat(s, blind_start)).collect(),
        None => events.to_vec(),
    };
    serde_json::to_string(&shown).expect("events serialize")
}

#[pymethods]
impl State {
    /// The seat to decide, or -4 (OpenSpiel's terminal id) once the hand is over.
    fn current_player(&self) -> i64 {
        self.play.current_player()
    }

    fn is_terminal(&self) -> bool {
        self.play.hand.is_over()
    }

    /// Always false: the seed fixed every card at the start.
    fn is_chance_node(&self) -> bool {
        false
    }

    /// The legal ids of `player` (the seat to act by default), ascending; empty for a seat
    /// that is not deciding and once the hand is over.
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i64>) -> Vec<usize> {
        match player {
            Some(p) if p != self.play.current_player() => Vec::new(),
            _ => self.play.legal_ids(),
        }
    }

    /// The legal ids of the seat to act as a mask over the whole action space (bool).
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.play.table.space.len()];
        self.play.fill_mask(&self.play.hand.legal_set(), &mut mask);
        mask.into_pyarray(py)
    }

    /// `action_to_string(action)` or OpenSpiel's `action_to_string(player, action)`: the id's
    /// name (`bet 4`; a swap with the card it discards for the seat to act: `swap #1 (Kd)`).
    #[pyo3(signature = (a, b=None))]
    fn action_to_string(&self, a: i64, b: Option<i64>) -> PyResult<String> {
        let action = b.unwrap_or(a);
        let table = &self.play.table;
        let name = usize::try_from(action)
            .ok()
            .and_then(|id| table.space.name(id))
            .ok_or_else(|| {
                illegal(format!(
                    "action {action} is outside this table's action space (0 to {})",
                    table.space.len() - 1
                ))
            })?;
        let seat = self.play.hand.to_act().map(|d| d.seat);
        Ok(match (seat, usize::try_from(action)) {
            (Some(seat), Ok(id))
                if (5..8).contains(&id) && (b.is_none() || Some(a) == Some(seat as i64)) =>
            {
                match self.play.own_cards(seat) {
                    Some(cards) => {
                        format!("{name} ({})", crate::actions::swap_order(cards)[id - 5])
                    }
                    None => name,
                }
            }
            _ => name,
        })
    }

    /// Applies action id `action` for the seat to act. An id outside the space or not legal
    /// now, or a finished hand, raises `IllegalActionError` naming the legal ids.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        self.play.apply(None, action).map_err(illegal)
    }

    /// As `apply_action`, checking that `seat` is the one to decide.
    fn apply(&mut self, seat: i64, action: i64) -> PyResult<()> {
        self.play.apply(Some(seat), action).map_err(illegal)
    }

    /// The id of a protocol answer (`{"action":"bet","amount":4}`, as JSON text) for the seat
    /// to act, or an error if it has none in this table's space.
    fn action_from_json(&self, answer: &str) -> PyResult<usize> {
        let action: Action = serde_json::from_str(answer)
            .map_err(|e| PyValueError::new_err(format!("not a protocol action: {e}: {answer}")))?;
        let cards = self
            .play
            .hand
            .to_act()
            .map(|d| self.play.hand.cards(d.seat));
        self.play
            .table
            .space
            .id(&action, cards)
            .ok_or_else(|| illegal(format!("{answer} has no id in this table's action space")))
    }

    /// Net chips per seat (sum zero) once the hand is over; zeros before.
    fn returns(&self) -> Vec<f64> {
        match self.play.hand.payoffs() {
            Some(p) => p.iter().map(|&c| c as f64).collect(),
            None => vec![0.0; self.play.table.seats],
        }
    }

    /// The seat's private observation as the protocol's JSON (see `view_json` in the docs).
    fn observation_json(&self, seat: i64) -> PyResult<String> {
        let seat = seat_index(&self.play, seat)?;
        Ok(view_json(&self.play.hand, self.play.hand_index, seat))
    }

    /// PettingZoo's observation of `seat` in one call: (tensor, int8 mask), the mask all zero
    /// unless the seat is the one to decide.
    fn observe<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<TensorAndMask<'py, i8>> {
        let seat = seat_index(&self.play, seat)?;
        let hand = &self.play.hand;
        let mut tensor = vec![0.0; self.play.table.layout.len()];
        self.play
            .table
            .layout
            .encode(&HandSeat { hand, seat }, &mut tensor);
        let mut mask = vec![false; self.play.table.space.len()];
        if hand.to_act().is_some_and(|d| d.seat == seat) {
            self.play
                .table
                .space
                .fill_mask(hand.legal_set().iter(), &mut mask);
        }
        let mask: Vec<i8> = mask.into_iter().map(i8::from).collect();
        Ok((tensor.into_pyarray(py), mask.into_pyarray(py)))
    }

    /// The seat's private observation as the fixed-size float32 tensor (`Game.observation_fields`).
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        seat: i64,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = seat_index(&self.play, seat)?;
        let mut out = vec![0.0; self.play.table.layout.len()];
        let hand = &self.play.hand;
        self.play
            .table
            .layout
            .encode(&HandSeat { hand, seat }, &mut out);
        Ok(out.into_pyarray(py))
    }

    /// The action ids applied so far, in order (OpenSpiel's `history()`): a new state from the
    /// same seed and hand with these applied is this state again.
    fn history(&self) -> Vec<usize> {
        self.play.history.iter().map(|&(_, id)| id).collect()
    }

    /// (seat, action id) of every decision so far.
    fn full_history(&self) -> Vec<(usize, usize)> {
        self.play.history.clone()
    }

    /// The hand's events as dicts, as the arena's replay records them (every card), or as
    /// `seat` was told them (its hidden cards removed), as a bot receives them.
    #[pyo3(signature = (seat=None))]
    fn events<'py>(&self, py: Python<'py>, seat: Option<i64>) -> PyResult<Bound<'py, PyList>> {
        let seat = seat.map(|s| seat_index(&self.play, s)).transpose()?;
        let blind = self.play.table.settings.variant.has_blind_play();
        let text = events_json(&self.play.events, seat, blind);
        py.import("json")?
            .call_method1("loads", (text,))?
            .cast_into::<PyList>()
            .map_err(Into::into)
    }

    /// All-knowing: the seat's current cards (for analysis and tests; no seat sees this).
    fn cards(&self, seat: i64) -> PyResult<Vec<String>> {
        let seat = seat_index(&self.play, seat)?;
        Ok(self
            .play
            .hand
            .cards(seat)
            .iter()
            .map(|c| c.to_string())
            .collect())
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.play.seed
    }

    #[getter]
    fn hand(&self) -> u64 {
        self.play.hand_index
    }

    #[getter]
    fn dealer(&self) -> usize {
        self.play.hand.dealer()
    }

    #[getter]
    fn pot(&self) -> u64 {
        self.play.hand.pot()
    }

    #[getter]
    fn stake(&self) -> u64 {
        self.play.hand.stake()
    }

    fn clone(&self) -> State {
        Clone::clone(self)
    }

    fn __copy__(&self) -> State {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        Clone::clone(self)
    }

    /// The table as the arena prints it: pot, stake, each seat's state; no hidden card.
    fn __str__(&self) -> String {
        crate::render::render(&self.play)
    }
}
