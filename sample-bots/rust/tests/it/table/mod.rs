//! A table for the tests: hands of the rules engine played by in-process bots, each seat told
//! exactly what the arena would tell it (its hello, the events with what it may not see
//! removed, its requests), optionally written down as the arena's lines for that seat.

use protocol::{ArenaMessage, Hello, MatchEnd, Request, Settings, TimeLimits};
use rules::Hand;
use sample_bots::{Bot, Game};
use serde_json::Value;

/// One seat: its bot, and (when kept) every line the arena sent it and every answer it gave.
pub struct Seat {
    pub bot: Box<dyn Bot>,
    pub game: Game,
    /// The arena's lines to this seat, from its hello on (kept when `Some`).
    pub lines: Option<Vec<String>>,
    /// This seat's answers, each as its answer line's JSON (kept with `lines`).
    pub answers: Vec<Value>,
}

impl Seat {
    /// Seat `seat` of `seats` played by `bot`, with the hello seed `seed`.
    pub fn new(
        bot: Box<dyn Bot>,
        settings: Settings,
        seat: usize,
        seats: usize,
        seed: u64,
    ) -> Seat {
        let hello = Hello {
            protocol: protocol::PROTOCOL_VERSION,
            game: settings.variant,
            settings,
            seat,
            seats,
            hands: 1_000_000,
            first_hand: 0,
            seed,
            players: (0..seats).map(|i| format!("bot{i}")).collect(),
            time: TimeLimits {
                startup_ms: 5_000,
                decision_ms: 1_000,
                bank_ms: 10_000,
            },
        };
        Seat {
            bot,
            game: Game { hello },
            lines: None,
            answers: Vec::new(),
        }
    }

    /// Keeps this seat's lines and answers (from its hello on).
    pub fn recorded(mut self) -> Seat {
        self.lines = Some(vec![ArenaMessage::Hello(self.game.hello.clone()).to_line()]);
        self
    }
}

/// Plays hand `hand_index` of a match with the deal seed `seed` (seat `hand_index mod seats`
/// deals, as in the arena) and returns the payoffs. `next_id` numbers the requests.
pub fn play_hand(
    settings: Settings,
    seed: u64,
    hand_index: u64,
    seats: &mut [Seat],
    next_id: &mut u64,
) -> Vec<i64> {
    let n = seats.len();
    let dealer = (hand_index % n as u64) as usize;
    let (mut hand, mut events) =
        Hand::seeded(settings, n, dealer, seed, hand_index).expect("valid settings");
    let blind = settings.variant.has_blind_play();
    let mut told = 0;
    loop {
        for event in &events[told..] {
            for (i, seat) in seats.iter_mut().enumerate() {
                let line = ArenaMessage::Event {
                    hand: hand_index,
                    event: event.for_seat(i, blind),
                }
                .to_line();
                let message: Value = serde_json::from_str(&line).expect("events are JSON");
                seat.bot.observe(&seat.game, &message);
                if let Some(lines) = &mut seat.lines {
                    lines.push(line);
                }
            }
        }
        told = events.len();
        let Some(decision) = hand.to_act() else { break };
        let request = Request::from_hand(
            &hand,
            hand_index,
            decision.kind,
            decision.seat,
            *next_id,
            1_000,
            10_000,
        );
        *next_id += 1;
        let seat = &mut seats[decision.seat];
        let action = seat.bot.decide(&seat.game, &request);
        if let Some(lines) = &mut seat.lines {
            lines.push(ArenaMessage::Request(request.clone()).to_line());
            let mut answer = serde_json::to_value(action).expect("actions serialize");
            answer["id"] = request.id.into();
            seat.answers.push(answer);
        }
        match hand.apply(decision.seat, action) {
            Ok(more) => events.extend(more),
            Err(e) => panic!(
                "seat {} played {action:?}, which is illegal: {e:?}",
                decision.seat
            ),
        }
    }
    hand.payoffs().expect("the hand is over").to_vec()
}

/// The match_end line after `hands` hands.
pub fn match_end(hands: u64, seats: usize) -> String {
    ArenaMessage::MatchEnd(MatchEnd {
        hands,
        totals: vec![0; seats],
    })
    .to_line()
}
