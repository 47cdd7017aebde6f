//! `arena play`: a person at the terminal against bots.
//!
//! The person sits in one seat; the bots are ordinary bot processes spoken to through the
//! protocol. The person sees exactly what a bot in that seat would: their own cards, public
//! actions, and cards revealed to them. Bad input is asked again, with the rule that refused
//! it; end of input packs and ends. Hands and seats are counted from 1, as people count them.

mod error;
mod prompt;
mod refused;
mod terminal;

use std::io::{BufRead, Write};
use std::time::Duration;

use protocol::{ArenaMessage, Hello, MatchEnd, PROTOCOL_VERSION, Settings, TimeLimits};
use rules::Hand;
use sandbox::BotSpec;

use crate::referee::mix_draw::MixDraws;
use crate::referee::{Connection, DecisionLoop};
pub use error::PlayError;
pub use prompt::{InputError, parse_input};
use terminal::Terminal;

/// The person's side of the table: where input comes from and output goes.
pub struct Console<R, W> {
    pub input: R,
    pub output: W,
}

/// One game at the terminal.
pub struct PlayConfig {
    pub settings: Settings,
    pub hands: u64,
    pub seed: u64,
    /// The person's seat (from 0, as the engine counts).
    pub seat: usize,
    /// Bots in seat order, skipping the person's seat.
    pub bots: Vec<BotSpec>,
    pub time: TimeLimits,
}

/// Plays the game. Returns the person's net chips.
pub async fn play<R: BufRead, W: Write>(
    config: &PlayConfig,
    console: &mut Console<R, W>,
) -> Result<i64, PlayError> {
    let n = config.bots.len() + 1;
    config.settings.validate(n)?;
    let me = config.seat;
    let bot_seats: Vec<usize> = (0..n).filter(|&s| s != me).collect();
    let mut names: Vec<String> = vec![String::new(); n];
    names[me] = "you".into();
    for (spec, &seat) in config.bots.iter().zip(&bot_seats) {
        names[seat] = spec.name.clone();
    }
    let mut connections: Vec<Option<Connection>> = (0..n).map(|_| None).collect();
    let mut not_started = 0;
    for (spec, &seat) in config.bots.iter().zip(&bot_seats) {
        let hello = Hello {
            protocol: PROTOCOL_VERSION,
            game: config.settings.variant,
            settings: config.settings,
            seat,
            seats: n,
            hands: config.hands,
            first_hand: 0,
            seed: crate::referee::hello_seed(config.seed, seat),
            players: names.clone(),
            time: config.time,
        };
        match Connection::start(spec, &hello, None, None).await {
            Ok(c) => connections[seat] = Some(c),
            Err(Ok(spawn)) => return Err(spawn.into()),
            Err(Err(fault)) => {
                // A game against a bot that cannot play teaches nothing: say why, and stop.
                not_started += 1;
                writeln!(
                    console.output,
                    "{} did not start: {} fault: {}",
                    spec.name, fault.kind, fault.detail
                )?;
                write!(
                    console.output,
                    "{}",
                    sandbox::stderr_block(fault.stderr.as_deref(), "  ")
                )?;
                let cwd = std::env::current_dir().unwrap_or_default();
                let paths_from = crate::bot_command::PathBase::current_dir(&cwd);
                if let Some(note) = crate::bot_command::missing_file_note(&spec.argv, &paths_from) {
                    writeln!(console.output, "  note: {note}")?;
                }
            }
        }
    }
    if not_started > 0 {
        for c in connections.into_iter().flatten() {
            c.close(Duration::ZERO).await;
        }
        return Err(PlayError::BotsNotStarted { not_started });
    }
    writeln!(
        console.output,
        "{} with {} {}. You are seat {}. Type `help` at any prompt, `quit` to leave.",
        config.settings.variant,
        n - 1,
        if n - 1 == 1 { "bot" } else { "bots" },
        me + 1
    )?;
    let mut table = Terminal {
        console,
        me,
        settings: config.settings,
        names,
        bots: connections,
        hinted: vec![false; n],
        quit: false,
    };
    // The draws of the bots' mixed answers, one stream per seat, as in a match.
    let draws = (0..n)
        .map(|seat| MixDraws::new(config.seed, seat, None))
        .collect();
    let mut decisions = DecisionLoop::new(config.time.decision_ms, draws);
    let mut total = 0i64;
    // Each seat's net chips and the hands played, for the bots' `match_end`.
    let mut totals = vec![0i64; n];
    let mut played = 0u64;
    for h in 0..config.hands {
        if table.quit {
            break;
        }
        let dealer = (h as usize) % n;
        let (mut hand, events) = Hand::seeded(config.settings, n, dealer, config.seed, h)?;
        decisions
            .play_hand(&mut table, &mut hand, h, &events)
            .await?;
        let payoffs = hand.payoffs().expect("over");
        for (sum, chips) in totals.iter_mut().zip(payoffs) {
            *sum += chips;
        }
        played += 1;
        let net = payoffs[me];
        total += net;
        writeln!(
            table.console.output,
            "You {} {} {} this hand; {total:+} in all.\n",
            if net >= 0 { "win" } else { "lose" },
            net.abs(),
            if net.abs() == 1 { "chip" } else { "chips" }
        )?;
    }
    let console = table.console;
    for mut c in table.bots.into_iter().flatten() {
        c.queue(&ArenaMessage::MatchEnd(MatchEnd {
            hands: played,
            totals: totals.clone(),
        }));
        c.close(Duration::from_millis(500)).await;
    }
    // The seed only now: knowing it during the game would show the bots' cards.
    writeln!(
        console.output,
        "Game over: {total:+} chips. Seed {} (--seed deals these hands again).",
        config.seed
    )?;
    Ok(total)
}
