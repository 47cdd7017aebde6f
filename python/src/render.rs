//! The text rendering of a hand (`str(state)`, `render_mode="ansi"`): public facts only, and
//! hands once shown to the whole table. Never a card a seat could not see at the table.

use std::fmt::Write;

use rules::Event;

use crate::play::Play;

pub fn render(play: &Play) -> String {
    let hand = &play.hand;
    let settings = hand.settings();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} hand {} (seed {}), dealer seat {}: pot {}, stake {}",
        settings.variant,
        play.hand_index,
        play.seed,
        hand.dealer(),
        hand.pot(),
        hand.stake()
    );
    let to_act = hand.to_act();
    // The public state of every seat is in any seat's view; seat 0's has no private part used here.
    let view = hand.view(0);
    let mut shown = std::collections::BTreeMap::new();
    for event in &play.events {
        if let Event::Revealed { hands, .. } = event {
            for h in hands {
                shown.insert(h.seat, h.cards);
            }
        }
    }
    for (seat, p) in view.players.iter().enumerate() {
        let state = if p.dead {
            "dead"
        } else if !p.in_hand {
            "packed"
        } else if p.seen {
            "seen"
        } else {
            "blind"
        };
        let mut line = format!(
            "  seat {seat}: {state:<6} put in {:>4}, turns {}",
            p.put_in, p.turns
        );
        if p.swaps > 0 {
            let _ = write!(line, ", swapped {}", p.swaps);
        }
        if let Some(cards) = shown.get(&seat) {
            let _ = write!(line, ", shown {} {} {}", cards[0], cards[1], cards[2]);
        }
        if to_act.is_some_and(|d| d.seat == seat) {
            let _ = write!(
                line,
                "  <- {}",
                to_act.map(|d| d.kind.name()).unwrap_or_default()
            );
        }
        let _ = writeln!(out, "{line}");
    }
    if let Some(payoffs) = hand.payoffs() {
        let _ = writeln!(out, "  over: net chips {payoffs:?}");
    }
    out
}
