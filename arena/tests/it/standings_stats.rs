//! Standings statistics on synthetic tournaments: intervals over duplicate blocks, ratings,
//! crosstable marks, the SPRT, printing, and degenerate inputs.

use std::collections::BTreeMap;

use arena::standings::student_t_quantile;
use arena::standings::{BotStanding, Sprt, SprtDecision, Standings, compute, render_table, to_csv};
use arena::standings::{Comparison, SplitMix64, bradley_terry};
use arena::tournament::MatchRecord;
use protocol::FaultKind;

/// A standard normal deviate (Box–Muller).
fn normal(rng: &mut SplitMix64) -> f64 {
    let u1 = 1.0 - rng.next_f64(); // (0, 1]
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Synthetic duplicate tournament.
///
/// `skill[i]` is bot `i`'s expected chips per hand against an average table. Every round, every
/// group of `groups` is a duplicate block: the block draws a "luck of the cards" per seat
/// position (the same deals for every permutation, so it cancels within the block), then plays
/// each permutation of `perms` (indices into the group, in seat order). A seat's net is
/// `hands·(skill − mean skill of the table) + luck of its position + noise`, made zero-sum.
struct Sim {
    names: Vec<String>,
    skill: Vec<f64>,
    hands: u64,
    /// Sd of the luck of one seat position over a match, in chips per hand.
    luck: f64,
    /// Sd of a seat's own noise over a match, in chips per hand.
    noise: f64,
}

impl Sim {
    fn new(skill: &[f64]) -> Self {
        Self {
            names: (0..skill.len()).map(|i| format!("bot{i}")).collect(),
            skill: skill.to_vec(),
            hands: 100,
            luck: 2.0,
            noise: 1.0,
        }
    }

    fn run(
        &self,
        groups: &[Vec<usize>],
        perms: &[Vec<usize>],
        rounds: u64,
        seed: u64,
    ) -> Vec<MatchRecord> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        let mut block = 0;
        let h = self.hands as f64;
        for _ in 0..rounds {
            for group in groups {
                let k = group.len();
                let luck: Vec<f64> = (0..k).map(|_| self.luck * h * normal(&mut rng)).collect();
                let mean_skill = group.iter().map(|&b| self.skill[b]).sum::<f64>() / k as f64;
                for perm in perms {
                    let seats: Vec<usize> = perm.iter().map(|&p| group[p]).collect();
                    let raw: Vec<f64> = seats
                        .iter()
                        .enumerate()
                        .map(|(pos, &b)| {
                            h * (self.skill[b] - mean_skill)
                                + luck[pos]
                                + self.noise * h * normal(&mut rng)
                        })
                        .collect();
                    let mean = raw.iter().sum::<f64>() / k as f64;
                    let mut net: Vec<i64> = raw.iter().map(|x| (x - mean).round() as i64).collect();
                    // Exactly zero-sum after rounding.
                    let excess: i64 = net.iter().sum();
                    net[0] -= excess;
                    out.push(MatchRecord {
                        index: out.len() as u64,
                        block,
                        seats: seats.iter().map(|&b| self.names[b].clone()).collect(),
                        hands: self.hands,
                        hands_won: net.iter().map(|&n| u64::from(n > 0) * 10).collect(),
                        net,
                        faults: vec![BTreeMap::new(); k],
                        replay: None,
                    });
                }
                block += 1;
            }
        }
        out
    }
}

const SEED_IDENTICAL: u64 = 12;

fn pairs(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            out.push(vec![a, b]);
        }
    }
    out
}

fn all_permutations(k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in all_permutations(k - 1) {
        for pos in 0..k {
            let mut q = p.clone();
            q.insert(pos, k - 1);
            out.push(q);
        }
    }
    out
}

fn rotations(k: usize) -> Vec<Vec<usize>> {
    (0..k)
        .map(|r| (0..k).map(|i| (i + r) % k).collect())
        .collect()
}

