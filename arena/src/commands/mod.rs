//! The command line: every subcommand, one file each in `commands/` (what it parses, what it
//! calls in the library, how it prints). This layer sits above the library: the `arena`
//! library never imports it, so the server, the benches and the tests use the same functions
//! the commands do.

mod check_bot;
mod compare;
mod r#match;
mod merge;
mod pack;
mod play;
mod replay;
mod report;
mod run_bot;
mod serve;
mod shared_args;
mod standings;
mod tournament;

use std::process::ExitCode;

use arena::console::exit::{Exit, ExitKind, HasExitKind};
use clap::{Parser, Subcommand};

pub use serve::exec_sibling;

#[derive(Parser, Debug)]
#[command(
    name = "arena",
    version,
    about = "Runs Teen Patti bots against each other"
)]
pub struct Cli {
    /// More logging on stderr (-v: debug, -vv: trace). RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compare hands: JSON lines of hands on stdin, one verdict line each on stdout.
    Compare(compare::CompareArgs),
    /// Play one match between bot programs.
    Match(r#match::MatchArgs),
    /// Check or read a replay file.
    Replay {
        #[command(subcommand)]
        command: replay::ReplayCommand,
    },
    /// Run (or resume) a tournament described by a TOML file.
    Tournament(tournament::TournamentArgs),
    /// Play at the terminal against bots.
    Play(play::PlayArgs),
    /// Serve a contest: accounts, bot uploads, the ladder and the final round robin. Runs
    /// `arena-server`, installed next to this program (`cargo build --release --workspace`
    /// builds both). Its options: `arena serve CONTEST.toml [--db URL] [--listen ADDR]
    /// [--new-setup-link NAME]`; see `arena serve --help`.
    #[command(disable_help_flag = true)]
    Serve(serve::PassedOn),
    /// Play a contest's ladder matches on this machine, from the contest's database (shared
    /// with `arena serve` on another machine): runs `arena-worker`, installed next to this
    /// program. Its options: `arena worker --db URL [--data DIR] [--jobs N] [--name NAME]
    /// [--drop-page-cache]`; see `arena worker --help`.
    #[command(disable_help_flag = true)]
    Worker(serve::PassedOn),
    /// Make an upload for the contest server from a bot's folder (a starter kit or your copy
    /// of one): the main file and only what it uses, named as the server's build expects.
    Pack(pack::PackArgs),
    /// Check that a bot follows the protocol in every kind of situation, before a match.
    CheckBot(check_bot::CheckBotArgs),
    /// Run one bot as a match runs it (its sandbox and limits), relaying its lines: stdin to
    /// the bot, the bot's stdout lines to stdout, its stderr to stderr.
    ///
    /// It ends when stdin closes (the bot's stdin is closed, and it has --grace-ms to exit),
    /// on SIGINT or SIGTERM, or when the bot exits; the bot and everything it started are then
    /// killed and reaped. Exit code: the bot's own (128 + the signal that ended it); 124 when
    /// one of the arena's limits stopped it (CPU time, memory, a stdout line longer than 64
    /// KiB or not UTF-8); 137 when it outlived its grace; 130 when interrupted; 1 when it
    /// could not start. How the Python package's `teenpatti.Subprocess` runs bots.
    RunBot(run_bot::RunBotArgs),
    /// Print the standings of a tournament output directory.
    Standings(standings::StandingsArgs),
    /// Write an HTML report of a tournament output directory, with a replay page per match
    /// in OUT's folder `<name>_replays/`.
    Report(report::ReportArgs),
    /// Combine the output directories of shards into one, with the standings of the whole.
    Merge(merge::MergeArgs),
}

impl Command {
    /// Whether the command starts bot processes (and so needs the guard that kills what they
    /// leave running if the arena is killed).
    pub fn starts_bots(&self) -> bool {
        matches!(
            self,
            Command::Match(_)
                | Command::Tournament(_)
                | Command::Play(_)
                | Command::CheckBot(_)
                | Command::RunBot(_)
        )
    }

    /// The runtime it runs on. One match is one referee task plus idle stderr drains: a
    /// current-thread runtime serves it with one thread and no cross-thread wake-ups (~8%
    /// fewer instructions per decision than a multi-thread one; BENCHMARKS.md); so does
    /// `run-bot`'s one bot, its blocking reads and writes on threads of their own. Tournaments
    /// run matches in parallel, and `play` blocks a thread on the terminal, so they keep the
    /// multi-thread runtime.
    pub fn runtime(&self) -> tokio::runtime::Builder {
        match self {
            Command::Match(_) | Command::RunBot(_) => tokio::runtime::Builder::new_current_thread(),
            _ => tokio::runtime::Builder::new_multi_thread(),
        }
    }
}

/// Runs a command other than `serve` and `worker` (which `main` execs before any runtime).
pub async fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Compare(args) => return compare::run(args),
        Command::RunBot(args) => return run_bot::run(args).await,
        Command::Match(args) => r#match::run(args).await?,
        Command::Replay { command } => replay::run(command)?,
        Command::Tournament(args) => tournament::run(args).await?,
        Command::Play(args) => play::run(args).await?,
        Command::CheckBot(args) => check_bot::run(args).await?,
        Command::Pack(args) => pack::run(args)?,
        Command::Standings(args) => standings::run(args)?,
        Command::Report(args) => report::run(args)?,
        Command::Merge(args) => merge::run(args)?,
        Command::Serve(_) | Command::Worker(_) => {
            unreachable!("arena serve and arena worker exec their programs")
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A library error as `main` reports it: one with an exit code other than 1 becomes an
/// [`Exit`] with that code (such errors are one message with no cause below it), any other
/// stays itself, causes and all.
pub fn exit_error<E>(error: E) -> anyhow::Error
where
    E: HasExitKind + std::error::Error + Send + Sync + 'static,
{
    match error.exit_kind() {
        ExitKind::Failure => error.into(),
        kind => Exit::new(kind, error.to_string()).into(),
    }
}
