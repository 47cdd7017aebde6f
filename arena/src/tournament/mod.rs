//! Tournaments: files, schedules, concurrent resumable and shardable runs, results.

mod command;
mod config;
mod error;
pub(crate) mod grading;
mod merge;
mod output;
mod output_standings;
// Two small concerns stay public modules: their functions read with the module's name
// (`page_cache::drop_now`, `page_cache::unavailable`; `sections::line_of`,
// `sections::sandbox_level`), and `sections` is the part of the tournament file the server's
// own configuration shares.
pub mod page_cache;
mod run_error;
mod runner;
mod schedule;
pub mod sections;
mod slots;
mod sprt_blocks;
mod toml_error;

pub use crate::standings::MatchRecord;
pub use config::{BotSeeds, ConfigError, Format, Tournament};
pub use error::{MergeError, SettleSeedError, TournamentOutputError};
pub use merge::{Merged, merge};
pub use output::{read_plan, read_results, write_atomically};
pub use output_standings::{
    gauntlet_report, planned, standings_of, standings_text, write_standings,
};
pub use run_error::{BotCheckFailure, RunError};
pub use runner::{RunOptions, RunSummary, run};
pub use schedule::{block_seed, schedule};
