//! Gauntlet grading: does each candidate reach the pass mark against each field bot?

use std::collections::BTreeMap;

use serde::Serialize;

use super::results::MatchRecord;

/// One candidate's result against one field bot.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Grade {
    pub candidate: String,
    pub opponent: String,
    pub chips_per_hand: f64,
    pub hands: u64,
    pub mark: f64,
    pub pass: bool,
}

/// Chips per hand of `bot` over `records` (the matches where it sat), and the hands.
pub fn chips_per_hand<'a>(
    records: impl IntoIterator<Item = &'a MatchRecord>,
    bot: &str,
) -> (f64, u64) {
    let mut chips = 0i64;
    let mut hands = 0u64;
    for r in records {
        if let Some(seat) = r.seats.iter().position(|s| s == bot) {
            chips += r.net[seat];
            hands += r.hands;
        }
    }
    let per_hand = if hands == 0 {
        0.0
    } else {
        chips as f64 / hands as f64
    };
    (per_hand, hands)
}

/// Chips per hand of `bot` over the matches where `opponent` also sat.
pub fn head_to_head(records: &[MatchRecord], bot: &str, opponent: &str) -> (f64, u64) {
    chips_per_hand(
        records
            .iter()
            .filter(|r| r.seats.iter().any(|s| s == opponent)),
        bot,
    )
}

/// Grades every candidate against every field bot that has a pass mark.
pub fn grade(
    records: &[MatchRecord],
    candidates: &[String],
    marks: &BTreeMap<String, f64>,
) -> Vec<Grade> {
    let mut grades = Vec::new();
    for candidate in candidates {
        for (opponent, &mark) in marks {
            let (chips_per_hand, hands) = head_to_head(records, candidate, opponent);
            grades.push(Grade {
                candidate: candidate.clone(),
                opponent: opponent.clone(),
                chips_per_hand,
                hands,
                mark,
                pass: hands > 0 && chips_per_hand >= mark,
            });
        }
    }
    grades
}
