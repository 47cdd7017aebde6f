//! Engine throughput, plain `std::time` (no criterion): `cargo bench -p teenpatti-rules`.
//!
//! 1. Hand evaluations per second per variant, over a fixed pseudo-random set of hands.
//! 2. Random full hands per second per variant at 2 and 6 seats: seeded deal, a random legal
//!    action at every decision (packs and shows rarer, as in `tests/playout.rs`), to the end.
//!
//! Each measurement runs for a fixed wall-clock budget, so the whole bench takes a few seconds.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rules::eval::hand_value;
use rules::{Action, Card, Hand, LegalAction, LegalSet, SequenceOrder, Settings, Variant};

const EVAL_BUDGET: Duration = Duration::from_millis(400);
const PLAY_BUDGET: Duration = Duration::from_millis(500);
const EVAL_SET: usize = 4096;

/// xorshift64*: deterministic, so every run measures the same hands.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `EVAL_SET` hands of three distinct cards.
fn eval_set() -> Vec<[Card; 3]> {
    let mut rng = Rng(0x5555_1234_abcd_0001);
    (0..EVAL_SET)
        .map(|_| {
            let a = rng.below(52) as usize;
            let mut b = rng.below(52) as usize;
            while b == a {
                b = rng.below(52) as usize;
            }
            let mut c = rng.below(52) as usize;
            while c == a || c == b {
                c = rng.below(52) as usize;
            }
            [
                Card::from_index(a),
                Card::from_index(b),
                Card::from_index(c),
            ]
        })
        .collect()
}

/// Evaluations per second of `variant` over `hands`.
fn bench_eval(variant: Variant, hands: &[[Card; 3]]) -> f64 {
    let order = SequenceOrder::A23High;
    let mut evals = 0u64;
    let mut checksum = 0u32;
    let start = Instant::now();
    while start.elapsed() < EVAL_BUDGET {
        for cards in hands {
            checksum ^= hand_value(black_box(variant), order, black_box(cards)).key();
        }
        evals += hands.len() as u64;
    }
    black_box(checksum);
    evals as f64 / start.elapsed().as_secs_f64()
}

fn random_action(rng: &mut Rng, legal: &LegalSet) -> Action {
    // Packs and shows are rarer (12%), as in tests/playout.rs, so hands are not all short.
    let rare = |l: &LegalAction| matches!(l, LegalAction::Pack | LegalAction::Show { .. });
    let rares = legal.iter().filter(|l| rare(l)).count();
    let commons = legal.len() - rares;
    let pick_rare = commons == 0 || (rares > 0 && rng.below(100) < 12);
    let (pool, count) = if pick_rare {
        (true, rares)
    } else {
        (false, commons)
    };
    let k = rng.below(count as u64) as usize;
    let entry = legal
        .iter()
        .filter(|l| rare(l) == pool)
        .nth(k)
        .expect("k < count");
    match entry {
        LegalAction::Pack => Action::Pack,
        LegalAction::See => Action::See,
        LegalAction::Bet {
            min,
            max,
            multiple_of,
        } => Action::Bet {
            amount: min + multiple_of * rng.below((max - min) / multiple_of + 1),
        },
        LegalAction::Show { .. } => Action::Show,
        LegalAction::Sideshow { .. } => Action::Sideshow,
        LegalAction::Swap { cards, .. } => Action::Swap {
            card: cards[rng.below(3) as usize],
        },
        LegalAction::Keep => Action::Keep,
        LegalAction::Accept => Action::Accept,
        LegalAction::Refuse => Action::Refuse,
    }
}

/// (hands per second, decisions per second) of random full hands.
fn bench_hands(variant: Variant, seats: usize) -> (f64, f64) {
    let settings = Settings::new(variant);
    let mut rng = Rng(0x0dd5_eed5 ^ (seats as u64) << 32 ^ variant as u64);
    let mut hands = 0u64;
    let mut decisions = 0u64;
    let mut buffer = Vec::new();
    let start = Instant::now();
    while start.elapsed() < PLAY_BUDGET {
        for _ in 0..64 {
            let dealer = (hands % seats as u64) as usize;
            let (mut hand, events) =
                Hand::seeded(settings, seats, dealer, 42, hands).expect("valid table");
            black_box(events);
            while let Some(decision) = hand.to_act() {
                let action = random_action(&mut rng, &hand.legal_set());
                buffer.clear();
                hand.apply_into(decision.seat, action, &mut buffer)
                    .expect("legal action");
                black_box(&buffer);
                decisions += 1;
            }
            black_box(hand.payoffs());
            hands += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    (hands as f64 / secs, decisions as f64 / secs)
}

fn millions(x: f64) -> String {
    format!("{:.2} M", x / 1e6)
}

fn thousands(x: f64) -> String {
    format!("{:.1} k", x / 1e3)
}

fn main() {
    let total = Instant::now();
    let hands = eval_set();

    println!("hand evaluations ({EVAL_SET} fixed pseudo-random hands, a23-high)");
    println!("{:<16} {:>14}", "variant", "evals/s");
    for variant in Variant::ALL {
        println!(
            "{:<16} {:>14}",
            variant.name(),
            millions(bench_eval(variant, &hands))
        );
    }

    println!();
    println!("random full hands (default settings, random legal actions)");
    println!(
        "{:<16} {:>6} {:>12} {:>14}",
        "variant", "seats", "hands/s", "decisions/s"
    );
    for variant in Variant::ALL {
        for seats in [2, 6] {
            let (hands_per_s, decisions_per_s) = bench_hands(variant, seats);
            println!(
                "{:<16} {:>6} {:>12} {:>14}",
                variant.name(),
                seats,
                thousands(hands_per_s),
                millions(decisions_per_s)
            );
        }
    }
    println!();
    println!("total {:.1} s", total.elapsed().as_secs_f64());
}
