//! `teenpatti.Policy`: a reference bot (random, passive, strength, montecarlo) in process, the
//! same Rust code as the bot binaries (`sample_bots::policies`), given exactly the request the
//! arena would send its seat (and, for the bot that follows them, the hand's events as that
//! seat was told them).

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use protocol::{ArenaMessage, Choice, Hello, Request, TimeLimits};
use sample_bots::policies::{MonteCarloBot, PassiveBot, RandomBot, StrengthBot};
use sample_bots::{Bot, Dice};

use crate::errors::IllegalActionError;
use crate::play::Table;
use crate::py_game::Game;
use crate::py_state::State;

/// The reference bots available in process.
pub const POLICY_NAMES: [&str; 4] = ["random", "passive", "strength", "montecarlo"];

/// Arbitrary and fixed: keeps the stream that draws from a mixed answer apart from the one
/// the bot itself draws from the same seed.
const MIX_STREAM: u64 = 0x6d69_785f_6472_6177;

/// A reference bot playing one seat of a table.
#[pyclass(module = "teenpatti._core")]
pub struct Policy {
    name: &'static str,
    bot: Box<dyn Bot + Send + Sync>,
    /// Whether the bot follows the hand's events (strength: its own discards and the refused
    /// sideshows of the hand): before each decision it is told the hand's events so far.
    observes: bool,
    game: sample_bots::Game,
    table: Arc<Table>,
    /// Draws from a mixed answer (montecarlo's): the arena would draw; here the policy does.
    mix_dice: Dice,
    next_id: u64,
}

#[pymethods]
impl Policy {
    /// `Policy("montecarlo", game, seat, seed)`: the bot as if the arena's hello gave it
    /// `seat` and `seed` (the bot's own randomness; the deal is the state's).
    #[new]
    #[pyo3(signature = (name, game, seat, seed=0))]
    fn new(name: &str, game: &Game, seat: usize, seed: u64) -> PyResult<Policy> {
        let table = Arc::clone(&game.table);
        if seat >= table.seats {
            return Err(PyValueError::new_err(format!(
                "seat {seat} does not exist: the seats are 0 to {}",
                table.seats - 1
            )));
        }
        let (name, bot, observes): (&'static str, Box<dyn Bot + Send + Sync>, bool) = match name {
            "random" => ("random", Box::new(RandomBot::new(None)), false),
            "passive" => ("passive", Box::new(PassiveBot), false),
            "strength" => ("strength", Box::new(StrengthBot::new(None)), true),
            "montecarlo" => ("montecarlo", Box::new(MonteCarloBot::new(None)), false),
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown policy {name:?}; the reference bots are {}",
                    POLICY_NAMES.join(", ")
                )));
            }
        };
        let hello = Hello {
            protocol: protocol::PROTOCOL_VERSION,
            game: table.settings.variant,
            settings: table.settings,
            seat,
            seats: table.seats,
            hands: u64::MAX,
            first_hand: 0,
            seed,
            players: POLICY_NAMES
                .iter()
                .cycle()
                .take(table.seats)
                .map(|s| s.to_string())
                .collect(),
            time: TimeLimits {
                startup_ms: 10_000,
                decision_ms: 1_000,
                bank_ms: 10_000,
            },
        };
        Ok(Policy {
            name,
            bot,
            observes,
            game: sample_bots::Game { hello },
            table,
            mix_dice: Dice::new(seed ^ MIX_STREAM),
            next_id: 1,
        })
    }

    /// The action id this bot plays in `state`, whose seat to act must be the bot's.
    fn action(&mut self, state: &State) -> PyResult<usize> {
        let play = &state.play;
        if play.table.settings != self.table.settings || play.table.seats != self.table.seats {
            return Err(PyValueError::new_err(
                "this state is of another table than the policy's game",
            ));
        }
        let seat = self.game.hello.seat;
        let Some(decision) = play.hand.to_act() else {
            return Err(IllegalActionError::new_err(
                "the hand is over: the policy has nothing to decide",
            ));
        };
        if decision.seat != seat {
            return Err(IllegalActionError::new_err(format!(
                "the policy plays seat {seat}, but seat {} is to decide",
                decision.seat
            )));
        }
        if self.observes {
            // The hand's events as the arena would have told this seat, from hand_started on
            // (which starts the bot's notes of the hand afresh, whatever it saw before).
            let blind = play.table.settings.variant.has_blind_play();
            for event in &play.events {
                let message = ArenaMessage::Event {
                    hand: play.hand_index,
                    event: event.for_seat(seat, blind),
                };
                let message = serde_json::to_value(&message).expect("events serialize");
                self.bot.observe(&self.game, &message);
            }
        }
        let request = Request::from_hand(
            &play.hand,
            play.hand_index,
            decision.kind,
            seat,
            self.next_id,
            1_000,
            10_000,
        );
        self.next_id += 1;
        let action = match self.bot.choose(&self.game, &request) {
            Choice::Action(action) => action,
            Choice::Mix(mix) => protocol::mix::pick(&mix, self.mix_dice.unit()),
        };
        let cards = Some(play.hand.cards(seat));
        self.table.space.id(&action, cards).ok_or_else(|| {
            PyValueError::new_err(format!(
                "the {} bot answered {action:?}, which has no id here",
                self.name
            ))
        })
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.name
    }

    #[getter]
    fn seat(&self) -> usize {
        self.game.hello.seat
    }
}
