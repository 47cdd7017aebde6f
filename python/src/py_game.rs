//! `teenpatti.Game`: a table, its action space and tensor layout, and the states it deals.
//! Also what `serve` needs from a table: a protocol request read as the seat's tensor and
//! mask, and an action id written as the answer.

use std::sync::Arc;

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};

use protocol::Request;

use crate::errors::IllegalActionError;
use crate::observation::RequestSeat;
use crate::play::{Play, Table};
use crate::py_state::State;
use crate::table::{self, Value};

/// A seat's observation tensor and its action mask.
pub type TensorAndMask<'py, M> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<M>>);

/// The table from `Game(game, seats, **table)`'s arguments.
pub fn table_from(
    game: &str,
    seats: i64,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<Arc<Table>> {
    let seats = usize::try_from(seats).map_err(|_| {
        PyValueError::new_err(format!("seats must be a positive number, not {seats}"))
    })?;
    let mut overrides = Vec::new();
    if let Some(settings) = settings {
        for (name, value) in settings.iter() {
            let name: String = name.extract()?;
            let value = if value.is_instance_of::<PyBool>() {
                Value::Bool(value.extract()?)
            } else if let Ok(n) = value.extract::<i64>() {
                Value::Int(i128::from(n))
            } else if let Ok(t) = value.extract::<String>() {
                Value::Text(t)
            } else {
                return Err(PyValueError::new_err(format!(
                    "setting {name}: expected a whole number, a bool or a string, got {}",
                    value.repr()?
                )));
            };
            overrides.push((name, value));
        }
    }
    let settings = table::settings(game, seats, &overrides).map_err(PyValueError::new_err)?;
    Table::new(settings, seats).map_err(PyValueError::new_err)
}

/// A game at a table: `Game("closest-555", 3, boot=2)`.
#[pyclass(module = "teenpatti._core", frozen)]
pub struct Game {
    pub table: Arc<Table>,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (game, seats, **table))]
    fn new(game: &str, seats: i64, table: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
        Ok(Game {
            table: table_from(game, seats, table)?,
        })
    }

    /// Hand `hand` of a match played with `seed`: the arena's deal for it
    /// (`arena match --seed SEED`), dealt by seat `hand mod seats`.
    #[pyo3(signature = (seed=0, hand=0))]
    fn new_initial_state(&self, seed: u64, hand: u64) -> State {
        State {
            play: Play::new(&self.table, seed, hand),
        }
    }

    fn num_players(&self) -> usize {
        self.table.seats
    }

    /// The size of the fixed action space (see `action_to_string`).
    fn num_distinct_actions(&self) -> usize {
        self.table.space.len()
    }

    fn observation_tensor_size(&self) -> usize {
        self.table.layout.len()
    }

    fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![self.table.layout.len()]
    }

    /// The tensor's fields in order: (name, offset, size).
    fn observation_fields(&self) -> Vec<(&'static str, usize, usize)> {
        self.table.layout.fields()
    }

    /// Every bet amount the space holds, ascending: action `10 + k` bets `bet_amounts()[k]`.
    fn bet_amounts(&self) -> Vec<u64> {
        self.table.space.amounts().to_vec()
    }

    /// The id's name (`pack`, `bet 4`, `swap #0`).
    fn action_to_string(&self, action: i64) -> PyResult<String> {
        usize::try_from(action)
            .ok()
            .and_then(|id| self.table.space.name(id))
            .ok_or_else(|| {
                IllegalActionError::new_err(format!(
                    "action {action} is outside this table's action space (0 to {})",
                    self.table.space.len() - 1
                ))
            })
    }

    /// A protocol request line as a bot receives it (for `serve`) turned into the seat's
    /// (tensor, mask): the same numbers `State.observation_tensor` and
    /// `State.legal_actions_mask` give in that position.
    fn request_observation<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
        request: &str,
    ) -> PyResult<TensorAndMask<'py, bool>> {
        let request = read_request(request)?;
        check_request(&self.table, seat, &request)?;
        let mut tensor = vec![0.0; self.table.layout.len()];
        let seen = RequestSeat {
            request: &request,
            seat,
        };
        self.table.layout.encode(&seen, &mut tensor);
        let mut mask = vec![false; self.table.space.len()];
        self.table.space.fill_mask(request.legal.iter(), &mut mask);
        Ok((tensor.into_pyarray(py), mask.into_pyarray(py)))
    }

    /// The answer line (no newline) that plays action id `action` in this request: its `id`
    /// and the protocol action (a swap names the card of that rank in card-index order).
    fn answer(&self, request: &str, action: i64) -> PyResult<String> {
        let request = read_request(request)?;
        let chosen = usize::try_from(action)
            .ok()
            .and_then(|id| self.table.space.action(id, request.cards))
            .ok_or_else(|| {
                IllegalActionError::new_err(format!(
                    "action {action} is not in this table's action space (0 to {}) for this request",
                    self.table.space.len() - 1
                ))
            })?;
        if !request.legal.iter().any(|l| l.allows(&chosen)) {
            let legal = self.table.space.legal_ids(request.legal.iter());
            return Err(IllegalActionError::new_err(format!(
                "action {action} ({}) is not legal in request {}; legal: {}",
                self.table.space.name(action as usize).unwrap_or_default(),
                request.id,
                self.table.listing(&legal)
            )));
        }
        let answer = protocol::Answer {
            id: request.id,
            action: chosen,
        };
        Ok(serde_json::to_string(&answer).expect("answers serialize"))
    }

    /// The engine's value of a three-card hand in this game and sequence order (higher is
    /// better, equal is an exact tie; a dead Lallan Kallan hand is 0): `["5s", "5h", "4d"]`.
    fn hand_value(&self, cards: Vec<String>) -> PyResult<u32> {
        let parsed: Vec<rules::Card> = cards
            .iter()
            .map(|c| {
                c.parse()
                    .map_err(|e: rules::ParseCardError| PyValueError::new_err(e.to_string()))
            })
            .collect::<PyResult<_>>()?;
        let hand: [rules::Card; 3] = parsed.try_into().map_err(|_| {
            PyValueError::new_err(format!("a hand is three cards, not {}", cards.len()))
        })?;
        if hand[0] == hand[1] || hand[0] == hand[2] || hand[1] == hand[2] {
            return Err(PyValueError::new_err(format!("a card twice in {cards:?}")));
        }
        let s = &self.table.settings;
        Ok(rules::hand_value(s.variant, s.sequence_order, &hand).key())
    }

    /// The game's name (`closest-555`).
    #[getter]
    fn game(&self) -> &'static str {
        self.table.settings.variant.name()
    }

    /// The table's settings as the protocol's hello carries them (JSON).
    fn settings_json(&self) -> String {
        serde_json::to_string(&self.table.settings).expect("settings serialize")
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, {}, {})",
            self.table.settings.variant.name(),
            self.table.seats,
            self.settings_json()
        )
    }
}

fn read_request(line: &str) -> PyResult<Request> {
    serde_json::from_str(line)
        .map_err(|e| PyValueError::new_err(format!("not a protocol request: {e}")))
}

/// A request fits this table and seat (the tensor indexes its players by seat).
fn check_request(table: &Table, seat: usize, request: &Request) -> PyResult<()> {
    if seat >= table.seats || request.players.len() != table.seats {
        return Err(PyValueError::new_err(format!(
            "the request is for a table of {} seats (seat {seat}); this game has {}",
            request.players.len(),
            table.seats
        )));
    }
    Ok(())
}
