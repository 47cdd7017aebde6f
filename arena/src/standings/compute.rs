//! The standings of a tournament, computed from its finished matches.
//!
//! # Definitions
//!
//! * **Appearance.** A bot appears in a match once per seat it holds (a bot seated twice in one
//!   match, by self-play under one name, counts twice: matches, W-L-D and faults are per seat).
//! * **Chips per hand.** Total net chips over total hands of the bot's matches.
//! * **Confidence interval.** 95%, with the duplicate block as the unit of independence: for every
//!   block the bot played, its chips and hands in that block; then
//!   [`block_estimate`](super::stats::block_estimate): `mean ± t_{0.975, blocks−1}·sd/√blocks`
//!   (hands-weighted if blocks differ in length). With one block the interval is unbounded and
//!   is `None` (`null` in JSON).
//! * **Won / lost / drawn.** In a match, a bot won if its net is strictly the highest at the table,
//!   drew if it is tied for the highest, lost otherwise (so in a 4-seat match, 3 seats lose).
//! * **Rating** (the ranking). Bradley–Terry on duplicate blocks: in every block, each pair
//!   of bots that met is one comparison, won by the bot whose chips edge over the other in
//!   that block (`(netA − netB)/2` summed over the block's matches) is positive, half each at
//!   exactly 0. The deal's luck cancels within a block, and a block counts once however large
//!   the margin, so a bot that crushes the weakest bot does not outrank one that beats it
//!   head-to-head. Fitted by Hunter's MM algorithm with one virtual draw per pair, on the Elo
//!   scale (`400·log₁₀ γ`: +200 means winning ~76% of blocks against a 0-rated bot), anchored
//!   so the mean rating is 0. Its error is the 95% half-width `1.96 × sd` of a bootstrap over
//!   duplicate blocks (200 resamples, fixed seed). See [`super::rating`].
//! * **Tier.** Down the rating order, a bot opens a new tier when it is below the first bot of
//!   the current tier by more than 1.96 standard errors of the difference; bots of one tier
//!   are not separable at 95%.
//! * **Crosstable.** For every ordered pair (A, B) that sat in the same match: the matches and
//!   hands they shared, A's chips per hand in them, and A's *edge* over B: `(netA − netB)/2` per
//!   hand. Heads-up (zero-sum) the edge is exactly A's chips per hand; at larger tables it
//!   isolates A against B from the other seats. The 95% interval of the edge over the blocks they
//!   shared gives the mark: `"+"` if it lies above 0 (A significantly ahead), `"-"` below 0,
//!   `""` otherwise (including a single shared block).
//!
//! Bots are ordered by rating, descending, ties by chips per hand, then by name. Records whose per-seat vectors
//! are shorter than `seats` are read leniently (missing entries count as 0). Everything is
//! deterministic: the same records give the same standings, bit for bit.

use std::collections::BTreeMap;

use protocol::FaultKind;
use serde::{Deserialize, Serialize};

use super::match_record::MatchRecord;
use super::rating::{
    BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, PRIOR_DRAWS, PairTally, Tally, bootstrap_errors, fit,
};
use super::sprt::SprtVerdict;
use super::stats::{BlockSample, CONFIDENCE, Interval, block_estimate};

/// The standings of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// Matches read.
    pub matches: u64,
    /// Distinct duplicate blocks among them.
    pub blocks: u64,
    /// One entry per bot, best first.
    pub bots: Vec<BotStanding>,
    /// One entry per ordered pair of bots that met, by the rank of the bot, then of the opponent.
    pub crosstable: Vec<CrossEntry>,
    /// An SPRT tournament's verdict (see [`super::sprt::SprtVerdict`], added by the caller
    /// that knows the tournament: `crate::tournament::output_standings`); absent for the other
    /// formats and when the tournament's settings are unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtVerdict>,
}

/// One bot's line of the standings. See the module documentation for the definitions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotStanding {
    /// 1 for the first line: the order of `rating`.
    pub rank: u64,
    /// 1 for the best tier: bots of one tier are not separable at 95% by rating (see
    /// [`compute`]'s module documentation).
    #[serde(default)]
    pub tier: u64,
    pub name: String,
    /// Appearances (seats) in matches.
    pub matches: u64,
    /// Distinct duplicate blocks played.
    pub blocks: u64,
    pub hands: u64,
    pub hands_won: u64,
    /// Net chips over all matches.
    pub chips: i64,
    pub chips_per_hand: f64,
    /// 95% interval of `chips_per_hand` over blocks; `None` (unbounded) with one block.
    pub ci: Option<Interval>,
    pub won: u64,
    pub lost: u64,
    pub drawn: u64,
    /// Bradley–Terry rating, Elo scale, mean 0.
    pub rating: f64,
    /// 95% half-width of the rating (bootstrap over blocks); `None` with fewer than two blocks.
    pub rating_error: Option<f64>,
    /// Faults by kind, kinds that never happened left out.
    pub faults: BTreeMap<FaultKind, u64>,
}

impl BotStanding {
    /// Total faults of every kind.
    pub fn total_faults(&self) -> u64 {
        self.faults.values().sum()
    }
}

