//! Why `arena play` refuses an action the person typed, in the words of the rules: the rules
//! engine names the rule ([`rules::WhyNot`]), this says it to the person, seats counted from 1.

use rules::{DecisionKind, WhyNot};

use crate::replay::Names;

/// The reason for `why`, to follow "show is not allowed now: ".
pub fn reason(why: WhyNot, names: &Names) -> String {
    match why {
        WhyNot::HandOver => "the hand is over".into(),
        WhyNot::OtherDecision(DecisionKind::Swap) => {
            "your turn starts with a swap: swap a card or keep, then you bet".into()
        }
        WhyNot::OtherDecision(DecisionKind::SideshowReply) => {
            "a sideshow is asked of you: accept or refuse first".into()
        }
        WhyNot::OtherDecision(DecisionKind::Bet) => "it is your turn to bet".into(),
        WhyNot::AlreadySeen => "you have already seen your cards".into(),
        WhyNot::NoBlindPlay => {
            "this game has no blind play: everyone sees their cards from the deal".into()
        }
        WhyNot::BlindBetsUsed { limit } => format!(
            "you made the {limit} blind bet{} allowed: see your cards (then bet seen) or pack",
            if limit == 1 { "" } else { "s" }
        ),
        WhyNot::ShowNeedsTwo { in_hand } => {
            format!("a show needs exactly two players left in the hand, and {in_hand} are in")
        }
        WhyNot::ShowAgainstBlind { other } => format!(
            "{} is blind, and a seen player may not ask a blind one for a show",
            names.who(other)
        ),
        WhyNot::SideshowsOff => "this table plays without sideshows".into(),
        WhyNot::SideshowWhileBlind => {
            "only a seen player may ask for a sideshow: see your cards first".into()
        }
        WhyNot::SideshowWithTwo => {
            "with two players left there is no sideshow: ask for a show instead".into()
        }
        WhyNot::SideshowTargetBlind { target } => format!(
            "a sideshow asks the player before you, {}, who is blind",
            names.who(target)
        ),
        WhyNot::SideshowTargetNotActed { target } => format!(
            "a sideshow asks the player before you, {}, who has not acted yet this hand",
            names.who(target)
        ),
        WhyNot::NoSwapsInGame => "only Closest to 555 has swaps".into(),
        WhyNot::SwapDecided => "you have already swapped or kept this turn".into(),
        WhyNot::SwapTurnsOver => "swaps are only at the start of your first two turns".into(),
        WhyNot::NoSideshowAsked => "nobody asked you for a sideshow".into(),
        WhyNot::UnknownAction => "it is not an action of the game".into(),
    }
}
