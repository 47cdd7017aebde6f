//! A sequential probability ratio test for head-to-head benchmarking on chips per hand.
//!
//! # Observations
//!
//! One observation per duplicate block (for heads-up, a duplicate pair: the same deals with the
//! seats swapped): the candidate's chips per hand over the block, or the candidate's edge over
//! the baseline. Blocks are independent; the hands inside one are not.
//!
//! # Hypotheses
//!
//! With `μ` the true mean of the observations: `H0: μ ≤ m0` against `H1: μ ≥ m1` (`m0 < m1`), with
//! error rates `α = P(accept H1 | H0)` and `β = P(accept H0 | H1)`.
//!
//! # Statistic
//!
//! The generalized SPRT with the normal approximation, as fastchess does for its normalised
//! model: for `n` observations with mean `x̄` and variance `s²` estimated from the data, the
//! log-likelihood ratio of `N(m1, s²)` against `N(m0, s²)` is
//!
//! ```text
//! LLR = Σ [(xᵢ−m0)² − (xᵢ−m1)²] / (2s²) = n·(m1 − m0)·(2x̄ − m0 − m1) / (2s²)
//! ```
//!
//! `s²` is the unbiased sample variance (divisor `n − 1`, slightly more conservative than the
//! maximum-likelihood divisor `n`). The LLR is 0 before two observations; if every observation
//! is identical (`s² = 0`) it is `±∞` by the sign of `2x̄ − m0 − m1` (0 if that is 0).
//!
//! # Decision (Wald)
//!
//! With `lower = ln(β/(1−α))` and `upper = ln((1−β)/α)`: accept H1 once `LLR ≥ upper`, accept H0
//! once `LLR ≤ lower`, continue otherwise. No decision is taken before `min_samples`
//! observations (default [`Sprt::DEFAULT_MIN_SAMPLES`] = 20, the `min_blocks` of a tournament
//! file's `[sprt]` table): the variance estimated from a
//! handful of blocks is unreliable, and an early small `s²` inflates the LLR. Measured on normal
//! streams (m0 = 0, m1 = 0.2, sd 1, α = β = 0.05, 2000 runs each): deciding from the second
//! observation on gave error rates of about 15%; from the 20th, about 5.5%, for an average of
//! about 130 observations either way.
//!
//! # Verdict
//!
//! [`run`] runs the test over a stream of block scores and [`words`] words the result
//! ([`SprtVerdict`], saved in standings.json): H1 accepted means the candidate is better than
//! the baseline by at least `m1` chips per hand (at the error rates given), H0 accepted that
//! its edge is at most `m0`; `max_blocks` reached without either is inconclusive. Where the
//! scores come from (a tournament's match records and replays, plain or luck-corrected) is
//! the caller's: `crate::tournament::sprt_blocks`.

use serde::{Deserialize, Serialize};

/// The sequential test's parameters: a tournament file's `[sprt]` table (read and checked by
/// `crate::tournament::config`, recorded in plan.json), kept with the test that uses them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    pub m0: f64,
    pub m1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub max_blocks: u64,
    /// No decision before this many duplicate blocks. Left out of plan.json (and so of the
    /// fingerprint) when it is the default, so that directories started before it existed
    /// resume; a plan without it reads as the default.
    #[serde(
        default = "SprtConfig::default_min_blocks",
        skip_serializing_if = "SprtConfig::is_default_min_blocks"
    )]
    pub min_blocks: u64,
    /// How a block is scored. Left out of plan.json when plain, so that a plan written before
    /// the luck correction existed reads as what it ran with.
    #[serde(default, skip_serializing_if = "SprtEstimator::is_plain")]
    pub estimator: SprtEstimator,
}

/// How the SPRT scores a duplicate block (`[sprt] estimator`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtEstimator {
    /// The candidate's chips per hand over the block.
    #[default]
    Plain,
    /// Chips per hand minus the luck of the cards, fitted on the blocks before
    /// (`crate::standings::estimator`): the same expectation, usually a smaller spread.
    LuckCorrected,
}

impl SprtEstimator {
    fn is_plain(&self) -> bool {
        *self == SprtEstimator::Plain
    }

    /// The estimator in words, for the verdict.
    pub fn describe(self) -> &'static str {
        match self {
            SprtEstimator::Plain => "chips per hand of each duplicate block",
            SprtEstimator::LuckCorrected => {
                "luck-corrected chips per hand of each duplicate block (the luck of the cards \
                 removed with coefficients fitted on the earlier blocks; same expectation)"
            }
        }
    }
}

impl SprtConfig {
    /// Duplicate blocks before any decision unless the file says otherwise: the variance
    /// estimated from fewer is unreliable (see the module documentation).
    pub const DEFAULT_MIN_BLOCKS: u64 = Sprt::DEFAULT_MIN_SAMPLES;