fn rating_interval(b: &BotStanding) -> (f64, f64) {
    let e = b.rating_error.expect("rating error with many blocks");
    (b.rating - e, b.rating + e)
}

fn record(block: u64, seats: &[&str], hands: u64, net: &[i64]) -> MatchRecord {
    MatchRecord {
        index: 0,
        block,
        seats: seats.iter().map(|s| s.to_string()).collect(),
        hands,
        net: net.to_vec(),
        hands_won: vec![0; seats.len()],
        faults: vec![BTreeMap::new(); seats.len()],
        replay: None,
    }
}

#[test]
fn identical_bots_have_intervals_around_zero() {
    // One fixed draw (a 95% interval misses 0 one time in twenty: the rates are checked over
    // many draws in `intervals_are_calibrated_on_identical_bots`).
    let sim = Sim::new(&[0.0, 0.0, 0.0]);
    let records = sim.run(&pairs(3), &all_permutations(2), 40, SEED_IDENTICAL);
    let s = compute(&records);
    assert_eq!(s.bots.len(), 3);
    assert_eq!(s.blocks, 120);
    for b in &s.bots {
        assert_eq!(b.blocks, 80);
        let ci = b.ci.expect("many blocks");
        assert!(ci.contains(0.0), "{}: {ci:?}", b.name);
        let (lo, hi) = rating_interval(b);
        assert!(lo <= 0.0 && 0.0 <= hi, "{}: rating {lo}..{hi}", b.name);
    }
    for a in &s.bots {
        for b in &s.bots {
            let (alo, ahi) = rating_interval(a);
            let (blo, bhi) = rating_interval(b);
            assert!(
                alo <= bhi && blo <= ahi,
                "{} and {} do not overlap",
                a.name,
                b.name
            );
        }
    }
    assert!(
        s.crosstable.iter().all(|e| e.mark.is_empty()),
        "{:#?}",
        s.crosstable
    );
    // Mean rating is the anchor.
    let mean: f64 = s.bots.iter().map(|b| b.rating).sum::<f64>() / 3.0;
    assert!(mean.abs() < 1e-9);
}

#[test]
fn intervals_are_calibrated_on_identical_bots() {
    // Identical bots, 200 independent tournaments: each 95% interval (chips per hand, rating,
    // crosstable edge) should miss the truth (0) about 5% of the time.
    let sim = Sim::new(&[0.0, 0.0, 0.0]);
    let trials = 200;
    let (mut chips_miss, mut rating_miss, mut marks) = (0, 0, 0);
    for seed in 0..trials {
        let s = compute(&sim.run(&pairs(3), &all_permutations(2), 40, 1000 + seed));
        for b in &s.bots {
            chips_miss += usize::from(!b.ci.unwrap().contains(0.0));
            let (lo, hi) = rating_interval(b);
            rating_miss += usize::from(!(lo <= 0.0 && 0.0 <= hi));
        }
        marks += s.crosstable.iter().filter(|e| !e.mark.is_empty()).count();
    }
    let rate = |misses: usize, of: u64| misses as f64 / of as f64;
    let chips = rate(chips_miss, 3 * trials);
    let rating = rate(rating_miss, 3 * trials);
    let cross = rate(marks, 6 * trials);
    assert!((0.025..=0.085).contains(&chips), "chips {chips}");
    // The bootstrap's normal approximation undercovers slightly.
    assert!((0.02..=0.10).contains(&rating), "rating {rating}");
    assert!((0.025..=0.085).contains(&cross), "crosstable {cross}");
}

