//! The estimates the measurements compare, built on the estimator's public parts
//! (`arena::standings::estimator`: a block's units, the ridge fit, the running test's fit):
//! plain, cross-fitted (`θ` from the other folds of a finished set of blocks) and sequential
//! (`θ` from the earlier blocks only, as the SPRT), with any ridge and with or without the
//! shrink factor. Only the sequential fit with its shrink and the arena's ridge is the
//! product's; the rest are the variants the choices were measured against.

use arena::standings::estimator::{Block, FirstFit, Moments, Ridge, SequentialFit, corrected};
use arena::standings::{BlockEstimate, BlockSample};

/// Folds of [`cross_fitted`] (fewer when there are fewer blocks).
pub const FOLDS: usize = 5;

/// Each block's plain total.
pub fn plain(blocks: &[Block]) -> Vec<BlockSample> {
    blocks.iter().map(|b| corrected(b, None)).collect()
}

/// Each block corrected with `θ` fitted on the other folds (block `i` is in fold `i % k`,
/// `k = min(FOLDS, blocks)`). With fewer than two blocks nothing is corrected. Each corrected
/// block total has exactly the plain total's expectation (the fold's deals are independent of
/// `θ`), so the mean is unbiased in any sample size; the interval ignores that folds fitted on
/// overlapping data make the blocks slightly dependent (RESEARCH.md, coverage).
pub fn cross_fitted(blocks: &[Block], ridge: Ridge) -> Vec<BlockSample> {
    let k = FOLDS.min(blocks.len());
    let p = match blocks.iter().flatten().next() {
        Some(u) if k >= 2 => u.z.len(),
        _ => return plain(blocks),
    };
    let mut folds = vec![Moments::new(p); k];
    for (i, b) in blocks.iter().enumerate() {
        folds[i % k].add_all(b);
    }
    let mut all = Moments::new(p);
    all.add_all(blocks.iter().flatten());
    let thetas: Vec<Option<Vec<f64>>> = folds.iter().map(|f| all.minus(f).fit(ridge)).collect();
    blocks
        .iter()
        .enumerate()
        .map(|(i, b)| corrected(b, thetas[i % k].as_deref()))
        .collect()
}

/// Each block corrected as a running test does, with `θ` fitted on the blocks before it:
/// `fit`'s rule for the first fit and ridge, scaled by its shrink factor when `shrinks`, else
/// applied in full (what the shrink factor was measured against).
pub fn sequential(blocks: &[Block], mut fit: SequentialFit, shrinks: bool) -> Vec<BlockSample> {
    blocks
        .iter()
        .map(|b| {
            if shrinks {
                fit.next(b)
            } else {
                let total = corrected(b, fit.theta().as_deref());
                fit.next(b);
                total
            }
        })
        .collect()
}

/// The sequential fit as the SPRT's generic rule (a first fit after 4 blocks), with `ridge`;
/// `first_fit_units` starts it once the blocks before hold that many units instead.
pub fn sequential_fit(ridge: Ridge, first_fit_units: Option<usize>) -> SequentialFit {
    let fit = SequentialFit::new(ridge);
    match first_fit_units {
        Some(units) => fit.first_fit(FirstFit::Units(units)),
        None => fit,
    }
}

/// A 95% interval's width (infinite when unbounded).
pub fn width(e: &BlockEstimate) -> f64 {
    e.ci.map_or(f64::INFINITY, |c| c.high - c.low)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_play::{SYNTHETIC_EDGE, exact_blocks, synthetic_experiments};
    use arena::standings::estimator::RIDGE;

    #[test]
    fn cross_fitting_removes_luck_that_is_all_explained() {
        // `y = 4z + 1` exactly: 10 chips of luck-free result a block, every block's `θ`
        // fitted on the others.
        let blocks = exact_blocks();
        for s in cross_fitted(&blocks, Ridge::uniform(1e-3)) {
            assert!((s.chips - 10.0).abs() < 0.05, "{}", s.chips);
            assert_eq!(s.hands, 20);
        }
    }

    #[test]
    fn cross_fitted_intervals_are_unbiased_and_cover_at_their_level() {
        // The synthetic experiments of the sequential fit's test in the arena: the cross-fitted
        // estimate must centre on the edge, be narrower than the plain one, and its 95%
        // intervals cover the edge in 91-99% of the experiments (±3.6 standard errors of a 95%
        // proportion over 400).
        let found = synthetic_experiments(&mut [
            &mut |blocks: &[Block]| plain(blocks),
            &mut |blocks: &[Block]| cross_fitted(blocks, RIDGE),
        ]);
        let (mean, rate) = (found[1].mean, found[1].coverage);
        // sd of one experiment's mean < 0.03: the mean of 400 within 0.006 (4 se).
        assert!((mean - SYNTHETIC_EDGE).abs() < 0.006, "mean {mean}");
        assert!((0.91..=0.99).contains(&rate), "coverage {rate}");
        assert!(found[1].width < 0.9 * found[0].width);
    }
}