    fn default_min_blocks() -> u64 {
        Self::DEFAULT_MIN_BLOCKS
    }

    fn is_default_min_blocks(n: &u64) -> bool {
        *n == Self::DEFAULT_MIN_BLOCKS
    }
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtDecision {
    Continue,
    AcceptH0,
    AcceptH1,
}

/// Invalid parameters for [`Sprt::try_new`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("SPRT bounds must be finite with m0 < m1 (got m0 = {m0}, m1 = {m1})")]
    Bounds { m0: f64, m1: f64 },
    #[error(
        "SPRT error rates must lie strictly between 0 and 1 (got alpha = {alpha}, beta = {beta})"
    )]
    Rates { alpha: f64, beta: f64 },
}

/// The state of a sequential test: its parameters and the running mean and variance of the
/// observations (Welford's algorithm). See the module documentation for the math.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    m0: f64,
    m1: f64,
    alpha: f64,
    beta: f64,
    min_samples: u64,
    n: u64,
    mean: f64,
    /// Σ(xᵢ − x̄)², maintained by Welford's update.
    m2: f64,
}

impl Sprt {
    /// Observations needed before any decision, unless changed by [`Sprt::with_min_samples`].
    pub const DEFAULT_MIN_SAMPLES: u64 = 20;

    /// A test of `H0: μ ≤ m0` against `H1: μ ≥ m1` with error rates `alpha` and `beta`.
    ///
    /// # Panics
    ///
    /// If the parameters are invalid (see [`Sprt::try_new`]).
    pub fn new(m0: f64, m1: f64, alpha: f64, beta: f64) -> Self {
        match Self::try_new(m0, m1, alpha, beta) {
            Ok(sprt) => sprt,
            Err(e) => panic!("{e}"),
        }
    }

    /// Like [`Sprt::new`], but returns an error if `m0 < m1` does not hold (or either is not
    /// finite), or `alpha`, `beta` are not both in `(0, 1)`.
    pub fn try_new(m0: f64, m1: f64, alpha: f64, beta: f64) -> Result<Self, SprtError> {
        if !(m0.is_finite() && m1.is_finite() && m0 < m1) {
            return Err(SprtError::Bounds { m0, m1 });
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0) {
            return Err(SprtError::Rates { alpha, beta });
        }
        Ok(Self {
            m0,
            m1,
            alpha,
            beta,
            min_samples: Self::DEFAULT_MIN_SAMPLES,
            n: 0,
            mean: 0.0,
            m2: 0.0,
        })
    }

    /// No decision before `min_samples` observations (at least 2).
    pub fn with_min_samples(mut self, min_samples: u64) -> Self {
        self.min_samples = min_samples.max(2);
        self
    }

    /// The test a tournament file's `[sprt]` table describes (checked when the file is read).
    pub fn of(params: &SprtConfig) -> Self {
        Sprt::new(params.m0, params.m1, params.alpha, params.beta)
            .with_min_samples(params.min_blocks)
    }

    /// Adds one observation: a duplicate block's chips per hand (or edge per hand).
    /// Non-finite values are ignored.
    pub fn add(&mut self, block_score: f64) {
        if !block_score.is_finite() {
            return;
        }
        self.n += 1;
        let delta = block_score - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (block_score - self.mean);
    }

    /// Number of observations.
    pub fn samples(&self) -> u64 {
        self.n
    }