#[test]
fn stronger_bot_ranks_first_and_is_significant() {
    // bot1 is +1 chip/hand stronger: +0.5 chips/hand against each opponent, heads-up.
    let sim = Sim::new(&[0.0, 1.0, 0.0]);
    let records = sim.run(&pairs(3), &all_permutations(2), 40, 22);
    let s = compute(&records);
    let first = &s.bots[0];
    assert_eq!(first.name, "bot1");
    assert_eq!(first.rank, 1);
    assert!(
        (first.chips_per_hand - 0.5).abs() < 0.15,
        "{}",
        first.chips_per_hand
    );
    let ci = first.ci.unwrap();
    assert!(ci.low > 0.0, "{ci:?}");
    assert!(first.rating > s.bots[1].rating && first.rating > s.bots[2].rating);
    for other in ["bot0", "bot2"] {
        let cell = s.cross("bot1", other).unwrap();
        assert_eq!(cell.mark, "+", "{cell:?}");
        assert_eq!(cell.matches, 80);
        assert_eq!(cell.blocks, 40);
        assert_eq!(cell.hands, 8000);
        // Heads-up zero-sum: the edge is the bot's own chips per hand.
        assert!((cell.edge_per_hand - cell.chips_per_hand).abs() < 1e-12);
        let back = s.cross(other, "bot1").unwrap();
        assert_eq!(back.mark, "-");
        assert_eq!(back.edge_per_hand, -cell.edge_per_hand);
    }
    let weak = s.cross("bot0", "bot2").unwrap();
    assert_eq!(weak.mark, "");
    // Ranks are by chips per hand, descending.
    assert!(
        s.bots
            .windows(2)
            .all(|w| w[0].chips_per_hand >= w[1].chips_per_hand)
    );
}

#[test]
fn t_quantiles_match_tables() {
    let cases = [
        (1.0, 12.706),
        (2.0, 4.303),
        (5.0, 2.571),
        (10.0, 2.228),
        (30.0, 2.042),
        (100.0, 1.984),
        (1e6, 1.960),
    ];
    for (df, expected) in cases {
        let t = student_t_quantile(0.975, df);
        assert!((t - expected).abs() < 5e-4, "df {df}: {t}");
    }
    assert!((student_t_quantile(0.975, 1.0) - 12.706_204_736).abs() < 1e-6);
    assert!((student_t_quantile(0.975, 1e9) - 1.959_964).abs() < 1e-5);
    assert!((student_t_quantile(0.995, 10.0) - 3.169).abs() < 5e-4);
}

#[test]
fn bradley_terry_three_of_four_is_190_8_elo() {
    let games: Vec<Comparison> = [1.0, 1.0, 1.0, 0.0]
        .into_iter()
        .map(|score_a| Comparison {
            a: 0,
            b: 1,
            score_a,
        })
        .collect();
    let r = bradley_terry(2, &games, 0.0);
    assert!((r[0] - r[1] - 190.848_501_887).abs() < 1e-6, "{r:?}");
    assert!((r[0] + r[1]).abs() < 1e-9);

    // The same ratio through `compute`, whose comparisons are duplicate blocks: A's chips edge
    // over B is positive in 75 of 100 blocks (each block two matches). The standings' prior
    // (one virtual draw) moves it to 400·log10(75.5/25.5) ≈ 188.5.
    let mut records = Vec::new();
    for block in 0..100 {
        let a = if block % 4 < 3 { 7 } else { -7 };
        for _ in 0..2 {
            records.push(record(block, &["A", "B"], 10, &[a, -a]));
        }
    }
    let s = compute(&records);
    let diff = s.bot("A").unwrap().rating - s.bot("B").unwrap().rating;
    assert!(
        (diff - 400.0 * (75.5f64 / 25.5).log10()).abs() < 1e-6,
        "{diff}"
    );
    assert_eq!(s.bot("A").unwrap().won, 150);
    assert_eq!(s.bot("A").unwrap().lost, 50);
    assert_eq!(s.bot("A").unwrap().tier, 1);
    assert_eq!(s.bot("B").unwrap().tier, 2);
    // Every resample of blocks differs a little: an error, but far below the difference.
    let error = s.bot("A").unwrap().rating_error.unwrap();
    assert!(error > 0.0 && error < diff / 2.0, "{error}");
}

