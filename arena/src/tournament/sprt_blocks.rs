//! The SPRT of a tournament's output directory: each duplicate block's observation, read from
//! its two match records (the candidate's chips per hand) or, luck-corrected, from their
//! replays through the estimator (`crate::standings::estimator::LuckCorrected`); and the
//! verdict recomputed from the records, for the standings. The test itself is statistics over
//! those numbers (`crate::standings::sprt`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::replay::Record;
use crate::standings::estimator::{ESTIMATOR_REVISION, LuckCorrected, MatchReplay};
use crate::standings::sprt::{self, SprtConfig, SprtEstimator, SprtVerdict};
use crate::tournament::MatchRecord;

/// Replays the test over `records` (the matches of an SPRT tournament: block `b` is matches
/// `2b` and `2b + 1`) the way the run does, and words the result. `dir` is the output directory
/// the records' replays are in (the luck-corrected estimator reads them).
///
/// The observations are fed in block order from block 0 on, stopping at the first decision or
/// at `max_blocks`, or at the first block with a match missing: the same blocks, in the same
/// order, as the run that played them.
pub fn verdict(
    records: &[MatchRecord],
    params: &SprtConfig,
    candidate: &str,
    baseline: &str,
    dir: Option<&Path>,
) -> SprtVerdict {
    let by_index: BTreeMap<u64, &MatchRecord> = records.iter().map(|r| (r.index, r)).collect();
    let mut scorer = BlockScorer::new(params.estimator, candidate, dir);
    let blocks = (0..).map_while(|block: u64| {
        Some((by_index.get(&(2 * block))?, by_index.get(&(2 * block + 1))?))
    });
    let test = sprt::run(params, blocks.map(|(a, b)| scorer.score(a, b)));
    let mut v = sprt::words(&test, params, candidate, baseline);
    v.uncorrected_blocks = scorer.uncorrected;
    v.estimator_revision =
        (params.estimator == SprtEstimator::LuckCorrected).then_some(ESTIMATOR_REVISION);
    v
}

/// Scores the blocks of a test in order, as [`SprtEstimator`] says: plain chips per hand, or
/// luck-corrected with coefficients fitted on the blocks scored before ([`LuckCorrected`]),
/// from the replays in the output directory.
pub struct BlockScorer {
    candidate: String,
    luck: Option<(PathBuf, LuckCorrected)>,
    /// Blocks scored plain although the estimator is luck-corrected (a replay missing or
    /// unreadable): still unbiased, only not narrowed.
    pub uncorrected: u64,
}

impl BlockScorer {
    pub fn new(estimator: SprtEstimator, candidate: &str, dir: Option<&Path>) -> Self {
        let luck = match (estimator, dir) {
            (SprtEstimator::LuckCorrected, Some(dir)) => {
                Some((dir.to_path_buf(), LuckCorrected::new()))
            }
            _ => None,
        };
        BlockScorer {
            candidate: candidate.to_string(),
            uncorrected: 0,
            luck,
        }
    }

    /// The next block's score (both matches of the block).
    pub fn score(&mut self, a: &MatchRecord, b: &MatchRecord) -> f64 {
        let Some((dir, estimator)) = &mut self.luck else {
            return block_score(a, b, &self.candidate);
        };
        match luck_corrected(dir, estimator, [a, b], &self.candidate) {
            Ok(s) => {
                if s.hands == 0 {
                    0.0
                } else {
                    s.chips / s.hands as f64
                }
            }
            Err(e) => {
                tracing::warn!(
                    "SPRT: block of matches {} and {} scored without the luck correction: {e}",
                    a.index,
                    b.index
                );
                self.uncorrected += 1;
                block_score(a, b, &self.candidate)
            }
        }
    }
}

