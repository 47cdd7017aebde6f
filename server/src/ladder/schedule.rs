//! The scheduler's choice of the next pair, apart from SQL: the bot that has played least
//! (rated pairs plus pairs still waiting to be played, so that a filling queue spreads over
//! everyone), ties broken by the longest idle; its opponent among the [`NEAREST`] nearest
//! in rating of other owners' bots, the one that has played least (then the nearest). A
//! user's bots never play each other: two versions of one author say little about either.

/// How many of the nearest-rated opponents are considered: more than one, so that a bot does
/// not meet the same neighbour every time.
pub const NEAREST: usize = 3;

/// A ready bot version, as the scheduler sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub version_id: i64,
    pub owner_id: i64,
    pub rating: f64,
    /// Rated pairs plus pairs scheduled and not yet played.
    pub games: i64,
    /// When it was last scheduled (ms); `None` if never.
    pub last_scheduled: Option<i64>,
}

/// The next pair as (first bot, opponent), or `None` when fewer than two owners have a
/// ready bot.
pub fn pick_pair(candidates: &[Candidate]) -> Option<(i64, i64)> {
    // `None` (never scheduled) sorts before any time: the longest idle.
    let first = candidates
        .iter()
        .filter(|c| candidates.iter().any(|o| o.owner_id != c.owner_id))
        .min_by_key(|c| (c.games, c.last_scheduled, c.version_id))?;
    let mut others: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| c.owner_id != first.owner_id)
        .collect();
    let distance = |c: &Candidate| (c.rating - first.rating).abs();
    others.sort_by(|x, y| {
        distance(x)
            .total_cmp(&distance(y))
            .then(x.version_id.cmp(&y.version_id))
    });
    others.truncate(NEAREST);
    let opponent = others.iter().min_by(|x, y| {
        (x.games, x.last_scheduled)
            .cmp(&(y.games, y.last_scheduled))
            .then(distance(x).total_cmp(&distance(y)))
            .then(x.version_id.cmp(&y.version_id))
    })?;
    Some((first.version_id, opponent.version_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(version_id: i64, owner_id: i64, rating: f64, games: i64, last: Option<i64>) -> Candidate {
        Candidate {
            version_id,
            owner_id,
            rating,
            games,
            last_scheduled: last,
        }
    }

    #[test]
    fn nothing_to_do_without_two_owners() {
        assert_eq!(pick_pair(&[]), None);
        assert_eq!(pick_pair(&[c(1, 10, 1500.0, 0, None)]), None);
        // Two bots of one owner never meet.
        assert_eq!(
            pick_pair(&[c(1, 10, 1500.0, 0, None), c(2, 10, 1500.0, 0, None)]),
            None
        );
    }

    #[test]
    fn the_least_played_bot_goes_first_then_the_longest_idle() {
        let bots = [
            c(1, 10, 1500.0, 5, Some(100)),
            c(2, 20, 1500.0, 3, Some(900)),
            c(3, 30, 1500.0, 3, Some(200)),
        ];
        assert_eq!(pick_pair(&bots).unwrap().0, 3);
        // Never scheduled beats any time.
        let bots = [c(1, 10, 1500.0, 0, Some(1)), c(2, 20, 1500.0, 0, None)];
        assert_eq!(pick_pair(&bots), Some((2, 1)));
    }

    #[test]
    fn the_opponent_is_near_in_rating_and_of_another_owner() {
        let bots = [
            c(1, 10, 1500.0, 0, None),
            c(2, 10, 1500.0, 9, None), // same owner: never
            c(3, 20, 1900.0, 1, None), // far: not among the nearest three
            c(4, 30, 1520.0, 4, None),
            c(5, 40, 1450.0, 4, None),
            c(6, 50, 1560.0, 2, None),
        ];
        // Nearest three of other owners: 4 (20), 5 (50), 6 (60); 6 has played least.
        assert_eq!(pick_pair(&bots), Some((1, 6)));
    }

    #[test]
    fn a_first_bot_whose_owner_has_no_rival_is_passed_over() {
        // Owner 10's two bots: the least played one (1) still meets owner 20's bot.
        let bots = [
            c(1, 10, 1500.0, 0, None),
            c(2, 10, 1500.0, 0, None),
            c(3, 20, 1000.0, 7, None),
        ];
        assert_eq!(pick_pair(&bots), Some((1, 3)));
    }
}