#[test]
fn sprt_accepts_the_right_hypothesis_deterministically() {
    let run = |true_mean: f64, seed: u64| {
        let mut rng = SplitMix64::new(seed);
        let mut sprt = Sprt::new(0.0, 0.2, 0.05, 0.05);
        for n in 1..=10_000u64 {
            sprt.add(true_mean + normal(&mut rng));
            match sprt.decision() {
                SprtDecision::Continue => {}
                d => return (d, n, sprt.llr()),
            }
        }
        (SprtDecision::Continue, 10_000, sprt.llr())
    };
    let (d, n, llr) = run(0.6, 1);
    assert_eq!(d, SprtDecision::AcceptH1);
    assert!(n < 1000, "{n}");
    assert!(llr >= Sprt::new(0.0, 0.2, 0.05, 0.05).bounds().1);
    let (d, n, llr) = run(-0.4, 2);
    assert_eq!(d, SprtDecision::AcceptH0);
    assert!(n < 1000, "{n}");
    assert!(llr <= Sprt::new(0.0, 0.2, 0.05, 0.05).bounds().0);
    assert_eq!(run(0.6, 1), run(0.6, 1));
    assert_eq!(run(-0.4, 2), run(-0.4, 2));
}

#[test]
fn sprt_error_rates_are_near_nominal() {
    // At μ = m0, H1 should be accepted about α of the time; at μ = m1, H0 about β of the time.
    // The variance is estimated, so the rates are approximate (about 5.5% with the default
    // minimum of 20 observations).
    let runs = 400;
    let rate = |true_mean: f64, wrong: SprtDecision, seed: u64| {
        let mut rng = SplitMix64::new(seed);
        let mut wrong_count = 0;
        for _ in 0..runs {
            let mut sprt = Sprt::new(0.0, 0.2, 0.05, 0.05);
            for _ in 0..100_000 {
                sprt.add(true_mean + normal(&mut rng));
                if sprt.decision() != SprtDecision::Continue {
                    break;
                }
            }
            if sprt.decision() == wrong {
                wrong_count += 1;
            }
        }
        f64::from(wrong_count) / f64::from(runs)
    };
    let alpha = rate(0.0, SprtDecision::AcceptH1, 3);
    let beta = rate(0.2, SprtDecision::AcceptH0, 4);
    assert!(alpha <= 0.09, "alpha {alpha}");
    assert!(beta <= 0.09, "beta {beta}");
}

