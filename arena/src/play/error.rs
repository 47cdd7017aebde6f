//! Why a game at the terminal stopped before its end.

use std::io;

use rules::SettingsError;
use sandbox::SpawnError;

use crate::console::exit::{ExitKind, HasExitKind};

#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The table (the settings and the number of seats) is not one the game allows.
    #[error(transparent)]
    Table(#[from] SettingsError),
    /// A bot program could not be started at all.
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// Exit status 5: bots started but did not get through their handshake (each has been
    /// described on the console).
    #[error(
        "{not_started} bot(s) did not start (see above); `arena check-bot -- CMD` checks a bot \
         on its own"
    )]
    BotsNotStarted { not_started: usize },
    /// Reading the person's input or writing to their console failed (a closed stdout among
    /// others).
    #[error(transparent)]
    Console(#[from] io::Error),
}

impl HasExitKind for PlayError {
    fn exit_kind(&self) -> ExitKind {
        match self {
            PlayError::BotsNotStarted { .. } => ExitKind::BotDisabled,
            _ => ExitKind::Failure,
        }
    }
}
