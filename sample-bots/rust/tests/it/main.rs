//! The sample bots' integration tests, one test binary (a module per concern): the Rust
//! strength bot's parity with `strength_bot.py` and its strength, over the in-process table
//! both share.

mod strength_edge;
mod strength_parity;
mod table;
