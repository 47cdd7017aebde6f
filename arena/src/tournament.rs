//! Tournaments: files, schedules, concurrent resumable and shardable runs, results.

mod command;
pub mod config;
pub mod grading;
pub mod merge;
pub mod output;
pub mod output_standings;
pub mod page_cache;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod sections;
pub mod slots;
mod toml_error;

pub use config::{BotSeeds, ConfigError, Format, Tournament};
pub use output_standings::{
    gauntlet_report, planned, standings_of, standings_text, write_standings,
};
pub use results::MatchRecord;
pub use runner::{RunOptions, RunSummary, run};
