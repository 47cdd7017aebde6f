//! The situations `arena check-bot` puts a bot in: every decision kind of every variant,
//! dead hands and a redeal, with fixed cards so that each situation really arises.

use protocol::{Action, DecisionKind, LegalAction, Settings, Variant};
use rules::{Card, DealSource, Deck, Hand};

/// How the checker plays the seats that are not the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum House {
    /// See at once, bet the minimum, keep, accept sideshows.
    Calls,
    /// As `Calls`, but ask the bot for a sideshow whenever that is allowed.
    AsksSideshow,
}

impl House {
    /// The house seat's action.
    pub fn act(self, legal: &[LegalAction], bot_seat: usize) -> Action {
        let offered = |name: &str| legal.iter().find(|l| l.name() == name);
        if self == House::AsksSideshow
            && let Some(LegalAction::Sideshow { target, .. }) = offered("sideshow")
            && *target == bot_seat
        {
            return Action::Sideshow;
        }
        if offered("see").is_some() {
            return Action::See;
        }
        if let Some(LegalAction::Bet { min, .. }) = offered("bet") {
            return Action::Bet { amount: *min };
        }
        if offered("keep").is_some() {
            return Action::Keep;
        }
        if offered("accept").is_some() {
            return Action::Accept;
        }
        Action::Pack
    }
}

/// One hand of a scenario.
pub struct ScenarioHand {
    pub dealer: usize,
    pub source: DealSource,
}

/// A named situation.
pub struct Scenario {
    pub name: String,
    pub settings: Settings,
    pub seats: usize,
    pub bot_seat: usize,
    pub house: House,
    pub hands: Vec<ScenarioHand>,
    /// Decision kinds this scenario exists to reach (reported as not reached otherwise).
    pub meant_for: Vec<DecisionKind>,
    /// What else it checks, in words.
    pub about: &'static str,
}

impl Scenario {
    pub fn start_hand(&self, index: usize) -> (Hand, Vec<rules::Event>) {
        let h = &self.hands[index];
        Hand::new(self.settings, self.seats, h.dealer, h.source.clone())
            .expect("scenarios are valid tables")
    }
}

/// A deck that deals `hands[seat]` to each seat with this dealer (the rest in pack order).
fn stacked(hands: &[[&str; 3]], dealer: usize) -> Deck {
    let n = hands.len();
    let order: Vec<usize> = (1..=n).map(|k| (dealer + k) % n).collect();
    let top: Vec<Card> = (0..3)
        .flat_map(|round| order.iter().map(move |&seat| hands[seat][round]))
        .map(|text| text.parse::<Card>().expect("valid card"))
        .collect();
    Deck::stacked(&top).expect("no card twice")
}

fn seeded(seed: u64, hand: u64, dealer: usize) -> ScenarioHand {
    ScenarioHand {
        dealer,
        source: DealSource::Seeded { seed, hand },
    }
}

fn fixed(hands: &[[&str; 3]], dealer: usize) -> ScenarioHand {
    ScenarioHand {
        dealer,
        source: DealSource::Stacked(vec![stacked(hands, dealer)]),
    }
}

