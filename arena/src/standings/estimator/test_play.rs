//! Data for the estimator's tests: replays made by the engine (two seats played by card-driven
//! stochastic policies, as a match's replay records: a header, the events, the actions with
//! their mixes), so that the terms can be checked against known distributions; and synthetic
//! blocks on which an estimate's mean and coverage are known.
//!
//! Also compiled into the luck-correction research tool (`arena/examples/luck_research/`),
//! whose coverage measurement plays its blocks with [`play_mixing_in`] and whose tests use
//! [`synthetic_experiments`]: it names only `crate::replay` and `crate::standings`, which the
//! tool's root imports from `arena`.

use protocol::MixEntry;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use rules::{Action, Card, Event, Hand, Settings, Variant, hand_value};

use crate::replay::Record;
use crate::standings::estimator::{Block, Unit};
use crate::standings::{BlockSample, block_estimate};

/// A two-seat replay's header for `settings` (seed 0).
pub fn header_record(settings: Settings) -> Record {
    let json = serde_json::json!({
        "type": "header", "format": "teenpatti-arena-replay", "version": 1, "protocol": 1,
        "deal": "chacha8-fisher-yates-v1", "arena_version": "test", "settings": settings,
        "seed": 0, "hands": 0, "first_hand": 0, "first_dealer": 0,
        "time": {"startup_ms": 1, "decision_ms": 1, "bank_ms": 1},
        "bots": [{"seat": 0, "name": "a", "command": ["a"]},
                 {"seat": 1, "name": "b", "command": ["b"]}]
    });
    serde_json::from_value(json).expect("a header")
}

/// Three cards from text, `"Kh Kd 5c"`.
pub fn h(text: &str) -> [Card; 3] {
    let c: Vec<Card> = text.split(' ').map(|c| c.parse().unwrap()).collect();
    [c[0], c[1], c[2]]
}

/// The replay record of `event` in `hand`.
pub fn event_record(hand: u64, event: &Event) -> Record {
    Record::Event {
        hand,
        event: event.clone(),
    }
}

/// Plays `hands` two-seat hands of `settings`' game with a stochastic policy whose
/// choices depend on `strength` of its cards (0 to 1), and returns the replay records.
/// A blind seat sees 30% of the time; a swap throws a card chosen by the cards.
pub fn play_with(
    settings: Settings,
    seed: u64,
    hands: u64,
    strength: &mut dyn FnMut(&[Card; 3]) -> f64,
) -> Vec<Record> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9);
    let mut records = vec![header_record(settings)];
    for h in 0..hands {
        let (mut hand, events) =
            Hand::seeded(settings, 2, (h % 2) as usize, seed, h).expect("a hand");
        records.extend(events.iter().map(|e| event_record(h, e)));
        let mut seen = [settings.variant != Variant::Classic; 2];
        while let Some(decision) = hand.to_act() {
            let legal = hand.legal();
            let s = decision.seat;
            let cards = hand.cards(s);
            let strength = if seen[s] { strength(&cards) } else { 0.5 };
            let r = (rng.next_u64() % 1000) as f64 / 1000.0;
            let pick = |name: &str| legal.iter().find(|a| a.name() == name);
            let action = if !seen[s] && r < 0.3 {
                pick("see")
            } else if seen[s] && strength < 0.35 && r < 0.7 {
                pick("pack").or_else(|| pick("swap"))
            } else if strength > 0.8 && r < 0.3 {
                pick("show").or_else(|| pick("keep"))
            } else {
                None
            };
            let action =
                action.unwrap_or_else(|| &legal[(rng.next_u64() % legal.len() as u64) as usize]);
            let card_choice = cards.iter().map(|c| c.index() as u64).sum::<u64>();
            let mut pick_amount = |n: u64| {
                if strength > 0.7 {
                    n - 1
                } else if n == 3 {
                    card_choice % 3
                } else {
                    rng.next_u64() % n
                }
            };
            let action = action.instance(&mut pick_amount);
            if action == rules::Action::See {
                seen[s] = true;
            }
            let events = hand.apply(s, action).expect("a legal action");
            records.extend(events.iter().map(|e| event_record(h, e)));
        }
    }
    records
}

/// Plays `hands` hands of `variant` in which seat 0 answers every decision with a mix
/// whose odds depend on its cards (pack more with a bad hand, show more with a good one),
/// drawn as the arena draws, and seat 1 plays a fixed card-driven rule. The records are a
/// replay's, with the header's seed the deal's.
pub fn play_mixing(variant: Variant, seed: u64, hands: u64) -> Vec<Record> {
    play_mixing_in(variant, seed, hands, 0, seed)
}

