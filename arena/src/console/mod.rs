//! What a run of the arena says to the person who started it, and how it ends: writes to
//! stdout and stderr that never panic on a closed pipe (`output`), errors that carry their
//! exit code (`exit`), a user's text quoted in messages (`quote`), and SIGINT/SIGTERM
//! (`signals`).

// Four public modules rather than re-exports: four small concerns the binary reaches one by
// one, whose names say what each call is (`output::print`, `exit::ExitKind`,
// `quote::quoted`, `signals::cancel_on_signal`); flattened, `console::print` would not say it
// is the pipe-safe write.
pub mod exit;
pub mod output;
pub mod quote;
pub mod signals;
