//! Small numerics for the standings: Student's t quantiles and confidence intervals computed
//! over duplicate blocks.
//!
//! No statistics crate is used; everything here is textbook material, written out and tested:
//!
//! * `ln Γ(x)` by the Lanczos approximation (g = 7, 9 coefficients; relative error about 1e-15);
//! * the regularized incomplete beta function `I_x(a, b)` by its continued fraction evaluated
//!   with the modified Lentz method (Numerical Recipes, 3rd ed., §6.4);
//! * the Student t distribution function from it:
//!   `F(t; ν) = 1 − ½·I_{ν/(ν+t²)}(ν/2, ½)` for `t ≥ 0`, and `F(−t) = 1 − F(t)`;
//! * its quantile by bisection on `F`, which is monotone, to a relative precision of 1e-12.

use serde::{Deserialize, Serialize};

/// A closed interval `[low, high]`. An interval that cannot be computed (fewer than two
/// independent units) is represented by its absence (`Option<Interval>`), which serializes
/// as `null`: it is unbounded, not empty.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// Half the width of the interval (the `±` of a symmetric interval).
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Whether `x` lies in the interval, ends included.
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }

    /// `+1` if the whole interval is above 0, `−1` if it is below 0, `0` if it contains 0.
    pub fn sign(&self) -> i8 {
        if self.low > 0.0 {
            1
        } else if self.high < 0.0 {
            -1
        } else {
            0
        }
    }
}

/// The confidence level of every interval in the standings.
pub const CONFIDENCE: f64 = 0.95;

/// Degrees of freedom above which [`student_t_quantile`] uses this cap instead: the quantile
/// then differs from the normal one by less than 1e-6, and the continued fraction stays short.
const MAX_DF: f64 = 1e7;

/// `ln Γ(x)` for `x > 0`, by the Lanczos approximation with g = 7 and 9 coefficients
/// (the coefficients of Numerical Recipes / Boost's `lanczos7`); relative error ≈ 1e-15.
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEF: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)·Γ(1−x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).abs().ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEF[0];
    for (i, c) in COEF.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularized incomplete beta function `I_x(a, b)` for `a, b > 0`, `0 ≤ x ≤ 1`.
///
/// `I_x(a,b) = x^a (1−x)^b / (a·B(a,b)) · 1/(1+ d₁/(1+ d₂/(1+ …)))`, the continued fraction of
/// Numerical Recipes §6.4, evaluated by the modified Lentz method. It converges quickly for
/// `x < (a+1)/(a+b+2)`; otherwise the symmetry `I_x(a,b) = 1 − I_{1−x}(b,a)` is used.
pub fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_continued_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b
    }
}

/// Keeps the modified Lentz method's running terms away from zero.
const TINY: f64 = 1e-300;

/// The continued fraction of [`incomplete_beta`] (modified Lentz method).
fn beta_continued_fraction(a: f64, b: f64, x: f64) -> f64 {
    const MAX_ITERATIONS: u32 = 100_000;
    const EPS: f64 = 1e-15;
    let qab = a + b;
    let qap = a + 1.0;
    let qam = a - 1.0;
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=MAX_ITERATIONS {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        // Even step, then odd step.
        h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &mut c, &mut d);
        let delta = lentz_step(
            -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)),
            &mut c,
            &mut d,
        );
        h *= delta;
        if (delta - 1.0).abs() < EPS {
            break;
        }
    }
    h
}

/// One step of Lentz's method for the continued fraction's coefficient `aa`: updates the
/// running `c` and `d` (kept away from zero) and returns the factor for the value.
fn lentz_step(aa: f64, c: &mut f64, d: &mut f64) -> f64 {
    *d = 1.0 + aa * *d;
    if d.abs() < TINY {
        *d = TINY;
    }
    *c = 1.0 + aa / *c;
    if c.abs() < TINY {
        *c = TINY;
    }
    *d = 1.0 / *d;
    *d * *c
}

/// The distribution function of Student's t with `df` degrees of freedom:
/// `F(t) = 1 − ½·I_{df/(df+t²)}(df/2, ½)` for `t ≥ 0`, and `1 − F(−t)` for `t < 0`.
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    let df = df.min(MAX_DF);
    let tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    if t >= 0.0 { 1.0 - tail } else { tail }
}

