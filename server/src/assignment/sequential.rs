//! The sequential verdict of one upload against one reference bot: pure statistics over the
//! duplicate blocks played so far.
//!
//! The rule is the gauntlet's (docs/teachers.md): a bot passes when the lower end of the
//! confidence interval of its edge (chips per hand, Student's t over the duplicate blocks) is
//! strictly above the mark, and fails when the upper end is at or below it. Grading looks at
//! the blocks more than once (it stops as soon as the verdict is settled), and every look is
//! another chance to be wrong, so the looks are few and fixed in advance (at `min_blocks`,
//! then doubling, then the cap) and each uses the interval at `1 − (1 − confidence) / looks`
//! (Bonferroni): the chance that any settled verdict is wrong stays within `1 − confidence`
//! for a bot whose true edge sits on the mark. At the cap a verdict that neither end settles
//! is "not settled".

use arena::standings::{BlockSample, block_estimate};

/// Where one grade stands after a look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Judgement {
    /// Settled: the interval lies above the mark.
    Pass(Estimate),
    /// Settled: the interval lies at or below the mark.
    Fail(Estimate),
    /// At the hand cap and the interval still holds the mark.
    NotSettled(Estimate),
    /// Play blocks until there are this many, then look again.
    PlayUntil(u64, Option<Estimate>),
}

/// The edge and its interval at a look's level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub blocks: u64,
    /// Chips per hand.
    pub edge: f64,
    pub lower: f64,
    pub upper: f64,
}

/// The fixed schedule of looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Looks {
    pub min_blocks: u64,
    pub max_blocks: u64,
    pub confidence: f64,
}

impl Looks {
    /// The block counts at which the verdict is looked at: `min_blocks`, doubling, and the
    /// cap.
    pub fn points(&self) -> Vec<u64> {
        let mut out = Vec::new();
        let mut n = self.min_blocks.max(2);
        while n < self.max_blocks {
            out.push(n);
            n = n.saturating_mul(2);
        }
        out.push(self.max_blocks.max(2));
        out
    }

    /// The two-sided level of each look's interval.
    pub fn level(&self) -> f64 {
        1.0 - (1.0 - self.confidence) / self.points().len() as f64
    }

    /// The verdict given the edges' blocks so far (each block: the upload's chips over both
    /// seat orders, and the hands they took).
    pub fn judge(&self, blocks: &[BlockSample], mark: f64) -> Judgement {
        let n = blocks.len() as u64;
        let points = self.points();
        // The last look already reached: a look happens at exactly its count (blocks are
        // scheduled up to it); more blocks than a look (a changed schedule) judge at the
        // largest look not above them.
        let Some(&look) = points.iter().rev().find(|&&p| p <= n) else {
            return Judgement::PlayUntil(points[0], None);
        };
        let estimate = block_estimate(&blocks[..look as usize], self.level());
        let Some(ci) = estimate.ci else {
            return Judgement::PlayUntil(look + 1, None);
        };
        let e = Estimate {
            blocks: look,
            edge: estimate.mean,
            lower: ci.low,
            upper: ci.high,
        };
        if e.lower > mark {
            Judgement::Pass(e)
        } else if e.upper <= mark {
            Judgement::Fail(e)
        } else if look >= self.max_blocks {
            Judgement::NotSettled(e)
        } else {
            let next = points.iter().copied().find(|&p| p > look).unwrap_or(look);
            Judgement::PlayUntil(next, Some(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn looks() -> Looks {
        Looks {
            min_blocks: 5,
            max_blocks: 40,
            confidence: 0.95,
        }
    }

    fn blocks(per_hand: &[f64]) -> Vec<BlockSample> {
        per_hand
            .iter()
            .map(|&x| BlockSample {
                chips: x * 200.0,
                hands: 200,
            })
            .collect()
    }

    #[test]
    fn looks_double_up_to_the_cap_and_share_the_error() {
        assert_eq!(looks().points(), vec![5, 10, 20, 40]);
        assert!((looks().level() - 0.9875).abs() < 1e-12);
        let one = Looks {
            min_blocks: 8,
            max_blocks: 8,
            confidence: 0.95,
        };
        assert_eq!(one.points(), vec![8]);
        assert!((one.level() - 0.95).abs() < 1e-12);
    }

    #[test]
    fn nothing_is_judged_before_the_first_look() {
        assert_eq!(
            looks().judge(&blocks(&[9.0, 9.0]), 0.5),
            Judgement::PlayUntil(5, None)
        );
    }

    #[test]
    fn a_mirror_fails_a_mark_of_zero_and_passes_a_mark_below() {
        // A copy of a deterministic reference scores exactly 0 in every block.
        let zeros = blocks(&[0.0; 5]);
        assert!(matches!(looks().judge(&zeros, 0.0), Judgement::Fail(_)));
        assert!(matches!(looks().judge(&zeros, 5.0), Judgement::Fail(_)));
        assert!(matches!(looks().judge(&zeros, -2.0), Judgement::Pass(_)));
    }

    #[test]
    fn a_clear_edge_settles_at_the_first_look() {
        // Worked example: edges 2.1, 2.5, 1.9, 2.3, 2.2 (mean 2.2, sd 0.2236); four looks
        // share 5%, so the interval is at 98.75%: t(0.99375, 4) = 4.3147, and
        // 2.2 ± 4.3147 * 0.2236 / sqrt(5) = [1.769, 2.631], above 0.5.
        let j = looks().judge(&blocks(&[2.1, 2.5, 1.9, 2.3, 2.2]), 0.5);
        let Judgement::Pass(e) = j else {
            panic!("{j:?}")
        };
        assert_eq!(e.blocks, 5);
        assert!((e.edge - 2.2).abs() < 1e-9);
        assert!((e.lower - 1.769).abs() < 0.001, "{e:?}");
        assert!((e.upper - 2.631).abs() < 0.001, "{e:?}");
    }

    #[test]
    fn an_unclear_edge_plays_on_to_the_next_look_then_stops_at_the_cap() {
        let noisy = [3.0, -2.0, 4.0, -1.0, 1.0];
        match looks().judge(&blocks(&noisy), 0.5) {
            Judgement::PlayUntil(10, Some(e)) => assert_eq!(e.blocks, 5),
            other => panic!("{other:?}"),
        }
        // Blocks past a look but short of the next are judged at the look: nothing new.
        let seven: Vec<f64> = noisy.iter().chain(&[2.0, 2.0]).copied().collect();
        assert!(matches!(
            looks().judge(&blocks(&seven), 0.5),
            Judgement::PlayUntil(10, _)
        ));
        let forty: Vec<f64> = noisy.iter().cycle().take(40).copied().collect();
        assert!(matches!(
            looks().judge(&blocks(&forty), 0.5),
            Judgement::NotSettled(_)
        ));
    }
}