/// The scenarios for one variant (or all of them).
pub fn scenarios(only: Option<Variant>) -> Vec<Scenario> {
    let mut out = Vec::new();
    let wanted = |v: Variant| only.is_none_or(|o| o == v);
    let settings = |v: Variant| {
        let mut s = Settings::new(v);
        s.max_turns = 24; // short hands: the checker tests answers, not stamina
        s
    };
    if wanted(Variant::Classic) {
        out.push(Scenario {
            name: "classic: blind and seen bets, see, show".into(),
            settings: settings(Variant::Classic),
            seats: 2,
            bot_seat: 0,
            house: House::Calls,
            hands: (0..6).map(|h| seeded(11, h, (h % 2) as usize)).collect(),
            meant_for: vec![DecisionKind::Bet],
            about: "a blind seat is offered see, blind bets and a show for one stake",
        });
        out.push(Scenario {
            name: "classic: three seats".into(),
            settings: settings(Variant::Classic),
            seats: 3,
            bot_seat: 1,
            house: House::AsksSideshow,
            hands: (0..4).map(|h| seeded(12, h, (h % 3) as usize)).collect(),
            meant_for: vec![DecisionKind::Bet],
            about: "betting with more seats; sideshows once seen",
        });
    }
    if wanted(Variant::Closest555) {
        out.push(Scenario {
            name: "closest-555: swaps on the first two turns, bets, show".into(),
            settings: settings(Variant::Closest555),
            seats: 2,
            bot_seat: 0,
            house: House::Calls,
            hands: (0..5).map(|h| seeded(21, h, (h % 2) as usize)).collect(),
            meant_for: vec![DecisionKind::Swap, DecisionKind::Bet],
            about: "swap or keep at the start of the first two turns, then bet",
        });
        out.push(Scenario {
            name: "closest-555: a sideshow is asked of the bot".into(),
            settings: settings(Variant::Closest555),
            seats: 3,
            bot_seat: 0,
            house: House::AsksSideshow,
            // Dealer 2: the bot acts first, then seat 1 asks it for a sideshow. The bot holds
            // 5-5-4 (554, distance 1), a hand no sensible bot packs at once.
            hands: vec![
                fixed(
                    &[["5s", "5d", "4h"], ["9c", "2d", "Kh"], ["7c", "7d", "Ah"]],
                    2,
                ),
                fixed(
                    &[["5c", "5h", "6h"], ["3c", "3d", "Qh"], ["8c", "2h", "Ac"]],
                    2,
                ),
            ],
            meant_for: vec![DecisionKind::SideshowReply],
            about: "the reply is a decision of a seat that is not on turn",
        });
    }
    if wanted(Variant::LallanKallan) {
        out.push(Scenario {
            name: "lallan-kallan: a sideshow is asked of the bot".into(),
            settings: settings(Variant::LallanKallan),
            seats: 3,
            bot_seat: 0,
            house: House::AsksSideshow,
            // The bot's Kh Kd + black wild makes a trail of kings.
            hands: vec![
                fixed(
                    &[["Kh", "Kd", "2s"], ["9c", "4s", "Qh"], ["7h", "3d", "Ac"]],
                    2,
                ),
                fixed(
                    &[["Ah", "Ad", "5c"], ["9d", "4d", "Qs"], ["7s", "3s", "Kh"]],
                    2,
                ),
            ],
            meant_for: vec![DecisionKind::Bet, DecisionKind::SideshowReply],
            about: "everyone plays seen; the odd-colour card is wild",
        });
        out.push(Scenario {
            name: "lallan-kallan: the bot's hand is dead, then a live hand".into(),
            settings: settings(Variant::LallanKallan),
            seats: 3,
            bot_seat: 0,
            house: House::Calls,
            hands: vec![
                // Three hearts: dead at once; the bot gets no request in this hand.
                fixed(
                    &[["Ah", "9h", "2h"], ["9c", "4s", "Qh"], ["7h", "3d", "Ac"]],
                    0,
                ),
                fixed(
                    &[["Qs", "Ks", "2d"], ["9d", "4s", "Qh"], ["7h", "3d", "Ac"]],
                    1,
                ),
            ],
            meant_for: vec![DecisionKind::Bet],
            about: "a dead hand packs at once and the bot must wait for the next hand quietly",
        });
        let dead_then_live = ScenarioHand {
            dealer: 1,
            source: DealSource::Stacked(vec![
                stacked(&[["Ah", "9h", "2d"], ["Ac", "9s", "2c"]], 1),
                stacked(&[["Qs", "Ks", "2d"], ["9d", "4s", "Qh"]], 1),
            ]),
        };
        out.push(Scenario {
            name: "lallan-kallan: every hand dead, redeal; a lone survivor".into(),
            settings: settings(Variant::LallanKallan),
            seats: 2,
            bot_seat: 0,
            house: House::Calls,
            hands: vec![
                dead_then_live,
                // Only the bot's hand lives: it takes the pot at once.
                fixed(&[["Qs", "Ks", "2d"], ["9d", "4d", "Qh"]], 0),
                seeded(31, 2, 0),
            ],
            meant_for: vec![DecisionKind::Bet],
            about: "a redeal with the pot carried forward; a hand won without a decision",
        });
    }
    out
}