/// One cell of the crosstable: `bot` against `opponent`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossEntry {
    pub bot: String,
    pub opponent: String,
    /// Matches where both sat.
    pub matches: u64,
    /// Duplicate blocks where both sat in a match.
    pub blocks: u64,
    /// Hands of those matches.
    pub hands: u64,
    /// `bot`'s chips per hand in those matches.
    pub chips_per_hand: f64,
    /// `(bot's net − opponent's net) / 2` per hand: `bot`'s chips per hand heads-up.
    pub edge_per_hand: f64,
    /// 95% interval of `edge_per_hand` over the shared blocks; `None` with one block.
    pub ci: Option<Interval>,
    /// `"+"`: significantly ahead, `"-"`: significantly behind, `""`: neither.
    pub mark: String,
}

#[derive(Default)]
struct BotAccumulator {
    matches: u64,
    hands: u64,
    hands_won: u64,
    chips: i64,
    won: u64,
    lost: u64,
    drawn: u64,
    faults: BTreeMap<FaultKind, u64>,
    /// Block → (chips, hands).
    blocks: BTreeMap<u64, (i64, u64)>,
}

#[derive(Default)]
struct PairAccumulator {
    matches: u64,
    hands: u64,
    /// Net chips of the lower-index bot, then of the higher-index bot.
    chips: (i64, i64),
    /// Block → (edge of the lower-index bot, in chips, hands).
    blocks: BTreeMap<u64, (f64, u64)>,
}

/// Computes the standings of the matches `records` (in any order).
pub fn compute(records: &[MatchRecord]) -> Standings {
    let names: Vec<&str> = {
        let mut names: Vec<&str> = records
            .iter()
            .flat_map(|r| r.seats.iter().map(String::as_str))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    };
    let index: BTreeMap<&str, usize> = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let players = names.len();

    let mut bots: Vec<BotAccumulator> = (0..players).map(|_| BotAccumulator::default()).collect();
    let mut pairs: BTreeMap<(usize, usize), PairAccumulator> = BTreeMap::new();
    let mut all_blocks: std::collections::BTreeSet<u64> = std::collections::BTreeSet::new();

    for record in records {
        all_blocks.insert(record.block);
        let seats: Vec<usize> = record.seats.iter().map(|s| index[s.as_str()]).collect();
        let net = |seat: usize| record.net.get(seat).copied().unwrap_or(0);
        let best = (0..seats.len()).map(net).max();
        let best_count = (0..seats.len()).filter(|&s| Some(net(s)) == best).count();

        // Per seat: totals, W-L-D, faults.
        for (seat, &bot) in seats.iter().enumerate() {
            let acc = &mut bots[bot];
            acc.matches += 1;
            acc.hands += record.hands;
            acc.hands_won += record.hands_won.get(seat).copied().unwrap_or(0);
            acc.chips += net(seat);
            let block = acc.blocks.entry(record.block).or_default();
            block.0 += net(seat);
            block.1 += record.hands;
            if Some(net(seat)) == best {
                if best_count == 1 {
                    acc.won += 1;
                } else {
                    acc.drawn += 1;
                }
            } else {
                acc.lost += 1;
            }
            if let Some(faults) = record.faults.get(seat) {
                for (&kind, &count) in faults {
                    *acc.faults.entry(kind).or_default() += count;
                }
            }
        }

        // Crosstable: per pair of distinct bots at the table, their nets summed over their seats.
        let mut net_of: BTreeMap<usize, i64> = BTreeMap::new();
        for (seat, &bot) in seats.iter().enumerate() {
            *net_of.entry(bot).or_default() += net(seat);
        }
        let present: Vec<(usize, i64)> = net_of.into_iter().collect();
        for (k, &(a, net_a)) in present.iter().enumerate() {
            for &(b, net_b) in &present[k + 1..] {
                let pair = pairs.entry((a, b)).or_default();
                pair.matches += 1;
                pair.hands += record.hands;
                pair.chips.0 += net_a;
                pair.chips.1 += net_b;
                let block = pair.blocks.entry(record.block).or_default();
                block.0 += (net_a - net_b) as f64 / 2.0;
                block.1 += record.hands;
            }
        }
    }

    // Ratings: in every duplicate block, each pair of bots that met is one comparison, won by
    // the bot whose chips edge over the other in that block is positive (half each at 0).
    let mut by_block: BTreeMap<u64, Vec<PairTally>> = BTreeMap::new();
    for (&(a, b), pair) in &pairs {
        for (&block, &(edge, _hands)) in &pair.blocks {
            let points_a = match edge.total_cmp(&0.0) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            by_block.entry(block).or_default().push(PairTally {
                a,
                b,
                points_a,
                games: 1.0,
            });
        }
    }
    let block_list: Vec<Vec<PairTally>> = by_block.into_values().collect();
    let mut total = Tally::new(players);
    for pair in block_list.iter().flatten() {
        total.add_pair(pair, 1.0);
    }
    let ratings = fit(&total, PRIOR_DRAWS);
    let errors = bootstrap_errors(
        &block_list,
        players,
        PRIOR_DRAWS,
        BOOTSTRAP_RESAMPLES,
        BOOTSTRAP_SEED,
    );

    let mut standings: Vec<(usize, BotStanding)> = bots
        .into_iter()
        .enumerate()
        .map(|(i, acc)| {
            let samples: Vec<BlockSample> = acc
                .blocks
                .values()
                .map(|&(chips, hands)| BlockSample {
                    chips: chips as f64,
                    hands,
                })
                .collect();
            let estimate = block_estimate(&samples, CONFIDENCE);
            let standing = BotStanding {
                rank: 0,
                tier: 0,
                name: names[i].to_string(),
                matches: acc.matches,
                blocks: acc.blocks.len() as u64,
                hands: acc.hands,
                hands_won: acc.hands_won,
                chips: acc.chips,
                chips_per_hand: estimate.mean,
                ci: estimate.ci,
                won: acc.won,
                lost: acc.lost,
                drawn: acc.drawn,
                rating: ratings[i],
                rating_error: errors[i],
                faults: acc.faults,
            };
            (i, standing)
        })
        .collect();
    standings.sort_by(|(_, a), (_, b)| {
        b.rating
            .total_cmp(&a.rating)
            .then_with(|| b.chips_per_hand.total_cmp(&a.chips_per_hand))
            .then_with(|| a.name.cmp(&b.name))
    });
    let mut rank_of = vec![0usize; players];
    for (rank, (i, standing)) in standings.iter_mut().enumerate() {
        standing.rank = rank as u64 + 1;
        rank_of[*i] = rank;
    }
    assign_tiers(standings.iter_mut().map(|(_, s)| s));

    let mut crosstable = Vec::with_capacity(pairs.len() * 2);
    for (&(a, b), pair) in &pairs {
        let samples: Vec<BlockSample> = pair
            .blocks
            .values()
            .map(|&(edge, hands)| BlockSample { chips: edge, hands })
            .collect();
        let edge = block_estimate(&samples, CONFIDENCE);
        let per_hand = |chips: i64| {
            if pair.hands == 0 {
                0.0
            } else {
                chips as f64 / pair.hands as f64
            }
        };
        let negated = edge.ci.map(|ci| Interval {
            low: -ci.high,
            high: -ci.low,
        });
        for (bot, opponent, chips, edge_per_hand, ci) in [
            (a, b, pair.chips.0, edge.mean, edge.ci),
            (b, a, pair.chips.1, -edge.mean, negated),
        ] {
            crosstable.push(CrossEntry {
                bot: names[bot].to_string(),
                opponent: names[opponent].to_string(),
                matches: pair.matches,
                blocks: pair.blocks.len() as u64,
                hands: pair.hands,
                chips_per_hand: per_hand(chips),
                // `+ 0.0` turns −0.0 into 0.0, so mirrored cells print alike.
                edge_per_hand: edge_per_hand + 0.0,
                ci,
                mark: mark(ci).to_string(),
            });
        }
    }
    crosstable.sort_by_key(|e| {
        (
            rank_of[index[e.bot.as_str()]],
            rank_of[index[e.opponent.as_str()]],
        )
    });

    Standings {
        matches: records.len() as u64,
        blocks: all_blocks.len() as u64,
        bots: standings.into_iter().map(|(_, s)| s).collect(),
        crosstable,
        sprt: None,
    }
}

