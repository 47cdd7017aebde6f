//! Hand-written writers for the two messages the arena sends on every decision: a request and
//! an event.
//!
//! They write exactly the bytes `serde_json` writes for [`ArenaMessage::Request`] and
//! [`ArenaMessage::Event`] (same keys, same order, same numbers), which the tests check over
//! thousands of random hands of every variant. They exist because serde's generic path cost
//! most of the arena's own time per decision: it escapes every key and writes each token
//! separately, ~7,000 instructions for a two-seat request against ~1,300 here (see
//! BENCHMARKS.md). Every string written is a fixed ASCII name or a card, so nothing needs
//! escaping. An event kind without a writer here (`revealed`, at most once a hand) falls back
//! to serde. The replay writer uses the event and action writers too.

use rules::{Action, Card, DecisionKind, EndReason, Event, LegalAction, PackReason, PlayerView};
use serde::Serialize;

use crate::message::{ArenaMessage, Request};

/// Appends `message` as one line of JSON (no newline): the request and event fast paths,
/// serde for the rest.
pub fn write_message(out: &mut Vec<u8>, message: &ArenaMessage) {
    match message {
        ArenaMessage::Request(request) => write_request(out, request),
        ArenaMessage::Event { hand, event } => write_event(out, *hand, event),
        other => serde_json::to_writer(out, other).expect("arena messages always serialize"),
    }
}

/// Appends `{"type":"request",...}` for `request` (no newline).
pub fn write_request(out: &mut Vec<u8>, r: &Request) {
    // Room for the whole line up front (a guess on the generous side), so the writes below
    // do not grow the buffer one by one.
    out.reserve(200 + 80 * r.players.len() + 70 * r.legal.len() + 30 * r.known.len());
    out.extend_from_slice(b"{\"type\":\"request\",\"id\":");
    write_u64(out, r.id);
    out.extend_from_slice(b",\"hand\":");
    write_u64(out, r.hand);
    out.extend_from_slice(b",\"kind\":\"");
    out.extend_from_slice(decision_kind(r.kind).as_bytes());
    out.extend_from_slice(b"\",\"legal\":[");
    for (i, legal) in r.legal.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_legal(out, legal);
    }
    out.extend_from_slice(b"],\"pot\":");
    write_u64(out, r.pot);
    out.extend_from_slice(b",\"stake\":");
    write_u64(out, r.stake);
    out.extend_from_slice(b",\"dealer\":");
    write_u64(out, r.dealer as u64);
    if let Some(from) = r.sideshow_from {
        out.extend_from_slice(b",\"sideshow_from\":");
        write_u64(out, from as u64);
    }
    if let Some(cards) = &r.cards {
        out.extend_from_slice(b",\"cards\":");
        write_cards(out, cards);
    }
    out.extend_from_slice(b",\"players\":[");
    for (i, player) in r.players.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_player(out, player);
    }
    out.push(b']');
    if !r.known.is_empty() {
        out.extend_from_slice(b",\"known\":{");
        for (i, (seat, cards)) in r.known.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'"');
            write_u64(out, *seat as u64);
            out.extend_from_slice(b"\":");
            write_cards(out, cards);
        }
        out.push(b'}');
    }
    out.extend_from_slice(b",\"time_ms\":");
    write_u64(out, r.time_ms);
    out.extend_from_slice(b",\"bank_ms\":");
    write_u64(out, r.bank_ms);
    out.push(b'}');
}

