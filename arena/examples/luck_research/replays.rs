//! Measures the luck-corrected estimator (`arena::standings::estimator`) on replays of real
//! matches: interval width against the plain estimator, and coverage (`width`); the ceiling of
//! any chance-only correction (`ceiling`); a value table learnt offline (`offline`). Run by
//! hand (BENCHMARKS.md, "Luck-corrected estimates", has the commands that make the replays):
//!
//! ```text
//! LUCK_DATA=/tmp/l5 LUCK_PAIRS=sr,mr,rr LUCK_GROUPS=10,20,40 \
//!   cargo run --release -p arena --example luck_research -- width
//! LUCK_DATA=/tmp/l5 LUCK_PAIRS=sr LUCK_SAME_DECKS=sr_reseed \
//!   cargo run --release -p arena --example luck_research -- ceiling
//! LUCK_DATA=/tmp/l5 LUCK_LEARN=/tmp/learn LUCK_PAIRS=mp \
//!   cargo run --release -p arena --example luck_research -- offline
//! ```
//!
//! `LUCK_DATA/<pair>/s<seed>-ab.jsonl` and `s<seed>-ba.jsonl` are the two matches of the
//! duplicate block of `seed` (bot A in seat 0, then in seat 1). Pairs whose name starts with
//! `rr` are A/A (the same program twice, each seat with its own seed): their true edge is 0. For
//! the others the "truth" is the cross-fitted corrected estimate over all blocks of the pair.
//! Each experiment of `G` blocks is analysed on its own, as a tournament of `G` rounds would be
//! (its own cross-fit, its own sequential fit). `LUCK_BUCKETS` and `LUCK_RIDGE` try other
//! strength classes and ridge penalties (`LUCK_DECISION_RIDGE` for the decision terms; on the
//! training seeds only); `LUCK_SHRINK=0` runs the sequential fit without its shrink factor
//! (the estimator's `Shrink`); `LUCK_CHANCE_ONLY=1` drops the decision terms; `LUCK_FIRST_FIT_UNITS=N` starts the
//! sequential fit once N units have been seen (`FirstFit::Units`; unset, the fit waits for 4 blocks); `LUCK_LAYOUT=additive` sums the chance terms over one side's class
//! (an experiment, see `additive_layout`); `LUCK_RANDOM=1` (bot B is the random bot, drawing
//! for itself) or `0` (bot A is) gives it decision terms from its documented policy (see
//! `attach_documented_policy`). `offline_value_table` tries a value table learnt on other
//! replays of the same pair (`LUCK_LEARN/<pair>`) and then fixed.

use std::collections::BTreeMap;
use std::path::Path;

use arena::replay::Record;
use arena::standings::estimator::{BUCKETS, Block, RIDGE, Ridge, Tables, Unit, block_units};
use arena::standings::{BlockSample, block_estimate};

use crate::estimates::{cross_fitted, plain, sequential, sequential_fit, width};
use protocol::MixEntry;
use rules::{Action, Event, Hand, LegalAction};

/// The duplicate blocks in `dir`, by seed: the replays of `s<seed>-ab.jsonl` (bot A in seat 0)
/// and `s<seed>-ba.jsonl`, for every seed that has both.
fn blocks_in(dir: &Path) -> Vec<(u64, Vec<Record>, Vec<Record>)> {
    let mut seeds: Vec<u64> = std::fs::read_dir(dir)
        .expect("a data directory")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_prefix('s')?
                .strip_suffix("-ab.jsonl")?
                .parse()
                .ok()
        })
        .collect();
    seeds.sort();
    seeds
        .into_iter()
        .filter_map(|seed| {
            let read =
                |order: &str| arena::replay::read(&dir.join(format!("s{seed}-{order}.jsonl")));
            Some((seed, read("ab").ok()?, read("ba").ok()?))
        })
        .collect()
}

