//! Why an action is not offered right now, as facts of the hand: a person at the table (or
//! a bot's author) who is refused an action learns the rule that refused it ("the other seat
//! is blind"), not only the list of what is allowed instead.

use super::{Hand, Phase};
use crate::action::DecisionKind;
use crate::settings::Variant;

/// The rule that keeps an action out of the legal set. Seats are the engine's (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhyNot {
    /// The hand is over: nobody decides.
    HandOver,
    /// Another decision comes first: the swap-or-keep at the start of the turn, or the reply
    /// to a sideshow asked of this seat.
    OtherDecision(DecisionKind),
    /// `see`: this seat has already seen its cards.
    AlreadySeen,
    /// `see`: the game has no blind play; every seat plays seen from the deal.
    NoBlindPlay,
    /// A blind bet or a blind show: the seat made all `limit` blind bets allowed and must see
    /// (or pack).
    BlindBetsUsed { limit: u32 },
    /// `show`: a show needs exactly two seats in the hand; `in_hand` are.
    ShowNeedsTwo { in_hand: usize },
    /// `show`: a seen seat may not ask a blind one (`other`) for a show.
    ShowAgainstBlind { other: usize },
    /// `sideshow`: the table plays without sideshows.
    SideshowsOff,
    /// `sideshow`: only a seen seat may ask for one.
    SideshowWhileBlind,
    /// `sideshow`: with two seats left there is a show instead.
    SideshowWithTwo,
    /// `sideshow`: the seat it would ask (the previous one still in) is blind.
    SideshowTargetBlind { target: usize },
    /// `sideshow`: the seat it would ask has not acted yet this hand.
    SideshowTargetNotActed { target: usize },
    /// `swap`, `keep`: the game has no swaps (Closest to 555 only).
    NoSwapsInGame,
    /// `swap`, `keep`: this turn's swap-or-keep is already decided.
    SwapDecided,
    /// `swap`, `keep`: swaps are only at the start of a seat's first two turns.
    SwapTurnsOver,
    /// `accept`, `refuse`: nobody asked this seat for a sideshow.
    NoSideshowAsked,
    /// Not an action of the protocol.
    UnknownAction,
}

impl Hand {
    /// Why the seat to act may not play `action` (a protocol action name: `"show"`, `"bet"`,
    /// ...) now, or `None` when an action of that name is in [`Hand::legal_set`] (its amount
    /// or card may still be out of bounds: the legal entry says which are allowed).
    pub fn why_not(&self, action: &str) -> Option<WhyNot> {
        let seat = match self.phase {
            Phase::Over => return Some(WhyNot::HandOver),
            Phase::SideshowReply { .. } => {
                return match action {
                    "accept" | "refuse" => None,
                    _ => {
                        Some(self.known(action, WhyNot::OtherDecision(DecisionKind::SideshowReply)))
                    }
                };
            }
            Phase::Swap(_) => {
                return match action {
                    "swap" | "keep" => None,
                    _ => Some(self.known(action, WhyNot::OtherDecision(DecisionKind::Swap))),
                };
            }
            Phase::Bet(seat) => seat,
        };
        let me = &self.seats[seat];
        let blind_bets_used = me.blind_bets >= self.settings.blind_limit;
        let used = WhyNot::BlindBetsUsed {
            limit: self.settings.blind_limit,
        };
        let in_hand = self.in_hand_count();
        match action {
            "pack" => None,
            "see" if !self.settings.variant.has_blind_play() => Some(WhyNot::NoBlindPlay),
            "see" => me.seen.then_some(WhyNot::AlreadySeen),
            "bet" => (!me.seen && blind_bets_used).then_some(used),
            "show" if in_hand != 2 => Some(WhyNot::ShowNeedsTwo { in_hand }),
            "show" if !me.seen => blind_bets_used.then_some(used),
            "show" => {
                let other = self.next_in_hand(seat);
                (!self.seats[other].seen).then_some(WhyNot::ShowAgainstBlind { other })
            }
            "sideshow" if !self.settings.sideshow => Some(WhyNot::SideshowsOff),
            "sideshow" if !me.seen => Some(WhyNot::SideshowWhileBlind),
            "sideshow" if in_hand == 2 => Some(WhyNot::SideshowWithTwo),
            "sideshow" => {
                let target = self.prev_in_hand(seat);
                let t = &self.seats[target];
                if !t.seen {
                    Some(WhyNot::SideshowTargetBlind { target })
                } else if t.turns == 0 {
                    Some(WhyNot::SideshowTargetNotActed { target })
                } else {
                    None
                }
            }
            "swap" | "keep" if self.settings.variant != Variant::Closest555 => {
                Some(WhyNot::NoSwapsInGame)
            }
            "swap" | "keep" if me.turns < 2 => Some(WhyNot::SwapDecided),
            "swap" | "keep" => Some(WhyNot::SwapTurnsOver),
            "accept" | "refuse" => Some(WhyNot::NoSideshowAsked),
            _ => Some(WhyNot::UnknownAction),
        }
    }

