//! The match loop: the bots started and restarted, the hands dealt and played on the
//! decision loop (`match_table.rs`: what a match keeps of them), the replay and the result.

mod match_table;

use std::time::Duration;

use futures::future::join_all;
use protocol::{ArenaMessage, DecisionKind, FaultNotice, Hello, MatchEnd, PROTOCOL_VERSION};
use rules::{Hand, SettingsError};
use sandbox::{DecisionLines, DecisionStderr, SpawnError};
use tokio_util::sync::CancellationToken;

use super::connection::{Connection, SeatFault};
use super::decision_loop::{DecisionLoop, fallback};
use super::match_config::{MatchConfig, SeatConfig, seat_hello_seed};
use super::mix_draw::MixDraws;
use super::result::{BotFailure, MatchResult, SeatResult};
use crate::replay::{BotRecord, BotStatus, Header, Record, ReplayWriter};
use crate::watch::Pace;

/// Why a match could not be played (bots misbehaving is never one of these).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// `path` is `None` only inside the referee: [`run_match`] fills it in.
    #[error(
        "cannot write replay {}: {}",
        path.as_deref().map_or_else(|| "(none)".into(), |p| p.display().to_string()),
        crate::console::output::io_reason(cause)
    )]
    Replay {
        path: Option<std::path::PathBuf>,
        cause: std::io::Error,
    },
    #[error("the match was cancelled")]
    Cancelled,
}

impl From<std::io::Error> for MatchError {
    fn from(cause: std::io::Error) -> MatchError {
        MatchError::Replay { path: None, cause }
    }
}

struct Seat<'a> {
    index: usize,
    config: &'a SeatConfig,
    connection: Option<Connection>,
    restarts_left: u32,
    disabled: bool,
    /// The stderr log of the seat's current (or last) process: every process of a restarted
    /// seat has its own (see [`crate::bot_command::restart_log`]).
    log: std::path::PathBuf,
    /// Gathers the stderr lines of each decision when the replay keeps them; shared by every
    /// process of the seat (its byte budget is the seat's for the match).
    decisions: Option<DecisionStderr>,
    /// The bot's stderr lines of a decision that faulted, kept for the arena's action that
    /// follows the fault.
    faulted_lines: DecisionLines,
    result: SeatResult,
}

struct Referee<'a> {
    config: &'a MatchConfig,
    seats: Vec<Seat<'a>>,
    replay: ReplayWriter,
    /// A watched match's `--pace`: the referee waits before each event.
    pace: Option<Pace>,
}

/// Plays a whole match. Returns an error only when the arena itself cannot go on; every bot
/// failure is recorded as a fault and the match finishes. Dropping the future drops the
/// referee, which kills the bots.
///
/// Run it on a current-thread runtime, as `arena match` and the tournament's job slots do:
/// from a multi-thread runtime's `block_on` the referee would run on the main thread while a
/// worker owns the I/O driver, and every bot answer would cost two thread wake-ups instead of
/// one (BENCHMARKS.md, section 2).
pub async fn run_match(
    config: &MatchConfig,
    cancel: &CancellationToken,
) -> Result<MatchResult, MatchError> {
    // Every replay write error comes here through `?`: name the file once, for all of them.
    play_match(config, cancel).await.map_err(|e| match e {
        MatchError::Replay { path: None, cause } => MatchError::Replay {
            path: config.replay.clone(),
            cause,
        },
        e => e,
    })
}

async fn play_match(
    config: &MatchConfig,
    cancel: &CancellationToken,
) -> Result<MatchResult, MatchError> {
    config.settings.validate(config.seats.len())?;
    let replay = ReplayWriter::create(config.replay.as_deref())?.with_live(config.live.clone());
    let mut referee = Referee {
        config,
        seats: config
            .seats
            .iter()
            .enumerate()
            .map(|(index, seat)| Seat {
                index,
                config: seat,
                connection: None,
                restarts_left: config.max_restarts,
                disabled: false,
                log: seat.spec.stderr_log.clone(),
                decisions: config.decision_stderr.map(DecisionStderr::with_budget),
                faulted_lines: DecisionLines::default(),
                result: SeatResult {
                    seat: index,
                    name: seat.spec.name.clone(),
                    ..SeatResult::default()
                },
            })
            .collect(),
        replay,
        pace: config
            .live
            .as_ref()
            .and_then(|live| live.pace())
            .map(|gap| Pace::new(gap, cancel.clone())),
    };
    let outcome = referee.play(cancel).await;
    let hand_payoffs = match outcome {
        Ok(payoffs) => payoffs,
        Err(e) => {
            referee.close_all(Duration::ZERO).await;
            let _ = referee.replay.flush();
            return Err(e);
        }
    };
    referee.finish(hand_payoffs).await
}

