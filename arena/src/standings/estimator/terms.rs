//! The terms of a replay, and a duplicate block's units: what the fit ([`super::fit`]) is
//! given. Each finished hand gets, for each seat, its chance terms ([`super::chance_terms`],
//! by game) followed by the decision terms of mixed answers ([`super::decision_terms`]); a
//! block's unit is one deal (hand `h` of every match of the block), the bot's payoffs and
//! terms summed over its seats.

use rules::{SequenceOrder, Variant};

use super::LuckError;
use super::chance_terms::{self, classic::Equity, classic::hand_luck};
use super::deal_table::{BUCKETS, DealTable};
use super::decision_terms::{DECISION_FEATURES, decision_terms};
use crate::replay::Record;

/// A hand's payoffs and each seat's chance terms.
#[derive(Clone, Debug, PartialEq)]
pub struct HandControls {
    pub hand: u64,
    pub payoffs: [i64; 2],
    /// `z[s]`: seat `s`'s terms, each with mean zero whatever the bots do.
    pub z: [Vec<f64>; 2],
    /// How many of the terms, at the end of `z[s]`, are decision terms of mixed answers
    /// (`super::decision_terms`); the others are chance terms. They are penalized apart
    /// ([`super::fit::Ridge`]).
    pub decisions: usize,
}

/// The tables the terms need, built on first use and kept for the next replay.
#[derive(Default)]
pub struct Tables {
    equity: Option<Equity>,
    deal: Option<(Variant, SequenceOrder, DealTable)>,
    /// The deal tables' strength classes (`None`: [`BUCKETS`]).
    buckets: Option<usize>,
}

impl Tables {
    /// Tables with another number of strength classes than the estimator's [`BUCKETS`]: for the
    /// research tool's experiments (`arena/examples/luck_research/`); the arena never makes one.
    pub fn with_buckets(buckets: usize) -> Tables {
        Tables {
            buckets: Some(buckets),
            ..Tables::default()
        }
    }
}

/// Every finished hand of a two-seat replay with its terms: the chance terms (the classic
/// game's lazy-deal luck, `chance_terms::classic`, one term; the deal terms of Closest to
/// 555, with its swap draws, `chance_terms::closest`; of Lallan Kallan, every deal and
/// redeal, `chance_terms::lallan`) followed by the decision terms of mixed answers
/// (`super::decision_terms`). Tables of more than two seats are [`LuckError::Unsupported`].
pub fn hand_terms(records: &[Record], tables: &mut Tables) -> Result<Vec<HandControls>, LuckError> {
    let Some(Record::Header(header)) = records.first() else {
        return Err(LuckError::NoHeader);
    };
    let (variant, order) = (header.settings.variant, header.settings.sequence_order);
    if tables
        .deal
        .as_ref()
        .is_none_or(|(v, o, _)| (*v, *o) != (variant, order))
    {
        let buckets = tables.buckets.unwrap_or(BUCKETS);
        let table = DealTable::for_variant(variant, order, buckets);
        tables.deal = Some((variant, order, table));
    }
    let (_, _, table) = tables.deal.as_ref().expect("just built");
    let mut hands = match variant {
        Variant::Classic => {
            let equity = tables.equity.get_or_insert_with(|| Equity::classic(order));
            hand_luck(records, equity)?
                .into_iter()
                .map(|h| HandControls {
                    hand: h.hand,
                    payoffs: h.payoffs,
                    z: [vec![h.luck[0]], vec![h.luck[1]]],
                    decisions: 0,
                })
                .collect()
        }
        Variant::Closest555 => chance_terms::closest::hand_controls(records, table)?,
        Variant::LallanKallan => chance_terms::lallan::hand_controls(records, table)?,
    };
    // The decision terms of mixed answers after the chance terms (zeros when no bot mixed, so
    // that every block of a game has the same terms).
    let decisions = if has_mixes(records) {
        decision_terms(records, table)?
    } else {
        Default::default()
    };
    let none = [0.0; DECISION_FEATURES];
    for h in &mut hands {
        let d = decisions.get(&h.hand);
        for (s, z) in h.z.iter_mut().enumerate() {
            z.extend_from_slice(d.map_or(&none[..], |d| &d[s]));
        }
        h.decisions = DECISION_FEATURES;
    }
    Ok(hands)
}

/// Whether any action of the replay was drawn from a mixed answer.
fn has_mixes(records: &[Record]) -> bool {
    records
        .iter()
        .any(|r| matches!(r, Record::Action { mix: Some(_), .. }))
}

/// A bot's hands of one deal in one duplicate block: payoff and chance terms summed over the
/// block's matches.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    pub y: f64,
    pub z: Vec<f64>,
    pub hands: u64,
    /// How many of `z`'s last terms are decision terms ([`HandControls::decisions`]).
    pub decisions: usize,
}

/// The units of one block, in hand order.
pub type Block = Vec<Unit>;

/// One bot's units of a duplicate block: `matches` are the block's replays with the bot's seat
/// in each; hand `h` of every match (the same deal) makes one unit.
pub fn block_units(
    matches: &[(&[Record], usize)],
    tables: &mut Tables,
) -> Result<Block, LuckError> {
    let mut units: std::collections::BTreeMap<u64, Unit> = Default::default();
    for &(records, seat) in matches {
        for h in hand_terms(records, tables)? {
            let z = &h.z[seat];
            let u = units.entry(h.hand).or_insert_with(|| Unit {
                y: 0.0,
                z: vec![0.0; z.len()],
                hands: 0,
                decisions: h.decisions,
            });
            if u.z.len() != z.len() || u.decisions != h.decisions {
                return Err(LuckError::Unsupported(
                    "matches of different games in one block".into(),
                ));
            }
            u.y += h.payoffs[seat] as f64;
            for (a, b) in u.z.iter_mut().zip(z) {
                *a += b;
            }
            u.hands += 1;
        }
    }
    Ok(units.into_values().collect())
}
