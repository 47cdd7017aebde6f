//! The luck-corrected estimator's research tool: the measurements that RESEARCH.md
//! (`arena/src/standings/RESEARCH.md`) and BENCHMARKS.md, section 6, quote, kept runnable.
//! Not part of the arena: it reads the estimator through its public parts
//! (`arena::standings::estimator`: a block's units, the ridge fit, the running test's fit) and
//! keeps the measurement-only variants here (`estimates.rs`: cross-fitting, other ridges, the
//! sequential fit without its shrink factor).
//!
//! ```text
//! cargo run --release -p arena --example luck_research -- width      # replays.rs
//! cargo run --release -p arena --example luck_research -- ceiling    # replays.rs
//! cargo run --release -p arena --example luck_research -- offline    # replays.rs
//! cargo run --release -p arena --example luck_research -- coverage   # coverage.rs
//! ```
//!
//! Each takes its settings from the environment (`LUCK_*`, `COVERAGE_*`), described in its
//! file. Its tests (of the variants in `estimates.rs`) run with the arena's:
//! `cargo nextest run -p arena`.

mod coverage;
mod estimates;
mod replays;

/// The data of the estimator's tests: the engine-played replays the coverage measurement plays
/// its blocks with, and the synthetic experiments of the tests in `estimates.rs`. The file
/// names `crate::replay` and `crate::standings`, imported here.
#[allow(dead_code)]
#[path = "../../src/standings/estimator/test_play.rs"]
mod test_play;

use arena::{replay, standings};

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("width") => replays::width_and_coverage(),
        Some("ceiling") => replays::ceiling_from_replayed_decks(),
        Some("offline") => replays::offline_value_table(),
        Some("coverage") => coverage::coverage_of_the_luck_corrected_intervals(),
        _ => {
            eprintln!("usage: luck_research width|ceiling|offline|coverage (see its source)");
            std::process::exit(2);
        }
    }
}
