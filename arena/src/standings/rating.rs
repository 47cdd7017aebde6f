//! Bradley–Terry ratings on the Elo scale, fitted by Hunter's MM algorithm, with a bootstrap
//! over duplicate blocks for their error.
//!
//! # Model
//!
//! Each bot `i` has a strength `γᵢ > 0`; in a pairwise comparison `P(i beats j) = γᵢ/(γᵢ+γⱼ)`.
//! The rating is `400·log₁₀ γᵢ`, so that a difference of `D` Elo means an expected score of
//! `1/(1 + 10^(−D/400))` (+400 Elo ⇔ 10:1 odds; 3:1 odds ⇔ 400·log₁₀3 ≈ 190.8).
//!
//! # Fit (Hunter 2004, "MM algorithms for generalized Bradley–Terry models", eq. 3)
//!
//! With `wᵢ` the points `i` scored (a win is 1, a tie ½ for each) and `nᵢⱼ` the comparisons
//! between `i` and `j`, the log-likelihood is maximised by iterating
//! `γᵢ ← wᵢ / Σ_{j≠i} nᵢⱼ/(γᵢ+γⱼ)`, each step increasing the likelihood. Updates are applied in
//! place, bot after bot (the cyclic variant, also an MM algorithm, converging faster); after each
//! sweep the strengths of each connected group are rescaled to an arithmetic mean of 1 (the model
//! is invariant to that scale). Iteration stops when no `γ` moves by more than 1e-10 relatively,
//! or after 10 000 sweeps.
//!
//! The maximum-likelihood estimate is finite only if, for every split of the bots into two
//! groups, someone in each group scored against the other (Hunter's Assumption 1): a bot that
//! never lost would get an infinite rating. [`bradley_terry`] therefore accepts a prior of
//! `prior_draws` virtual drawn comparisons added to every pair that met (as BayesElo does), which
//! keeps every rating finite; the standings use [`PRIOR_DRAWS`] = 1, negligible next to the
//! hundreds of comparisons of a real tournament. With no prior and a degenerate case, the
//! ratings diverge and are clamped to ±[`RATING_CLAMP`].
//!
//! # Anchor
//!
//! Ratings are relative. Each group of bots connected by comparisons is anchored so that its
//! mean rating is 0 (bots of different groups, which never met, are not comparable).
//!
//! # Error
//!
//! [`bootstrap_errors`] resamples the duplicate blocks with replacement ([`BOOTSTRAP_RESAMPLES`]
//! resamples, drawn by a SplitMix64 generator with a fixed seed, so the result is deterministic),
//! refits on each resample, and reports `1.96 ×` the standard deviation of each bot's rating: the
//! half-width of a normal-approximation 95% interval. Resampling whole blocks keeps the
//! dependence between comparisons of one match or one block (the same cards), which the Fisher
//! information of independent comparisons would ignore.

/// Virtual drawn comparisons added to every pair that met, in the standings' fit.
pub const PRIOR_DRAWS: f64 = 1.0;

/// Bootstrap resamples for the rating errors.
pub const BOOTSTRAP_RESAMPLES: usize = 200;

/// Seed of the bootstrap's generator.
pub const BOOTSTRAP_SEED: u64 = 0x7ee9_9a77_1de5_0001;

/// Ratings are clamped to ± this many Elo (reached only in degenerate fits without prior).
pub const RATING_CLAMP: f64 = 4000.0;

const MAX_SWEEPS: usize = 10_000;
const TOLERANCE: f64 = 1e-10;
const Z_975: f64 = 1.959_963_984_540_054;

/// SplitMix64 (Steele, Lea & Flood 2014), the tiny generator used for the bootstrap: a Weyl
/// sequence with step `0x9E3779B97F4A7C15` passed through a 64-bit finaliser.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiply-shift (bias below `n/2⁶⁴`, negligible here).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A uniform number in `[0, 1)` with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One pairwise comparison: `a` scored `score_a` (1 win, ½ tie, 0 loss) against `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    pub a: usize,
    pub b: usize,
    pub score_a: f64,
}