/// The `p` quantile of Student's t with `df > 0` degrees of freedom (not necessarily an
/// integer): the `t` with `F(t; df) = p`. For example `student_t_quantile(0.975, 10.0) ≈ 2.228`.
///
/// Bisection on the monotone [`student_t_cdf`], after doubling an upper bracket, to a relative
/// precision of 1e-12. `df` above 1e7 is treated as 1e7 (within 1e-6 of the normal quantile).
/// Returns NaN for `p` outside `(0, 1)` or `df ≤ 0`.
pub fn student_t_quantile(p: f64, df: f64) -> f64 {
    if !(p > 0.0 && p < 1.0 && df > 0.0) {
        return f64::NAN;
    }
    if p == 0.5 {
        return 0.0;
    }
    if p < 0.5 {
        return -student_t_quantile(1.0 - p, df);
    }
    let mut low = 0.0;
    let mut high = 1.0;
    while student_t_cdf(high, df) < p {
        low = high;
        high *= 2.0;
        if high > 1e300 {
            return f64::INFINITY;
        }
    }
    for _ in 0..2_000 {
        let mid = 0.5 * (low + high);
        if student_t_cdf(mid, df) < p {
            low = mid;
        } else {
            high = mid;
        }
        if high - low <= 1e-12 * high {
            break;
        }
    }
    0.5 * (low + high)
}

/// One independent unit of a sample of chips per hand: a duplicate block's total `chips` over
/// its `hands`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlockSample {
    pub chips: f64,
    pub hands: u64,
}

/// The point estimate and confidence interval of chips per hand over duplicate blocks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlockEstimate {
    /// Number of blocks.
    pub blocks: u64,
    /// `Σ chips / Σ hands` (0 when there are no hands).
    pub mean: f64,
    /// `None` with fewer than two blocks, or no hands: the interval is unbounded.
    pub ci: Option<Interval>,
}