/// Tiers down the rating order: a bot opens a new tier when its rating is below that of the
/// first bot of the current tier by more than 1.96 standard errors of the difference (the
/// bootstrap errors combined as if independent); otherwise it shares the tier. Without an
/// error (one block) nothing is separable.
fn assign_tiers<'a>(ranked: impl Iterator<Item = &'a mut BotStanding>) {
    let mut leader: Option<(f64, Option<f64>)> = None;
    let mut tier = 0;
    for bot in ranked {
        let separate = match leader {
            None => true,
            Some((rating, error)) => match (error, bot.rating_error) {
                // The errors are 95% half-widths: 1.96 standard deviations each.
                (Some(e1), Some(e2)) => rating - bot.rating > (e1 * e1 + e2 * e2).sqrt(),
                _ => false,
            },
        };
        if separate {
            tier += 1;
            leader = Some((bot.rating, bot.rating_error));
        }
        bot.tier = tier;
    }
}

/// `"+"` if the interval lies above 0, `"-"` below, `""` if it contains 0 or is unbounded.
fn mark(ci: Option<Interval>) -> &'static str {
    match ci.map(|ci| ci.sign()) {
        Some(1) => "+",
        Some(-1) => "-",
        _ => "",
    }
}

impl Standings {
    /// The line of the bot `name`.
    pub fn bot(&self, name: &str) -> Option<&BotStanding> {
        self.bots.iter().find(|b| b.name == name)
    }

    /// The crosstable cell of `bot` against `opponent`, if they met.
    pub fn cross(&self, bot: &str, opponent: &str) -> Option<&CrossEntry> {
        self.crosstable
            .iter()
            .find(|e| e.bot == bot && e.opponent == opponent)
    }
}
