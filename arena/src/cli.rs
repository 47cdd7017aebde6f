//! The command line: every subcommand and option.

use std::path::PathBuf;

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
        #[arg(long, value_parser = parse_variant)]
        variant: Variant,
        #[arg(long, default_value = "a23-high", value_parser = parse_order)]
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
        /// Matches played at once (default: the number of cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Output directory (default: the file's `output`, else out/<name>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Play only what is missing from the output directory (rerunning does the same).
        #[arg(long)]
        resume: bool,
        /// Play only shard I of N (1-based), e.g. --shard 2/8; combine with `arena merge`.
        #[arg(long, value_parser = crate::cmd_tournament::parse_shard)]
        shard: Option<(u64, u64)>,
        /// No progress bar or progress lines.
        #[arg(long, short)]
        quiet: bool,
        /// Pin each job slot (its referee thread and its bots) to one CPU: faster for light
        /// bots, especially on virtual machines; a bot can then use only that CPU.
        #[arg(long)]
        affinity: bool,
    },
    /// Play at the terminal against bots.
    Play(PlayArgs),
    /// Check that a bot follows the protocol in every kind of situation, before a match.
    CheckBot {
        /// Check only this game (default: all three).
        #[arg(long, value_parser = parse_variant)]
        game: Option<Variant>,
        /// Time for the bot to start and answer hello (ms).
        #[arg(long, default_value_t = 5000)]
        startup_ms: u64,
        /// Time for each decision (ms); there is no time bank.
        #[arg(long, default_value_t = 1000)]
        decision_ms: u64,
        /// Print the checks as JSON.
        #[arg(long)]
        json: bool,
        /// The bot's command, after `--`: `arena check-bot -- python3 my_bot.py`.
        #[arg(last = true, required = true, value_name = "CMD")]
        command: Vec<String>,
    },
    /// Print the standings of a tournament output directory.
    Standings { dir: PathBuf },
    /// Write an HTML report of a tournament output directory, with a replay page per match
    /// in OUTPUT's folder `<name>_replays/`.
    Report {
        dir: PathBuf,
        /// The HTML file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// Which matches get a replay page: all, none, or sample:N (N matches spread evenly
        /// over the tournament).
        #[arg(long, default_value = "all", value_parser = crate::html::parse_replays)]
        replays: crate::html::ReplaySelection,
    },
    /// Combine the output directories of shards into one, with the standings of the whole.
    Merge {
        /// Shard output directories.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// The merged output directory.
        #[arg(long)]
        out: PathBuf,
        /// Merge even if shards or matches are missing (the standings are then partial).
        #[arg(long)]
        partial: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum ReplayCommand {
    /// Re-simulate the replay from its seed and recorded actions; fail on any difference.
    Verify { file: PathBuf },
    /// Print a readable hand history.
    Show { file: PathBuf },
    /// Write a self-contained HTML page that replays the match in a browser.
    Html {
        file: PathBuf,
        /// The HTML file to write.
        #[arg(short, long)]
        output: PathBuf,
    },
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game: classic, closest-555 or lallan-kallan.
    #[arg(long, value_parser = parse_variant)]
    pub game: Variant,
    /// Number of hands.
    #[arg(long, default_value_t = 100)]
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
    /// Write the replay (JSON lines) here.
    #[arg(long)]
    pub replay: Option<PathBuf>,
    /// Print one JSON object instead of the readable summary.
    #[arg(long)]
    pub json: bool,
    /// Write a transcript of every line exchanged with each bot into this directory
    /// (`seat0.txt`, ...: `>>` arena to bot, `<<` bot to arena).
    #[arg(long, value_name = "DIR")]
    pub transcripts: Option<PathBuf>,
    /// Keep each bot's stderr log in this directory (default: discarded after the match).
    #[arg(long)]
    pub logs: Option<PathBuf>,
    #[command(flatten)]
    pub table: TableArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game: classic, closest-555 or lallan-kallan.
    #[arg(long, value_parser = parse_variant)]
    pub game: Variant,
    /// An opponent's command line; once per bot.
    #[arg(long = "bot", value_name = "CMD", required = true)]
    pub bots: Vec<String>,
    #[arg(long, default_value_t = 10)]
    pub hands: u64,
    /// Seed of the deals. Default: drawn from the operating system (printed at the end).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Your seat (0-based).
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
    #[arg(long, default_value_t = 10_000)]
    pub startup_ms: u64,
    #[arg(long, default_value_t = 5000)]
    pub decision_ms: u64,
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
    #[arg(long, default_value = "a23-high", value_parser = parse_order)]
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
    #[arg(long, default_value_t = 5000)]
    pub startup_ms: u64,
    /// Time for each decision (ms), before the bank is drawn on.
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
    #[arg(long)]
    pub sandbox: Option<SandboxArg>,
    /// Memory limit per bot (MiB), its private /tmp and directory included, under the
    /// limits and bwrap sandboxes.
    #[arg(long, default_value_t = 2048)]
    pub memory_mb: u64,
    /// Processes and threads per bot, all descendants together (needs cgroups).
    #[arg(long, default_value_t = 256)]
    pub max_processes: u64,
    /// Disk per bot (MiB): the size of its private /tmp and of its directory under bwrap.
    #[arg(long, default_value_t = 256)]
    pub disk_mb: u64,
    /// CPU time limit per bot (seconds) under the limits and bwrap sandboxes.
    #[arg(long, default_value_t = 600)]
    pub cpu_seconds: u64,
}

impl LimitArgs {
    /// The level asked for, or the strongest this machine supports.
    pub fn sandbox_level(&self) -> SandboxLevel {
        self.sandbox
            .map_or_else(crate::bot::default_level, SandboxLevel::from)
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
    None,
    Limits,
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

fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse()
}

fn parse_order(text: &str) -> Result<SequenceOrder, String> {
    text.parse()
}