/// The comparisons of one pair of bots in some unit (a duplicate block): `a` scored `points_a`
/// out of `games`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairTally {
    pub a: usize,
    pub b: usize,
    pub points_a: f64,
    pub games: f64,
}

/// Pairwise tallies among `players` bots: `points[i][j]` is what `i` scored against `j`,
/// `games[i][j] = games[j][i]` the number of comparisons.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    pub points: Vec<Vec<f64>>,
    pub games: Vec<Vec<f64>>,
}

impl Tally {
    pub fn new(players: usize) -> Self {
        Self {
            points: vec![vec![0.0; players]; players],
            games: vec![vec![0.0; players]; players],
        }
    }

    pub fn players(&self) -> usize {
        self.points.len()
    }

    /// Adds one comparison, `weight` times. Comparisons of a bot with itself are ignored.
    pub fn add(&mut self, c: Comparison, weight: f64) {
        if c.a == c.b {
            return;
        }
        self.points[c.a][c.b] += weight * c.score_a;
        self.points[c.b][c.a] += weight * (1.0 - c.score_a);
        self.games[c.a][c.b] += weight;
        self.games[c.b][c.a] += weight;
    }

    /// Adds a pair's tally, `weight` times.
    pub fn add_pair(&mut self, pair: &PairTally, weight: f64) {
        let (a, b) = (pair.a, pair.b);
        if a == b {
            return;
        }
        self.points[a][b] += weight * pair.points_a;
        self.points[b][a] += weight * (pair.games - pair.points_a);
        self.games[a][b] += weight * pair.games;
        self.games[b][a] += weight * pair.games;
    }

    /// Whether bot `i` took part in any comparison.
    pub fn has_games(&self, i: usize) -> bool {
        self.games[i].iter().any(|&g| g > 0.0)
    }
}

/// Bradley–Terry ratings (Elo scale, mean 0 per connected group) from a list of comparisons
/// among `players` bots, with `prior_draws` virtual draws per pair that met (0 for the plain
/// maximum-likelihood fit). See the module documentation.
pub fn bradley_terry(players: usize, comparisons: &[Comparison], prior_draws: f64) -> Vec<f64> {
    let mut tally = Tally::new(players);
    for &c in comparisons {
        tally.add(c, 1.0);
    }
    fit(&tally, prior_draws)
}

/// Bradley–Terry ratings from a [`Tally`]; see [`bradley_terry`]. Bots without comparisons get 0.
pub fn fit(tally: &Tally, prior_draws: f64) -> Vec<f64> {
    let n = tally.players();
    let mut points = tally.points.clone();
    let mut games = tally.games.clone();
    if prior_draws > 0.0 {
        for i in 0..n {
            for j in 0..n {
                if i != j && games[i][j] > 0.0 {
                    points[i][j] += prior_draws / 2.0;
                    games[i][j] += prior_draws;
                }
            }
        }
    }
    let wins: Vec<f64> = points.iter().map(|row| row.iter().sum()).collect();
    let groups = components(&games);
    let mut gamma = vec![1.0_f64; n];
    for _ in 0..MAX_SWEEPS {
        let mut max_change = 0.0_f64;
        for i in 0..n {
            let denominator: f64 = (0..n)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            if denominator <= 0.0 {
                continue;
            }
            let updated = wins[i] / denominator;
            let change = (updated - gamma[i]).abs() / gamma[i].max(f64::MIN_POSITIVE);
            max_change = max_change.max(change);
            gamma[i] = updated;
        }
        for group in &groups {
            let mean = group.iter().map(|&i| gamma[i]).sum::<f64>() / group.len() as f64;
            if mean > 0.0 {
                for &i in group {
                    gamma[i] /= mean;
                }
            }
        }
        if max_change < TOLERANCE {
            break;
        }
    }
    let mut ratings: Vec<f64> = gamma
        .iter()
        .map(|&g| 400.0 * g.max(1e-300).log10())
        .collect();
    for group in &groups {
        let mean = group.iter().map(|&i| ratings[i]).sum::<f64>() / group.len() as f64;
        for &i in group {
            ratings[i] = (ratings[i] - mean).clamp(-RATING_CLAMP, RATING_CLAMP);
        }
    }
    for (i, r) in ratings.iter_mut().enumerate() {
        if !games[i].iter().any(|&g| g > 0.0) {
            *r = 0.0;
        }
    }
    ratings
}