/// An experiment, not something the arena may do for an unknown bot (`LUCK_RANDOM`): the
/// random bots' *documented* policy (uniform over the offered names, then over each one's
/// instances) attached as a mix to every decision of `seat` that has none, so that replays of
/// a random bot drawing for itself get the decision terms the arena computes for a bot that
/// answers with mixes (the estimator's decision terms).
fn attach_documented_policy(records: &mut [Record], seat: usize) {
    let Some(Record::Header(header)) = records.first() else {
        panic!("no header")
    };
    let (settings, seed) = (header.settings, header.seed);
    let mut current: Option<(u64, Hand)> = None;
    for record in records.iter_mut() {
        match record {
            Record::Event {
                hand,
                event: Event::HandStarted { dealer, .. },
            } => {
                let (h, _) = Hand::seeded(settings, 2, *dealer, seed, *hand).expect("a hand");
                current = Some((*hand, h));
            }
            Record::Action {
                hand,
                seat: s,
                action,
                mix,
                ..
            } => {
                let Some((_, h)) = current.as_mut().filter(|(n, _)| n == hand) else {
                    continue;
                };
                if *s == seat && mix.is_none() {
                    *mix = Some(documented_policy(&h.legal()));
                }
                h.apply(*s, *action).expect("a recorded action");
            }
            _ => {}
        }
    }
}

/// Each name of `legal` equally likely, then each of its instances.
fn documented_policy(legal: &[LegalAction]) -> Vec<MixEntry> {
    let names = legal.len() as f64;
    legal
        .iter()
        .flat_map(|entry| {
            let instances: Vec<Action> = match entry {
                LegalAction::Bet {
                    min,
                    max,
                    multiple_of,
                } => (0..=(max - min) / multiple_of)
                    .map(|k| Action::Bet {
                        amount: min + k * multiple_of,
                    })
                    .collect(),
                LegalAction::Swap { cards, .. } => {
                    cards.iter().map(|&card| Action::Swap { card }).collect()
                }
                e => vec![e.instance(|_| 0)],
            };
            let p = 1.0 / names / instances.len() as f64;
            instances
                .into_iter()
                .map(move |action| MixEntry { action, p })
        })
        .collect()
}

/// Bot A's units (one per deal: its two hands of that deal summed) of each complete block.
/// `random`: with `Some(r)`, the random bot (bot B if `r` is 1, bot A if 0) is given its
/// documented policy ([`attach_documented_policy`]).
fn load(dir: &Path, tables: &mut Tables, random: Option<usize>) -> Vec<Block> {
    blocks_in(dir)
        .into_iter()
        .map(|(_, mut ab, mut ba)| {
            if let Some(r) = random {
                // In match `ab` bot A sits in seat 0, in `ba` in seat 1.
                attach_documented_policy(&mut ab, r);
                attach_documented_policy(&mut ba, 1 - r);
            }
            let mut block = block_units(&[(&ab, 0), (&ba, 1)], tables).expect("supported replays");
            if let Some(buckets) = additive_layout() {
                for unit in &mut block {
                    additive(unit, buckets);
                }
            }
            block
        })
        .collect()
}

/// `LUCK_LAYOUT=additive` (an experiment): the chance terms of each position summed over the
/// opponent's class (own class × outcome) and over the own class (opponent's class ×
/// outcome), instead of one term per joint cell: `2 · 2 · 3B` terms rather than `2 · 3B²`, so
/// finer classes (`LUCK_BUCKETS`) cost fewer weights. A fixed linear map of mean-zero terms:
/// still mean zero. Returns the number of classes when the layout is asked for.
fn additive_layout() -> Option<usize> {
    (std::env::var("LUCK_LAYOUT").ok()? == "additive").then(|| {
        std::env::var("LUCK_BUCKETS")
            .ok()
            .and_then(|b| b.parse().ok())
            .unwrap_or(BUCKETS)
    })
}

