//! When a rating is too young to rank: a new version starts at 1500 ± 700 and, one pair per
//! rating period, still spans about ± 580 after its first game and ± 300 after ten. Ranking
//! such a bot #1 says nothing, so the leaderboard ranks only settled ratings and lists the
//! provisional ones after them, unranked, and bot pages mark them (`[ladder]
//! provisional_games` and `provisional_interval` in the contest file).

/// A rating is provisional while its version has played fewer than `min_games` rated pairs
/// or its interval (± 2 deviations, as the pages show it) is wider than `max_interval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProvisionalRule {
    pub min_games: u64,
    /// Rating points, the "± N" shown on the pages.
    pub max_interval: u64,
}

impl ProvisionalRule {
    /// Ten pairs: Glicko-2 (τ = 0.5) brings a version from ± 700 to about ± 270-300 in ten
    /// one-game periods on a small ladder, so both halves of the rule are usually met
    /// together; a bot that plays erratic opponents keeps a wider interval longer.
    pub const DEFAULT: ProvisionalRule = ProvisionalRule {
        min_games: 10,
        max_interval: 300,
    };

    /// Whether a rating of `deviation` after `games` rated pairs is provisional. The
    /// interval is compared as the pages round it, so "± 300" is never provisional under a
    /// limit of 300.
    pub fn is_provisional(&self, games: i64, deviation: f64) -> bool {
        let interval = (2.0 * deviation).round();
        games < self.min_games as i64 || interval > self.max_interval as f64
    }

    /// The rule in words, for the pages: "fewer than 10 rated games or an interval wider
    /// than ± 300".
    pub fn describe(&self) -> String {
        format!(
            "fewer than {} rated game{} or an interval wider than ± {}",
            self.min_games,
            if self.min_games == 1 { "" } else { "s" },
            self.max_interval
        )
    }
}

#[cfg(test)]
mod tests {
    use super::ProvisionalRule;

    #[test]
    fn too_few_games_or_too_wide_an_interval_is_provisional() {
        let rule = ProvisionalRule::DEFAULT;
        // The bot: one game, ± 581.
        assert!(rule.is_provisional(1, 290.5));
        // Enough games, interval still too wide.
        assert!(rule.is_provisional(25, 160.0));
        // Narrow enough, too few games (a bot that only beat much weaker ones).
        assert!(rule.is_provisional(9, 100.0));
        assert!(!rule.is_provisional(10, 150.0));
        // As shown: 2σ = 300.4 reads "± 300", within the limit.
        assert!(!rule.is_provisional(10, 150.2));
        assert!(rule.is_provisional(10, 150.3));
        // Zero games asked: only the interval counts.
        let interval_only = ProvisionalRule {
            min_games: 0,
            max_interval: 300,
        };
        assert!(!interval_only.is_provisional(0, 100.0));
        assert!(interval_only.is_provisional(0, 350.0));
    }

    #[test]
    fn the_rule_reads_as_a_sentence() {
        assert_eq!(
            ProvisionalRule::DEFAULT.describe(),
            "fewer than 10 rated games or an interval wider than ± 300"
        );
        let one = ProvisionalRule {
            min_games: 1,
            max_interval: 700,
        };
        assert_eq!(
            one.describe(),
            "fewer than 1 rated game or an interval wider than ± 700"
        );
    }
}
