//! What a run of the arena says to the person who started it, and how it ends: writes to
//! stdout and stderr that never panic on a closed pipe (`output`), errors that carry their
//! exit code (`exit`), a user's text quoted in messages (`quote`), and SIGINT/SIGTERM
//! (`signals`).

pub mod exit;
pub mod output;
pub mod quote;
pub mod signals;
