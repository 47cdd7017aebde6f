//! Ratings: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013,
//! <http://www.glicko.net/glicko/glicko2.pdf>), one rating period per duplicate pair. A pair
//! (the same deals played twice, seats swapped) is one game whose score is the sign of the
//! pair's total chip margin: luck of the cards cancels out in the sum, so the sign says
//! which bot played the deals better.

/// A bot version's rating on the public scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// A new version: nothing known yet.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };
}

/// The system constant τ, which bounds how fast volatility moves: Glickman suggests 0.3 to
/// 1.2; 0.5 is his example's.
const TAU: f64 = 0.5;
/// Glicko-1 to Glicko-2 scale (400 / ln 10).
const SCALE: f64 = 173.7178;
/// Convergence of the volatility iteration (step 5 of the paper).
const EPSILON: f64 = 0.000_001;

/// The score of the pair for the first bot: 1 (win), 0.5 (draw), 0 (loss) by the sign of
/// its total chips over both matches.
pub fn pair_score(margin: i64) -> f64 {
    match margin.signum() {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// One Glicko-2 rating period for `player` against `games` (opponent, score), steps 2-8 of
/// the paper. With no games only the deviation grows (step 6 alone).
pub fn update(player: Rating, games: &[(Rating, f64)]) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            deviation: (phi_star * SCALE).min(Rating::NEW.deviation),
            ..player
        };
    }
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for (opponent, score) in games {
        let mu_j = (opponent.rating - 1500.0) / SCALE;
        let g_j = g(opponent.deviation / SCALE);
        let e = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
        v_inv += g_j * g_j * e * (1.0 - e);
        sum += g_j * (score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;

    // Step 5: the new volatility, by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    // Bounded: the iteration converges in a handful of steps; a cap keeps a pathological
    // input from spinning.
    for _ in 0..100 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let new_sigma = (big_a / 2.0).exp();

    let phi_star = (phi * phi + new_sigma * new_sigma).sqrt();
    let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let new_mu = mu + new_phi * new_phi * sum;
    let rated = Rating {
        rating: new_mu * SCALE + 1500.0,
        deviation: (new_phi * SCALE).min(Rating::NEW.deviation),
        volatility: new_sigma,
    };
    if rated.rating.is_finite() && rated.deviation.is_finite() && rated.volatility.is_finite() {
        rated
    } else {
        player
    }
}

/// Both bots of a pair after it: `margin` is the first bot's total chips over the two
/// matches. Each is rated against the other's rating from before the pair.
pub fn rate_pair(a: Rating, b: Rating, margin: i64) -> (Rating, Rating) {
    let score = pair_score(margin);
    (update(a, &[(b, score)]), update(b, &[(a, 1.0 - score)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        // The paper's example: 1500 (RD 200) beats 1400 (30), loses to 1550 (100) and to
        // 1700 (300): 1464.06, RD 151.52, volatility 0.05999.
        let out = update(
            r(1500.0, 200.0),
            &[
                (r(1400.0, 30.0), 1.0),
                (r(1550.0, 100.0), 0.0),
                (r(1700.0, 300.0), 0.0),
            ],
        );
        assert!((out.rating - 1464.06).abs() < 0.01, "{out:?}");
        assert!((out.deviation - 151.52).abs() < 0.01, "{out:?}");
        assert!((out.volatility - 0.05999).abs() < 0.00001, "{out:?}");
    }

    #[test]
    fn a_pair_moves_both_bots_symmetrically() {
        let (a, b) = rate_pair(Rating::NEW, Rating::NEW, 120);
        assert!(a.rating > 1500.0 && b.rating < 1500.0, "{a:?} {b:?}");
        assert!((a.rating - 1500.0 + (b.rating - 1500.0)).abs() < 1e-9);
        assert!(a.deviation < 350.0 && b.deviation < 350.0);
        let (a, b) = rate_pair(Rating::NEW, Rating::NEW, 0);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        // A win against a much stronger bot counts for more than against a weaker one.
        let (up, _) = rate_pair(r(1500.0, 100.0), r(1800.0, 100.0), 1);
        let (small, _) = rate_pair(r(1500.0, 100.0), r(1200.0, 100.0), 1);
        assert!(
            up.rating - 1500.0 > small.rating - 1500.0,
            "{up:?} {small:?}"
        );
    }

    #[test]
    fn scores_follow_the_margin_sign() {
        assert_eq!(pair_score(5), 1.0);
        assert_eq!(pair_score(0), 0.5);
        assert_eq!(pair_score(-1), 0.0);
        assert_eq!(pair_score(i64::MIN), 0.0);
    }

    #[test]
    fn idle_periods_only_widen_the_deviation() {
        let out = update(r(1600.0, 50.0), &[]);
        assert_eq!(out.rating, 1600.0);
        assert!(out.deviation > 50.0);
        assert_eq!(update(Rating::NEW, &[]).deviation, 350.0);
    }
}
