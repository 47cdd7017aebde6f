//! A stronger bot: it estimates its chance of holding the best hand by Monte-Carlo sampling
//! of the opponents' possible hands, then bets by pot odds (the strategy, documented in full:
//! `sample_bots::policies::montecarlo`).

use sample_bots::policies::MonteCarloBot;
use sample_bots::{run, seed_argument};

// The strategy is in the library (`sample_bots::policies::montecarlo`), shared with the
// Python package's in-process opponents.
fn main() {
    run("montecarlo-bot", MonteCarloBot::new(seed_argument()));
}
