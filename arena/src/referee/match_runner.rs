//! The match loop.

use std::time::Duration;

use futures::future::join_all;
use protocol::{
    Action, ArenaMessage, DecisionKind, FaultNotice, Hello, MatchEnd, MixEntry, PROTOCOL_VERSION,
    Request,
};
use rules::{Event, Hand, SettingsError};
use tokio_util::sync::CancellationToken;

use super::connection::{Connection, SeatFault};
use super::match_config::{MatchConfig, SeatConfig, seat_hello_seed};
use super::mix_draw::MixDraws;
use super::result::{BotFailure, MatchResult, SeatResult};
use crate::bot::{DecisionLines, DecisionStderr, SpawnError};
use crate::replay::{ActionSource, BotRecord, BotStatus, Header, Record, ReplayWriter};
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
        crate::output::io_reason(cause)
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
    /// The draws of the seat's mixed answers, shared by every process of the seat (a
    /// restarted bot must not see the draws of its first process again).
    draws: MixDraws,
    result: SeatResult,
}

/// How a bot's decision went, for its action record.
struct Decided {
    elapsed_ms: u64,
    bank_ms: u64,
}

/// A decision the bot made (not the arena): its timing, and the mix drawn from, if any.
struct Decision {
    decided: Decided,
    mix: Option<Vec<MixEntry>>,
}

