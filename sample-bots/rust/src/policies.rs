//! The reference bots' strategies as library types, so that the bot binaries and in-process
//! users (the Python package's opponents) run one copy of each.
//!
//! - [`RandomBot`]: `random-bot`, a uniform legal action and amount.
//! - [`PassiveBot`]: `minimal_bot.py`'s rule (see, chaal, keep, refuse).
//! - [`MonteCarloBot`]: `montecarlo-bot`, win chance by sampling, pot odds.

mod montecarlo;
mod passive;
mod random;

pub use montecarlo::MonteCarloBot;
pub use passive::PassiveBot;
pub use random::RandomBot;