impl<'a> Referee<'a> {
    async fn play(&mut self, cancel: &CancellationToken) -> Result<Vec<Vec<i64>>, MatchError> {
        let config = self.config;
        self.replay.write(&Record::Header(self.header()))?;
        for seat in 0..self.seats.len() {
            self.start_bot(seat, config.first_hand, false).await?;
        }
        let n = self.seats.len();
        let draws = config
            .seats
            .iter()
            .enumerate()
            .map(|(index, seat)| MixDraws::new(config.seed, index, seat.bot_seed))
            .collect();
        let mut decisions = DecisionLoop::new(config.time.decision_ms, draws);
        let mut hand_payoffs = Vec::with_capacity(config.hands as usize);
        for h in 0..config.hands {
            if cancel.is_cancelled() {
                return Err(MatchError::Cancelled);
            }
            let hand_index = config.first_hand + h;
            for seat in 0..n {
                if self.seats[seat].connection.is_none() && !self.seats[seat].disabled {
                    self.restart_bot(seat, hand_index).await?;
                }
            }
            let dealer = (config.first_dealer + h as usize) % n;
            let (mut hand, events) =
                Hand::seeded(config.settings, n, dealer, config.seed, hand_index)?;
            // A seat without a running bot (crashed, disabled) is played by the arena.
            decisions
                .play_hand(self, &mut hand, hand_index, &events)
                .await?;
            let payoffs = hand.payoffs().expect("the hand is over").to_vec();
            for (seat, &net) in payoffs.iter().enumerate() {
                self.seats[seat].result.net += net;
                if net > 0 {
                    self.seats[seat].result.hands_won += 1;
                }
            }
            hand_payoffs.push(payoffs);
            for seat in 0..n {
                self.flush(seat, hand_index).await?;
            }
            self.replay.flush()?;
        }
        Ok(hand_payoffs)
    }

    fn header(&self) -> Header {
        let config = self.config;
        Header {
            format: crate::replay::REPLAY_FORMAT.into(),
            version: crate::replay::REPLAY_VERSION,
            protocol: PROTOCOL_VERSION,
            deal: rules::deck::DEAL_ALGORITHM.into(),
            arena_version: env!("CARGO_PKG_VERSION").into(),
            settings: config.settings,
            seed: config.seed,
            hands: config.hands,
            first_dealer: config.first_dealer,
            time: config.time,
            bots: self
                .seats
                .iter()
                .map(|s| BotRecord {
                    seat: s.index,
                    name: s.config.spec.name.clone(),
                    command: s.config.spec.argv.clone(),
                })
                .collect(),
            first_hand: config.first_hand,
        }
    }

    fn hello(&self, seat: usize, first_hand: u64) -> Hello {
        let config = self.config;
        Hello {
            protocol: PROTOCOL_VERSION,
            game: config.settings.variant,
            settings: config.settings,
            seat,
            seats: self.seats.len(),
            hands: config.hands,
            first_hand,
            seed: seat_hello_seed(config, seat),
            players: self
                .seats
                .iter()
                .map(|s| s.config.spec.name.clone())
                .collect(),
            time: config.time,
        }
    }