#[test]
fn sprt_error_rates_stay_near_nominal_with_the_sequential_luck_correction() {
    // Blocks of 25 units whose payoff is mostly luck (y = μ + 3·u + noise, u a centred chance
    // term the correction sees): the SPRT on luck-corrected block scores (coefficients fitted
    // on the blocks before only) keeps its error rates, and decides in fewer blocks.
    use arena::standings::estimator::{SequentialFit, Unit};
    let runs = 300;
    let run = |true_mean: f64, wrong: SprtDecision, seed: u64, corrected: bool| {
        let mut rng = SplitMix64::new(seed);
        let (mut wrong_count, mut blocks) = (0, 0u64);
        for _ in 0..runs {
            let mut sprt = Sprt::new(0.0, 0.2, 0.05, 0.05);
            // One term, so a light ridge (the arena's, for hundreds of terms, is heavier).
            let mut fit = SequentialFit::new(arena::standings::estimator::Ridge::uniform(10.0));
            for _ in 0..100_000 {
                let block: Vec<Unit> = (0..25)
                    .map(|_| {
                        let u = normal(&mut rng);
                        Unit {
                            y: true_mean + 3.0 * u + 2.0 * normal(&mut rng),
                            z: vec![u],
                            hands: 1,
                            decisions: 0,
                        }
                    })
                    .collect();
                let s = fit.next(&block);
                let plain: f64 = block.iter().map(|u| u.y).sum();
                sprt.add(if corrected { s.chips } else { plain } / 25.0);
                if sprt.decision() != SprtDecision::Continue {
                    break;
                }
            }
            blocks += sprt.samples();
            if sprt.decision() == wrong {
                wrong_count += 1;
            }
        }
        (
            f64::from(wrong_count) / f64::from(runs),
            blocks as f64 / f64::from(runs),
        )
    };
    let (alpha, corrected_blocks) = run(0.0, SprtDecision::AcceptH1, 5, true);
    let (beta, _) = run(0.2, SprtDecision::AcceptH0, 6, true);
    assert!(alpha <= 0.09, "alpha {alpha}");
    assert!(beta <= 0.09, "beta {beta}");
    // The same streams plain: the spread of a block is √(9 + 4) against √4 corrected, so
    // the plain test needs about 3x the blocks once the fit has learnt; the first five blocks
    // are plain in both (four before any fit, a fifth before any correction has been checked
    // on a block it had not seen), which at these sample sizes (tens of blocks) leaves about 2x.
    let (_, plain_blocks) = run(0.0, SprtDecision::AcceptH1, 5, false);
    assert!(
        corrected_blocks * 1.8 < plain_blocks,
        "{corrected_blocks} vs {plain_blocks}"
    );
}

#[test]
fn multi_seat_tables() {
    // Three seats, all 6 permutations per block, round-robin over the 4 triples of 4 bots.
    let sim = Sim::new(&[0.0, 0.0, 1.5, 0.0]);
    let triples = vec![vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]];
    let records = sim.run(&triples, &all_permutations(3), 10, 33);
    let s = compute(&records);
    check_table(&s, &records, 4);
    assert_eq!(s.bots[0].name, "bot2");
    assert!(s.bots[0].ci.unwrap().low > 0.0);
    for b in &s.bots {
        assert_eq!(b.matches, 180); // 3 triples × 10 rounds × 6 permutations
        assert_eq!(b.blocks, 30);
    }
    for other in ["bot0", "bot1", "bot3"] {
        assert_eq!(s.cross("bot2", other).unwrap().mark, "+");
        assert_eq!(s.cross(other, "bot2").unwrap().mark, "-");
        assert_eq!(s.cross("bot2", other).unwrap().matches, 120);
    }

    // Four seats, the 4 cyclic rotations per block.
    let sim = Sim::new(&[0.0, 2.0, 0.0, 0.0]);
    let records = sim.run(&[vec![0, 1, 2, 3]], &rotations(4), 25, 44);
    let s = compute(&records);
    check_table(&s, &records, 4);
    assert_eq!(s.bots[0].name, "bot1");
    assert!(s.bots[0].rating > 0.0);
    assert_eq!(s.crosstable.len(), 12);
}

/// Invariants of any standings.
fn check_table(s: &Standings, records: &[MatchRecord], bots: usize) {
    assert_eq!(s.bots.len(), bots);
    assert_eq!(s.matches, records.len() as u64);
    let chips: i64 = s.bots.iter().map(|b| b.chips).sum();
    assert_eq!(chips, 0, "zero-sum");
    let wins: u64 = s.bots.iter().map(|b| b.won).sum();
    let decided = records
        .iter()
        .filter(|r| {
            let best = r.net.iter().max().unwrap();
            r.net.iter().filter(|&n| n == best).count() == 1
        })
        .count() as u64;
    assert_eq!(wins, decided);
    for b in &s.bots {
        assert_eq!(b.won + b.lost + b.drawn, b.matches);
        assert!(b.rating.is_finite());
        assert!(b.rating_error.is_some_and(f64::is_finite));
        let ci = b.ci.unwrap();
        assert!(ci.low <= b.chips_per_hand && b.chips_per_hand <= ci.high);
    }
    assert_eq!(s.crosstable.len(), bots * (bots - 1));
    for e in &s.crosstable {
        let back = s.cross(&e.opponent, &e.bot).unwrap();
        assert_eq!(back.edge_per_hand, -e.edge_per_hand);
        assert_eq!(back.hands, e.hands);
    }
    let mean: f64 = s.bots.iter().map(|b| b.rating).sum::<f64>() / bots as f64;
    assert!(mean.abs() < 1e-9);
}