    /// `why` for an action of the protocol, [`WhyNot::UnknownAction`] for any other name.
    fn known(&self, action: &str, why: WhyNot) -> WhyNot {
        const ACTIONS: [&str; 9] = [
            "pack", "see", "bet", "show", "sideshow", "swap", "keep", "accept", "refuse",
        ];
        if ACTIONS.contains(&action) {
            why
        } else {
            WhyNot::UnknownAction
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{Action, LegalAction};
    use crate::settings::Settings;

    const NAMES: [&str; 9] = [
        "pack", "see", "bet", "show", "sideshow", "swap", "keep", "accept", "refuse",
    ];

    /// Over many played hands of every variant and several tables: an action name has no
    /// reason against it exactly when the legal set offers it.
    #[test]
    fn a_reason_is_given_exactly_when_the_action_is_not_offered() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut reasons = std::collections::BTreeSet::new();
        for variant in Variant::ALL {
            for seats in [2, 3, 5] {
                for tweak in 0..4 {
                    let mut settings = Settings::new(variant);
                    match tweak {
                        1 => settings.sideshow = false,
                        2 => settings.blind_limit = 1,
                        3 => settings.blind_limit = 0,
                        _ => {}
                    }
                    for hand_index in 0..30 {
                        let (mut hand, _) =
                            Hand::seeded(settings, seats, 0, 9, hand_index).unwrap();
                        loop {
                            let legal = hand.legal();
                            for name in NAMES {
                                let offered = legal.iter().any(|l| l.name() == name);
                                let why = hand.why_not(name);
                                assert_eq!(why.is_none(), offered, "{name}: {why:?} {legal:?}");
                                if let Some(why) = why {
                                    reasons.insert(
                                        format!("{why:?}")
                                            .split([' ', '('])
                                            .next()
                                            .unwrap()
                                            .to_string(),
                                    );
                                }
                            }
                            assert_eq!(
                                hand.why_not("dance"),
                                hand.to_act()
                                    .map(|_| WhyNot::UnknownAction)
                                    .or(Some(WhyNot::HandOver))
                            );
                            let Some(decision) = hand.to_act() else { break };
                            // Mostly cheap, long-running choices; sometimes a pack.
                            let entry = &legal[next(legal.len())];
                            let action = match entry {
                                LegalAction::Pack if next(5) > 0 => legal
                                    .iter()
                                    .find(|l| !matches!(l, LegalAction::Pack))
                                    .map_or(Action::Pack, |l| l.instance(|_| 0)),
                                other => other.instance(|_| 0),
                            };
                            hand.apply(decision.seat, action).unwrap();
                        }
                    }
                }
            }
        }
        // Every reason a hand in play can give was seen (UnknownAction is checked above).
        for reason in [
            "HandOver",
            "OtherDecision",
            "AlreadySeen",
            "NoBlindPlay",
            "BlindBetsUsed",
            "ShowNeedsTwo",
            "ShowAgainstBlind",
            "SideshowsOff",
            "SideshowWhileBlind",
            "SideshowWithTwo",
            "SideshowTargetBlind",
            "SideshowTargetNotActed",
            "NoSwapsInGame",
            "SwapDecided",
            "SwapTurnsOver",
            "NoSideshowAsked",
        ] {
            assert!(
                reasons.contains(reason),
                "{reason} never arose: {reasons:?}"
            );
        }
    }

    #[test]
    fn a_seen_seat_is_told_the_other_one_is_blind() {
        // Classic, two seats, dealer 0: seat 1 sees, then may not ask blind seat 0 for a show.
        let (mut hand, _) = Hand::seeded(Settings::new(Variant::Classic), 2, 0, 1, 0).unwrap();
        assert_eq!(hand.to_act().unwrap().seat, 1);
        assert_eq!(hand.why_not("show"), None, "a blind seat may show");
        hand.apply(1, Action::See).unwrap();
        assert_eq!(
            hand.why_not("show"),
            Some(WhyNot::ShowAgainstBlind { other: 0 })
        );
        assert_eq!(hand.why_not("see"), Some(WhyNot::AlreadySeen));
    }
}