/// Chips per hand and its confidence interval at `level` (e.g. 0.95), the duplicate block being
/// the unit of independence (hands within a block share their cards, so they are not
/// independent; blocks are).
///
/// With `n` blocks of chips `yᵢ` over `hᵢ` hands, `H = Σhᵢ`, `h̄ = H/n`:
///
/// * the point estimate is the ratio `R = Σyᵢ / H` (exactly total chips / total hands);
/// * its standard error is the ratio (cluster) estimator's
///   `se = √( Σ(yᵢ − R·hᵢ)² / (n(n−1)) ) / h̄`;
/// * the interval is `R ± t_{(1+level)/2, n−1} · se`.
///
/// When every block has the same number of hands (the normal case: a block replays the same
/// deals), `yᵢ − R·hᵢ = h·(xᵢ − x̄)` with `xᵢ = yᵢ/h`, so `se = sd(x)/√n` and the interval is the
/// textbook `x̄ ± t·sd/√n` of the blocks' chips per hand. Unequal blocks (a match cut short) are
/// weighted by their hands, so the interval stays centred on total chips / total hands.
pub fn block_estimate(samples: &[BlockSample], level: f64) -> BlockEstimate {
    let n = samples.len();
    let total_hands: u64 = samples.iter().map(|s| s.hands).sum();
    let total_chips: f64 = samples.iter().map(|s| s.chips).sum();
    let mean = if total_hands == 0 {
        0.0
    } else {
        total_chips / total_hands as f64
    };
    let ci = if n < 2 || total_hands == 0 {
        None
    } else {
        let nf = n as f64;
        let mean_hands = total_hands as f64 / nf;
        let sum_sq: f64 = samples
            .iter()
            .map(|s| {
                let r = s.chips - mean * s.hands as f64;
                r * r
            })
            .sum();
        let se = (sum_sq / (nf * (nf - 1.0))).sqrt() / mean_hands;
        let t = student_t_quantile((1.0 + level) / 2.0, nf - 1.0);
        Some(Interval {
            low: mean - t * se,
            high: mean + t * se,
        })
    };
    BlockEstimate {
        blocks: n as u64,
        mean,
        ci,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn ln_gamma_matches_factorials() {
        // Γ(n) = (n−1)!
        let mut fact = 1.0_f64;
        for n in 1..30 {
            if n > 1 {
                fact *= (n - 1) as f64;
            }
            assert!(
                close(
                    ln_gamma(n as f64),
                    fact.ln(),
                    1e-11 * fact.ln().abs().max(1.0)
                ),
                "n = {n}"
            );
        }
        // Γ(½) = √π.
        assert!(close(
            ln_gamma(0.5),
            std::f64::consts::PI.sqrt().ln(),
            1e-13
        ));
    }

    #[test]
    fn incomplete_beta_known_values() {
        // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 − (1−x)^b.
        for &x in &[0.1, 0.3, 0.5, 0.9] {
            assert!(close(incomplete_beta(1.0, 1.0, x), x, 1e-13));
            assert!(close(incomplete_beta(3.0, 1.0, x), x.powi(3), 1e-13));
            assert!(close(
                incomplete_beta(1.0, 4.0, x),
                1.0 - (1.0 - x).powi(4),
                1e-13
            ));
        }
        assert_eq!(incomplete_beta(2.0, 3.0, 0.0), 0.0);
        assert_eq!(incomplete_beta(2.0, 3.0, 1.0), 1.0);
    }

    #[test]
    fn t_cdf_closed_forms() {
        // df = 1 is Cauchy: F(t) = ½ + atan(t)/π. df = 2: F(t) = ½ + t / (2√(2+t²)).
        for &t in &[-5.0, -1.0, 0.0, 0.3, 2.0, 12.0] {
            let cauchy = 0.5 + f64::atan(t) / std::f64::consts::PI;
            assert!(close(student_t_cdf(t, 1.0), cauchy, 1e-12), "t = {t}");
            let df2 = 0.5 + t / (2.0 * (2.0 + t * t).sqrt());
            assert!(close(student_t_cdf(t, 2.0), df2, 1e-12), "t = {t}");
        }
    }

    #[test]
    fn t_quantile_closed_forms_and_symmetry() {
        for &p in &[0.6, 0.9, 0.975, 0.995] {
            let cauchy = (std::f64::consts::PI * (p - 0.5)).tan();
            assert!(close(student_t_quantile(p, 1.0), cauchy, 1e-9 * cauchy));
            let q = student_t_quantile(p, 7.0);
            assert!(close(student_t_quantile(1.0 - p, 7.0), -q, 1e-12));
            assert!(close(student_t_cdf(q, 7.0), p, 1e-12));
        }
        assert_eq!(student_t_quantile(0.5, 3.0), 0.0);
        assert!(student_t_quantile(1.0, 3.0).is_nan());
        assert!(student_t_quantile(0.9, 0.0).is_nan());
    }

    #[test]
    fn block_estimate_equals_textbook_formula_for_equal_blocks() {
        let per_hand = [0.5, -0.2, 1.1, 0.3, 0.0, -0.7];
        let hands = 40;
        let samples: Vec<BlockSample> = per_hand
            .iter()
            .map(|x| BlockSample {
                chips: x * hands as f64,
                hands,
            })
            .collect();
        let est = block_estimate(&samples, 0.95);
        let n = per_hand.len() as f64;
        let mean = per_hand.iter().sum::<f64>() / n;
        let var = per_hand.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let half = student_t_quantile(0.975, n - 1.0) * var.sqrt() / n.sqrt();
        assert!(close(est.mean, mean, 1e-12));
        let ci = est.ci.unwrap();
        assert!(close(ci.low, mean - half, 1e-12));
        assert!(close(ci.high, mean + half, 1e-12));
        assert!(close(ci.half_width(), half, 1e-12));
    }

    #[test]
    fn block_estimate_degenerate_cases() {
        let one = block_estimate(
            &[BlockSample {
                chips: 10.0,
                hands: 5,
            }],
            0.95,
        );
        assert_eq!(one.mean, 2.0);
        assert_eq!(one.ci, None);
        let none = block_estimate(&[], 0.95);
        assert_eq!(none.mean, 0.0);
        assert_eq!(none.ci, None);
        let no_hands = block_estimate(
            &[
                BlockSample {
                    chips: 0.0,
                    hands: 0,
                },
                BlockSample {
                    chips: 0.0,
                    hands: 0,
                },
            ],
            0.95,
        );
        assert_eq!(no_hands.ci, None);
        // Unequal blocks: centred on total chips / total hands.
        let unequal = block_estimate(
            &[
                BlockSample {
                    chips: 10.0,
                    hands: 10,
                },
                BlockSample {
                    chips: 0.0,
                    hands: 30,
                },
                BlockSample {
                    chips: 20.0,
                    hands: 20,
                },
            ],
            0.95,
        );
        assert!(close(unequal.mean, 0.5, 1e-15));
        let ci = unequal.ci.unwrap();
        assert!(close((ci.low + ci.high) / 2.0, 0.5, 1e-12));
    }
}
