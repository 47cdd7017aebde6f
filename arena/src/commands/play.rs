//! `arena play`: the command line of the human seat.

use std::io;

use arena::bot_command::{self, PathBase, SpecInput};
use arena::console::exit::{Exit, ExitKind};
use arena::play::{Console, PlayConfig, PlayError, play};
use clap::Args;
use protocol::Variant;

use super::shared_args::{SandboxArg, TableArgs, at_least_one, variant_parser};

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

pub async fn run(args: PlayArgs) -> anyhow::Result<()> {
    let settings = args.table.settings(args.game);
    let seats = args.bots.len() + 1;
    settings.validate(seats).map_err(|e| {
        Exit::new(
            ExitKind::BadInput,
            format!("{e} (you and {} bots)", args.bots.len()),
        )
    })?;
    // Seats are counted from 1 on the command line, as in everything `play` prints.
    if args.seat == 0 || args.seat > seats {
        return Err(Exit::new(
            ExitKind::BadInput,
            format!(
                "--seat {}: seats are counted from 1; this table (you and {} bot{}) has seats \
                 1 to {seats}",
                args.seat,
                args.bots.len(),
                if args.bots.len() == 1 { "" } else { "s" }
            ),
        )
        .into());
    }
    let cwd = std::env::current_dir()?;
    let work = tempfile::Builder::new().prefix("arena-play-").tempdir()?;
    let mut argvs = Vec::new();
    for (i, command) in args.bots.iter().enumerate() {
        let argv = bot_command::split(command)
            .map_err(|e| Exit::new(ExitKind::BadInput, format!("--bot number {}: {e}", i + 1)))?;
        if let Some(problem) = bot_command::missing_path(&argv[..1], &PathBase::current_dir(&cwd)) {
            return Err(Exit::new(
                ExitKind::Failure,
                format!("--bot number {}: {problem}", i + 1),
            )
            .into());
        }
        argvs.push(bot_command::absolutize(&argv, &cwd));
    }
    let sandbox = super::shared_args::sandbox_level(args.sandbox);
    let names =
        bot_command::unique_names(argvs.iter().map(|a| bot_command::default_name(a)).collect());
    let bots = argvs
        .into_iter()
        .zip(&names)
        .enumerate()
        .map(|(i, (argv, name))| {
            bot_command::spec(SpecInput {
                name,
                argv,
                workdir: work.path().join(format!("bot{i}")),
                log_dir: work.path(),
                seat: i,
                sandbox,
                limits: bot_command::DEFAULT_LIMITS,
            })
        })
        .collect();
    let config = PlayConfig {
        settings,
        hands: args.hands,
        seed: match args.seed {
            Some(seed) => seed,
            None => arena::referee::seeds::from_os()?,
        },
        seat: args.seat - 1,
        bots,
        time: protocol::TimeLimits {
            startup_ms: args.startup_ms,
            decision_ms: args.decision_ms,
            bank_ms: 0,
        },
    };
    let mut console = Console {
        input: io::stdin().lock(),
        output: io::stdout(),
    };
    play(&config, &mut console).await.map_err(|e| match e {
        // As it was: `main` says an IO error short, and exits quietly on a closed stdout.
        PlayError::Console(io) => io.into(),
        e => super::exit_error(e),
    })?;
    Ok(())
}
