//! The fit: coefficients `θ` for the terms, kept unbiased by never fitting on the hands they
//! correct.
//!
//! A bot's payoff `y` in a hand comes with a vector `z` of terms of known mean zero
//! ([`super::chance_terms`], [`super::decision_terms`]). For any coefficients `θ` fixed
//! independently of a hand, `y − θ·z` has the same expectation as `y`; the best `θ` (least
//! squares of `y` on `z`, [`Moments::fit`], a ridge regression) removes the part of the payoff
//! the luck explains. The arena does not know the bots, so `θ` is learnt from their play, on
//! the earlier blocks only ([`SequentialFit`], the SPRT's, which looks after every block): block
//! `b` is corrected with `θ` fitted on blocks `0..b`, fixed before block `b` is played, and
//! scaled by how well the earlier corrections did ([`Shrink`]). The corrected totals are a
//! martingale-difference sequence around the true edge, which is what a sequential test needs.
//! (Cross-fitting, `θ` from the other folds of a finished set, is a measurement's:
//! `arena/examples/luck_research/`.)
//!
//! The unit of a fit is one *deal* of a block: hand `h` of every match of the block (the same
//! cards, the seats permuted), the bot's payoffs and terms summed over them
//! ([`super::terms::block_units`]). The block totals are sums of these units, so a `θ` that
//! explains the units explains the totals.

use rules::Variant;

use super::terms::{Block, Unit};
use crate::standings::stats::BlockSample;

/// Fewest blocks before a [`SequentialFit`] corrects anything (below, `θ = 0`: the plain payoff),
/// unless its game's [`FirstFit`] says otherwise.
pub const SEQUENTIAL_MIN_BLOCKS: usize = 4;

/// When a running test's fit makes its first correction (before it, `θ = 0`: the plain payoff;
/// the `Shrink` waits one corrected block more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstFit {
    /// Once this many blocks have been seen, whatever their size.
    Blocks(usize),
    /// Once the blocks seen hold this many units (deals), at least one block.
    Units(usize),
}

impl FirstFit {
    /// Each game's rule, chosen on its training seeds (BENCHMARKS.md, section 6): in Closest to
    /// 555 and the classic game a fit on the first 100 deals (one pair of 100-hand matches)
    /// already helps, with the ridge and the shrink factor guarding it; in Lallan Kallan early
    /// fits are mostly noise, and it waits for 4 blocks.
    pub fn of_game(variant: Variant) -> FirstFit {
        match variant {
            Variant::Closest555 | Variant::Classic => FirstFit::Units(FIRST_FIT_UNITS),
            Variant::LallanKallan => FirstFit::Blocks(SEQUENTIAL_MIN_BLOCKS),
        }
    }
}

/// [`FirstFit::Units`] of the games that start early.
const FIRST_FIT_UNITS: usize = 100;

/// Ridge penalties, in units: each term's coefficient is shrunk as if that many more units had
/// shown no relation. It fixes the terms that are exactly collinear (the one-hot cells of a
/// position sum to a constant) and keeps a fit on few blocks from chasing noise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ridge {
    /// For the chance terms: hundreds of them, most weak.
    pub chance: f64,
    /// For the decision terms of mixed answers: a few, strong where a bot mixes.
    pub decision: f64,
}

impl Ridge {
    /// The same penalty for every term.
    pub fn uniform(units: f64) -> Ridge {
        Ridge {
            chance: units,
            decision: units,
        }
    }
}

/// The penalties the arena uses: the chance terms' chosen with them (on the training seeds of
/// BENCHMARKS.md, section 6), the decision terms' likewise once they existed.
pub const RIDGE: Ridge = Ridge {
    chance: 1000.0,
    decision: DECISION_RIDGE,
};

/// [`Ridge::decision`] of [`RIDGE`].
const DECISION_RIDGE: f64 = 300.0;