/// [`play_mixing`] with the mixing policy in seat `mixer` (the fixed rule in the other)
/// and its draws from `draws`: the deals are the seed's whatever the seats, so the two
/// seat orders of a duplicate block are `mixer` 0 and 1 with the same `seed`.
pub fn play_mixing_in(
    variant: Variant,
    seed: u64,
    hands: u64,
    mixer: usize,
    draws: u64,
) -> Vec<Record> {
    let settings = Settings::new(variant);
    let order = settings.sequence_order;
    let mut rng = ChaCha8Rng::seed_from_u64(draws);
    let mut records = vec![header_record(settings)];
    if let Record::Header(h) = &mut records[0] {
        h.seed = seed;
    }
    let key = |c: &[rules::Card; 3]| hand_value(variant, order, c).key();
    for n in 0..hands {
        let (mut hand, events) =
            Hand::seeded(settings, 2, (n % 2) as usize, seed, n).expect("a hand");
        records.extend(events.iter().map(|e| event_record(n, e)));
        while let Some(decision) = hand.to_act() {
            let s = decision.seat;
            let mut instances: Vec<Action> = Vec::new();
            for a in hand.legal().iter().flat_map(|entry| match entry {
                rules::LegalAction::Bet { min, max, .. } => {
                    vec![Action::Bet { amount: *min }, Action::Bet { amount: *max }]
                }
                rules::LegalAction::Swap { cards, .. } => {
                    cards.iter().map(|&card| Action::Swap { card }).collect()
                }
                other => vec![other.instance(|_| 0)],
            }) {
                if !instances.contains(&a) {
                    instances.push(a);
                }
            }
            let good = key(&hand.cards(s)) % 7;
            let (action, mix) = if s == mixer {
                let weights: Vec<f64> = instances
                    .iter()
                    .map(|a| match a {
                        Action::Pack => 1.0 + (6 - good) as f64,
                        Action::Show => 1.0 + good as f64,
                        _ => 2.0,
                    })
                    .collect();
                let total: f64 = weights.iter().sum();
                let mix: Vec<MixEntry> = instances
                    .iter()
                    .zip(&weights)
                    .map(|(&action, w)| MixEntry {
                        action,
                        p: w / total,
                    })
                    .collect();
                let u = protocol::mix::unit_interval(rng.next_u64());
                (protocol::mix::pick(&mix, u), Some(mix))
            } else {
                (instances[(good as usize) % instances.len()], None)
            };
            records.push(Record::Action {
                hand: n,
                seat: s,
                kind: decision.kind,
                action,
                source: crate::replay::ActionSource::Bot,
                elapsed_ms: None,
                bank_ms: None,
                mix,
                stderr_lines: vec![],
                stderr_dropped: 0,
            });
            let events = hand.apply(s, action).expect("a legal action");
            records.extend(events.iter().map(|e| event_record(n, e)));
        }
    }
    records
}

/// What [`synthetic_experiments`] found for one estimate: the mean of its estimates, how often
/// its 95% interval held the truth, and its intervals' total width.
pub struct Experiments {
    pub mean: f64,
    pub coverage: f64,
    pub width: f64,
}

/// 8 blocks of 10 units, `y = 4z + 1` exactly: 10 chips of luck-free result a block, each unit
/// of 2 hands.
pub fn exact_blocks() -> Vec<Block> {
    (0..8)
        .map(|b| {
            (0..10)
                .map(|i| {
                    let z = ((b * 10 + i) % 7) as f64 - 3.0;
                    Unit {
                        y: 4.0 * z + 1.0,
                        z: vec![z],
                        hands: 2,
                        decisions: 0,
                    }
                })
                .collect()
        })
        .collect()
}

/// An estimate under test: an experiment's blocks in, its block totals out.
pub type Estimate<'a> = &'a mut dyn FnMut(&[Block]) -> Vec<BlockSample>;

/// The true edge of [`synthetic_experiments`].
pub const SYNTHETIC_EDGE: f64 = 0.3;

/// 400 seeded synthetic experiments of 10 blocks of 50 units: `y = 0.3 + 2·u + noise`, with
/// `u` and `v` centred terms (`u` explains part of `y`, `v` nothing); each of `estimates`
/// turns an experiment's blocks into block totals. The same numbers every run.
pub fn synthetic_experiments(estimates: &mut [Estimate<'_>]) -> Vec<Experiments> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut uniform = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
    let experiments: u32 = 400;
    let mut out: Vec<Experiments> = estimates
        .iter()
        .map(|_| Experiments {
            mean: 0.0,
            coverage: 0.0,
            width: 0.0,
        })
        .collect();
    for _ in 0..experiments {
        let blocks: Vec<Block> = (0..10)
            .map(|_| {
                (0..50)
                    .map(|_| {
                        let (u, v) = (uniform(), uniform());
                        let noise: f64 = (0..4).map(|_| uniform()).sum();
                        Unit {
                            y: SYNTHETIC_EDGE + 2.0 * u + noise,
                            z: vec![u, v],
                            hands: 1,
                            decisions: 0,
                        }
                    })
                    .collect()
            })
            .collect();
        for (estimate, found) in estimates.iter_mut().zip(&mut out) {
            let e = block_estimate(&estimate(&blocks), 0.95);
            let ci = e.ci.expect("ten blocks");
            found.coverage += f64::from(u8::from(ci.contains(SYNTHETIC_EDGE)));
            found.mean += e.mean;
            found.width += ci.high - ci.low;
        }
    }
    for found in &mut out {
        found.coverage /= f64::from(experiments);
        found.mean /= f64::from(experiments);
    }
    out
}
