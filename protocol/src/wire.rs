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
    let mut o = Members::start(out, b"{\"type\":\"request\"");
    o.u64(key!("id"), r.id);
    o.u64(key!("hand"), r.hand);
    o.str(key!("kind"), decision_kind(r.kind));
    o.key(key!("legal"));
    write_list(o.out, &r.legal, write_legal);
    o.u64(key!("pot"), r.pot);
    o.u64(key!("stake"), r.stake);
    o.u64(key!("dealer"), r.dealer as u64);
    if let Some(from) = r.sideshow_from {
        o.u64(key!("sideshow_from"), from as u64);
    }
    if let Some(cards) = &r.cards {
        o.cards(key!("cards"), cards);
    }
    o.key(key!("players"));
    write_list(o.out, &r.players, write_player);
    if !r.known.is_empty() {
        o.key(key!("known"));
        // Seat numbers are the keys: JSON object keys are strings.
        let out = &mut *o.out;
        out.push(b'{');
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
    o.u64(key!("time_ms"), r.time_ms);
    o.u64(key!("bank_ms"), r.bank_ms);
    o.close();
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
    let mut o = Members::start(out, b"{\"type\":\"event\"");
    o.u64(key!("hand"), hand);
    match event {
        Event::HandStarted {
            dealer,
            seats,
            boot,
            pot,
            stake,
        } => {
            o.str(key!("event"), "hand_started");
            o.u64(key!("dealer"), *dealer as u64);
            o.u64(key!("seats"), *seats as u64);
            o.u64(key!("boot"), *boot);
            o.u64(key!("pot"), *pot);
            o.u64(key!("stake"), *stake);
        }
        Event::Dealt {
            seat,
            redeal,
            cards,
        } => {
            o.str(key!("event"), "dealt");
            o.u64(key!("seat"), *seat as u64);
            o.u64(key!("redeal"), u64::from(*redeal));
            if let Some(cards) = cards {
                o.cards(key!("cards"), cards);
            }
        }
        Event::Dead { seats } => {
            o.str(key!("event"), "dead");
            o.key(key!("seats"));
            write_list(o.out, seats, |out, seat| write_u64(out, *seat as u64));
        }
        Event::Redeal { redeal, pot } => {
            o.str(key!("event"), "redeal");
            o.u64(key!("redeal"), u64::from(*redeal));
            o.u64(key!("pot"), *pot);
        }
        Event::Saw { seat, cards } => {
            o.str(key!("event"), "saw");
            o.u64(key!("seat"), *seat as u64);
            if let Some(cards) = cards {
                o.cards(key!("cards"), cards);
            }
        }
        Event::Swapped {
            seat,
            cost,
            discarded,
            drawn,
        } => {
            o.str(key!("event"), "swapped");
            o.u64(key!("seat"), *seat as u64);
            o.u64(key!("cost"), *cost);
            if let Some(card) = discarded {
                o.card(key!("discarded"), *card);
            }
            if let Some(card) = drawn {
                o.card(key!("drawn"), *card);
            }
        }
        Event::Kept { seat } => {
            o.str(key!("event"), "kept");
            o.u64(key!("seat"), *seat as u64);
        }
        Event::Bet {
            seat,
            amount,
            blind,
            stake,
            pot,
        } => {
            o.str(key!("event"), "bet");
            o.u64(key!("seat"), *seat as u64);
            o.u64(key!("amount"), *amount);
            o.bool(key!("blind"), *blind);
            o.u64(key!("stake"), *stake);
            o.u64(key!("pot"), *pot);
        }
        Event::Packed { seat, reason } => {
            o.str(key!("event"), "packed");
            o.u64(key!("seat"), *seat as u64);
            o.str(key!("reason"), pack_reason(*reason));
        }
        Event::ShowAsked {
            seat,
            against,
            cost,
            pot,
        } => {
            o.str(key!("event"), "show_asked");
            o.u64(key!("seat"), *seat as u64);
            o.u64(key!("against"), *against as u64);
            o.u64(key!("cost"), *cost);
            o.u64(key!("pot"), *pot);
        }
        Event::SideshowAsked {
            seat,
            target,
            cost,
            pot,
        } => {
            o.str(key!("event"), "sideshow_asked");
            o.u64(key!("seat"), *seat as u64);
            o.u64(key!("target"), *target as u64);
            o.u64(key!("cost"), *cost);
            o.u64(key!("pot"), *pot);
        }
        Event::SideshowRefused { seat, target } => {
            o.str(key!("event"), "sideshow_refused");
            o.u64(key!("seat"), *seat as u64);
            o.u64(key!("target"), *target as u64);
        }
        Event::SideshowCompared {
            seat,
            target,
            loser,
            seat_cards,
            target_cards,
        } => {
            o.str(key!("event"), "sideshow_compared");
            o.u64(key!("seat"), *seat as u64);
            o.u64(key!("target"), *target as u64);
            o.u64(key!("loser"), *loser as u64);
            if let Some(cards) = seat_cards {
                o.cards(key!("seat_cards"), cards);
            }
            if let Some(cards) = target_cards {
                o.cards(key!("target_cards"), cards);
            }
        }
        Event::HandEnded {
            reason,
            winners,
            pot,
            payoffs,
        } => {
            o.str(key!("event"), "hand_ended");
            o.str(key!("reason"), end_reason(*reason));
            o.key(key!("winners"));
            write_list(o.out, winners, |out, seat| write_u64(out, *seat as u64));
            o.u64(key!("pot"), *pot);
            o.key(key!("payoffs"));
            write_list(o.out, payoffs, |out, chips| write_i64(out, *chips));
        }
        Event::Revealed { .. } => unreachable!("written by serde above"),
    }
    o.close();
}