    /// Mean of the observations (0 before the first).
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Unbiased sample variance of the observations (0 before the second).
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }

    /// `LLR = n·(m1 − m0)·(2x̄ − m0 − m1) / (2s²)`; 0 before two observations, `±∞` if `s² = 0`.
    pub fn llr(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let direction = 2.0 * self.mean - self.m0 - self.m1;
        let var = self.variance();
        if var <= 0.0 {
            return if direction > 0.0 {
                f64::INFINITY
            } else if direction < 0.0 {
                f64::NEG_INFINITY
            } else {
                0.0
            };
        }
        self.n as f64 * (self.m1 - self.m0) * direction / (2.0 * var)
    }

    /// `(ln(β/(1−α)), ln((1−β)/α))`: accept H0 at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision so far.
    pub fn decision(&self) -> SprtDecision {
        if self.n < self.min_samples {
            return SprtDecision::Continue;
        }
        let llr = self.llr();
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// The verdict of a head-to-head SPRT tournament, recomputed from its match records and its
/// `[sprt]` settings (so a resumed or merged output directory shows it too). Saved as the
/// `sprt` object of standings.json.
///
/// The observations are the candidate's chips per hand over each duplicate block, fed in block
/// order from block 0 on, stopping at the first decision or at `max_blocks`, or at the first
/// block with a match missing: the same blocks, in the same order, as the run that played them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtVerdict {
    /// `"h1"`: the candidate is better by at least `m1` chips per hand; `"h0"`: its edge is at
    /// most `m0`; `"inconclusive"`: `max_blocks` reached without a decision; `"undecided"`:
    /// the run stopped (interrupted, or matches missing) before the test decided.
    pub decision: String,
    /// The verdict in words.
    pub verdict: String,
    /// The first bot of the file.
    pub candidate: String,
    /// The second bot.
    pub baseline: String,
    /// Duplicate blocks the test counted.
    pub blocks: u64,
    /// The mean of those blocks' observations: the candidate's chips per hand, luck-corrected
    /// when `estimator` says so (the same expectation).
    pub mean: f64,
    /// Log-likelihood ratio; a string `"inf"` / `"-inf"` when every block scored alike.
    #[serde(with = "float_or_infinity")]
    pub llr: f64,
    /// Accept H0 at or below.
    pub lower: f64,
    /// Accept H1 at or above.
    pub upper: f64,
    pub alpha: f64,
    pub beta: f64,
    pub m0: f64,
    pub m1: f64,
    pub min_blocks: u64,
    pub max_blocks: u64,
    /// H0 in words: the candidate's edge is at most `m0` chips per hand.
    pub h0: String,
    /// H1 in words: the candidate's edge is at least `m1` chips per hand.
    pub h1: String,
    /// What each block's observation is ([`SprtEstimator::describe`]).
    #[serde(default)]
    pub estimator: String,
    /// Blocks the luck-corrected estimator had to score plain (a replay missing or
    /// unreadable); absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub uncorrected_blocks: u64,
    /// The luck-corrected estimator's revision that computed this verdict
    /// ([`super::estimator::ESTIMATOR_REVISION`]); absent for a plain test, and in verdicts saved
    /// before revisions were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimator_revision: Option<u32>,
    /// Why this verdict is not this arena's own computation, when it is not: the test ran with
    /// another estimator revision (`crate::tournament::standings_of`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Runs a test of `params` over `scores`, one per duplicate block in block order, as a run
/// does: from the first block, stopping at the first decision or after `max_blocks`. A score
/// past either is never drawn from the iterator, so a lazy one computes no block the test
/// does not count.
pub fn run(params: &SprtConfig, scores: impl IntoIterator<Item = f64>) -> Sprt {
    let mut test = Sprt::of(params);
    let mut scores = scores.into_iter();
    let mut blocks = 0;
    while blocks < params.max_blocks
        && test.decision() == SprtDecision::Continue
        && let Some(score) = scores.next()
    {
        test.add(score);
        blocks += 1;
    }
    test
}

/// `LLR 1.23 [-2.94, 2.94] after 14 blocks`: the state of a running test, for progress lines.
pub fn progress_line(test: &Sprt) -> String {
    let (lower, upper) = test.bounds();
    let n = test.samples();
    format!(
        "SPRT: LLR {} [{lower:.2}, {upper:.2}] after {n} {}",
        number(test.llr()),
        if n == 1 { "block" } else { "blocks" }
    )
}

fn number(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:.2}")
    }
}

/// The verdict of `test` in words.
pub fn words(test: &Sprt, params: &SprtConfig, candidate: &str, baseline: &str) -> SprtVerdict {
    let (lower, upper) = test.bounds();
    let llr = test.llr();
    let n = test.samples();
    let blocks = if n == 1 { "block" } else { "blocks" };
    let (m0, m1, alpha, beta) = (params.m0, params.m1, params.alpha, params.beta);
    let h0 = format!(
        "H0: {candidate}'s edge over {baseline} is at most {m0} chips per hand \
         (its mean chips per hand over a duplicate block)"
    );
    let h1 = format!("H1: {candidate}'s edge over {baseline} is at least {m1} chips per hand");
    let mean = test.mean();
    let at = format!("at alpha {alpha}, beta {beta}");
    let (decision, verdict) = match test.decision() {
        SprtDecision::AcceptH1 => (
            "h1",
            format!(
                "{candidate} is better than {baseline}: the SPRT accepted H1 (an edge of at \
                 least {m1} chips per hand) {at} after {n} duplicate {blocks} \
                 (LLR {} >= upper bound {upper:.2}; mean edge {mean:+.3} chips per hand)",
                number(llr)
            ),
        ),
        SprtDecision::AcceptH0 => (
            "h0",
            format!(
                "{candidate} is not better than {baseline} by {m1} chips per hand: the SPRT \
                 accepted H0 (an edge of at most {m0} chips per hand) {at} after {n} duplicate \
                 {blocks} (LLR {} <= lower bound {lower:.2}; mean edge {mean:+.3} chips per hand)",
                number(llr)
            ),
        ),
        SprtDecision::Continue if n >= params.max_blocks => (
            "inconclusive",
            format!(
                "inconclusive after {n} duplicate {blocks} (max_blocks reached): LLR {} \
                 between {lower:.2} and {upper:.2}, neither H1 (an edge of at least {m1} chips \
                 per hand) nor H0 (at most {m0}) accepted {at}; mean edge {mean:+.3} chips per \
                 hand",
                number(llr)
            ),
        ),
        SprtDecision::Continue => (
            "undecided",
            format!(
                "no decision yet after {n} duplicate {blocks}{}: LLR {} between {lower:.2} and \
                 {upper:.2}; run the tournament again to continue the test",
                if n < params.min_blocks {
                    format!(" (none is taken before min_blocks = {})", params.min_blocks)
                } else {
                    String::new()
                },
                number(llr)
            ),
        ),
    };
    SprtVerdict {
        decision: decision.to_string(),
        verdict,
        candidate: candidate.to_string(),
        baseline: baseline.to_string(),
        blocks: n,
        mean,
        llr,
        lower,
        upper,
        alpha,
        beta,
        m0,
        m1,
        min_blocks: params.min_blocks,
        max_blocks: params.max_blocks,
        h0,
        h1,
        estimator: params.estimator.describe().to_string(),
        uncorrected_blocks: 0,
        estimator_revision: None,
        caveat: None,
    }
}

