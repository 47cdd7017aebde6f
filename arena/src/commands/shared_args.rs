//! Option groups and value parsers shared by the subcommands that play or run bots: the
//! table's settings, bots' time limits and isolation, the live view, and the games' names.

use std::str::FromStr;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};
use protocol::{SequenceOrder, Settings, TimeLimits, Variant};
use sandbox::{Limits, SandboxLevel};

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
          value_parser = clap::value_parser!(u64).range(..=arena::watch::MAX_PACE_MS))]
    pub pace: u64,
    /// With --watch: keep serving the live view after the last match, until Ctrl-C, so that
    /// it can be replayed in the page. Default: the view stops a few seconds after the end.
    #[arg(long, requires = "watch")]
    pub keep_serving: bool,
}

impl WatchArgs {
    pub fn options(&self) -> arena::watch::WatchOptions {
        arena::watch::WatchOptions {
            addr: self.watch,
            pace_ms: self.pace,
            keep_serving: self.keep_serving,
        }
    }
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
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

impl LimitArgs {
    pub fn time(&self) -> TimeLimits {
        TimeLimits {
            startup_ms: self.startup_ms,
            decision_ms: self.decision_ms,
            bank_ms: self.bank_ms,
        }
    }
}

/// A bot's isolation and resource limits, the same for `arena match` and `arena run-bot`.
#[derive(Args, Debug, Clone)]
pub struct SandboxArgs {
    /// Isolation: bwrap (bots isolated; the default when bubblewrap works here), limits
    /// (resource limits only: the fallback without bubblewrap) or none (trusted bots).
    #[arg(long, value_name = "LEVEL")]
    pub sandbox: Option<SandboxArg>,
    /// Memory limit per bot (MiB), its private /tmp and directory included, under the
    /// limits and bwrap sandboxes.
    #[arg(long, default_value_t = 2048, value_parser = at_least_one::<u64>)]
    pub memory_mb: u64,
    /// Processes and threads per bot, all descendants together (needs cgroups).
    // Named as a tournament file's `[limits] processes`; `--max-processes`, its old name, is a
    // hidden alias.
    #[arg(long, alias = "max-processes", default_value_t = 256, value_parser = at_least_one::<u64>)]
    pub processes: u64,
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
    arg.map_or_else(sandbox::default_level, SandboxLevel::from)
}

impl SandboxArgs {
    /// The level asked for, or the strongest this machine supports.
    pub fn level(&self) -> SandboxLevel {
        sandbox_level(self.sandbox)
    }

    /// The limits given, the others as every front end sets them.
    pub fn limits(&self) -> Limits {
        Limits {
            cpu_seconds: Some(self.cpu_seconds),
            memory_bytes: Some(self.memory_mb << 20),
            processes: Some(self.processes),
            disk_bytes: Some(self.disk_mb << 20),
            millicpus: Some(self.millicpus),
            ..arena::bot_command::DEFAULT_LIMITS
        }
    }
}

/// A switch on the command line. `true` and `false`, as a tournament file writes the same
/// setting, are accepted too (not listed).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnOff {
    #[value(alias = "true")]
    On,
    #[value(alias = "false")]
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

pub fn variant_parser() -> impl TypedValueParser<Value = Variant> {
    let values = GAMES.map(|name| match name {
        "closest-555" => PossibleValue::new(name).alias("555"),
        _ => PossibleValue::new(name),
    });
    PossibleValuesParser::new(values).try_map(|text| text.parse::<Variant>())
}

const SEQUENCE_ORDERS: [&str; 2] = ["a23-high", "akq-high"];

pub fn order_parser() -> impl TypedValueParser<Value = SequenceOrder> {
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
    sandbox::millicpus(cpus).map_err(|e| e.to_string())
}

pub fn at_least_one<T>(text: &str) -> Result<T, String>
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
