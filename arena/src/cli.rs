//! The command line: every subcommand and option.

use std::path::PathBuf;
use std::str::FromStr;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use protocol::{SequenceOrder, Settings, TimeLimits, Variant};

use crate::bot::SandboxLevel;

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
    Compare {
        /// The game whose hand ranking applies.
        #[arg(long, alias = "variant", value_parser = variant_parser())]
        game: Variant,
        /// Which of the two top runs ranks higher.
        #[arg(long, default_value = "a23-high", value_parser = order_parser())]
        sequence_order: SequenceOrder,
    },
    /// Play one match between bot programs.
    Match(MatchArgs),
    /// Check or read a replay file.
    Replay {
        #[command(subcommand)]
        command: ReplayCommand,
    },
    /// Run (or resume) a tournament described by a TOML file.
    Tournament {
        /// The tournament file (see tournaments/).
        file: PathBuf,
        /// Matches played at once, at least 1 (default: the number of cores).
        #[arg(long, value_name = "N", value_parser = at_least_one::<usize>)]
        jobs: Option<usize>,
        /// Output directory, created if missing (default: the file's `output`, else
        /// out/<name>).
        #[arg(short, long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Play only what is missing from the output directory (rerunning does the same).
        #[arg(long)]
        resume: bool,
        /// Play only shard I of N (1-based), e.g. --shard 2/8; combine with `arena merge`.
        #[arg(long, value_name = "I/N", value_parser = crate::cmd_tournament::parse_shard)]
        shard: Option<(u64, u64)>,
        /// No progress bar or progress lines.
        #[arg(long, short)]
        quiet: bool,
        /// Pin each job slot (its referee thread and its bots) to one CPU: faster for light
        /// bots, especially on virtual machines; a bot can then use only that CPU.
        #[arg(long)]
        affinity: bool,
        #[command(flatten)]
        watch: WatchArgs,
        /// Largest stderr log per bot process (KiB; default: the file's `[limits]
        /// max_log_kb`, else 128): its first and last halves are kept.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        max_log_kb: Option<u64>,
    },
    /// Play at the terminal against bots.
    Play(PlayArgs),
    /// Serve a contest people sign up to and upload bots to: runs `arena-server`, installed
    /// next to this program (`cargo build --release --workspace` builds both). Its options:
    /// `arena serve CONTEST.toml [--db URL] [--listen ADDR]`; see `arena serve --help`.
    #[command(disable_help_flag = true)]
    Serve {
        /// The contest file and arena-server's options, passed on unchanged.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "ARGS"
        )]
        args: Vec<std::ffi::OsString>,
    },
    /// Play a contest's ladder matches on this machine, from the contest's database (shared
    /// with `arena serve` on another machine): runs `arena-worker`, installed next to this
    /// program. Its options: `arena worker --db URL [--data DIR] [--jobs N]`; see
    /// `arena worker --help`.
    #[command(disable_help_flag = true)]
    Worker {
        /// arena-worker's options, passed on unchanged.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "ARGS"
        )]
        args: Vec<std::ffi::OsString>,
    },
    /// Make an upload for the contest server from a bot's folder (a starter kit or your copy
    /// of one): the main file and only what it uses, named as the server's build expects.
    Pack(crate::pack::PackArgs),
    /// Check that a bot follows the protocol in every kind of situation, before a match.
    CheckBot {
        /// Check only this game (default: all three).
        #[arg(long, value_parser = variant_parser())]
        game: Option<Variant>,
        /// Time for the bot to start and answer hello (ms).
        #[arg(long, default_value_t = 5000, value_parser = at_least_one::<u64>)]
        startup_ms: u64,
        /// Time for each decision (ms); there is no time bank.
        #[arg(long, default_value_t = 1000, value_parser = at_least_one::<u64>)]
        decision_ms: u64,
        /// Print the checks as JSON.
        #[arg(long)]
        json: bool,
        /// Keep the bot's stderr log of each scenario in this directory
        /// (`01-classic-blind-and-seen-bets-see-show.stderr.log`, ...; default: discarded).
        #[arg(long, value_name = "DIR")]
        logs: Option<PathBuf>,
        /// Isolation, as for `arena match` (default: the strongest this machine supports);
        /// `none` tells a sandbox problem from a bot's own.
        #[arg(long, value_name = "LEVEL")]
        sandbox: Option<SandboxArg>,
        /// The bot's command, after `--`: `arena check-bot -- python3 my_bot.py`.
        #[arg(last = true, required = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// Print the standings of a tournament output directory.
    Standings {
        /// A tournament output directory (`arena tournament --out`, or the file's `output`).
        dir: PathBuf,
    },
    /// Write an HTML report of a tournament output directory, with a replay page per match
    /// in OUT's folder `<name>_replays/`.
    Report {
        /// A tournament output directory (`arena tournament --out`, or the file's `output`).
        dir: PathBuf,
        /// The HTML file to write; its folder is created if missing.
        #[arg(short, long, alias = "output", value_name = "FILE")]
        out: PathBuf,
        /// Which matches get a replay page: all, none, or sample:N (N matches spread evenly
        /// over the tournament).
        #[arg(long, default_value = "all", value_parser = crate::html::parse_replays)]
        replays: crate::html::ReplaySelection,
    },
    /// Combine the output directories of shards into one, with the standings of the whole.
    Merge {
        /// Shard output directories.
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// The merged output directory, created if missing.
        #[arg(short, long, value_name = "DIR")]
        out: PathBuf,
        /// Merge even if shards or matches are missing (the standings are then partial).
        #[arg(long)]
        partial: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum ReplayCommand {
    /// Re-simulate the replay from its seed and recorded actions; fail on any difference.
    Verify {
        /// A replay file (JSON lines, from `arena match --replay` or a tournament).
        file: PathBuf,
    },
    /// Print a readable hand history.
    Show {
        /// A replay file (JSON lines, from `arena match --replay` or a tournament).
        file: PathBuf,
    },
    /// Write a self-contained HTML page that replays the match in a browser.
    Html {
        /// A replay file (JSON lines, from `arena match --replay` or a tournament).
        file: PathBuf,
        /// The HTML file to write; its folder is created if missing.
        #[arg(short, long, alias = "output", value_name = "FILE")]
        out: PathBuf,
    },
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, value_parser = variant_parser())]
    pub game: Variant,
    /// Number of hands, at least 1.
    #[arg(long, default_value_t = 100, value_parser = at_least_one::<u64>)]
    pub hands: u64,
    /// Seed of the deals (and of the bots' own seeds). Default: drawn from the operating
    /// system and printed with the result (and recorded in the replay). Anyone who knows the
    /// seed knows every deal: keep a graded match's seed secret until it is over.
    #[arg(long)]
    pub seed: Option<u64>,
    /// A bot's command line, split like a shell would; once per seat, in seat order.
    #[arg(long = "bot", value_name = "CMD", required = true)]
    pub bots: Vec<String>,
    /// A display name for the bot of the same position (default: from its command).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// Write the replay (JSON lines) to this file; its folder is created if missing.
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Print one JSON object instead of the readable summary.
    #[arg(long)]
    pub json: bool,
    /// Write a transcript of every line exchanged with each bot into this directory
    /// (`seat0.txt`, ...: `>>` arena to bot, `<<` bot to arena).
    #[arg(long, value_name = "DIR")]
    pub transcripts: Option<PathBuf>,
    /// Keep each bot's stderr log in this directory (default: discarded after the match);
    /// every process of a restarted seat has its own (`seat0-NAME.restart1.stderr.log`, ...).
    /// The replay then also records each decision's stderr lines (bounded), which anyone
    /// watching it can read.
    #[arg(long, value_name = "DIR")]
    pub logs: Option<PathBuf>,
    #[command(flatten)]
    pub watch: WatchArgs,
    /// Largest stderr log per bot process (KiB): its first and last halves are kept, with a
    /// line saying how many bytes were dropped between them.
    #[arg(long, default_value_t = crate::bot_command::DEFAULT_MAX_LOG_KB, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_log_kb: u64,
    /// Largest transcript file (MiB): its first and last halves are kept, with a line saying
    /// how many bytes were dropped between them.
    #[arg(long, default_value_t = crate::referee::DEFAULT_MAX_TRANSCRIPT_MB, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_transcript_mb: u64,
    /// With --logs, the replay also holds each decision's stderr lines: at most this many KiB
    /// per bot over the match (and 20 lines, 2 KiB per decision); the lines past it are counted.
    #[arg(long, default_value_t = (crate::bot::SEAT_BUDGET_BYTES / 1024) as u64, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_replay_stderr_kb: u64,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The live view's options, the same for `arena match` and `arena tournament`.
#[derive(Args, Clone, Copy, Debug)]
pub struct WatchArgs {
    /// Serve a live view of the matches as they are played, for a projector or a contest
    /// screen: ADDR defaults to 127.0.0.1:0 (this machine only, any free port); the URL to
    /// open, with its access token, is printed on stderr. It shows every seat's cards.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:0")]
    pub watch: Option<std::net::SocketAddr>,
    /// With --watch: wait at least MS milliseconds between two events of a match (a deal, a
    /// bet, ...), so that people can follow it live (e.g. 800 for a class; at most 60000).
    /// Bots' clocks do not run during the wait. Default 0: full speed.
    #[arg(long, value_name = "MS", requires = "watch", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(..=crate::watch::MAX_PACE_MS))]
    pub pace: u64,
    /// With --watch: keep serving the live view after the last match, until Ctrl-C, so that
    /// it can be replayed in the page. Default: the view stops a few seconds after the end.
    #[arg(long, requires = "watch")]
    pub keep_serving: bool,
}

impl WatchArgs {
    pub fn options(&self) -> crate::watch::WatchOptions {
        crate::watch::WatchOptions {
            addr: self.watch,
            pace_ms: self.pace,
            keep_serving: self.keep_serving,
        }
    }
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game.
    #[arg(long, value_parser = variant_parser())]
    pub game: Variant,
    /// An opponent's command line, split like a shell would; once per bot.
    #[arg(long = "bot", value_name = "CMD", required = true)]
    pub bots: Vec<String>,
    /// Number of hands, at least 1.
    #[arg(long, default_value_t = 10, value_parser = at_least_one::<u64>)]
    pub hands: u64,
    /// Seed of the deals. Default: drawn from the operating system (printed at the end).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Your seat, counted from 1 as the game's messages count seats (seat 1 deals the first
    /// hand).
    #[arg(long, default_value_t = 1)]
    pub seat: usize,
    /// Time for a bot to start and answer hello (ms).
    #[arg(long, default_value_t = 10_000, value_parser = at_least_one::<u64>)]
    pub startup_ms: u64,
    /// Time for each of a bot's decisions (ms); there is no time bank. You have no limit.
    #[arg(long, default_value_t = 5000, value_parser = at_least_one::<u64>)]
    pub decision_ms: u64,
    /// Isolation of the bots, as for `arena match` (default: the strongest this machine
    /// supports).
    #[arg(long, value_name = "LEVEL")]
    pub sandbox: Option<SandboxArg>,
    #[command(flatten)]
    pub table: TableArgs,
}

/// Table settings shared by every command that plays.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    /// Chips every seat pays before the deal.
    #[arg(long, default_value_t = 1)]
    pub boot: u64,
    /// Chaal limit: the current stake never exceeds this (chips).
    #[arg(long, default_value_t = 64)]
    pub max_stake: u64,
    /// Pot limit: reaching it reveals all remaining hands (chips).
    #[arg(long, default_value_t = 1024)]
    pub pot_limit: u64,
    /// Whether sideshows are allowed.
    #[arg(long, default_value = "on")]
    pub sideshow: OnOff,
    /// Which of the two top runs ranks higher: A-2-3 (the guides' order) or A-K-Q.
    #[arg(long, default_value = "a23-high", value_parser = order_parser())]
    pub sequence_order: SequenceOrder,
    /// Classic game: blind bets before a seat must see.
    #[arg(long, default_value_t = 4)]
    pub blind_limit: u32,
    /// Closest to 555: chips per swap.
    #[arg(long, default_value_t = 0)]
    pub swap_cost: u64,
    /// Safety cap on betting turns per hand (then a group reveal).
    #[arg(long, default_value_t = 500)]
    pub max_turns: u32,
}

