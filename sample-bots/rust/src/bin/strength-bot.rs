//! The strength bot: it bets by the strength percentile of its hand and the pot odds, and in
//! Closest to 555 swaps the card whose replacement is expected to come closest to 555. The
//! same strategy as the kit's `sample-bots/python/strength_bot.py` (the strategy, documented
//! in full: `sample_bots::policies::strength`).
//!
//! Arguments: `--seed N` replaces the hello's seed (the bluff's only draw), `--no-bluff` never
//! bluffs (as `strength_bot.py --no-bluff`: the two then decide alike).

use sample_bots::policies::StrengthBot;
use sample_bots::{run, seed_argument};

// The strategy is in the library (`sample_bots::policies::strength`), shared with the Python
// package's in-process opponents.
fn main() {
    let mut bot = StrengthBot::new(seed_argument());
    if std::env::args().any(|a| a == "--no-bluff") {
        bot = bot.without_bluff();
    }
    run("strength-bot", bot);
}
