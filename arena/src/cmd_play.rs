//! `arena play`: the command line of the human seat.

use std::io;

use crate::bot_command::{self, PathBase, SpecInput};
use crate::cli::PlayArgs;
use crate::exit::{Exit, ExitKind};
use crate::play::{Console, PlayConfig, play};

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
    let sandbox = crate::cli::sandbox_level(args.sandbox);
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
            None => crate::seeds::from_os()?,
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
    play(&config, &mut console).await?;
    Ok(())
}
