//! The luck-corrected estimator (AIVAT-style control variates): one bot's duplicate blocks in,
//! in the order played, each block's luck-corrected chips out ([`LuckCorrected`], what the
//! SPRT scores pairs with). From each hand's payoff it subtracts `θ·z`, where every term of
//! `z` is `f(outcome) − E[f(outcome) | everything before it]`, of mean zero whatever the bots
//! do, and `θ` is fitted on earlier blocks only, so a corrected score keeps its expectation.
//!
//! The parts, each a module:
//!
//! * `chance_terms`: the terms at chance events, one module per game (`classic`, `closest`,
//!   `lallan`), on the exact deal distributions of `deal_table`.
//! * `decision_terms`: the terms at a bot's mixed answers, whose odds the replay records.
//! * `terms`: a replay's hands with both kinds of terms, and a duplicate block's units (one
//!   per deal) that the fit is given; `replay_hands` is what they all read of a replay.
//! * `fit`: the ridge regression of the payoffs on the terms, and the running test's
//!   sequential fit with its shrink factor and first fit by game.
//!
//! The building blocks (units, the ridge fit) are public for the research tool that measured
//! the estimator (`arena/examples/luck_research/`, RESEARCH.md next to this module); the arena
//! itself goes through [`LuckCorrected`].

mod chance_terms;
mod deal_table;
mod decision_terms;
mod fit;
mod replay_hands;
mod terms;
#[cfg(test)]
pub(crate) mod test_play;

pub use deal_table::BUCKETS;
pub use fit::{FirstFit, Moments, RIDGE, Ridge, SequentialFit, corrected, fit};
pub use terms::{Block, HandControls, Tables, Unit, block_units, hand_terms};

use crate::replay::Record;
use crate::standings::stats::BlockSample;

/// Why a replay cannot be corrected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LuckError {
    #[error("the replay has no header on its first line")]
    NoHeader,
    #[error("luck correction supports the classic game with two seats, not {0}")]
    Unsupported(String),
    #[error("hand {0}: {1}")]
    Malformed(u64, String),
    /// A block's replays hold fewer (or more) hands than its matches' results.
    #[error("the replays hold {replays} hands, the results {results}")]
    HandsMissing { replays: u64, results: u64 },
}

/// The revision of the luck-corrected SPRT's arithmetic: the terms, their tables, the ridge,
/// the sequential fit and its shrink. A luck-corrected SPRT is decided by one revision from its
/// first block to its last, so plan.json records the revision a test started with; an arena
/// of another revision does not resume the test and shows the verdict its run saved instead
/// of recomputing it (`crate::tournament::output`, `crate::tournament::output_standings`).
///
/// Bump it with any change that alters a corrected score of the same replays; the test
/// `the_estimator_revision_pins_its_arithmetic` fails until it is bumped. Plans without a
/// revision were written before it was recorded (arenas up to commit 852d6a1, whose
/// estimator changed several times).
///
/// 1. Closest to 555 and Lallan Kallan: deal cells of 8 strength classes, Closest to 555's
///    swap terms, 14 decision terms of mixed answers; ridge 1000 / 300; a fit from the fifth
///    block on, scaled by the shrink factor. The classic game: each seat's equity luck.
/// 2. As 1, and the classic game has the 14 decision terms too (its strength classes: 8 equal
///    parts of the 22,100 hands); in Closest to 555 and the classic game the running test's
///    first fit once 100 deals have been played ([`FirstFit::of_game`]), not after 4 blocks.
pub const ESTIMATOR_REVISION: u32 = 2;

/// One match of a duplicate block, as the estimator reads it.
#[derive(Clone, Copy, Debug)]
pub struct MatchReplay<'a> {
    /// The match's replay records, its header first.
    pub records: &'a [Record],
    /// The scored bot's seat in the match.
    pub seat: usize,
    /// The hands the match played, as its result says: every one must be in the replay, or
    /// the block would lose hands.
    pub hands: u64,
}