/// The sums a least-squares fit of `y` on `z` needs, over any set of units: added one unit at a
/// time (cheap: the terms are mostly zeros), and subtracted (the other folds of a cross-fit are
/// all units minus one fold).
#[derive(Clone, Debug, PartialEq)]
pub struct Moments {
    /// How many of the last terms are decision terms (penalized with [`Ridge::decision`]).
    decisions: usize,
    n: f64,
    sum_y: f64,
    sum_z: Vec<f64>,
    /// `Σ z zᵀ`, row-major `p × p`.
    sum_zz: Vec<f64>,
    sum_zy: Vec<f64>,
}

impl Moments {
    pub fn new(p: usize) -> Moments {
        Moments {
            decisions: 0,
            n: 0.0,
            sum_y: 0.0,
            sum_z: vec![0.0; p],
            sum_zz: vec![0.0; p * p],
            sum_zy: vec![0.0; p],
        }
    }

    pub fn add(&mut self, u: &Unit) {
        let p = self.sum_z.len();
        self.decisions = self.decisions.max(u.decisions);
        self.n += 1.0;
        self.sum_y += u.y;
        let nonzero: Vec<(usize, f64)> =
            u.z.iter()
                .copied()
                .enumerate()
                .filter(|&(_, z)| z != 0.0)
                .collect();
        for &(i, zi) in &nonzero {
            self.sum_z[i] += zi;
            self.sum_zy[i] += zi * u.y;
            let row = &mut self.sum_zz[i * p..(i + 1) * p];
            for &(j, zj) in &nonzero {
                row[j] += zi * zj;
            }
        }
    }

    pub fn add_all<'a>(&mut self, units: impl IntoIterator<Item = &'a Unit>) {
        for u in units {
            self.add(u);
        }
    }

    /// `self − other` (`other` a subset of the units of `self`).
    pub fn minus(&self, other: &Moments) -> Moments {
        let sub = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x - y).collect();
        Moments {
            decisions: self.decisions,
            n: self.n - other.n,
            sum_y: self.sum_y - other.sum_y,
            sum_z: sub(&self.sum_z, &other.sum_z),
            sum_zz: sub(&self.sum_zz, &other.sum_zz),
            sum_zy: sub(&self.sum_zy, &other.sum_zy),
        }
    }

    /// Least-squares `θ` of `y` on `z` with an intercept (then dropped: `E[z] = 0`), each
    /// coefficient shrunk by a ridge of `ridge` units; `None` with fewer than two units.
    pub fn fit(&self, ridge: Ridge) -> Option<Vec<f64>> {
        let p = self.sum_z.len();
        let n = self.n;
        if n < 2.0 || p == 0 {
            return None;
        }
        // Centred sums: Σ(z − z̄)(z − z̄)ᵀ and Σ(z − z̄)(y − ȳ).
        let mut a = vec![0.0; p * p];
        let mut b = vec![0.0; p];
        for i in 0..p {
            let mi = self.sum_z[i] / n;
            b[i] = self.sum_zy[i] - mi * self.sum_y;
            for j in 0..p {
                a[i * p + j] = self.sum_zz[i * p + j] - mi * self.sum_z[j];
            }
        }
        // Each term's penalty is `ridge` units' worth of its own spread: a plain ridge on the
        // standardized terms (terms in chips and terms in probabilities are treated alike)
        // that shrinks more when there are few units to fit.
        let first_decision = p.saturating_sub(self.decisions);
        for i in 0..p {
            let units = if i >= first_decision {
                ridge.decision
            } else {
                ridge.chance
            };
            a[i * p + i] = a[i * p + i].max(0.0) * (1.0 + units / n) + 1e-12;
        }
        solve_spd(&mut a, &mut b, p).then_some(b)
    }
}

/// Least-squares `θ` of `y` on `z` over `units` ([`Moments::fit`]).
pub fn fit<'a>(units: impl Iterator<Item = &'a Unit> + Clone, ridge: Ridge) -> Option<Vec<f64>> {
    let p = units.clone().next()?.z.len();
    let mut m = Moments::new(p);
    m.add_all(units);
    m.fit(ridge)
}