/// Appends an action's fields as they appear inside an object, without braces:
/// `"action":"bet","amount":4` (the flattened `Action` of an answer or a replay record).
pub fn write_action_fields(out: &mut Vec<u8>, action: &Action) {
    let o = &mut Members::start(out, b"\"action\":");
    write_str(o.out, action.name());
    match action {
        Action::Bet { amount } => o.u64(key!("amount"), *amount),
        Action::Swap { card } => o.card(key!("card"), *card),
        _ => {}
    }
}

/// Appends a decision kind's name in quotes.
pub fn write_decision_kind(out: &mut Vec<u8>, kind: DecisionKind) {
    write_str(out, decision_kind(kind));
}

/// Appends an unsigned integer as JSON writes it.
pub fn write_number(out: &mut Vec<u8>, value: u64) {
    write_u64(out, value);
}

/// `,"name":`: the separator and key of an object member after the first, as one literal
/// (one copy instead of four small writes: this is most of what a request costs).
macro_rules! key {
    ($name:literal) => {
        concat!(",\"", $name, "\":").as_bytes()
    };
}
use key;

/// Writes a JSON object's members after the first: each a `key!` literal and a value. Keys and
/// string values are fixed ASCII names here, so nothing is escaped.
struct Members<'a> {
    out: &'a mut Vec<u8>,
}

impl<'a> Members<'a> {
    /// Writes `start` (the object's `{` and its first member, or part of it) and goes on
    /// after it.
    #[inline(always)]
    fn start(out: &'a mut Vec<u8>, start: &[u8]) -> Members<'a> {
        out.extend_from_slice(start);
        Members { out }
    }

    /// The key; the caller writes the value.
    #[inline(always)]
    fn key(&mut self, key: &[u8]) {
        self.out.extend_from_slice(key);
    }

    #[inline(always)]
    fn u64(&mut self, key: &[u8], value: u64) {
        self.key(key);
        write_u64(self.out, value);
    }

    #[inline(always)]
    fn bool(&mut self, key: &[u8], value: bool) {
        self.key(key);
        write_bool(self.out, value);
    }

    #[inline(always)]
    fn str(&mut self, key: &[u8], value: &str) {
        self.key(key);
        write_str(self.out, value);
    }

    #[inline(always)]
    fn card(&mut self, key: &[u8], card: Card) {
        self.key(key);
        write_card(self.out, card);
    }

    #[inline(always)]
    fn cards(&mut self, key: &[u8], cards: &[Card; 3]) {
        self.key(key);
        write_cards(self.out, cards);
    }

    #[inline(always)]
    fn close(self) {
        self.out.push(b'}');
    }
}

/// `[a,b,...]`, each item written by `write`.
#[inline]
fn write_list<'i, T: 'i>(
    out: &mut Vec<u8>,
    items: impl IntoIterator<Item = &'i T>,
    mut write: impl FnMut(&mut Vec<u8>, &'i T),
) {
    out.push(b'[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write(out, item);
    }
    out.push(b']');
}

fn write_legal(out: &mut Vec<u8>, legal: &LegalAction) {
    let mut o = Members::start(out, b"{\"action\":");
    write_str(o.out, legal.name());
    match legal {
        LegalAction::Bet {
            min,
            max,
            multiple_of,
        } => {
            o.u64(key!("min"), *min);
            o.u64(key!("max"), *max);
            o.u64(key!("multiple_of"), *multiple_of);
        }
        LegalAction::Show { cost } => o.u64(key!("cost"), *cost),
        LegalAction::Sideshow { cost, target } => {
            o.u64(key!("cost"), *cost);
            o.u64(key!("target"), *target as u64);
        }
        LegalAction::Swap { cards, cost } => {
            o.cards(key!("cards"), cards);
            o.u64(key!("cost"), *cost);
        }
        LegalAction::Pack
        | LegalAction::See
        | LegalAction::Keep
        | LegalAction::Accept
        | LegalAction::Refuse => {}
    }
    o.close();
}

fn write_player(out: &mut Vec<u8>, p: &PlayerView) {
    let mut o = Members::start(out, b"{\"in_hand\":");
    write_bool(o.out, p.in_hand);
    o.bool(key!("seen"), p.seen);
    o.bool(key!("dead"), p.dead);
    o.u64(key!("put_in"), p.put_in);
    o.u64(key!("turns"), u64::from(p.turns));
    o.u64(key!("swaps"), u64::from(p.swaps));
    o.close();
}

#[inline(always)]
fn write_bool(out: &mut Vec<u8>, value: bool) {
    out.extend_from_slice(if value { b"true" } else { b"false" });
}

#[inline(always)]
fn write_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    out.extend_from_slice(text.as_bytes());
    out.push(b'"');
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

#[inline(always)]
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
