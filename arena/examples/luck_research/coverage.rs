//! A measurement (BENCHMARKS.md, section 6): how often the luck-corrected 95% intervals hold
//! the truth over many short runs of duplicate blocks, played in process by the engine (no
//! subprocesses, so thousands of runs are cheap), in every game. Bot A is a card-driven policy
//! that answers every decision with a mix, bot B a fixed card-driven rule (the estimator's
//! test replays, `test_play::play_mixing_in`); the truth is the cross-fitted estimate over as
//! many blocks again on other seeds.
//!
//! ```text
//! COVERAGE_GAME=closest-555 COVERAGE_BLOCKS=6000 \
//!   cargo run --release -p arena --example luck_research -- coverage
//! ```

use arena::standings::estimator::{Block, RIDGE, SequentialFit, Tables, block_units};
use arena::standings::{BlockSample, block_estimate};
use rules::Variant;

use crate::estimates::{cross_fitted, plain, width};
use crate::test_play::play_mixing_in;

/// Bot A's units of the duplicate block of `seed`: A in seat 0, then in seat 1, the same deals,
/// A's draws from a different stream in each match (as the arena's key differs by match).
fn block(variant: Variant, seed: u64, hands: u64, tables: &mut Tables) -> Block {
    let ab = play_mixing_in(variant, seed, hands, 0, 2 * seed);
    let ba = play_mixing_in(variant, seed, hands, 1, 2 * seed + 1);
    block_units(&[(&ab, 0), (&ba, 1)], tables).expect("two-seat replays")
}

/// `coverage`: the coverage and width of each estimate in runs of 10, 20 and 40 blocks.
pub fn coverage_of_the_luck_corrected_intervals() {
    let variant: Variant = std::env::var("COVERAGE_GAME")
        .unwrap_or_else(|_| "closest-555".into())
        .parse()
        .expect("a game");
    let env = |key: &str, default: u64| {
        std::env::var(key)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (n, hands) = (env("COVERAGE_BLOCKS", 6000), env("COVERAGE_HANDS", 50));
    let mut tables = Tables::default();
    let truth_blocks: Vec<Block> = (0..n)
        .map(|s| block(variant, 1_000_000_000 + s, hands, &mut tables))
        .collect();
    let truth = block_estimate(&cross_fitted(&truth_blocks, RIDGE), 0.95);
    let truth_plain = block_estimate(&plain(&truth_blocks), 0.95);
    println!(
        "{variant}: truth {:+.4} ± {:.4} cross-fitted over {n} blocks of {} hands of A \
         (plain {:+.4} ± {:.4})",
        truth.mean,
        width(&truth) / 2.0,
        2 * hands,
        truth_plain.mean,
        width(&truth_plain) / 2.0,
    );
    let blocks: Vec<Block> = (0..n)
        .map(|s| block(variant, s, hands, &mut tables))
        .collect();
    for run in [10, 20, 40] {
        let (mut runs, mut cover, mut widths) = (0usize, [0usize; 3], [0f64; 3]);
        for chunk in blocks.chunks_exact(run) {
            let mut fit = SequentialFit::for_game(variant, RIDGE);
            let sequential: Vec<BlockSample> = chunk.iter().map(|b| fit.next(b)).collect();
            let estimates = [
                block_estimate(&plain(chunk), 0.95),
                block_estimate(&cross_fitted(chunk, RIDGE), 0.95),
                block_estimate(&sequential, 0.95),
            ];
            runs += 1;
            for (k, e) in estimates.iter().enumerate() {
                cover[k] += e.ci.is_some_and(|ci| ci.contains(truth.mean)) as usize;
                widths[k] += width(e);
            }
        }
        let pct = |c: usize| 100.0 * c as f64 / runs as f64;
        println!(
            "  {runs} runs of {run} blocks: coverage plain {:.1}%, cross-fitted {:.1}%, \
             sequential {:.1}% (one standard error {:.1}%); width ratio cross {:.2}, seq {:.2}",
            pct(cover[0]),
            pct(cover[1]),
            pct(cover[2]),
            100.0 * (0.95 * 0.05 / runs as f64).sqrt(),
            widths[0] / widths[1],
            widths[0] / widths[2],
        );
    }
}
