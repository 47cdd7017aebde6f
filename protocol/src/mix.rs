//! A mixed answer: instead of one action, a bot may give a probability for each of several
//! legal actions, `{"id":7,"mix":[{"action":"pack","p":0.25},{"action":"bet","amount":4,"p":0.75}]}`,
//! and the arena draws the action it plays.
//!
//! Why the arena draws rather than the bot: the policy is then known exactly and cannot be
//! misreported, which is what lets the luck-corrected estimator remove the variance of the
//! bot's own coin flips (AIVAT's decision terms; `arena::standings::estimator`). The draw comes
//! from a key the bots never see (`arena::referee::mix_draw`), so no bot can predict it.

use serde::{Deserialize, Serialize};

use rules::Action;

/// Most entries a mix may have: every legal instance of a decision fits (the widest is a bet
/// with a few hundred amounts), and a line of this many entries is still far below
/// [`crate::MAX_LINE_BYTES`].
pub const MAX_MIX_ENTRIES: usize = 1024;

/// How far the probabilities of a mix may add up from 1 (rounding in the bot's arithmetic).
/// Within it the arena scales them to add up to 1 exactly.
pub const SUM_TOLERANCE: f64 = 1e-6;

/// One action of a mix and its probability.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MixEntry {
    #[serde(flatten)]
    pub action: Action,
    pub p: f64,
}

/// A bot's mixed answer: the request's id and the distribution to draw from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MixAnswer {
    pub id: u64,
    pub mix: Vec<MixEntry>,
}

/// What a bot may answer to a request: one action, or a mix for the arena to draw from.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Action(crate::Answer),
    Mix(MixAnswer),
}

impl Reply {
    /// Reads an answer line of either form, naming every field at fault.
    pub fn read(line: &str) -> Result<Reply, crate::read::LineError> {
        crate::read::read_reply(line)
    }

    /// What it answers, without the id.
    pub fn into_choice(self) -> Choice {
        match self {
            Reply::Action(answer) => Choice::Action(answer.action),
            Reply::Mix(mix) => Choice::Mix(mix.mix),
        }
    }

    /// The id of the request it answers.
    pub fn id(&self) -> u64 {
        match self {
            Reply::Action(answer) => answer.id,
            Reply::Mix(mix) => mix.id,
        }
    }
}

/// An answer's content: one action, or a mix the arena draws one from.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    Action(Action),
    Mix(Vec<MixEntry>),
}

/// The action of `mix` that a uniform draw `u` (in `[0, 1)`) picks: the first whose
/// cumulative probability, scaled to a total of 1, exceeds `u`. An entry of probability 0 is
/// never picked; `mix` must have a positive total (as [`crate::read`] ensures).
pub fn pick(mix: &[MixEntry], u: f64) -> Action {
    let total: f64 = mix.iter().map(|e| e.p).sum();
    let target = u * total;
    let mut cumulative = 0.0;
    let mut last = None;
    for entry in mix.iter().filter(|e| e.p > 0.0) {
        cumulative += entry.p;
        if target < cumulative {
            return entry.action;
        }
        last = Some(entry.action);
    }
    // Rounding can leave `target` a hair above the last cumulative sum.
    last.expect("a mix has an entry of positive probability")
}

/// A uniform draw in `[0, 1)` from 64 random bits (their top 53, a double's precision).
pub fn unit_interval(bits: u64) -> f64 {
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(action: Action, p: f64) -> MixEntry {
        MixEntry { action, p }
    }

    #[test]
    fn pick_follows_the_cumulative_probabilities() {
        let mix = [
            entry(Action::Pack, 0.25),
            entry(Action::Show, 0.0),
            entry(Action::Bet { amount: 4 }, 0.75),
        ];
        assert_eq!(pick(&mix, 0.0), Action::Pack);
        assert_eq!(pick(&mix, 0.2499), Action::Pack);
        assert_eq!(pick(&mix, 0.25), Action::Bet { amount: 4 });
        assert_eq!(pick(&mix, 0.999_999_999), Action::Bet { amount: 4 });
        // A zero-probability entry is never picked, even at its boundary.
        assert!((0..1000).all(|i| pick(&mix, i as f64 / 1000.0) != Action::Show));
    }

    #[test]
    fn pick_scales_a_sum_off_by_rounding() {
        let third = 1.0 / 3.0 - 1e-9;
        let mix = [
            entry(Action::Pack, third),
            entry(Action::Show, third),
            entry(Action::Keep, third),
        ];
        assert_eq!(pick(&mix, 0.999_999_999_999), Action::Keep);
        assert_eq!(pick(&mix, 0.5), Action::Show);
    }

    #[test]
    fn unit_interval_covers_zero_to_one() {
        assert_eq!(unit_interval(0), 0.0);
        assert!(unit_interval(u64::MAX) < 1.0);
        assert!(unit_interval(u64::MAX) > 0.999_999_999);
        assert_eq!(unit_interval(1 << 63), 0.5);
    }
}