#[test]
fn won_lost_drawn_at_a_three_seat_table() {
    let records = [
        record(0, &["a", "b", "c"], 10, &[5, 5, -10]),
        record(0, &["b", "c", "a"], 10, &[10, -5, -5]),
        record(1, &["c", "a", "b"], 10, &[-1, 2, -1]),
    ];
    let s = compute(&records);
    let wld = |name: &str| {
        let b = s.bot(name).unwrap();
        (b.won, b.lost, b.drawn)
    };
    assert_eq!(wld("a"), (1, 1, 1));
    assert_eq!(wld("b"), (1, 1, 1));
    assert_eq!(wld("c"), (0, 3, 0));
}

#[test]
fn empty_input_gives_empty_standings() {
    let s = compute(&[]);
    assert_eq!(
        s,
        Standings {
            matches: 0,
            blocks: 0,
            bots: vec![],
            crosstable: vec![],
            sprt: None,
        }
    );
    let text = render_table(&s);
    assert!(text.contains("0 bots"));
    assert_eq!(to_csv(&s).lines().count(), 1);
}

#[test]
fn degenerate_records_do_not_panic() {
    let records = [
        // No hands at all.
        record(0, &["a", "b"], 0, &[0, 0]),
        // Short per-seat vectors.
        MatchRecord {
            index: 1,
            block: 0,
            seats: vec!["a".into(), "b".into()],
            hands: 5,
            net: vec![3],
            hands_won: vec![],
            faults: vec![],
            replay: None,
        },
        // A single seat.
        record(1, &["c"], 4, &[0]),
        // The same bot twice (self-play under one name).
        record(2, &["a", "a"], 2, &[1, -1]),
    ];
    let s = compute(&records);
    assert_eq!(s.bots.len(), 3);
    assert_eq!(s.bot("c").unwrap().rating, 0.0);
    assert_eq!(s.bot("a").unwrap().matches, 4);
    let json = serde_json::to_string(&s).unwrap();
    let back: Standings = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    let _ = render_table(&s);
    let _ = to_csv(&s);
}

#[test]
fn compute_is_deterministic() {
    let sim = Sim::new(&[0.3, 0.0, -0.2, 0.1]);
    let records = sim.run(&pairs(4), &all_permutations(2), 15, 55);
    let a = compute(&records);
    let b = compute(&records);
    assert_eq!(a, b);
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    // The order of the records does not matter.
    let mut reversed = records.clone();
    reversed.reverse();
    let c = compute(&reversed);
    assert_eq!(a.bots.len(), c.bots.len());
    for (x, y) in a.bots.iter().zip(&c.bots) {
        assert_eq!(x.name, y.name);
        assert_eq!(x.chips, y.chips);
        assert!((x.chips_per_hand - y.chips_per_hand).abs() < 1e-12);
        assert!((x.rating - y.rating).abs() < 1e-6);
    }
}

/// A tiny fixed tournament: two heads-up duplicate blocks between "alpha" and "beta", and one
/// block of "alpha" against "gamma".
fn tiny() -> Vec<MatchRecord> {
    let mut records = vec![
        record(0, &["alpha", "beta"], 10, &[30, -30]),
        record(0, &["beta", "alpha"], 10, &[-10, 10]),
        record(1, &["alpha", "beta"], 10, &[-5, 5]),
        record(1, &["beta", "alpha"], 10, &[-15, 15]),
        record(2, &["alpha", "gamma"], 10, &[0, 0]),
        record(2, &["gamma", "alpha"], 10, &[4, -4]),
    ];
    records[1].faults[0].insert(FaultKind::Timeout, 2);
    records[5].faults[0].insert(FaultKind::Crashed, 1);
    records
}