fn additive(unit: &mut Unit, b: usize) {
    let chance = unit.z.len() - unit.decisions;
    assert_eq!(
        chance,
        2 * 3 * b * b,
        "Closest to 555 chance terms of {b} classes"
    );
    let mut out = vec![0.0; 2 * 2 * 3 * b];
    for position in 0..2 {
        for own in 0..b {
            for other in 0..b {
                for outcome in 0..3 {
                    let v = unit.z[position * 3 * b * b + (own * b + other) * 3 + outcome];
                    out[position * 6 * b + own * 3 + outcome] += v;
                    out[position * 6 * b + 3 * b + other * 3 + outcome] += v;
                }
            }
        }
    }
    out.extend_from_slice(&unit.z[chance..]);
    unit.z = out;
}

/// The sequential fit as the SPRT runs it, or (`LUCK_SHRINK=0`) without its shrink factor.
fn seq_fit(blocks: &[Block], ridge: Ridge) -> Vec<BlockSample> {
    let shrinks = !std::env::var("LUCK_SHRINK").is_ok_and(|v| v == "0");
    let units = std::env::var("LUCK_FIRST_FIT_UNITS")
        .ok()
        .and_then(|v| v.parse().ok());
    sequential(blocks, sequential_fit(ridge, units), shrinks)
}

/// `width`: interval width and coverage of each estimate, per pair and run length.
pub fn width_and_coverage() {
    let data = std::env::var("LUCK_DATA").unwrap_or_else(|_| "/tmp/l5".into());
    let pairs = std::env::var("LUCK_PAIRS").unwrap_or_else(|_| "sr,mr,rr".into());
    let groups: Vec<usize> = std::env::var("LUCK_GROUPS")
        .unwrap_or_else(|_| "10,20,40".into())
        .split(',')
        .filter_map(|g| g.parse().ok())
        .collect();
    let mut tables = match std::env::var("LUCK_BUCKETS")
        .ok()
        .and_then(|b| b.parse().ok())
    {
        Some(b) => Tables::with_buckets(b),
        None => Tables::default(),
    };
    let env = |key: &str, default: f64| {
        std::env::var(key)
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(default)
    };
    let ridge = Ridge {
        chance: env("LUCK_RIDGE", RIDGE.chance),
        decision: env("LUCK_DECISION_RIDGE", RIDGE.decision),
    };
    for pair in pairs.split(',') {
        let random = std::env::var("LUCK_RANDOM")
            .ok()
            .and_then(|v| v.parse().ok());
        let mut blocks = load(&Path::new(&data).join(pair), &mut tables, random);
        if std::env::var("LUCK_CHANCE_ONLY").is_ok_and(|v| v == "1") {
            blocks = chance_terms_only(blocks);
        }
        // Every term has mean zero: the largest |t| of a term's mean over the units.
        let units: Vec<&Unit> = blocks.iter().flatten().collect();
        let n = units.len() as f64;
        let dims = units.first().map_or(0, |u| u.z.len());
        let worst = (0..dims)
            .map(|i| {
                let m = units.iter().map(|u| u.z[i]).sum::<f64>() / n;
                let v = units.iter().map(|u| (u.z[i] - m).powi(2)).sum::<f64>() / (n - 1.0);
                (if v > 0.0 { m / (v / n).sqrt() } else { 0.0 }, i)
            })
            .max_by(|a, b| a.0.abs().total_cmp(&b.0.abs()));
        println!("{pair}: {dims} terms, largest |t| of a term's mean {worst:?}");
        let p = block_estimate(&plain(&blocks), 0.95);
        let c = block_estimate(&cross_fitted(&blocks, ridge), 0.95);
        let s = block_estimate(&seq_fit(&blocks, ridge), 0.95);
        let truth = if pair.starts_with("rr") { 0.0 } else { c.mean };
        println!(
            "{pair}: {} blocks of {} hands of A. plain {:+.4} ± {:.4}; cross-fitted {:+.4} ± {:.4} \
             (width ratio {:.2}); sequential {:+.4} ± {:.4} (ratio {:.2})",
            blocks.len(),
            blocks
                .first()
                .map_or(0, |b| b.iter().map(|u| u.hands).sum::<u64>()),
            p.mean,
            width(&p) / 2.0,
            c.mean,
            width(&c) / 2.0,
            width(&p) / width(&c),
            s.mean,
            width(&s) / 2.0,
            width(&p) / width(&s),
        );
        for &g in &groups {
            let (mut n, mut cover) = (0usize, [0usize; 3]);
            let mut widths = [0f64; 3];
            for chunk in blocks.chunks_exact(g) {
                let estimates = [
                    block_estimate(&plain(chunk), 0.95),
                    block_estimate(&cross_fitted(chunk, ridge), 0.95),
                    block_estimate(&seq_fit(chunk, ridge), 0.95),
                ];
                n += 1;
                for (k, e) in estimates.iter().enumerate() {
                    cover[k] += e.ci.is_some_and(|ci| ci.contains(truth)) as usize;
                    widths[k] += width(e);
                }
            }
            if n == 0 {
                continue;
            }
            let pct = |c: usize| 100.0 * c as f64 / n as f64;
            println!(
                "  {n} experiments of {g} blocks, truth {truth:+.4}: coverage plain {:.1}%, \
                 cross-fitted {:.1}%, sequential {:.1}%; mean width ratio cross {:.2}, seq {:.2}",
                pct(cover[0]),
                pct(cover[1]),
                pct(cover[2]),
                widths[0] / widths[1],
                widths[0] / widths[2],
            );
        }
    }
}