impl TableArgs {
    pub fn settings(&self, variant: Variant) -> Settings {
        Settings {
            variant,
            boot: self.boot,
            max_stake: self.max_stake,
            pot_limit: self.pot_limit,
            sideshow: self.sideshow == OnOff::On,
            sequence_order: self.sequence_order,
            blind_limit: self.blind_limit,
            swap_cost: self.swap_cost,
            max_turns: self.max_turns,
        }
    }
}

/// Time limits and isolation of bots.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Time for a bot to start and answer hello (ms).
    #[arg(long, default_value_t = 5000, value_parser = at_least_one::<u64>)]
    pub startup_ms: u64,
    /// Time for each decision (ms), before the bank is drawn on (0: the bank pays for all).
    #[arg(long, default_value_t = 1000)]
    pub decision_ms: u64,
    /// Time bank for the whole match (ms).
    #[arg(long, default_value_t = 10_000)]
    pub bank_ms: u64,
    /// Restarts allowed per bot after a crash.
    #[arg(long, default_value_t = 2)]
    pub max_restarts: u32,
    /// Isolation: bwrap (bots isolated; the default when bubblewrap works here), limits
    /// (resource limits only: the fallback without bubblewrap) or none (trusted bots).
    #[arg(long, value_name = "LEVEL")]
    pub sandbox: Option<SandboxArg>,
    /// Memory limit per bot (MiB), its private /tmp and directory included, under the
    /// limits and bwrap sandboxes.
    #[arg(long, default_value_t = 2048, value_parser = at_least_one::<u64>)]
    pub memory_mb: u64,
    /// Processes and threads per bot, all descendants together (needs cgroups).
    #[arg(long, default_value_t = 256, value_parser = at_least_one::<u64>)]
    pub max_processes: u64,
    /// Disk per bot (MiB): the size of its private /tmp and of its directory under bwrap.
    #[arg(long, default_value_t = 256, value_parser = at_least_one::<u64>)]
    pub disk_mb: u64,
    /// CPU time limit per bot (seconds), all its processes together (with cgroups; else per
    /// process), under the limits and bwrap sandboxes.
    #[arg(long, default_value_t = 600, value_parser = at_least_one::<u64>)]
    pub cpu_seconds: u64,
    /// CPUs per bot, all its processes together (0.01 to 1024; 0.5 is half of one), with an
    /// equal share of contended cores for every bot, under the limits and bwrap sandboxes
    /// (needs cgroups).
    #[arg(long = "cpus", value_name = "CPUS", default_value = "1", value_parser = parse_cpus)]
    pub millicpus: u64,
}