/// Why a block could not be luck-corrected (it is then scored without the correction, with
/// a warning saying this).
#[derive(Debug, thiserror::Error)]
enum UncorrectedBlock {
    #[error("match {index} has no seat of {candidate}")]
    NoSeat { index: u64, candidate: String },
    #[error("match {index} has no replay")]
    NoReplay { index: u64 },
    /// The reason is said in the message (its first line of causes only, as it always was).
    #[error("{}: {reason}", path.display())]
    Replay {
        path: std::path::PathBuf,
        reason: crate::replay::ReplayReadError,
    },
    #[error(transparent)]
    Estimator(#[from] crate::standings::estimator::LuckError),
}

/// The candidate's luck-corrected total of one block, from the two matches' replays.
fn luck_corrected(
    dir: &Path,
    estimator: &mut LuckCorrected,
    matches: [&MatchRecord; 2],
    candidate: &str,
) -> Result<crate::standings::stats::BlockSample, UncorrectedBlock> {
    let mut replays: Vec<(Vec<Record>, usize, u64)> = Vec::new();
    for m in matches {
        let seat = m.seats.iter().position(|s| s == candidate).ok_or_else(|| {
            UncorrectedBlock::NoSeat {
                index: m.index,
                candidate: candidate.to_string(),
            }
        })?;
        let path = dir.join(
            m.replay
                .as_ref()
                .ok_or(UncorrectedBlock::NoReplay { index: m.index })?,
        );
        let records = crate::replay::read(&path)
            .map_err(|reason| UncorrectedBlock::Replay { path, reason })?;
        replays.push((records, seat, m.hands));
    }
    let block: Vec<MatchReplay<'_>> = replays
        .iter()
        .map(|(records, seat, hands)| MatchReplay {
            records,
            seat: *seat,
            hands: *hands,
        })
        .collect();
    Ok(estimator.score(&block)?)
}

/// The candidate's chips per hand over one duplicate block (both seat orders).
pub fn block_score(a: &MatchRecord, b: &MatchRecord, candidate: &str) -> f64 {
    let mut chips = 0i64;
    let mut hands = 0u64;
    for r in [a, b] {
        if let Some(seat) = r.seats.iter().position(|s| s == candidate) {
            chips += r.net.get(seat).copied().unwrap_or(0);
            hands += r.hands;
        }
    }
    if hands == 0 {
        0.0
    } else {
        chips as f64 / hands as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(index: u64, seats: [&str; 2], net: i64) -> MatchRecord {
        MatchRecord {
            index,
            block: index / 2,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            hands: 10,
            net: vec![net, -net],
            hands_won: vec![0, 0],
            faults: vec![Default::default(), Default::default()],
            replay: None,
        }
    }

    fn params(min_blocks: u64, max_blocks: u64) -> SprtConfig {
        SprtConfig {
            m0: 0.0,
            m1: 1.0,
            alpha: 0.05,
            beta: 0.05,
            min_blocks,
            max_blocks,
            estimator: SprtEstimator::Plain,
        }
    }

    /// Blocks where the candidate `c` wins `wins[b]` chips in its first match and nothing in
    /// the second.
    fn blocks(wins: &[i64]) -> Vec<MatchRecord> {
        wins.iter()
            .enumerate()
            .flat_map(|(b, &w)| {
                let b = b as u64;
                [
                    record(2 * b, ["c", "x"], w),
                    record(2 * b + 1, ["x", "c"], 0),
                ]
            })
            .collect()
    }

    #[test]
    fn verdicts_in_words() {
        let good: Vec<i64> = (0..40).map(|i| 60 + (i % 7) * 5).collect();
        let v = verdict(&blocks(&good), &params(20, 100), "c", "x", None);
        assert_eq!(v.decision, "h1");
        assert_eq!(v.blocks, 20, "decides at min_blocks, not before");
        assert!(
            v.verdict
                .starts_with("c is better than x: the SPRT accepted H1"),
            "{}",
            v.verdict
        );
        assert!(
            v.verdict
                .contains("at alpha 0.05, beta 0.05 after 20 duplicate blocks")
        );
        let v = verdict(&blocks(&good), &params(5, 100), "c", "x", None);
        assert_eq!((v.decision.as_str(), v.blocks), ("h1", 5));

        let bad: Vec<i64> = (0..40).map(|i| -60 - (i % 7) * 5).collect();
        let v = verdict(&blocks(&bad), &params(20, 100), "c", "x", None);
        assert_eq!(v.decision, "h0");
        assert!(v.verdict.contains("not better than x"), "{}", v.verdict);

        let noisy: Vec<i64> = (0..10).map(|i| if i % 2 == 0 { 50 } else { -40 }).collect();
        let v = verdict(&blocks(&noisy), &params(2, 10), "c", "x", None);
        assert_eq!(v.decision, "inconclusive");
        assert!(
            v.verdict
                .starts_with("inconclusive after 10 duplicate blocks")
        );
        let v = verdict(&blocks(&noisy[..4]), &params(2, 10), "c", "x", None);
        assert_eq!(v.decision, "undecided");

        // An infinite LLR survives JSON.
        let same = vec![50; 3];
        let v = verdict(&blocks(&same), &params(2, 10), "c", "x", None);
        assert_eq!(v.llr, f64::INFINITY);
        let text = serde_json::to_string(&v).unwrap();
        assert!(text.contains("\"llr\":\"inf\""), "{text}");
        let back: SprtVerdict = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
    }

    /// The luck-corrected scorer reads each block's replays and scores it with the fit of the
    /// replays' game (`SequentialFit::for_game`): in Closest to 555, corrections from the
    /// third block of 50-hand matches on, where the generic rule would wait for the sixth.
    #[test]
    fn the_luck_corrected_scorer_fits_as_the_replays_game_says() {
        use crate::standings::estimator::test_play::play_mixing_in;
        use crate::standings::estimator::{FirstFit, RIDGE, SequentialFit, Tables, block_units};
        use rules::Variant;
        let dir = tempfile::tempdir().unwrap();
        let variant = Variant::Closest555;
        let mut scorer = BlockScorer::new(SprtEstimator::LuckCorrected, "c", Some(dir.path()));
        let mut by_game = SequentialFit::for_game(variant, RIDGE);
        let mut generic = SequentialFit::new(RIDGE);
        assert_ne!(FirstFit::of_game(variant), FirstFit::Blocks(4));
        let mut tables = Tables::default();
        let (mut differs, hands) = (false, 50);
        for b in 0..8u64 {
            let mut matches = Vec::new();
            let mut replays = Vec::new();
            for mixer in 0..2 {
                let records = play_mixing_in(variant, b, hands, mixer, 2 * b + mixer as u64);
                let name = format!("match-{b}-{mixer}.jsonl");
                let text: String = records
                    .iter()
                    .map(|r| serde_json::to_string(r).unwrap() + "\n")
                    .collect();
                std::fs::write(dir.path().join(&name), text).unwrap();
                let seats = if mixer == 0 { ["c", "x"] } else { ["x", "c"] };
                matches.push(MatchRecord {
                    hands,
                    replay: Some(name),
                    ..record(2 * b + mixer as u64, seats, 0)
                });
                replays.push(records);
            }
            let score = scorer.score(&matches[0], &matches[1]);
            let block = block_units(&[(&replays[0], 0), (&replays[1], 1)], &mut tables).unwrap();
            let per_hand = |s: crate::standings::stats::BlockSample| s.chips / s.hands as f64;
            assert_eq!(score, per_hand(by_game.next(&block)), "block {b}");
            differs |= score != per_hand(generic.next(&block));
        }
        assert_eq!(scorer.uncorrected, 0);
        assert!(
            differs,
            "the game's fit corrects blocks the generic rule leaves plain"
        );
    }
}