/// Solves `A x = b` for a symmetric positive-definite `A` (row-major, `p × p`) by Cholesky, in
/// place (`b` becomes `x`). False if `A` is not positive definite.
fn solve_spd(a: &mut [f64], b: &mut [f64], p: usize) -> bool {
    for j in 0..p {
        let mut s = a[j * p + j];
        for k in 0..j {
            s -= a[j * p + k] * a[j * p + k];
        }
        if s <= 0.0 || !s.is_finite() {
            return false;
        }
        let l = s.sqrt();
        a[j * p + j] = l;
        for i in j + 1..p {
            let mut s = a[i * p + j];
            for k in 0..j {
                s -= a[i * p + k] * a[j * p + k];
            }
            a[i * p + j] = s / l;
        }
    }
    for i in 0..p {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * p + k] * b[k];
        }
        b[i] = s / a[i * p + i];
    }
    for i in (0..p).rev() {
        let mut s = b[i];
        for k in i + 1..p {
            s -= a[k * p + i] * b[k];
        }
        b[i] = s / a[i * p + i];
    }
    true
}

/// A block's total after `y − θ·z` on each unit (`θ = None`: the plain total).
pub fn corrected(block: &Block, theta: Option<&[f64]>) -> BlockSample {
    let chips = block
        .iter()
        .map(|u| match theta {
            Some(t) => u.y - t.iter().zip(&u.z).map(|(t, z)| t * z).sum::<f64>(),
            None => u.y,
        })
        .sum();
    BlockSample {
        chips,
        hands: block.iter().map(|u| u.hands).sum(),
    }
}

/// How much of a sequential correction to apply, learnt from how well the earlier corrections
/// did on blocks they had not seen. With hundreds of terms and a few blocks to fit them on, a
/// fitted `θ·z` can be mostly noise, and subtracting noise *widens* the interval (measured on
/// Lallan Kallan: a third wider over runs of 20 blocks where the terms explain little). Each
/// unit's correction `r = θ·z` was computed with a `θ` fitted before its block, so regressing the
/// units' payoffs on their `r` tells how much of `r` is real: the factor applied to the next
/// block is that slope, `Σ (y − ȳ)(r − r̄) / Σ (r − r̄)²`, held to `[0, 1]`, over every corrected
/// block so far (over the recent half only it came out noisier and no better on the training
/// seeds, BENCHMARKS.md section 6). It only uses blocks already played, so it is fixed before
/// the block it scales, like `θ`, and the corrected totals keep their expectation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shrink {
    n: f64,
    sum_y: f64,
    sum_r: f64,
    sum_yr: f64,
    sum_rr: f64,
}

impl Shrink {
    /// The factor for the next block: 0 before any unit has had an out-of-sample correction
    /// (trusting the first fit in full instead did worse on Lallan Kallan's training seeds,
    /// 0.68-0.93x against 0.88-1.07x in runs of 10-40 blocks, and 0.03-0.05 better on
    /// Closest to 555's).
    pub fn factor(&self) -> f64 {
        let var = self.sum_rr - self.sum_r * self.sum_r / self.n.max(1.0);
        if self.n < 2.0 || var <= 0.0 {
            return 0.0;
        }
        let cov = self.sum_yr - self.sum_y * self.sum_r / self.n;
        (cov / var).clamp(0.0, 1.0)
    }

    /// A unit's payoff `y` and the correction `r` it got from a `θ` fitted before its block.
    pub fn add(&mut self, y: f64, r: f64) {
        self.n += 1.0;
        self.sum_y += y;
        self.sum_r += r;
        self.sum_yr += y * r;
        self.sum_rr += r * r;
    }
}