/// The luck-corrected scores of a running test: one bot's duplicate blocks in, in the order
/// they were played, each block's corrected total out. Block `b` is corrected with `θ` fitted
/// on the blocks before it ([`SequentialFit::for_game`], the game read from the first block's
/// replays), so the totals keep the plain totals' expectation and a sequential test its error
/// rates.
#[derive(Default)]
pub struct LuckCorrected {
    tables: Tables,
    /// Made at the first block scored, whose replays say the game.
    fit: Option<SequentialFit>,
}

impl LuckCorrected {
    pub fn new() -> LuckCorrected {
        LuckCorrected::default()
    }

    /// The next block's corrected chips and its hands. A block whose terms cannot be read (a
    /// replay of another table, a malformed or cut one) is an error and leaves the estimator
    /// as it was: the caller scores it plain, which is unbiased, only not narrowed.
    pub fn score(&mut self, block: &[MatchReplay<'_>]) -> Result<BlockSample, LuckError> {
        let replays: Vec<(&[Record], usize)> = block.iter().map(|m| (m.records, m.seat)).collect();
        let units = block_units(&replays, &mut self.tables)?;
        let hands: u64 = units.iter().map(|u| u.hands).sum();
        let results: u64 = block.iter().map(|m| m.hands).sum();
        if hands != results {
            return Err(LuckError::HandsMissing {
                replays: hands,
                results,
            });
        }
        // `block_units` refuses replays without a header.
        let Some(Record::Header(header)) = block.first().and_then(|m| m.records.first()) else {
            return Err(LuckError::NoHeader);
        };
        let variant = header.settings.variant;
        let fit = self
            .fit
            .get_or_insert_with(|| SequentialFit::for_game(variant, RIDGE));
        Ok(fit.next(&units))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use decision_terms::DECISION_FEATURES;
    use fit::tests::unshrunk_next;
    use rules::Variant;

    /// A block whose replays hold fewer hands than its results say is refused, and the
    /// estimator goes on as if it had never seen it: the next blocks score as they would have.
    #[test]
    fn a_block_missing_hands_is_refused_and_leaves_the_estimator_as_it_was() {
        let variant = Variant::Closest555;
        let (mut seen, mut clean) = (LuckCorrected::new(), LuckCorrected::new());
        let mut changed = false;
        for b in 0..8u64 {
            let replays = [0, 1].map(|mixer: usize| {
                test_play::play_mixing_in(variant, b, 30, mixer, 2 * b + mixer as u64)
            });
            let block = |hands: u64| -> Vec<MatchReplay<'_>> {
                (0..2)
                    .map(|seat| MatchReplay {
                        records: &replays[seat],
                        seat,
                        hands,
                    })
                    .collect()
            };
            if b == 2 {
                assert_eq!(
                    seen.score(&block(31)),
                    Err(LuckError::HandsMissing {
                        replays: 60,
                        results: 62
                    })
                );
            }
            let score = seen.score(&block(30)).expect("terms");
            assert_eq!(score, clean.score(&block(30)).expect("terms"), "block {b}");
            let units = block_units(
                &[(&replays[0], 0), (&replays[1], 1)],
                &mut Tables::default(),
            );
            changed |= score != corrected(&units.expect("terms"), None);
        }
        assert!(changed, "the estimator corrects some block");
    }

    /// Revision 2 gave the classic game decision terms; a classic replay without mixed answers
    /// gets 14 zeros after its one chance term, and every corrected total is what the chance
    /// term alone gives: the zeros change no fit.
    #[test]
    fn classic_replays_without_mixes_are_corrected_as_before_decision_terms() {
        use test_play::play_with;
        let settings = rules::Settings::new(Variant::Classic);
        let mut tables = Tables::default();
        let blocks: Vec<Block> = (0..12)
            .map(|b| {
                let records = play_with(settings, b, 16, &mut |c| {
                    f64::from(c.iter().map(|c| c.index() as u32).sum::<u32>()) / 153.0
                });
                block_units(&[(&records, (b % 2) as usize)], &mut tables).expect("terms")
            })
            .collect();
        let chance_only: Vec<Block> = blocks
            .iter()
            .map(|block| {
                block
                    .iter()
                    .map(|u| {
                        assert_eq!(
                            (u.z.len(), u.decisions),
                            (1 + DECISION_FEATURES, DECISION_FEATURES)
                        );
                        assert!(u.z[1..].iter().all(|&z| z == 0.0));
                        Unit {
                            z: u.z[..1].to_vec(),
                            decisions: 0,
                            ..u.clone()
                        }
                    })
                    .collect()
            })
            .collect();
        let mut corrected = 0;
        let sequential = |blocks: &[Block]| -> Vec<BlockSample> {
            let mut fit = SequentialFit::new(RIDGE);
            blocks.iter().map(|b| fit.next(b)).collect()
        };
        {
            let (with, without) = (sequential(&blocks), sequential(&chance_only));
            for (a, b) in with.iter().zip(&without) {
                assert!((a.chips - b.chips).abs() < 1e-9, "{a:?} vs {b:?}");
                assert_eq!(a.hands, b.hands);
            }
            let plain: Vec<f64> = blocks.iter().map(|b| b.iter().map(|u| u.y).sum()).collect();
            corrected += with
                .iter()
                .zip(&plain)
                .filter(|(a, p)| (a.chips - **p).abs() > 1e-6)
                .count();
        }
        assert!(corrected > 0, "the chance term corrects some block");
    }

    /// The fingerprint of the luck-corrected arithmetic for each [`ESTIMATOR_REVISION`]: a
    /// hash of every term, payoff and corrected block total of a fixed set of replays. Old
    /// revisions stay listed (an arena of that revision computed that fingerprint).
    const REVISION_FINGERPRINTS: &[(u32, &str)] =
        &[(1, "1b6a81a68203c45a"), (2, "4be3014c0dbd12dd")];

    /// Replays of the three games, made by card-driven stochastic policies with mixed answers
    /// (revision 1's classic replays had none: `test_play::play_with`'s): every term, its
    /// units' payoffs, and the sequential fit's corrected totals (each game's fit, with and
    /// without the shrink), as text; and for each game and fit, whether it changed some
    /// block's total (so the text covers the fit).
    fn arithmetic_of_fixed_replays() -> (String, Vec<bool>) {
        use std::fmt::Write;
        use test_play::play_mixing;
        let mut text = String::new();
        let mut corrects = Vec::new();
        let mut tables = Tables::default();
        for variant in [Variant::Classic, Variant::Closest555, Variant::LallanKallan] {
            let blocks: Vec<Block> = (0..12)
                .map(|b| {
                    let records = play_mixing(variant, b, 16);
                    block_units(&[(&records, (b % 2) as usize)], &mut tables).expect("terms")
                })
                .collect();
            for unit in blocks.iter().flatten() {
                let _ = write!(text, "{:.9e}", unit.y);
                for z in &unit.z {
                    let _ = write!(text, " {z:.9e}");
                }
                text.push('\n');
            }
            for shrinks in [true, false] {
                let mut fit = SequentialFit::for_game(variant, RIDGE);
                let mut changed = false;
                for block in &blocks {
                    let chips = if shrinks {
                        fit.next(block).chips
                    } else {
                        unshrunk_next(&mut fit, block).chips
                    };
                    let plain: f64 = block.iter().map(|u| u.y).sum();
                    changed |= (chips - plain).abs() > 1e-6;
                    let _ = write!(text, "{chips:.9e} ");
                }
                text.push('\n');
                corrects.push(changed);
            }
        }
        (text, corrects)
    }

    #[test]
    fn the_estimator_revision_pins_its_arithmetic() {
        let (text, corrects) = arithmetic_of_fixed_replays();
        // Not vacuous: in each game, both fits correct some block.
        assert_eq!(corrects, [true; 6]);
        // FNV-1a, 64 bits.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in text.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        let fingerprint = format!("{hash:016x}");
        let pinned = REVISION_FINGERPRINTS
            .iter()
            .find(|(r, _)| *r == ESTIMATOR_REVISION)
            .map(|(_, f)| *f);
        assert_eq!(
            pinned,
            Some(fingerprint.as_str()),
            "the luck-corrected arithmetic is not the one of estimator revision \
             {ESTIMATOR_REVISION} (its fingerprint is now {fingerprint}): if the change is \
             meant, bump ESTIMATOR_REVISION, describe the new revision in its documentation and \
             add the new fingerprint to REVISION_FINGERPRINTS; otherwise the change altered \
             luck-corrected scores by mistake"
        );
    }
}
