//! Measures the luck-corrected estimator (`arena::standings::luck`) on replays of real matches:
//! interval width against the plain estimator and coverage. Run by hand (BENCHMARKS.md,
//! "Luck-corrected estimates", has the commands that make the replays):
//!
//! ```text
//! LUCK_DATA=/tmp/luckdata LUCK_PAIRS=rr,mr,cr LUCK_GROUP=10 \
//!   cargo test --release -p arena --test luck_measure -- --ignored --nocapture
//! ```
//!
//! `LUCK_DATA/<pair>/s<seed>-ab.jsonl` and `s<seed>-ba.jsonl` are the two matches of the
//! duplicate block of `seed` (bot A in seat 0, then in seat 1). Pairs whose name starts with
//! `rr` are A/A (the same program twice): their true edge is 0. For the others the "truth" is
//! the corrected estimate over all blocks of the pair. `LUCK_BETAS` (comma-separated) sweeps
//! the `saw` scale instead of using `SEE_SCALE`, `LUCK_OFFSETS` its offset (`SEE_OFFSET`): do this
//! on held-out seeds only.

use std::path::Path;

use arena::standings::luck::{Equity, SEE_OFFSET, SEE_SCALE, SeatHand, estimates, hand_luck_with};
use arena::standings::stats::BlockEstimate;
use rules::SequenceOrder;

/// Bot A's hands of each block (both matches), and of the first match alone.
fn load(
    dir: &Path,
    beta: f64,
    offset: f64,
    eq: &mut Equity,
) -> Vec<(Vec<SeatHand>, Vec<SeatHand>)> {
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
    let mut blocks = Vec::new();
    for seed in seeds {
        let mut block = Vec::new();
        let mut first = Vec::new();
        let mut complete = true;
        for (order, seat) in [("ab", 0), ("ba", 1)] {
            let path = dir.join(format!("s{seed}-{order}.jsonl"));
            let Ok(records) = arena::replay::read(&path) else {
                complete = false;
                break;
            };
            let hands =
                hand_luck_with(&records, eq, beta, offset).expect("a classic two-seat replay");
            let seat_hands: Vec<SeatHand> = hands
                .iter()
                .map(|h| SeatHand {
                    payoff: h.payoffs[seat],
                    luck: h.luck[seat],
                })
                .collect();
            if seat == 0 {
                first = seat_hands.clone();
            }
            block.extend(seat_hands);
        }
        if complete {
            blocks.push((block, first));
        }
    }
    blocks
}

fn width(e: &BlockEstimate) -> f64 {
    e.ci.map(|c| c.high - c.low).unwrap_or(f64::INFINITY)
}

struct Summary {
    experiments: usize,
    plain_cover: usize,
    corrected_cover: usize,
    width_ratio: f64,
}

/// Splits the blocks into experiments of `group` blocks each and checks every interval against
/// `truth`; `width_ratio` is mean plain width / mean corrected width.
fn experiments(blocks: &[Vec<SeatHand>], group: usize, truth: f64) -> Summary {
    let mut s = Summary {
        experiments: 0,
        plain_cover: 0,
        corrected_cover: 0,
        width_ratio: 0.0,
    };
    let (mut wp, mut wc) = (0.0, 0.0);
    for chunk in blocks.chunks_exact(group) {
        let (plain, corrected) = estimates(chunk, 0.95);
        s.experiments += 1;
        s.plain_cover += plain.ci.is_some_and(|c| c.contains(truth)) as usize;
        s.corrected_cover += corrected.ci.is_some_and(|c| c.contains(truth)) as usize;
        wp += width(&plain);
        wc += width(&corrected);
    }
    s.width_ratio = wp / wc;
    s
}

#[test]
#[ignore = "needs replays made by hand (see the module documentation)"]
fn luck_correction_width_and_coverage() {
    let data = std::env::var("LUCK_DATA").unwrap_or_else(|_| "/tmp/luckdata".into());
    let pairs = std::env::var("LUCK_PAIRS").unwrap_or_else(|_| "rr,mr,cr".into());
    let group: usize = std::env::var("LUCK_GROUP")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(10);
    let betas: Vec<f64> = std::env::var("LUCK_BETAS")
        .ok()
        .map(|b| b.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![SEE_SCALE]);
    let offsets: Vec<f64> = std::env::var("LUCK_OFFSETS")
        .ok()
        .map(|b| b.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![SEE_OFFSET]);
    let mut eq = Equity::classic(SequenceOrder::A23High);
    for pair in pairs.split(',') {
        for (&beta, &offset) in betas
            .iter()
            .flat_map(|b| offsets.iter().map(move |o| (b, o)))
        {
            let loaded = load(&Path::new(&data).join(pair), beta, offset, &mut eq);
            let blocks: Vec<Vec<SeatHand>> = loaded.iter().map(|(b, _)| b.clone()).collect();
            let singles: Vec<Vec<SeatHand>> = loaded.iter().map(|(_, f)| f.clone()).collect();
            let (plain, corrected) = estimates(&blocks, 0.95);
            let (single_plain, single_corrected) = estimates(&singles, 0.95);
            let truth = if pair.starts_with("rr") {
                0.0
            } else {
                corrected.mean
            };
            println!(
                "{pair} beta={beta} offset={offset}: {} blocks of {} hands (bot A's, both seat orders)",
                blocks.len(),
                blocks.first().map_or(0, |b| b.len())
            );
            println!(
                "  all blocks: plain {:+.4} ± {:.4}, corrected {:+.4} ± {:.4}: width ratio {:.2} \
                 (hands ratio {:.2})",
                plain.mean,
                width(&plain) / 2.0,
                corrected.mean,
                width(&corrected) / 2.0,
                width(&plain) / width(&corrected),
                (width(&plain) / width(&corrected)).powi(2)
            );
            println!(
                "  no duplicates (first match of each block as the unit): plain ± {:.4}, \
                 corrected ± {:.4}: width ratio {:.2}",
                width(&single_plain) / 2.0,
                width(&single_corrected) / 2.0,
                width(&single_plain) / width(&single_corrected)
            );
            let s = experiments(&blocks, group, truth);
            println!(
                "  {} experiments of {group} blocks against truth {truth:+.4}: coverage plain \
                 {:.1}%, corrected {:.1}%; mean width ratio {:.2}",
                s.experiments,
                100.0 * s.plain_cover as f64 / s.experiments.max(1) as f64,
                100.0 * s.corrected_cover as f64 / s.experiments.max(1) as f64,
                s.width_ratio
            );
        }
    }
}