#[test]
fn render_table_of_a_tiny_case() {
    let s = compute(&tiny());
    let alpha = s.bot("alpha").unwrap();
    // 30+10−5+15+0−4 = 46 chips over 60 hands.
    assert_eq!(alpha.chips, 46);
    assert_eq!(alpha.hands, 60);
    assert_eq!(alpha.blocks, 3);
    assert_eq!((alpha.won, alpha.lost, alpha.drawn), (3, 2, 1));
    // The ranking follows the blocks head-to-head: gamma won its one block against alpha,
    // alpha both against beta (pooled chips per hand would put alpha first).
    let order: Vec<&str> = s.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(order, ["gamma", "alpha", "beta"]);
    // gamma played one block: its interval is unbounded.
    let gamma = s.bot("gamma").unwrap();
    assert_eq!(gamma.ci, None);

    let text = render_table(&s);
    println!("{text}");
    for needle in [
        "Standings: 3 bots, 6 matches, 3 duplicate blocks",
        "rank",
        "chips/hand",
        "95% CI",
        "W-L-D",
        "rating",
        "faults",
        "alpha",
        "+0.767 ±",
        "+46",
        "3-2-1",
        "unbounded",
        "± inf",
        "timeout:2",
        "crashed:1",
        "Crosstable",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    // Table lines are aligned: every line of the first table has the header's column starts.
    let lines: Vec<&str> = text.lines().collect();
    let header = lines[1];
    let bot_col = header.find("bot").unwrap();
    for line in &lines[2..5] {
        let name = line[bot_col..].split_whitespace().next().unwrap();
        assert!(["alpha", "beta", "gamma"].contains(&name), "{line}");
    }
    // Crosstable: alpha vs beta over two blocks, alpha vs gamma over one (no mark possible).
    let ab = s.cross("alpha", "beta").unwrap();
    assert_eq!(ab.chips_per_hand, 50.0 / 40.0);
    assert_eq!(ab.edge_per_hand, 50.0 / 40.0);
    let ag = s.cross("alpha", "gamma").unwrap();
    assert_eq!(ag.ci, None);
    assert_eq!(ag.mark, "");
    assert!(s.cross("beta", "gamma").is_none());
    assert!(text.contains("+1.250"), "{text}");
}

#[test]
fn csv_has_a_header_and_one_row_per_bot() {
    let s = compute(&tiny());
    let csv = to_csv(&s);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with("rank,bot,matches,blocks,hands,hands_won,chips,chips_per_hand,ci_low,ci_high,won,lost,drawn,rating,rating_error,faults_"));
    assert!(lines[0].contains("faults_timeout") && lines[0].contains("faults_crashed"));
    let columns = lines[0].split(',').count();
    for line in &lines[1..] {
        assert_eq!(line.split(',').count(), columns, "{line}");
    }
    assert!(lines[2].starts_with("2,alpha,6,3,60,"), "{csv}");
    assert!(lines[0].ends_with(",tier"));
    // gamma: unbounded interval → empty cells.
    let gamma = lines.iter().find(|l| l.contains(",gamma,")).unwrap();
    assert!(gamma.contains(",,"), "{gamma}");
}

#[test]
fn json_round_trip_with_unbounded_interval() {
    let s = compute(&tiny());
    let json = serde_json::to_value(&s).unwrap();
    let gamma = json["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "gamma")
        .unwrap();
    assert!(gamma["ci"].is_null());
    assert_eq!(gamma["faults"]["crashed"], 1);
    let back: Standings = serde_json::from_value(json).unwrap();
    assert_eq!(back, s);
}