/// The running test's fit: each block corrected with `θ` fitted on the blocks before it (none
/// until its [`FirstFit`]), scaled by a `Shrink` learnt on them too, so that every block's
/// correction is fixed before the block is seen.
pub struct SequentialFit {
    ridge: Ridge,
    first_fit: FirstFit,
    blocks: usize,
    moments: Option<Moments>,
    shrink: Shrink,
}

impl SequentialFit {
    pub fn new(ridge: Ridge) -> SequentialFit {
        SequentialFit {
            ridge,
            first_fit: FirstFit::Blocks(SEQUENTIAL_MIN_BLOCKS),
            blocks: 0,
            moments: None,
            shrink: Shrink::default(),
        }
    }

    /// The fit a running test of `variant` uses (with `ridge` [`RIDGE`]): the shrink factor and
    /// the game's [`FirstFit`].
    pub fn for_game(variant: Variant, ridge: Ridge) -> SequentialFit {
        SequentialFit::new(ridge).first_fit(FirstFit::of_game(variant))
    }

    /// With another rule for the first fit ([`SequentialFit::new`]: after
    /// `SEQUENTIAL_MIN_BLOCKS` blocks).
    pub fn first_fit(self, first_fit: FirstFit) -> SequentialFit {
        SequentialFit { first_fit, ..self }
    }

    /// The coefficients the next block will be corrected with, before the shrink factor:
    /// `None` until the first fit (then its block is the plain total).
    pub fn theta(&self) -> Option<Vec<f64>> {
        let ready = match self.first_fit {
            FirstFit::Units(units) => self.moments.as_ref().is_some_and(|m| m.n >= units as f64),
            FirstFit::Blocks(blocks) => self.blocks >= blocks,
        };
        match &self.moments {
            Some(m) if ready => m.fit(self.ridge),
            _ => None,
        }
    }

