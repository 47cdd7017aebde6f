//! Why a tournament run stopped (or never started). Bots misbehaving in a match are never
//! among these: they are faults, in the results.

use std::io;
use std::path::PathBuf;

use super::error::TournamentOutputError;
use crate::console::exit::{ExitKind, HasExitKind};
use crate::referee::MatchError;
use crate::referee::seeds::SeedDrawError;

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Exit status 2, like the other mistakes of the tournament file or the command line.
    #[error(
        "{}: an sprt tournament is sequential and cannot be sharded; run it on one machine",
        file.display()
    )]
    ShardedSprt { file: PathBuf },
    /// Exit status 2. `suggested`: a seed just drawn, for the user to write in the file.
    #[error(
        "{}: field `seed`: a sharded tournament needs an explicit seed (each machine would \
         draw its own and the shards could not be merged); add one, e.g. `seed = {suggested}` \
         (just drawn from the operating system), and keep it secret until the tournament is \
         over",
        file.display()
    )]
    ShardedWithoutSeed { file: PathBuf, suggested: u64 },
    /// Exit status 2: `page_cache = "drop"` cannot be honoured (`why`).
    #[error("{}: field `page_cache`: {why}", file.display())]
    PageCacheUnavailable { file: PathBuf, why: String },
    /// Exit status 2: bots of the file that do not start or fail their handshake.
    #[error("{}", bot_failures(file, failures))]
    BotChecks {
        file: PathBuf,
        /// In the file's order.
        failures: Vec<BotCheckFailure>,
    },
    #[error(transparent)]
    DrawSeed(#[from] SeedDrawError),
    #[error(transparent)]
    Output(#[from] TournamentOutputError),
    #[error("cannot create a scratch directory")]
    Scratch(#[source] io::Error),
    #[error("a bot check panicked")]
    CheckPanicked(#[source] tokio::task::JoinError),
    #[error("cannot start the job slots' threads")]
    StartSlots(#[source] io::Error),
    #[error("a job slot's thread panicked")]
    SlotPanicked,
    #[error("cannot append to {}", root.display())]
    Append {
        root: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The arena itself could not play a match.
    #[error("match {index} could not be played")]
    Match {
        index: u64,
        #[source]
        source: MatchError,
    },
}

/// A bot of the tournament file that failed its check before the first match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCheckFailure {
    /// The line of its entry in the file.
    pub line: usize,
    pub bot: String,
    /// What went wrong, said after the bot's name (`fails its handshake (...): ...`).
    pub problem: String,
}

/// One line per failed bot (a problem may add lines of its own: its stderr, a note).
fn bot_failures(file: &std::path::Path, failures: &[BotCheckFailure]) -> String {
    failures
        .iter()
        .map(|f| {
            format!(
                "{}:{}: field `bot.command`: bot {} {}",
                file.display(),
                f.line,
                crate::console::quote::quoted(&f.bot),
                f.problem
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl HasExitKind for RunError {
    fn exit_kind(&self) -> ExitKind {
        match self {
            RunError::ShardedSprt { .. }
            | RunError::ShardedWithoutSeed { .. }
            | RunError::PageCacheUnavailable { .. }
            | RunError::BotChecks { .. } => ExitKind::BadInput,
            RunError::Output(e) => e.exit_kind(),
            _ => ExitKind::Failure,
        }
    }
}
