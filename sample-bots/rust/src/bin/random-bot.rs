//! A random legal bot: picks one of the offered actions uniformly, and a uniform amount for a
//! bet. Seeded from the hello (or `--seed N`), so a match against it is reproducible.

use sample_bots::policies::RandomBot;
use sample_bots::{run, seed_argument};

// The strategy is in the library (`sample_bots::policies::random`), shared with the Python
// package's in-process opponents.
fn main() {
    run("random-bot", RandomBot::new(seed_argument()));
}