/// The level asked for, or the strongest this machine supports.
pub fn sandbox_level(arg: Option<SandboxArg>) -> SandboxLevel {
    arg.map_or_else(crate::bot::default_level, SandboxLevel::from)
}

impl LimitArgs {
    /// The level asked for, or the strongest this machine supports.
    pub fn sandbox_level(&self) -> SandboxLevel {
        sandbox_level(self.sandbox)
    }

    pub fn time(&self) -> TimeLimits {
        TimeLimits {
            startup_ms: self.startup_ms,
            decision_ms: self.decision_ms,
            bank_ms: self.bank_ms,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnOff {
    On,
    Off,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SandboxArg {
    /// No isolation or limits: trusted bots only.
    None,
    /// Resource limits only (the fallback without bubblewrap).
    Limits,
    /// Bots isolated by bubblewrap, with limits (the default when it works here).
    Bwrap,
}

impl From<SandboxArg> for SandboxLevel {
    fn from(arg: SandboxArg) -> SandboxLevel {
        match arg {
            SandboxArg::None => SandboxLevel::None,
            SandboxArg::Limits => SandboxLevel::Limits,
            SandboxArg::Bwrap => SandboxLevel::Bwrap,
        }
    }
}

/// The games, listed in `--help` and in the error for an unknown one. `555` is an old short
/// name for closest-555, accepted but not listed.
const GAMES: [&str; 3] = ["classic", "closest-555", "lallan-kallan"];

fn variant_parser() -> impl TypedValueParser<Value = Variant> {
    let values = GAMES.map(|name| match name {
        "closest-555" => PossibleValue::new(name).alias("555"),
        _ => PossibleValue::new(name),
    });
    PossibleValuesParser::new(values).try_map(|text| text.parse::<Variant>())
}

const SEQUENCE_ORDERS: [&str; 2] = ["a23-high", "akq-high"];

fn order_parser() -> impl TypedValueParser<Value = SequenceOrder> {
    PossibleValuesParser::new(SEQUENCE_ORDERS).try_map(|text| text.parse::<SequenceOrder>())
}

/// A count or a limit where 0 makes no sense (0 hands, 0 jobs, 0 MiB of memory): refused
/// on the command line rather than running a match that cannot be played.
/// `--cpus`: a number of CPUs, as thousandths of a CPU.
fn parse_cpus(text: &str) -> Result<u64, String> {
    let cpus: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of CPUs such as 1 or 0.5"))?;
    crate::bot::millicpus(cpus)
}

fn at_least_one<T>(text: &str) -> Result<T, String>
where
    T: FromStr + Default + PartialEq,
    T::Err: std::fmt::Display,
{
    let n: T = text.parse().map_err(|e: T::Err| e.to_string())?;
    if n == T::default() {
        return Err("must be at least 1".into());
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_and_sequence_order_is_listed_and_parses() {
        let games: Vec<String> = Variant::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(games, GAMES);
        for order in SEQUENCE_ORDERS {
            assert_eq!(order.parse::<SequenceOrder>().unwrap().to_string(), order);
        }
    }

    #[test]
    fn zero_is_refused_where_it_makes_no_sense() {
        assert_eq!(at_least_one::<u64>("3"), Ok(3));
        assert_eq!(at_least_one::<usize>("0"), Err("must be at least 1".into()));
        assert!(at_least_one::<u64>("-1").is_err());
    }
}
