//! `arena serve` and `arena worker`: the contest server and its workers are binaries of their
//! own (so that the arena builds without a database driver), found next to this program; the
//! arena becomes them (exec), its arguments passed on unchanged.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::process::ExitCode;

use arena::console::exit::ExitKind;
use arena::console::output::eprint_line;
use clap::Args;

/// `arena serve ARGS...`, `arena worker ARGS...`: everything after the subcommand.
#[derive(Args, Debug)]
pub struct PassedOn {
    /// The program's own arguments, passed on unchanged.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    pub args: Vec<OsString>,
}

/// Becomes `program` (arena-server, arena-worker) installed next to this arena, with `args`;
/// returns only when it cannot.
pub fn exec_sibling(command: &str, program: &str, args: &[OsString]) -> ExitCode {
    let sibling = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join(program)));
    let Some(sibling) = sibling.filter(|path| path.exists()) else {
        eprint_line(&format!(
            "arena: error: arena {command} runs {program}, which is not installed next to this \
             arena; build it with `cargo build --release -p arena -p teenpatti-server` (the \
             demo's build leaves the server out)",
        ));
        return ExitCode::from(ExitKind::BadInput.code());
    };
    // exec: signals, the exit code and the terminal go straight to the program.
    let error = std::process::Command::new(&sibling).args(args).exec();
    eprint_line(&format!(
        "arena: error: cannot run {}: {}",
        sibling.display(),
        arena::console::output::io_reason(&error)
    ));
    ExitCode::from(ExitKind::Failure.code())
}