struct Referee<'a> {
    config: &'a MatchConfig,
    seats: Vec<Seat<'a>>,
    replay: ReplayWriter,
    next_request: u64,
    blind_start: bool,
    /// The public view of the event being dispatched, serialized once for every seat that
    /// sees it that way (a reused buffer).
    public_line: Vec<u8>,
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
                draws: MixDraws::new(config.seed, index, seat.bot_seed),
                result: SeatResult {
                    seat: index,
                    name: seat.spec.name.clone(),
                    ..SeatResult::default()
                },
            })
            .collect(),
        replay,
        next_request: 1,
        blind_start: config.settings.variant.has_blind_play(),
        public_line: Vec::new(),
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
            let mut forced: Vec<bool> = self.seats.iter().map(|s| s.connection.is_none()).collect();
            self.dispatch(hand_index, &events).await?;
            while let Some(decision) = hand.to_act() {
                let seat = decision.seat;
                let mut answer = None;
                // The bot's stderr lines of a decision that faulted, for the arena's action.
                let mut faulted_lines = DecisionLines::default();
                if !forced[seat] {
                    let request = self.request(&hand, hand_index, decision.kind, seat);
                    match self.ask(seat, &request).await {
                        Ok((action, mix, decided, line)) => match hand.apply(seat, action) {
                            Ok(events) => {
                                let lines = self.decision_lines(seat).await;
                                self.record_action(
                                    hand_index,
                                    seat,
                                    decision.kind,
                                    action,
                                    Some(Decision { decided, mix }),
                                    lines,
                                )?;
                                self.dispatch(hand_index, &events).await?;
                                answer = Some(());
                            }
                            Err(illegal) => {
                                // In the words of the request the bot saw; the engine's own
                                // reason only if the two ever disagree.
                                let detail = protocol::explain::refusal(&action, &request.legal)
                                    .unwrap_or_else(|| illegal.to_string());
                                let fault = SeatFault {
                                    kind: protocol::FaultKind::Illegal,
                                    detail,
                                    line: Some(line),
                                    broken: false,
                                    stderr: None,
                                }
                                .excerpted();
                                self.fault(
                                    hand_index,
                                    seat,
                                    Some(request.id),
                                    decision.kind,
                                    fault,
                                )
                                .await?;
                                faulted_lines = self.decision_lines(seat).await;
                            }
                        },
                        Err(fault) => {
                            self.fault(hand_index, seat, Some(request.id), decision.kind, fault)
                                .await?;
                            // After `fault`, which closes a broken connection: a crashed
                            // bot's last lines are all in.
                            faulted_lines = self.decision_lines(seat).await;
                        }
                    }
                    if answer.is_none() {
                        forced[seat] = true;
                    }
                }
                if answer.is_none() {
                    let action = fallback(decision.kind);
                    let events = hand
                        .apply(seat, action)
                        .expect("pack, keep and refuse are always legal for their decision");
                    self.record_action(
                        hand_index,
                        seat,
                        decision.kind,
                        action,
                        None,
                        faulted_lines,
                    )?;
                    self.dispatch(hand_index, &events).await?;
                }
            }
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

    fn request(
        &mut self,
        hand: &Hand,
        hand_index: u64,
        kind: DecisionKind,
        seat: usize,
    ) -> Request {
        let id = self.next_request;
        self.next_request += 1;
        let connection = self.seats[seat]
            .connection
            .as_ref()
            .expect("asked seats have a bot");
        Request::from_hand(
            hand,
            hand_index,
            kind,
            seat,
            id,
            self.config.time.decision_ms,
            connection.bank().as_millis() as u64,
        )
    }

    /// The bot's action (drawn, if it answered with a mix, and that mix), the time it took
    /// and its bank left (ms), and the line it sent.
    async fn ask(
        &mut self,
        seat: usize,
        request: &Request,
    ) -> Result<(Action, Option<Vec<MixEntry>>, Decided, String), SeatFault> {
        let state = &mut self.seats[seat];
        let connection = state.connection.as_mut().expect("asked seats have a bot");
        let asked = connection.ask(request).await?;
        let ms = asked.elapsed.as_millis() as u64;
        state.result.decisions += 1;
        state.result.decision_ms += ms;
        let decided = Decided {
            elapsed_ms: ms,
            bank_ms: connection.bank().as_millis() as u64,
        };
        let (action, mix) = asked.resolve(&request.legal, &mut state.draws)?;
        Ok((action, mix, decided, asked.line))
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

    fn record_action(
        &mut self,
        hand: u64,
        seat: usize,
        kind: DecisionKind,
        action: Action,
        decision: Option<Decision>,
        lines: DecisionLines,
    ) -> Result<(), MatchError> {
        let (decided, mix) = match decision {
            Some(Decision { decided, mix }) => (Some(decided), mix),
            None => (None, None),
        };
        self.replay.write(&Record::Action {
            hand,
            seat,
            kind,
            action,
            source: if decided.is_some() {
                ActionSource::Bot
            } else {
                ActionSource::Arena
            },
            elapsed_ms: decided.as_ref().map(|d| d.elapsed_ms),
            bank_ms: decided.as_ref().map(|d| d.bank_ms),
            mix,
            stderr_lines: lines.lines,
            stderr_dropped: lines.dropped,
        })?;
        Ok(())
    }

    /// Records events whole and queues each seat's view of them (after the pause of a paced
    /// match: no bot has a request then, so no bot's clock runs).
    async fn dispatch(&mut self, hand: u64, events: &[Event]) -> Result<(), MatchError> {
        for event in events {
            if let Some(pace) = &mut self.pace {
                pace.wait().await;
            }
            self.replay.write_event(hand, event)?;
            if event.is_public() {
                // Most events (bets, packs, ...): one line for the whole table, no copies.
                self.public_line.clear();
                protocol::wire::write_event(&mut self.public_line, hand, event);
                for state in &mut self.seats {
                    if let Some(connection) = &mut state.connection {
                        connection.queue_line(&self.public_line);
                    }
                }
                continue;
            }
            // Events with private cards still look the same to most seats: serialize that
            // public view once. (No seat has this index: the view of a seat that knows nothing.)
            let public = event.for_seat(usize::MAX, self.blind_start);
            self.public_line.clear();
            for state in &mut self.seats {
                let Some(connection) = &mut state.connection else {
                    continue;
                };
                let mine = event.for_seat(state.index, self.blind_start);
                if mine == public {
                    if self.public_line.is_empty() {
                        protocol::wire::write_event(&mut self.public_line, hand, &public);
                    }
                    connection.queue_line(&self.public_line);
                } else {
                    connection.queue_event(hand, &mine);
                }
            }
        }
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

    async fn close_all(&mut self, grace: Duration) -> Vec<Option<crate::bot::ExitSummary>> {
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

/// What the arena does for a seat that faulted this hand or has no running bot.
pub fn fallback(kind: DecisionKind) -> Action {
    match kind {
        DecisionKind::Bet => Action::Pack,
        DecisionKind::Swap => Action::Keep,
        DecisionKind::SideshowReply => Action::Refuse,
    }
}

fn describe_exit(exit: &crate::bot::ExitSummary) -> String {
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
    use crate::bot::{CgroupUsage, ExitSummary, StderrSummary};

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