    /// Starts a seat's bot. A program that cannot start at all stops the match; a failed
    /// handshake is a startup fault and the seat is retried before the next hand.
    async fn start_bot(&mut self, seat: usize, hand: u64, restart: bool) -> Result<(), MatchError> {
        let hello = self.hello(seat, hand);
        let transcript = self.config.transcripts.as_ref().map(|dir| {
            let suffix = if restart {
                format!("-from-hand{hand}")
            } else {
                String::new()
            };
            dir.join(format!("seat{seat}{suffix}.txt"))
        });
        let mut spec = std::borrow::Cow::Borrowed(&self.seats[seat].config.spec);
        if restart {
            // A log per process: the one of the crash that caused the restart stays.
            let restarts = self.seats[seat].result.restarts;
            spec.to_mut().stderr_log = crate::bot_command::restart_log(&spec.stderr_log, restarts);
        }
        self.seats[seat].log = spec.stderr_log.clone();
        let transcript = transcript
            .as_deref()
            .map(|path| (path, self.config.transcript_max_bytes));
        let decisions = self.seats[seat].decisions.clone();
        match Connection::start(&spec, &hello, transcript, decisions).await {
            Ok(connection) => {
                self.seats[seat].result.starts += 1;
                self.replay.write(&Record::Bot {
                    seat,
                    status: if restart {
                        BotStatus::Restarted
                    } else {
                        BotStatus::Started
                    },
                    hand: Some(hand),
                    name: Some(connection.hello.name.clone()),
                    version: Some(connection.hello.version.clone()),
                    protocol: connection.hello.protocol,
                    elapsed_ms: Some(connection.startup.as_millis() as u64),
                    exit: None,
                    stderr_bytes: None,
                })?;
                self.seats[seat].connection = Some(connection);
                Ok(())
            }
            Err(Ok(spawn)) => Err(MatchError::Spawn(spawn)),
            Err(Err(fault)) => {
                self.record_fault(hand, seat, &fault)?;
                Ok(())
            }
        }
    }

    async fn restart_bot(&mut self, seat: usize, hand: u64) -> Result<(), MatchError> {
        let state = &mut self.seats[seat];
        if state.restarts_left == 0 {
            state.disabled = true;
            state.result.disabled_before_hand = Some(hand);
            self.replay.write(&Record::Bot {
                seat,
                status: BotStatus::Disabled,
                hand: Some(hand),
                name: None,
                version: None,
                protocol: None,
                elapsed_ms: None,
                exit: None,
                stderr_bytes: None,
            })?;
            return Ok(());
        }
        state.restarts_left -= 1;
        state.result.restarts += 1;
        self.start_bot(seat, hand, true).await
    }

    /// The stderr lines gathered for the seat's decision just made (none unless kept).
    async fn decision_lines(&self, seat: usize) -> DecisionLines {
        let Some(decisions) = &self.seats[seat].decisions else {
            return DecisionLines::default();
        };
        // What the bot wrote to stderr before its answer is in the pipe by now, but the drain
        // task may not have read it yet: one yield lets the runtime poll its I/O driver and run
        // that task first (tokio defers a yielded task until the driver has been polled).
        tokio::task::yield_now().await;
        decisions.take()
    }

    /// Records a fault, tells the bot what was done for it, and drops a broken connection.
    async fn fault(
        &mut self,
        hand: u64,
        seat: usize,
        id: Option<u64>,
        kind: DecisionKind,
        mut fault: SeatFault,
    ) -> Result<(), MatchError> {
        let state = &mut self.seats[seat];
        if fault.broken {
            // Closed before the fault is recorded: its record carries the end of the bot's
            // stderr, complete only once the process is gone.
            if let Some(connection) = state.connection.take() {
                let exit = connection.close(Duration::ZERO).await;
                fault.stderr = exit.stderr.excerpt();
                // The arena's own kill for the bot's CPU time looks like any SIGKILL: say so.
                if exit.cgroup_usage.is_some_and(|u| u.cpu_limit_hit) {
                    fault.detail.push_str(CPU_LIMIT_REACHED);
                }
            }
        }
        self.record_fault(hand, seat, &fault)?;
        if let Some(connection) = &mut self.seats[seat].connection {
            connection.queue(&ArenaMessage::Fault(FaultNotice {
                id,
                fault: fault.kind,
                detail: fault.detail.clone(),
                applied: Some(fallback(kind)),
            }));
        }
        Ok(())
    }

    fn record_fault(
        &mut self,
        hand: u64,
        seat: usize,
        fault: &SeatFault,
    ) -> Result<(), MatchError> {
        *self.seats[seat]
            .result
            .faults
            .entry(fault.kind)
            .or_default() += 1;
        tracing::debug!(seat, kind = %fault.kind, detail = %fault.detail, "bot fault");
        if fault.broken {
            let state = &mut self.seats[seat];
            state.result.failures += 1;
            state.result.last_failure = Some(BotFailure {
                hand,
                kind: fault.kind,
                detail: fault.detail.clone(),
                stderr: fault.stderr.clone(),
                log: state.log.clone(),
            });
        }
        self.replay.write(&Record::Fault {
            hand,
            seat,
            fault: fault.kind,
            detail: fault.detail.clone(),
            line: fault.line.clone(),
            stderr: fault.stderr.clone(),
        })?;
        Ok(())
    }