/// `LUCK_CHANCE_ONLY=1`: the blocks without their decision terms (for the classic game, the
/// arithmetic of estimator revision 1).
fn chance_terms_only(blocks: Vec<Block>) -> Vec<Block> {
    blocks
        .into_iter()
        .map(|block| {
            block
                .into_iter()
                .map(|u| Unit {
                    z: u.z[..u.z.len() - u.decisions].to_vec(),
                    decisions: 0,
                    ..u
                })
                .collect()
        })
        .collect()
}

/// `ceiling`: the ceiling of any chance-only correction for a pair: the same decks played twice with the
/// bots' own randomness changed (`LUCK_DATA/<LUCK_SAME_DECKS>` against `LUCK_DATA/<pair>`,
/// e.g. the random bot given another `--seed`). `Var(T₁ − T₂) / 2` is the part of a block's
/// variance the cards do not decide, which no chance term can remove; the best width ratio is
/// `1/√(that share)`.
pub fn ceiling_from_replayed_decks() {
    let data = std::env::var("LUCK_DATA").unwrap_or_else(|_| "/tmp/l5".into());
    let pair = std::env::var("LUCK_PAIRS").unwrap_or_else(|_| "sr".into());
    let other = std::env::var("LUCK_SAME_DECKS").unwrap_or_else(|_| "sr_reseed".into());
    let totals = |name: &str| -> BTreeMap<u64, f64> {
        blocks_in(&Path::new(&data).join(name))
            .into_iter()
            .map(|(seed, ab, ba)| {
                let block = block_units(&[(&ab, 0), (&ba, 1)], &mut Tables::default()).unwrap();
                (seed, block.iter().map(|u| u.y).sum::<f64>())
            })
            .collect()
    };
    let (a, b) = (totals(&pair), totals(&other));
    let common: Vec<(f64, f64)> = a
        .iter()
        .filter_map(|(s, x)| b.get(s).map(|y| (*x, *y)))
        .collect();
    let n = common.len() as f64;
    let var = |v: &[f64]| {
        let m = v.iter().sum::<f64>() / v.len() as f64;
        v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)
    };
    let firsts: Vec<f64> = common.iter().map(|c| c.0).collect();
    let diffs: Vec<f64> = common.iter().map(|c| c.0 - c.1).collect();
    let not_cards = var(&diffs) / 2.0 / var(&firsts);
    println!(
        "{pair} vs {other}: {n} blocks on the same decks; share of a block's variance the cards \
         do not decide {:.2}; best width ratio of any chance-only correction {:.2}",
        not_cards,
        1.0 / not_cards.sqrt()
    );
}