    /// The next block's corrected total (with `θ` and the shrink factor from the blocks before
    /// it); then the block joins the fit.
    pub fn next(&mut self, block: &Block) -> BlockSample {
        let theta = self.theta();
        let factor = self.shrink.factor();
        let corrections: Vec<f64> = block
            .iter()
            .map(|u| {
                theta
                    .as_deref()
                    .map_or(0.0, |t| t.iter().zip(&u.z).map(|(t, z)| t * z).sum())
            })
            .collect();
        let chips = block
            .iter()
            .zip(&corrections)
            .map(|(u, r)| u.y - factor * r)
            .sum();
        if theta.is_some() {
            for (u, &r) in block.iter().zip(&corrections) {
                self.shrink.add(u.y, r);
            }
        }
        if let Some(p) = block.first().map(|u| u.z.len()) {
            self.moments
                .get_or_insert_with(|| Moments::new(p))
                .add_all(block);
        }
        self.blocks += 1;
        BlockSample {
            chips,
            hands: block.iter().map(|u| u.hands).sum(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `fit`'s next block with `θ` applied in full, without the shrink factor (to see what the
    /// shrink does); the block then joins the fit as usual.
    pub(crate) fn unshrunk_next(fit: &mut SequentialFit, block: &Block) -> BlockSample {
        let total = corrected(block, fit.theta().as_deref());
        fit.next(block);
        total
    }

    /// 50 units with `y = 3 z0 − 2 z1 + 5` exactly, the last `decisions` terms decision terms.
    fn linear_units(decisions: usize) -> Vec<Unit> {
        (0..50)
            .map(|i| {
                let z0 = ((i * 7) % 11) as f64 - 5.0;
                let z1 = ((i * 3) % 7) as f64 - 3.0;
                Unit {
                    y: 3.0 * z0 - 2.0 * z1 + 5.0,
                    z: vec![z0, z1],
                    hands: 1,
                    decisions,
                }
            })
            .collect()
    }

    #[test]
    fn fit_recovers_a_linear_relation() {
        // The fit finds 3 and -2 (the ridge is tiny).
        let units = linear_units(0);
        let theta = fit(units.iter(), Ridge::uniform(1e-9)).unwrap();
        assert!((theta[0] - 3.0).abs() < 1e-6, "{theta:?}");
        assert!((theta[1] + 2.0).abs() < 1e-6, "{theta:?}");
        // Corrected, every unit is the constant 5.
        let s = corrected(&units, Some(&theta));
        assert!((s.chips - 250.0).abs() < 1e-4, "{}", s.chips);
    }

    #[test]
    fn decision_terms_have_their_own_ridge() {
        // The same data with z1 a decision term: a huge penalty on the chance term and none
        // on the decision term fit z1 alone, and the other way round.
        let units = linear_units(1);
        let only_decisions = Ridge {
            chance: 1e12,
            decision: 1e-9,
        };
        let theta = fit(units.iter(), only_decisions).unwrap();
        assert!(theta[0].abs() < 1e-6, "{theta:?}");
        assert!((theta[1] + 2.0).abs() < 0.5, "{theta:?}");
        let only_chance = Ridge {
            chance: 1e-9,
            decision: 1e12,
        };
        let theta = fit(units.iter(), only_chance).unwrap();
        assert!((theta[0] - 3.0).abs() < 0.5, "{theta:?}");
        assert!(theta[1].abs() < 1e-6, "{theta:?}");
    }

    #[test]
    fn collinear_terms_are_solved_by_the_ridge() {
        // z1 = -z0: exactly collinear; the ridge splits the weight and the fit still explains y.
        let units: Vec<Unit> = (0..30)
            .map(|i| {
                let z0 = (i % 5) as f64 - 2.0;
                Unit {
                    y: 2.0 * z0,
                    z: vec![z0, -z0],
                    hands: 1,
                    decisions: 0,
                }
            })
            .collect();
        let theta = fit(units.iter(), Ridge::uniform(1e-3)).unwrap();
        assert!((theta[0] - theta[1] - 2.0).abs() < 0.01, "{theta:?}");
    }

    use crate::standings::estimator::test_play::exact_blocks;

    #[test]
    fn sequential_leaves_the_first_blocks_plain() {
        let blocks = exact_blocks();
        let mut fit = SequentialFit::new(Ridge::uniform(1e-3));
        let seq: Vec<BlockSample> = blocks.iter().map(|b| fit.next(b)).collect();
        for (b, s) in seq.iter().enumerate() {
            let plain = corrected(&blocks[b], None);
            // Block SEQUENTIAL_MIN_BLOCKS has a θ but no earlier block to say how far to trust
            // it (its shrink factor is 0).
            if b <= SEQUENTIAL_MIN_BLOCKS {
                assert_eq!(*s, plain);
            } else {
                // The luck is all explained: 10 units of 1 chip (the ridge leaves a little).
                assert!((s.chips - 10.0).abs() < 0.05, "block {b}: {}", s.chips);
            }
            assert_eq!(s.hands, 20);
        }
    }

    #[test]
    fn a_first_fit_by_units_starts_once_the_blocks_before_hold_them() {
        // `exact_blocks`: blocks of 10 units. With `Units(25)` the first fit is made
        // before block 3 (30 units seen), so block 3 is plain too (its shrink factor is 0) and
        // block 4 on is corrected; `Units(1)` still waits for one whole block.
        let blocks = exact_blocks();
        for (units, first_corrected) in [(25, 4), (1, 2), (70, 8)] {
            let mut fit =
                SequentialFit::new(Ridge::uniform(1e-3)).first_fit(FirstFit::Units(units));
            for (b, block) in blocks.iter().enumerate() {
                let s = fit.next(block);
                if b < first_corrected {
                    assert_eq!(s, corrected(block, None), "units {units}, block {b}");
                } else {
                    assert!((s.chips - 10.0).abs() < 0.05, "units {units}, block {b}");
                }
            }
        }
        assert_eq!(FirstFit::of_game(Variant::Closest555), FirstFit::Units(100));
        assert_eq!(FirstFit::of_game(Variant::Classic), FirstFit::Units(100));
        assert_eq!(
            FirstFit::of_game(Variant::LallanKallan),
            FirstFit::Blocks(SEQUENTIAL_MIN_BLOCKS)
        );
    }

    #[test]
    fn the_shrink_applies_what_earlier_blocks_confirmed_and_drops_noise() {
        // 30 blocks of 50 units; y = 1 + 2·u + noise with u a centred term, and 40 terms of
        // pure noise beside it. The shrink factor learnt on the out-of-sample corrections is
        // near 1 when u is among the terms; with u missing (only the noise terms) it is near
        // 0, so the sequential totals are nearly the plain ones instead of the plain ones plus
        // the noise of a fit that explains nothing.
        use rand_chacha::ChaCha8Rng;
        use rand_core::{RngCore, SeedableRng};
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut uniform = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
        let blocks = |with_u: bool, uniform: &mut dyn FnMut() -> f64| -> Vec<Block> {
            (0..30)
                .map(|_| {
                    (0..50)
                        .map(|_| {
                            let u = uniform();
                            let mut z: Vec<f64> = (0..40).map(|_| uniform()).collect();
                            if with_u {
                                z.push(u);
                            }
                            Unit {
                                y: 1.0 + 2.0 * u + 0.5 * uniform(),
                                z,
                                hands: 1,
                                decisions: 0,
                            }
                        })
                        .collect()
                })
                .collect()
        };
        for with_u in [true, false] {
            let data = blocks(with_u, &mut uniform);
            let mut fit = SequentialFit::new(Ridge::uniform(10.0));
            let mut deviation = 0.0;
            for b in &data {
                let s = fit.next(b);
                deviation += (s.chips - corrected(b, None).chips).abs();
            }
            let factor = fit.shrink.factor();
            if with_u {
                assert!(factor > 0.8, "{factor}");
            } else {
                assert!(factor < 0.2, "{factor}");
                // Unshrunk, the same noise terms move the totals several times as much.
                let mut unshrunk = SequentialFit::new(Ridge::uniform(10.0));
                let moved: f64 = data
                    .iter()
                    .map(|b| {
                        (unshrunk_next(&mut unshrunk, b).chips - corrected(b, None).chips).abs()
                    })
                    .sum();
                assert!(deviation < 0.5 * moved, "{deviation} vs {moved}");
            }
        }
    }

    #[test]
    fn corrected_intervals_are_unbiased_and_cover_at_their_level() {
        // 400 synthetic experiments of 10 blocks of 50 units: y = 0.3 + 2·u + v + noise, with
        // u and v centred terms (u explains part of y, v nothing). The sequential estimate
        // must centre on 0.3, be narrower than the plain one, and both 95% intervals cover 0.3
        // in 91-99% of the experiments (±3.6 standard errors of a 95% proportion over 400).
        // (The cross-fitted estimate's twin of this test is the research tool's,
        // `arena/examples/luck_research/`.)
        use crate::standings::estimator::test_play::{SYNTHETIC_EDGE, synthetic_experiments};
        let found = synthetic_experiments(&mut [
            &mut |blocks: &[Block]| blocks.iter().map(|b| corrected(b, None)).collect(),
            &mut |blocks: &[Block]| {
                let mut fit = SequentialFit::new(RIDGE);
                blocks.iter().map(|b| fit.next(b)).collect()
            },
        ]);
        for (k, e) in found.iter().enumerate() {
            // sd of one experiment's mean < 0.03: the mean of 400 within 0.006 (4 se).
            let (mean, rate) = (e.mean, e.coverage);
            assert!(
                (mean - SYNTHETIC_EDGE).abs() < 0.006,
                "estimate {k}: mean {mean}"
            );
            assert!(
                (0.91..=0.99).contains(&rate),
                "estimate {k}: coverage {rate}"
            );
        }
        assert!(found[1].width < found[0].width);
    }
}