/// Appends `{"type":"event","hand":N,"event":...}` for `event` (no newline).
pub fn write_event(out: &mut Vec<u8>, hand: u64, event: &Event) {
    if let Event::Revealed { .. } = event {
        // Rare (at most once a hand) and holds hand descriptions: serde writes it.
        #[derive(Serialize)]
        struct EventLine<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            hand: u64,
            #[serde(flatten)]
            event: &'a Event,
        }
        let line = EventLine {
            kind: "event",
            hand,
            event,
        };
        serde_json::to_writer(out, &line).expect("events always serialize");
        return;
    }
    out.extend_from_slice(b"{\"type\":\"event\",\"hand\":");
    write_u64(out, hand);
    out.extend_from_slice(b",\"event\":\"");
    let mut fields = Fields { out };
    match event {
        Event::HandStarted {
            dealer,
            seats,
            boot,
            pot,
            stake,
        } => {
            fields.name("hand_started");
            fields.u64("dealer", *dealer as u64);
            fields.u64("seats", *seats as u64);
            fields.u64("boot", *boot);
            fields.u64("pot", *pot);
            fields.u64("stake", *stake);
        }
        Event::Dealt {
            seat,
            redeal,
            cards,
        } => {
            fields.name("dealt");
            fields.u64("seat", *seat as u64);
            fields.u64("redeal", u64::from(*redeal));
            if let Some(cards) = cards {
                fields.cards("cards", cards);
            }
        }
        Event::Dead { seats } => {
            fields.name("dead");
            fields.key("seats");
            fields.out.push(b'[');
            for (i, seat) in seats.iter().enumerate() {
                if i > 0 {
                    fields.out.push(b',');
                }
                write_u64(fields.out, *seat as u64);
            }
            fields.out.push(b']');
        }
        Event::Redeal { redeal, pot } => {
            fields.name("redeal");
            fields.u64("redeal", u64::from(*redeal));
            fields.u64("pot", *pot);
        }
        Event::Saw { seat, cards } => {
            fields.name("saw");
            fields.u64("seat", *seat as u64);
            if let Some(cards) = cards {
                fields.cards("cards", cards);
            }
        }
        Event::Swapped {
            seat,
            cost,
            discarded,
            drawn,
        } => {
            fields.name("swapped");
            fields.u64("seat", *seat as u64);
            fields.u64("cost", *cost);
            if let Some(card) = discarded {
                fields.card("discarded", *card);
            }
            if let Some(card) = drawn {
                fields.card("drawn", *card);
            }
        }
        Event::Kept { seat } => {
            fields.name("kept");
            fields.u64("seat", *seat as u64);
        }
        Event::Bet {
            seat,
            amount,
            blind,
            stake,
            pot,
        } => {
            fields.name("bet");
            fields.u64("seat", *seat as u64);
            fields.u64("amount", *amount);
            fields.key("blind");
            fields
                .out
                .extend_from_slice(if *blind { b"true" } else { b"false" });
            fields.u64("stake", *stake);
            fields.u64("pot", *pot);
        }
        Event::Packed { seat, reason } => {
            fields.name("packed");
            fields.u64("seat", *seat as u64);
            fields.str("reason", pack_reason(*reason));
        }
        Event::ShowAsked {
            seat,
            against,
            cost,
            pot,
        } => {
            fields.name("show_asked");
            fields.u64("seat", *seat as u64);
            fields.u64("against", *against as u64);
            fields.u64("cost", *cost);
            fields.u64("pot", *pot);
        }
        Event::SideshowAsked {
            seat,
            target,
            cost,
            pot,
        } => {
            fields.name("sideshow_asked");
            fields.u64("seat", *seat as u64);
            fields.u64("target", *target as u64);
            fields.u64("cost", *cost);
            fields.u64("pot", *pot);
        }
        Event::SideshowRefused { seat, target } => {
            fields.name("sideshow_refused");
            fields.u64("seat", *seat as u64);
            fields.u64("target", *target as u64);
        }
        Event::SideshowCompared {
            seat,
            target,
            loser,
            seat_cards,
            target_cards,
        } => {
            fields.name("sideshow_compared");
            fields.u64("seat", *seat as u64);
            fields.u64("target", *target as u64);
            fields.u64("loser", *loser as u64);
            if let Some(cards) = seat_cards {
                fields.cards("seat_cards", cards);
            }
            if let Some(cards) = target_cards {
                fields.cards("target_cards", cards);
            }
        }
        Event::HandEnded {
            reason,
            winners,
            pot,
            payoffs,
        } => {
            fields.name("hand_ended");
            fields.str("reason", end_reason(*reason));
            fields.key("winners");
            fields.out.push(b'[');
            for (i, seat) in winners.iter().enumerate() {
                if i > 0 {
                    fields.out.push(b',');
                }
                write_u64(fields.out, *seat as u64);
            }
            fields.out.push(b']');
            fields.u64("pot", *pot);
            fields.key("payoffs");
            fields.out.push(b'[');
            for (i, chips) in payoffs.iter().enumerate() {
                if i > 0 {
                    fields.out.push(b',');
                }
                write_i64(fields.out, *chips);
            }
            fields.out.push(b']');
        }
        Event::Revealed { .. } => unreachable!("written by serde above"),
    }
    out.push(b'}');
}

