//! What grading keeps of a played grading match besides its replay: every hand's actions
//! (the copy check compares them between bots on the same deals) and each seat's first fault
//! (a student's fault fails the grade with the bot's own error; a reference's pauses it).
//! Made by the worker from the replay it just played, stored with the result.

use arena::replay::Record;
use serde::{Deserialize, Serialize};

/// One action: the seat and the action as the replay wrote it (its JSON).
pub type Move = (usize, String);

/// The copy check compares the first hands of each match, and each hand up to a number of
/// actions: enough decisions to tell a copy (the check wants 30 in all, a class's blocks give
/// thousands), and a bounded row. Two passive bots bet the minimum until a hand's turn limit:
/// unbounded, one 100-hand match of them stored 700 KB of moves.
pub const MOVES_HANDS: u64 = 20;
pub const MOVES_PER_HAND: usize = 48;

/// A seat's first fault.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatFault {
    pub seat: usize,
    /// Counted from 0, as in replays.
    pub hand: u64,
    /// `timeout`, `crashed`, `illegal`, ...
    pub fault: String,
    pub detail: String,
}

/// A grading match's summary.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The actions of each hand in order, hands in order.
    pub moves: Vec<Vec<Move>>,
    pub faults: Vec<SeatFault>,
}

impl Summary {
    /// From a replay's records.
    pub fn of(records: &[Record]) -> Summary {
        let mut summary = Summary::default();
        for record in records {
            match record {
                Record::Action {
                    hand, seat, action, ..
                } if *hand < MOVES_HANDS => {
                    let hand = *hand as usize;
                    if summary.moves.len() <= hand {
                        summary.moves.resize(hand + 1, Vec::new());
                    }
                    if summary.moves[hand].len() < MOVES_PER_HAND {
                        let text = serde_json::to_string(action).unwrap_or_default();
                        summary.moves[hand].push((*seat, text));
                    }
                }
                Record::Fault {
                    hand,
                    seat,
                    fault,
                    detail,
                    ..
                } if !summary.faults.iter().any(|f| f.seat == *seat) => {
                    summary.faults.push(SeatFault {
                        seat: *seat,
                        hand: *hand,
                        fault: fault.name().to_string(),
                        detail: detail.clone(),
                    });
                }
                _ => {}
            }
        }
        summary
    }

    /// From a stored replay (gzip-compressed JSON lines).
    pub fn of_gz(gz: &[u8]) -> anyhow::Result<Summary> {
        use std::io::Read;
        let mut text = String::new();
        flate2::read::GzDecoder::new(gz)
            .take(512 << 20)
            .read_to_string(&mut text)?;
        Ok(Summary::of(&arena::replay::parse(&text, "the replay")?))
    }

    /// The moves as stored (JSON).
    pub fn moves_json(&self) -> String {
        serde_json::to_string(&self.moves).unwrap_or_else(|_| "[]".into())
    }

    /// The faults as stored (JSON).
    pub fn faults_json(&self) -> String {
        serde_json::to_string(&self.faults).unwrap_or_else(|_| "[]".into())
    }
}

/// Stored moves read back; a damaged row reads as no moves (it then agrees with nothing).
pub fn moves_from_json(text: &str) -> Vec<Vec<Move>> {
    serde_json::from_str(text).unwrap_or_default()
}

/// Stored faults read back.
pub fn faults_from_json(text: &str) -> Vec<SeatFault> {
    serde_json::from_str(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_by_hand_and_the_first_fault_of_each_seat() {
        let lines = [
            r#"{"type":"action","hand":0,"seat":0,"kind":"bet","action":"see","source":"bot"}"#,
            r#"{"type":"action","hand":0,"seat":1,"kind":"bet","action":"pack","source":"bot"}"#,
            r#"{"type":"fault","hand":1,"seat":1,"fault":"timeout","detail":"no answer in 1000 ms"}"#,
            r#"{"type":"fault","hand":2,"seat":1,"fault":"crashed","detail":"the bot exited"}"#,
            r#"{"type":"action","hand":1,"seat":1,"kind":"bet","action":"pack","source":"arena"}"#,
        ];
        let records: Vec<Record> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let s = Summary::of(&records);
        assert_eq!(s.moves.len(), 2);
        assert_eq!(s.moves[0].len(), 2);
        assert_eq!(s.moves[0][0].0, 0);
        assert_eq!(s.moves[1][0].0, 1);
        assert_eq!(s.faults.len(), 1);
        assert_eq!(s.faults[0].fault, "timeout");
        assert_eq!(s.faults[0].hand, 1);
        assert_eq!(moves_from_json(&s.moves_json()), s.moves);
        assert_eq!(faults_from_json(&s.faults_json()), s.faults);
    }
}
