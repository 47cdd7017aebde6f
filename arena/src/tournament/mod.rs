//! Tournaments: files, schedules, concurrent resumable and shardable runs, results.

mod command;
pub mod config;
mod error;
pub mod grading;
pub mod merge;
pub mod output;
pub mod output_standings;
pub mod page_cache;
mod run_error;
pub mod runner;
pub mod schedule;
pub mod sections;
pub mod slots;
pub mod sprt_blocks;
mod toml_error;

pub use crate::standings::MatchRecord;
pub use config::{BotSeeds, ConfigError, Format, Tournament};
pub use error::{MergeError, SettleSeedError, TournamentOutputError};
pub use output_standings::{
    gauntlet_report, planned, standings_of, standings_text, write_standings,
};
pub use run_error::{BotCheckFailure, RunError};
pub use runner::{RunOptions, RunSummary, run};
