//! The reference bots' strategies as library types, so that the bot binaries and in-process
//! users (the Python package's opponents) run one copy of each.
//!
//! - [`RandomBot`]: `random-bot`, a uniform legal action and amount.
//! - [`PassiveBot`]: `minimal_bot.py`'s rule (see, chaal, keep, refuse).
//! - [`StrengthBot`]: `strength-bot`, `strength_bot.py`'s strategy: win chance from the
//!   strength percentile of its hand, pot odds, swaps by expected distance.
//! - [`MonteCarloBot`]: `montecarlo-bot`, win chance by sampling, pot odds.

mod montecarlo;
mod passive;
mod random;
mod strength;

pub use montecarlo::MonteCarloBot;
pub use passive::PassiveBot;
pub use random::RandomBot;
pub use strength::StrengthBot;