/// Writes the event's name (closing its string) and then `,"key":value` pairs.
struct Fields<'a> {
    out: &'a mut Vec<u8>,
}

impl Fields<'_> {
    #[inline]
    fn name(&mut self, name: &str) {
        self.out.extend_from_slice(name.as_bytes());
        self.out.push(b'"');
    }

    #[inline]
    fn key(&mut self, key: &str) {
        self.out.extend_from_slice(b",\"");
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    #[inline]
    fn u64(&mut self, key: &str, value: u64) {
        self.key(key);
        write_u64(self.out, value);
    }

    #[inline]
    fn str(&mut self, key: &str, value: &str) {
        self.key(key);
        self.out.push(b'"');
        self.out.extend_from_slice(value.as_bytes());
        self.out.push(b'"');
    }

    #[inline]
    fn card(&mut self, key: &str, card: Card) {
        self.key(key);
        write_card(self.out, card);
    }

    #[inline]
    fn cards(&mut self, key: &str, cards: &[Card; 3]) {
        self.key(key);
        write_cards(self.out, cards);
    }
}

/// Appends an action's fields as they appear inside an object, without braces:
/// `"action":"bet","amount":4` (the flattened `Action` of an answer or a replay record).
pub fn write_action_fields(out: &mut Vec<u8>, action: &Action) {
    out.extend_from_slice(b"\"action\":\"");
    match action {
        Action::Pack => out.extend_from_slice(b"pack\""),
        Action::See => out.extend_from_slice(b"see\""),
        Action::Show => out.extend_from_slice(b"show\""),
        Action::Sideshow => out.extend_from_slice(b"sideshow\""),
        Action::Keep => out.extend_from_slice(b"keep\""),
        Action::Accept => out.extend_from_slice(b"accept\""),
        Action::Refuse => out.extend_from_slice(b"refuse\""),
        Action::Bet { amount } => {
            out.extend_from_slice(b"bet\",\"amount\":");
            write_u64(out, *amount);
        }
        Action::Swap { card } => {
            out.extend_from_slice(b"swap\",\"card\":");
            write_card(out, *card);
        }
    }
}

/// Appends a decision kind's name in quotes.
pub fn write_decision_kind(out: &mut Vec<u8>, kind: DecisionKind) {
    out.push(b'"');
    out.extend_from_slice(decision_kind(kind).as_bytes());
    out.push(b'"');
}

/// Appends an unsigned integer as JSON writes it.
pub fn write_number(out: &mut Vec<u8>, value: u64) {
    write_u64(out, value);
}