/// JSON has no infinity: an infinite LLR is the string `"inf"` or `"-inf"`.
mod float_or_infinity {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        if x.is_infinite() {
            s.serialize_str(if *x > 0.0 { "inf" } else { "-inf" })
        } else {
            s.serialize_f64(*x)
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Number(f64),
        Text(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match Repr::deserialize(d)? {
            Repr::Number(x) => Ok(x),
            Repr::Text(t) if t == "inf" => Ok(f64::INFINITY),
            Repr::Text(t) if t == "-inf" => Ok(f64::NEG_INFINITY),
            Repr::Text(t) => Err(serde::de::Error::custom(format!(
                "not an LLR: {}",
                crate::console::quote::quoted(&t)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llr_matches_sum_of_normal_log_likelihoods() {
        let xs = [0.3, -0.1, 0.8, 0.25, 0.05, 0.6];
        let mut sprt = Sprt::new(0.0, 0.2, 0.05, 0.05);
        for &x in &xs {
            sprt.add(x);
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let direct: f64 = xs
            .iter()
            .map(|x| ((x - 0.0f64).powi(2) - (x - 0.2f64).powi(2)) / (2.0 * var))
            .sum();
        assert!((sprt.llr() - direct).abs() < 1e-12);
        assert!((sprt.mean() - mean).abs() < 1e-15);
        assert!((sprt.variance() - var).abs() < 1e-15);
    }

    #[test]
    fn bounds_are_walds() {
        let sprt = Sprt::new(0.0, 1.0, 0.05, 0.05);
        let (lower, upper) = sprt.bounds();
        assert!((lower - (0.05f64 / 0.95).ln()).abs() < 1e-15);
        assert!((upper - (0.95f64 / 0.05).ln()).abs() < 1e-15);
        assert!((lower + 2.944_438_979).abs() < 1e-9);
    }

    #[test]
    fn degenerate_streams() {
        let mut sprt = Sprt::new(0.0, 1.0, 0.05, 0.05).with_min_samples(2);
        assert_eq!(sprt.llr(), 0.0);
        sprt.add(3.0);
        assert_eq!(sprt.decision(), SprtDecision::Continue);
        sprt.add(3.0);
        assert_eq!(sprt.llr(), f64::INFINITY);
        assert_eq!(sprt.decision(), SprtDecision::AcceptH1);
        sprt.add(f64::NAN);
        assert_eq!(sprt.samples(), 2);
    }

    #[test]
    fn min_samples_delays_decision() {
        let mut sprt = Sprt::new(0.0, 1.0, 0.05, 0.05).with_min_samples(5);
        for _ in 0..4 {
            sprt.add(-3.0);
        }
        assert_eq!(sprt.decision(), SprtDecision::Continue);
        sprt.add(-3.0);
        assert_eq!(sprt.decision(), SprtDecision::AcceptH0);
    }

    #[test]
    fn invalid_parameters_are_errors() {
        assert!(Sprt::try_new(1.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::try_new(0.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::try_new(0.0, f64::NAN, 0.05, 0.05).is_err());
        assert!(Sprt::try_new(0.0, 1.0, 0.0, 0.05).is_err());
        assert!(Sprt::try_new(0.0, 1.0, 0.05, 1.0).is_err());
    }
}