    async fn flush(&mut self, seat: usize, hand: u64) -> Result<(), MatchError> {
        let Some(connection) = &mut self.seats[seat].connection else {
            return Ok(());
        };
        if let Err(fault) = connection.flush().await {
            self.fault(hand, seat, None, DecisionKind::Bet, fault)
                .await?;
        }
        Ok(())
    }

    async fn close_all(&mut self, grace: Duration) -> Vec<Option<sandbox::ExitSummary>> {
        let connections: Vec<Option<Connection>> =
            self.seats.iter_mut().map(|s| s.connection.take()).collect();
        join_all(connections.into_iter().map(|c| async move {
            match c {
                Some(c) => Some(c.close(grace).await),
                None => None,
            }
        }))
        .await
    }

    async fn finish(mut self, hand_payoffs: Vec<Vec<i64>>) -> Result<MatchResult, MatchError> {
        let totals: Vec<i64> = self.seats.iter().map(|s| s.result.net).collect();
        for state in &mut self.seats {
            if let Some(connection) = &mut state.connection {
                connection.queue(&ArenaMessage::MatchEnd(MatchEnd {
                    hands: self.config.hands,
                    totals: totals.clone(),
                }));
            }
        }
        let exits = self.close_all(self.config.exit_grace).await;
        for (seat, exit) in exits.into_iter().enumerate() {
            if let Some(exit) = exit {
                self.replay.write(&Record::Bot {
                    seat,
                    status: BotStatus::Exited,
                    hand: None,
                    name: None,
                    version: None,
                    protocol: None,
                    elapsed_ms: None,
                    exit: Some(describe_exit(&exit)),
                    stderr_bytes: Some(exit.stderr.total_bytes),
                })?;
            }
        }
        let result = MatchResult {
            game: self.config.settings.variant.name().into(),
            hands: self.config.hands,
            seed: self.config.seed,
            seats: self.seats.into_iter().map(|s| s.result).collect(),
            hand_payoffs,
        };
        self.replay.write(&Record::Result(result.clone()))?;
        self.replay.flush()?;
        Ok(result)
    }
}

fn describe_exit(exit: &sandbox::ExitSummary) -> String {
    let how = match (exit.code, exit.signal) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => format!("signal {signal}"),
        _ => "unknown".into(),
    };
    let mut text = if exit.killed_by_arena {
        format!("{how} (killed by the arena)")
    } else {
        how
    };
    // What the bot's cgroup saw: the likeliest cause of a crash its owner cannot see.
    if let Some(usage) = exit.cgroup_usage {
        if usage.memory_limit_hit {
            text.push_str("; it reached its memory limit");
        }
        if usage.pids_limit_hit {
            text.push_str("; it reached its process limit");
        }
        if usage.cpu_limit_hit {
            text.push_str(CPU_LIMIT_REACHED);
        }
    }
    text
}

/// Added to a crash's detail when the arena killed the bot for its CPU time.
const CPU_LIMIT_REACHED: &str =
    "; it reached its CPU time limit (all its processes together): killed by the arena";

#[cfg(test)]
mod tests {
    use super::*;
    use sandbox::{CgroupUsage, ExitSummary, StderrSummary};

    #[test]
    fn an_exit_says_which_limit_the_bot_reached() {
        let mut exit = ExitSummary {
            status: None,
            code: Some(137),
            signal: None,
            killed_by_arena: false,
            leaked_pipe: false,
            stderr: StderrSummary {
                total_bytes: 0,
                dropped_bytes: 0,
                log_path: "log".into(),
                tail: String::new(),
                log_error: None,
            },
            cgroup_usage: None,
        };
        assert_eq!(describe_exit(&exit), "exit code 137");
        exit.cgroup_usage = Some(CgroupUsage {
            memory_peak_bytes: Some(1 << 30),
            memory_limit_hit: true,
            pids_limit_hit: true,
            cpu_time_us: Some(2_000_000),
            cpu_limit_hit: false,
        });
        assert_eq!(
            describe_exit(&exit),
            "exit code 137; it reached its memory limit; it reached its process limit"
        );
        exit.code = None;
        exit.signal = Some(9);
        exit.cgroup_usage = Some(CgroupUsage {
            cpu_limit_hit: true,
            ..CgroupUsage::default()
        });
        assert_eq!(
            describe_exit(&exit),
            "signal 9; it reached its CPU time limit (all its processes together): killed by \
             the arena"
        );
    }
}