/// The connected groups of bots (by `games > 0`), each sorted, bots without games left out.
fn components(games: &[Vec<f64>]) -> Vec<Vec<usize>> {
    let n = games.len();
    let mut group_of = vec![usize::MAX; n];
    let mut groups = Vec::new();
    for start in 0..n {
        if group_of[start] != usize::MAX || !games[start].iter().any(|&g| g > 0.0) {
            continue;
        }
        let id = groups.len();
        let mut members = vec![start];
        group_of[start] = id;
        let mut next = 0;
        while next < members.len() {
            let i = members[next];
            next += 1;
            for j in 0..n {
                if games[i][j] > 0.0 && group_of[j] == usize::MAX {
                    group_of[j] = id;
                    members.push(j);
                }
            }
        }
        members.sort_unstable();
        groups.push(members);
    }
    groups
}

/// Bootstrap errors (95% half-widths, Elo) of the ratings, from the pair tallies of each
/// duplicate block: `resamples` times, draw as many blocks as there are with replacement, refit with
/// `prior_draws`, and take `1.96 ×` the standard deviation of each bot's rating over the
/// resamples in which it played. `None` for a bot with fewer than two such resamples, and for
/// every bot when there are fewer than two blocks (nothing to resample).
pub fn bootstrap_errors(
    blocks: &[Vec<PairTally>],
    players: usize,
    prior_draws: f64,
    resamples: usize,
    seed: u64,
) -> Vec<Option<f64>> {
    if blocks.len() < 2 {
        return vec![None; players];
    }
    let mut rng = SplitMix64::new(seed);
    let mut sum = vec![0.0_f64; players];
    let mut sum_sq = vec![0.0_f64; players];
    let mut count = vec![0_u64; players];
    let mut multiplicity = vec![0_u32; blocks.len()];
    for _ in 0..resamples {
        multiplicity.iter_mut().for_each(|m| *m = 0);
        for _ in 0..blocks.len() {
            multiplicity[rng.below(blocks.len() as u64) as usize] += 1;
        }
        let mut tally = Tally::new(players);
        for (block, &m) in blocks.iter().zip(&multiplicity) {
            if m > 0 {
                for pair in block {
                    tally.add_pair(pair, f64::from(m));
                }
            }
        }
        let ratings = fit(&tally, prior_draws);
        for i in 0..players {
            if tally.has_games(i) {
                sum[i] += ratings[i];
                sum_sq[i] += ratings[i] * ratings[i];
                count[i] += 1;
            }
        }
    }
    (0..players)
        .map(|i| {
            if count[i] < 2 {
                return None;
            }
            let k = count[i] as f64;
            let mean = sum[i] / k;
            let var = ((sum_sq[i] - k * mean * mean) / (k - 1.0)).max(0.0);
            Some(Z_975 * var.sqrt())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // First outputs for seed 1234567 (reference implementation by Vigna).
        let mut rng = SplitMix64::new(1234567);
        assert_eq!(rng.next_u64(), 6457827717110365317);
        assert_eq!(rng.next_u64(), 3203168211198807973);
        assert_eq!(rng.next_u64(), 9817491932198370423);
        let mut rng = SplitMix64::new(7);
        for _ in 0..1000 {
            assert!(rng.below(10) < 10);
            let u = rng.next_f64();
            assert!((0.0..1.0).contains(&u));
        }
    }

    /// Games between bot 0 and bot 1 with bot 0's scores.
    fn games_of_0_against_1(scores: &[f64]) -> Vec<Comparison> {
        scores
            .iter()
            .map(|&score_a| Comparison {
                a: 0,
                b: 1,
                score_a,
            })
            .collect()
    }

    #[test]
    fn three_to_one_is_190_8_elo() {
        let games = games_of_0_against_1(&[1.0, 1.0, 1.0, 0.0]);
        let r = bradley_terry(2, &games, 0.0);
        let expected = 400.0 * 3f64.log10();
        assert!((r[0] - r[1] - expected).abs() < 1e-6, "{r:?}");
        assert!((r[0] + r[1]).abs() < 1e-9);
    }

    #[test]
    fn draws_count_half() {
        // 1 win + 2 draws + 1 loss = 2 of 4: equal ratings.
        let games = games_of_0_against_1(&[1.0, 0.5, 0.5, 0.0]);
        let r = bradley_terry(2, &games, 0.0);
        assert!(r[0].abs() < 1e-9 && r[1].abs() < 1e-9);
    }

    #[test]
    fn transitive_three_bots_match_model() {
        // Build exact expected scores from known ratings, fit, recover the ratings.
        let truth = [150.0, 0.0, -150.0];
        let mut tally = Tally::new(3);
        for i in 0..3 {
            for j in 0..3 {
                if i < j {
                    let p = 1.0 / (1.0 + 10f64.powf((truth[j] - truth[i]) / 400.0));
                    tally.add(
                        Comparison {
                            a: i,
                            b: j,
                            score_a: p,
                        },
                        100.0,
                    );
                }
            }
        }
        let r = fit(&tally, 0.0);
        for i in 0..3 {
            assert!((r[i] - truth[i]).abs() < 1e-5, "{r:?}");
        }
    }

    #[test]
    fn perfect_record_stays_finite_with_prior_and_clamped_without() {
        let games = vec![
            Comparison {
                a: 0,
                b: 1,
                score_a: 1.0,
            };
            10
        ];
        let with_prior = bradley_terry(2, &games, 1.0);
        // 10.5 : 0.5 → 400·log10(21).
        assert!((with_prior[0] - with_prior[1] - 400.0 * 21f64.log10()).abs() < 1e-6);
        let without = bradley_terry(2, &games, 0.0);
        assert!(
            without
                .iter()
                .all(|r| r.is_finite() && r.abs() <= RATING_CLAMP)
        );
        assert!(without[0] > without[1]);
    }

    #[test]
    fn disconnected_groups_each_have_mean_zero_and_loners_zero() {
        let games = vec![
            Comparison {
                a: 0,
                b: 1,
                score_a: 0.75,
            },
            Comparison {
                a: 2,
                b: 3,
                score_a: 0.25,
            },
        ];
        let r = bradley_terry(5, &games, 0.0);
        assert!((r[0] + r[1]).abs() < 1e-9);
        assert!((r[2] + r[3]).abs() < 1e-9);
        assert!(r[0] > 0.0 && r[3] > 0.0);
        assert_eq!(r[4], 0.0);
    }

    #[test]
    fn bootstrap_is_deterministic_and_needs_two_blocks() {
        let blocks: Vec<Vec<PairTally>> = (0..20)
            .map(|k| {
                vec![PairTally {
                    a: 0,
                    b: 1,
                    points_a: if k % 3 == 0 { 0.0 } else { 1.0 },
                    games: 1.0,
                }]
            })
            .collect();
        let a = bootstrap_errors(&blocks, 2, 1.0, 100, 5);
        let b = bootstrap_errors(&blocks, 2, 1.0, 100, 5);
        assert_eq!(a, b);
        assert!(a.iter().all(|e| e.is_some_and(|e| e > 0.0)));
        assert_eq!(
            bootstrap_errors(&blocks[..1], 2, 1.0, 100, 5),
            vec![None, None]
        );
    }
}