/// `offline`, an experiment (arena/src/standings/RESEARCH.md, "A value function learnt offline"): AIVAT's
/// own route, a value function learnt from a large body of reference play and then fixed. On the
/// replays of `LUCK_LEARN/<pair>` (seeds disjoint from the judged ones) the chance and decision
/// terms with `LUCK_OFFLINE_BUCKETS` strength classes (default 16) are fitted once, by least
/// squares with a small ridge; `θ_off·z` is then a fixed linear map of mean-zero terms, so of
/// mean zero for any bots. On `LUCK_DATA/<pair>` it is added to the arena's terms twice, from
/// bot A's side and (negated) from bot B's, as a tournament would have to (it does not know
/// which bot the table was learnt for), and everything is fitted as usual.
pub fn offline_value_table() {
    let data = std::env::var("LUCK_DATA").unwrap_or_else(|_| "/tmp/l5".into());
    let learn = std::env::var("LUCK_LEARN").expect("LUCK_LEARN: the learning replays");
    let pairs = std::env::var("LUCK_PAIRS").unwrap_or_else(|_| "mp".into());
    let buckets: usize = std::env::var("LUCK_OFFLINE_BUCKETS")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(16);
    let seat_units = |dir: &Path, tables: &mut Tables, a_seat: usize| -> Vec<Block> {
        blocks_in(dir)
            .into_iter()
            .map(|(_, ab, ba)| {
                block_units(&[(&ab, a_seat), (&ba, 1 - a_seat)], tables).expect("supported")
            })
            .collect()
    };
    for pair in pairs.split(',') {
        let mut fine = Tables::with_buckets(buckets);
        let learnt = seat_units(&Path::new(&learn).join(pair), &mut fine, 0);
        let theta = arena::standings::estimator::fit(learnt.iter().flatten(), Ridge::uniform(30.0))
            .expect("learning blocks");
        let value = |u: &Unit| -> f64 { theta.iter().zip(&u.z).map(|(t, z)| t * z).sum() };
        let dir = Path::new(&data).join(pair);
        let standard = load(&dir, &mut Tables::default(), None);
        let (side_a, side_b) = (
            seat_units(&dir, &mut fine, 0),
            seat_units(&dir, &mut fine, 1),
        );
        let with_table: Vec<Block> = standard
            .iter()
            .zip(side_a.iter().zip(&side_b))
            .map(|(block, (a, b))| {
                block
                    .iter()
                    .zip(a.iter().zip(b))
                    .map(|(u, (ua, ub))| {
                        // The two fixed features go with the chance terms (their ridge).
                        let mut z = u.z.clone();
                        let decisions = z.split_off(z.len() - u.decisions);
                        z.extend([value(ua), -value(ub)]);
                        z.extend(decisions);
                        Unit { z, ..u.clone() }
                    })
                    .collect()
            })
            .collect();
        for (name, blocks) in [("standard", &standard), ("with the table", &with_table)] {
            let plain_e = block_estimate(&plain(blocks), 0.95);
            let ratio = |samples: Vec<BlockSample>| {
                width(&plain_e) / width(&block_estimate(&samples, 0.95))
            };
            let mut line = format!(
                "{pair}, {name}: {} blocks (table from {} blocks, {buckets} classes): width ratio \
                 cross-fitted {:.2}, sequential {:.2}; runs of",
                blocks.len(),
                learnt.len(),
                ratio(cross_fitted(blocks, RIDGE)),
                ratio(seq_fit(blocks, RIDGE)),
            );
            for g in [10, 20, 40] {
                let (mut p, mut c, mut s) = (0.0, 0.0, 0.0);
                for chunk in blocks.chunks_exact(g) {
                    p += width(&block_estimate(&plain(chunk), 0.95));
                    c += width(&block_estimate(&cross_fitted(chunk, RIDGE), 0.95));
                    s += width(&block_estimate(&seq_fit(chunk, RIDGE), 0.95));
                }
                line += &format!(" {g}: {:.2} / {:.2};", p / c, p / s);
            }
            println!("{line}");
        }
    }
}
