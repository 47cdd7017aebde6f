//! Drawing the action of a mixed answer (`protocol::mix`): the bot gives the probabilities,
//! the referee draws.
//!
//! The draws must be unpredictable to every bot, or a bot could steer them (and an opponent
//! could read the future). They come from a key derived one-way from the match seed, which
//! no bot sees (`crate::referee::seeds`), and, under `bot_seeds = "independent"`, from the seat's
//! independent seed as well, so that the two seat orders of a duplicate block draw apart as
//! their hello seeds do. The hello seed is not the key: a bot knows 53 bits of it.

use protocol::mix::{MixEntry, pick, unit_interval};
use protocol::{Action, Choice, LegalAction};

use crate::referee::seeds::{MIX_DRAW, derive};

/// One seat's draws in one match: the `n`-th mixed answer draws with stream `n`.
#[derive(Clone, Debug)]
pub struct MixDraws {
    key: u64,
    drawn: u64,
}

impl MixDraws {
    /// The draws of `seat` in the match of seed `match_seed`, its independent seed
    /// `bot_seed` if it has one.
    pub fn new(match_seed: u64, seat: usize, bot_seed: Option<u64>) -> MixDraws {
        MixDraws {
            key: derive(match_seed, MIX_DRAW, seat as u64) ^ bot_seed.unwrap_or(0),
            drawn: 0,
        }
    }

    /// The next uniform draw in `[0, 1)`.
    fn next_unit(&mut self) -> f64 {
        let bits = derive(self.key, MIX_DRAW, self.drawn);
        self.drawn += 1;
        unit_interval(bits)
    }
}

/// The action to play for `choice`, and the mix it was drawn from (to record). A mix with
/// an action that `legal` does not allow is refused whole (`Err`: why, entry by entry), as an
/// illegal answer, before any draw: a mix is a statement about legal actions, and the replay
/// keeps only such. A plain action is passed on as it is: the engine judges it.
pub fn resolve(
    choice: Choice,
    legal: &[LegalAction],
    draws: &mut MixDraws,
) -> Result<(Action, Option<Vec<MixEntry>>), String> {
    match choice {
        Choice::Action(action) => Ok((action, None)),
        Choice::Mix(mix) => {
            let refused: Vec<String> = mix
                .iter()
                .enumerate()
                .filter_map(|(i, e)| {
                    protocol::explain::refusal(&e.action, legal)
                        .map(|why| format!("mix[{i}]: {why}"))
                })
                .collect();
            if !refused.is_empty() {
                return Err(refused.join("; "));
            }
            let action = pick(&mix, draws.next_unit());
            Ok((action, Some(mix)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(action: Action, p: f64) -> MixEntry {
        MixEntry { action, p }
    }

    fn legal() -> Vec<LegalAction> {
        vec![
            LegalAction::Pack,
            LegalAction::Bet {
                min: 2,
                max: 8,
                multiple_of: 2,
            },
            LegalAction::Show { cost: 4 },
        ]
    }

    #[test]
    fn draws_follow_the_mix_and_are_reproducible() {
        let mix = vec![
            entry(Action::Pack, 0.2),
            entry(Action::Bet { amount: 4 }, 0.5),
            entry(Action::Show, 0.3),
        ];
        let mut draws = MixDraws::new(42, 1, None);
        let mut counts = [0u32; 3];
        let mut first = Vec::new();
        for _ in 0..20_000 {
            let (action, recorded) =
                resolve(Choice::Mix(mix.clone()), &legal(), &mut draws).unwrap();
            assert_eq!(recorded.as_deref(), Some(&mix[..]));
            let i = mix.iter().position(|e| e.action == action).unwrap();
            counts[i] += 1;
            if first.len() < 50 {
                first.push(action);
            }
        }
        // Within 5 standard errors of 4,000 / 10,000 / 6,000.
        for (count, p) in counts.iter().zip([0.2f64, 0.5, 0.3]) {
            let expected = 20_000.0 * p;
            let sd = (20_000.0 * p * (1.0 - p)).sqrt();
            assert!((*count as f64 - expected).abs() < 5.0 * sd, "{counts:?}");
        }
        // The same seed, seat and order of answers draw the same actions.
        let mut again = MixDraws::new(42, 1, None);
        let replayed: Vec<Action> = (0..50)
            .map(|_| {
                resolve(Choice::Mix(mix.clone()), &legal(), &mut again)
                    .unwrap()
                    .0
            })
            .collect();
        assert_eq!(replayed, first);
    }

    #[test]
    fn seats_matches_and_independent_seeds_draw_apart() {
        let stream = |mut d: MixDraws| (0..64).map(|_| d.next_unit()).collect::<Vec<f64>>();
        let base = stream(MixDraws::new(42, 0, None));
        assert_ne!(base, stream(MixDraws::new(42, 1, None)));
        assert_ne!(base, stream(MixDraws::new(43, 0, None)));
        assert_ne!(base, stream(MixDraws::new(42, 0, Some(7))));
        assert_eq!(base, stream(MixDraws::new(42, 0, None)));
    }

    #[test]
    fn a_mix_with_an_illegal_action_is_refused_whole() {
        let mix = vec![
            entry(Action::Pack, 0.5),
            entry(Action::Bet { amount: 5 }, 0.25),
            entry(Action::Keep, 0.25),
        ];
        let mut draws = MixDraws::new(1, 0, None);
        let why = resolve(Choice::Mix(mix), &legal(), &mut draws).unwrap_err();
        assert!(why.starts_with("mix[1]: "), "{why}");
        assert!(why.contains("; mix[2]: "), "{why}");
        // Refused before drawing: the next mix draws what the first would have.
        assert_eq!(draws.drawn, 0);
        // A plain action passes through untouched (the engine judges it).
        let plain = resolve(Choice::Action(Action::See), &legal(), &mut draws).unwrap();
        assert_eq!(plain, (Action::See, None));
    }
}