fn write_legal(out: &mut Vec<u8>, legal: &LegalAction) {
    out.extend_from_slice(b"{\"action\":\"");
    match legal {
        LegalAction::Pack => out.extend_from_slice(b"pack\""),
        LegalAction::See => out.extend_from_slice(b"see\""),
        LegalAction::Keep => out.extend_from_slice(b"keep\""),
        LegalAction::Accept => out.extend_from_slice(b"accept\""),
        LegalAction::Refuse => out.extend_from_slice(b"refuse\""),
        LegalAction::Bet {
            min,
            max,
            multiple_of,
        } => {
            out.extend_from_slice(b"bet\",\"min\":");
            write_u64(out, *min);
            out.extend_from_slice(b",\"max\":");
            write_u64(out, *max);
            out.extend_from_slice(b",\"multiple_of\":");
            write_u64(out, *multiple_of);
        }
        LegalAction::Show { cost } => {
            out.extend_from_slice(b"show\",\"cost\":");
            write_u64(out, *cost);
        }
        LegalAction::Sideshow { cost, target } => {
            out.extend_from_slice(b"sideshow\",\"cost\":");
            write_u64(out, *cost);
            out.extend_from_slice(b",\"target\":");
            write_u64(out, *target as u64);
        }
        LegalAction::Swap { cards, cost } => {
            out.extend_from_slice(b"swap\",\"cards\":");
            write_cards(out, cards);
            out.extend_from_slice(b",\"cost\":");
            write_u64(out, *cost);
        }
    }
    out.push(b'}');
}

fn write_player(out: &mut Vec<u8>, p: &PlayerView) {
    out.extend_from_slice(b"{\"in_hand\":");
    write_bool(out, p.in_hand);
    out.extend_from_slice(b",\"seen\":");
    write_bool(out, p.seen);
    out.extend_from_slice(b",\"dead\":");
    write_bool(out, p.dead);
    out.extend_from_slice(b",\"put_in\":");
    write_u64(out, p.put_in);
    out.extend_from_slice(b",\"turns\":");
    write_u64(out, u64::from(p.turns));
    out.extend_from_slice(b",\"swaps\":");
    write_u64(out, u64::from(p.swaps));
    out.push(b'}');
}

fn write_cards(out: &mut Vec<u8>, cards: &[Card; 3]) {
    out.push(b'[');
    write_card(out, cards[0]);
    out.push(b',');
    write_card(out, cards[1]);
    out.push(b',');
    write_card(out, cards[2]);
    out.push(b']');
}

#[inline]
fn write_card(out: &mut Vec<u8>, card: Card) {
    // Rank and suit symbols are ASCII ("T" for ten), as `Card`'s Serialize writes them.
    out.extend_from_slice(&[
        b'"',
        card.rank().symbol() as u8,
        card.suit().symbol() as u8,
        b'"',
    ]);
}

fn write_bool(out: &mut Vec<u8>, value: bool) {
    out.extend_from_slice(if value { b"true" } else { b"false" });
}

#[inline]
fn write_u64(out: &mut Vec<u8>, value: u64) {
    // Most numbers in a request are seats, turns and small chip counts: no itoa call for them.
    if value < 10 {
        out.push(b'0' + value as u8);
    } else if value < 100 {
        out.extend_from_slice(&[b'0' + (value / 10) as u8, b'0' + (value % 10) as u8]);
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }
}

fn write_i64(out: &mut Vec<u8>, value: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

fn decision_kind(kind: DecisionKind) -> &'static str {
    match kind {
        DecisionKind::Swap => "swap",
        DecisionKind::Bet => "bet",
        DecisionKind::SideshowReply => "sideshow_reply",
    }
}

fn pack_reason(reason: PackReason) -> &'static str {
    match reason {
        PackReason::Chose => "chose",
        PackReason::LostSideshow => "lost_sideshow",
    }
}

fn end_reason(reason: EndReason) -> &'static str {
    match reason {
        EndReason::LastStanding => "last_standing",
        EndReason::LoneSurvivor => "lone_survivor",
        EndReason::Show => "show",
        EndReason::PotLimit => "pot_limit",
        EndReason::TurnCap => "turn_cap",
        EndReason::RedealCap => "redeal_cap",
    }
}
