//! The state machine of one hand, shaped like OpenSpiel's game API:
//! [`Hand::to_act`], [`Hand::legal`], [`Hand::apply`], [`Hand::is_over`], [`Hand::payoffs`],
//! [`Hand::view`].
//!
//! The three variants share this one betting loop; they differ only in hooks:
//! blind play (classic), swaps at the start of a seat's first two turns (Closest to 555), and
//! inspection with dead hands and redeals (Lallan Kallan). Hand values come from [`crate::eval`].

use std::collections::BTreeMap;

use crate::action::{Action, Decision, DecisionKind, Illegal, LegalAction};
use crate::card::Card;
use crate::deck::Deck;
use crate::eval::{self, HandValue};
use crate::event::{EndReason, Event, PackReason, RevealReason, RevealedHand};
use crate::settings::{Settings, SettingsError, Variant};
use crate::view::{PlayerView, SeatView};

/// Lallan Kallan: after this many all-dead redeals in one hand the pot is shared back.
/// (Each redeal is all-dead with probability at most 0.056, so this never happens in play;
/// it only makes termination certain.)
pub const MAX_REDEALS: u32 = 100;

/// Where the cards of each deal come from.
#[derive(Clone, Debug)]
pub enum DealSource {
    /// The version-stable shuffle of [`Deck::shuffled`] for this match seed and hand index.
    Seeded { seed: u64, hand: u64 },
    /// Fixed decks (tests, tools): deal `k` uses `decks[k]`, the last one repeating.
    Stacked(Vec<Deck>),
}

impl DealSource {
    fn deck(&self, redeal: u32) -> Deck {
        match self {
            DealSource::Seeded { seed, hand } => Deck::shuffled(*seed, *hand, u64::from(redeal)),
            DealSource::Stacked(decks) => {
                decks[(redeal as usize).min(decks.len().saturating_sub(1))].clone()
            }
        }
    }
}

#[derive(Clone, Debug, Default)]
struct SeatState {
    in_hand: bool,
    seen: bool,
    dead: bool,
    put_in: u64,
    won: u64,
    turns: u32,
    blind_bets: u32,
    swaps: u32,
    /// Bit j set: this seat knows seat j's current cards.
    knows: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Swap(usize),
    Bet(usize),
    SideshowReply { seat: usize, target: usize },
    Over,
}

/// The legal actions of a decision, without a heap allocation (never more than five).
#[derive(Clone, Debug, Default)]
pub struct LegalSet {
    items: [Option<LegalAction>; 5],
    len: usize,
}

impl LegalSet {
    fn push(&mut self, action: LegalAction) {
        self.items[self.len] = Some(action);
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, index: usize) -> Option<&LegalAction> {
        self.items[..self.len].get(index).and_then(Option::as_ref)
    }

    pub fn iter(&self) -> impl Iterator<Item = &LegalAction> {
        self.items[..self.len].iter().flatten()
    }

    pub fn to_vec(&self) -> Vec<LegalAction> {
        self.iter().cloned().collect()
    }
}

/// One hand at a table of N seats.
#[derive(Clone, Debug)]
pub struct Hand {
    settings: Settings,
    source: DealSource,
    dealer: usize,
    deck: Deck,
    redeal: u32,
    cards: Vec<[Card; 3]>,
    seats: Vec<SeatState>,
    pot: u64,
    stake: u64,
    phase: Phase,
    turns: u32,
    payoffs: Option<Vec<i64>>,
}

impl Hand {
    /// Starts a hand: boots, the deal, and (Lallan Kallan) inspection. Returns the events so far.
    pub fn new(
        settings: Settings,
        seats: usize,
        dealer: usize,
        source: DealSource,
    ) -> Result<(Hand, Vec<Event>), SettingsError> {
        settings.validate(seats)?;
        if dealer >= seats {
            return Err(SettingsError::Field(
                "dealer",
                format!("seat {dealer} does not exist at a table of {seats}"),
            ));
        }
        if let DealSource::Stacked(decks) = &source
            && decks.is_empty()
        {
            return Err(SettingsError::Field("deck", "no deck given".into()));
        }
        let deck = source.deck(0);
        let mut hand = Hand {
            settings,
            source,
            dealer,
            deck,
            redeal: 0,
            cards: Vec::new(),
            seats: vec![SeatState::default(); seats],
            pot: 0,
            stake: settings.boot,
            phase: Phase::Over,
            turns: 0,
            payoffs: None,
        };
        for seat in &mut hand.seats {
            seat.put_in = settings.boot;
            seat.in_hand = true;
        }
        hand.pot = settings.boot * seats as u64;
        let mut events = vec![Event::HandStarted {
            dealer,
            seats,
            boot: settings.boot,
            pot: hand.pot,
            stake: hand.stake,
        }];
        hand.deal(&mut events);
        Ok((hand, events))
    }

    /// A hand with the seeded deal for `hand_index` of a match with `seed`.
    pub fn seeded(
        settings: Settings,
        seats: usize,
        dealer: usize,
        seed: u64,
        hand_index: u64,
    ) -> Result<(Hand, Vec<Event>), SettingsError> {
        Hand::new(
            settings,
            seats,
            dealer,
            DealSource::Seeded {
                seed,
                hand: hand_index,
            },
        )
    }

    // ----- queries -------------------------------------------------------------------------

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }

    pub fn dealer(&self) -> usize {
        self.dealer
    }

    pub fn pot(&self) -> u64 {
        self.pot
    }

    pub fn stake(&self) -> u64 {
        self.stake
    }

    /// All-knowing: a seat's current cards (for the referee and replays, never for bots).
    pub fn cards(&self, seat: usize) -> [Card; 3] {
        self.cards[seat]
    }

    /// Betting turns taken in this hand so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Net chips per seat once the hand is over (they sum to zero).
    pub fn payoffs(&self) -> Option<&[i64]> {
        self.payoffs.as_deref()
    }

    /// Who must decide now, and what kind of decision. `None` once the hand is over.
    pub fn to_act(&self) -> Option<Decision> {
        let (seat, kind) = match self.phase {
            Phase::Swap(seat) => (seat, DecisionKind::Swap),
            Phase::Bet(seat) => (seat, DecisionKind::Bet),
            Phase::SideshowReply { target, .. } => (target, DecisionKind::SideshowReply),
            Phase::Over => return None,
        };
        Some(Decision { seat, kind })
    }

    /// The seat that asked for the sideshow now waiting for a reply, if any.
    pub fn sideshow_asker(&self) -> Option<usize> {
        match self.phase {
            Phase::SideshowReply { seat, .. } => Some(seat),
            _ => None,
        }
    }

    /// The legal actions of the seat that must decide (empty once the hand is over).
    pub fn legal(&self) -> Vec<LegalAction> {
        self.legal_set().to_vec()
    }

    /// The legal actions without allocating (at most five entries).
    pub fn legal_set(&self) -> LegalSet {
        let mut legal = LegalSet::default();
        match self.phase {
            Phase::Over => {}
            Phase::SideshowReply { .. } => {
                legal.push(LegalAction::Accept);
                legal.push(LegalAction::Refuse);
            }
            Phase::Swap(seat) => {
                legal.push(LegalAction::Swap {
                    cards: self.cards[seat],
                    cost: self.settings.swap_cost,
                });
                legal.push(LegalAction::Keep);
            }
            Phase::Bet(seat) => self.legal_bets(seat, &mut legal),
        }
        legal
    }

    fn legal_bets(&self, seat: usize, legal: &mut LegalSet) {
        let s = self.stake;
        let max_stake = self.settings.max_stake;
        legal.push(LegalAction::Pack);
        let two_left = self.in_hand_count() == 2;
        if !self.seats[seat].seen {
            legal.push(LegalAction::See);
            if self.seats[seat].blind_bets < self.settings.blind_limit {
                legal.push(LegalAction::Bet {
                    min: s,
                    max: (2 * s).min(max_stake),
                    multiple_of: 1,
                });
                if two_left {
                    legal.push(LegalAction::Show { cost: s });
                }
            }
            return;
        }
        legal.push(LegalAction::Bet {
            min: 2 * s,
            max: (4 * s).min(2 * max_stake),
            multiple_of: 2,
        });
        if two_left {
            let other = self.next_in_hand(seat);
            if self.seats[other].seen {
                legal.push(LegalAction::Show { cost: 2 * s });
            }
        } else if self.settings.sideshow
            && let Some(target) = self.sideshow_target(seat)
        {
            legal.push(LegalAction::Sideshow {
                cost: 2 * s,
                target,
            });
        }
    }

    /// The seat a sideshow would ask: the previous seat still in the hand (counter-clockwise),
    /// if it is seen and has already acted this hand, with at least three seats in.
    fn sideshow_target(&self, seat: usize) -> Option<usize> {
        if self.in_hand_count() < 3 {
            return None;
        }
        let target = self.prev_in_hand(seat);
        let t = &self.seats[target];
        (t.seen && t.turns > 0).then_some(target)
    }

    /// What `seat` may know, and nothing more.
    pub fn view(&self, seat: usize) -> SeatView {
        let me = &self.seats[seat];
        let known: BTreeMap<usize, [Card; 3]> = (0..self.seats.len())
            .filter(|&other| other != seat && me.knows & (1 << other) != 0)
            .map(|other| (other, self.cards[other]))
            .collect();
        let to_act = self.to_act();
        SeatView {
            seat,
            dealer: self.dealer,
            pot: self.pot,
            stake: self.stake,
            cards: (me.knows & (1 << seat) != 0).then_some(self.cards[seat]),
            players: self
                .seats
                .iter()
                .map(|s| PlayerView {
                    in_hand: s.in_hand,
                    seen: s.seen,
                    dead: s.dead,
                    put_in: s.put_in,
                    turns: s.turns,
                    swaps: s.swaps,
                })
                .collect(),
            known,
            to_act,
            legal: match to_act {
                Some(d) if d.seat == seat => self.legal(),
                _ => Vec::new(),
            },
        }
    }

    // ----- applying actions ----------------------------------------------------------------

    /// Applies `seat`'s action. An illegal action is an error and changes nothing.
    pub fn apply(&mut self, seat: usize, action: Action) -> Result<Vec<Event>, Illegal> {
        let mut events = Vec::new();
        self.apply_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// As [`Hand::apply`], appending the events to `events` (a buffer reused across calls
    /// saves an allocation per decision on hot paths).
    pub fn apply_into(
        &mut self,
        seat: usize,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        let Some(decision) = self.to_act() else {
            return Err(Illegal::HandOver);
        };
        if decision.seat != seat {
            return Err(Illegal::NotYourTurn {
                seat,
                expected: decision.seat,
            });
        }
        let legal = self.legal_set();
        if !legal.iter().any(|l| l.allows(&action)) {
            let offered = legal.iter().find(|l| l.name() == action.name());
            let reason = match offered {
                Some(l) => format!("outside the bounds offered: {l:?}"),
                None => format!(
                    "offered: {}",
                    legal
                        .iter()
                        .map(|l| l.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            return Err(Illegal::NotLegal {
                action: action.name(),
                kind: decision.kind,
                reason,
            });
        }
        match (self.phase, action) {
            (Phase::Swap(_), Action::Swap { card }) => self.swap(seat, card, events),
            (Phase::Swap(_), Action::Keep) => {
                events.push(Event::Kept { seat });
                self.phase = Phase::Bet(seat);
            }
            (Phase::Bet(_), Action::Pack) => {
                self.pack(seat, PackReason::Chose, events);
                self.end_turn(seat, events);
            }
            (Phase::Bet(_), Action::See) => {
                self.seats[seat].seen = true;
                self.seats[seat].knows |= 1 << seat;
                events.push(Event::Saw {
                    seat,
                    cards: Some(self.cards[seat]),
                });
            }
            (Phase::Bet(_), Action::Bet { amount }) => {
                let blind = !self.seats[seat].seen;
                self.pay(seat, amount);
                if blind {
                    self.stake = amount;
                    self.seats[seat].blind_bets += 1;
                } else {
                    self.stake = amount / 2;
                }
                events.push(Event::Bet {
                    seat,
                    amount,
                    blind,
                    stake: self.stake,
                    pot: self.pot,
                });
                self.end_turn(seat, events);
            }
            (Phase::Bet(_), Action::Show) => self.show(seat, events),
            (Phase::Bet(_), Action::Sideshow) => self.ask_sideshow(seat, events),
            (
                Phase::SideshowReply {
                    seat: asker,
                    target,
                },
                Action::Accept,
            ) => self.sideshow(asker, target, events),
            (
                Phase::SideshowReply {
                    seat: asker,
                    target,
                },
                Action::Refuse,
            ) => {
                events.push(Event::SideshowRefused {
                    seat: asker,
                    target,
                });
                self.end_turn(asker, events);
            }
            (phase, action) => unreachable!("legal() offered {action:?} in {phase:?}"),
        }
        Ok(())
    }

    fn swap(&mut self, seat: usize, card: Card, events: &mut Vec<Event>) {
        let cost = self.settings.swap_cost;
        self.pay(seat, cost);
        let drawn = self.deck.draw();
        let slot = self.cards[seat]
            .iter()
            .position(|&c| c == card)
            .expect("legal() checked the card is held");
        self.cards[seat][slot] = drawn;
        self.seats[seat].swaps += 1;
        // Whoever knew this seat's old cards (a sideshow) does not know the new ones.
        for (other, state) in self.seats.iter_mut().enumerate() {
            if other != seat {
                state.knows &= !(1 << seat);
            }
        }
        events.push(Event::Swapped {
            seat,
            cost,
            discarded: Some(card),
            drawn: Some(drawn),
        });
        self.phase = Phase::Bet(seat);
    }

    fn show(&mut self, seat: usize, events: &mut Vec<Event>) {
        let against = self.next_in_hand(seat);
        let cost = if self.seats[seat].seen {
            2 * self.stake
        } else {
            self.stake
        };
        self.pay(seat, cost);
        self.seats[seat].turns += 1;
        self.turns += 1;
        events.push(Event::ShowAsked {
            seat,
            against,
            cost,
            pot: self.pot,
        });
        self.reveal(&[seat, against], RevealReason::Show, events);
        // The requester wins only with a strictly better hand: an exact tie loses for them.
        let winner = if self.value(seat) > self.value(against) {
            seat
        } else {
            against
        };
        self.finish(EndReason::Show, &[winner], events);
    }

    fn ask_sideshow(&mut self, seat: usize, events: &mut Vec<Event>) {
        let target = self
            .sideshow_target(seat)
            .expect("legal() offered a sideshow");
        let cost = 2 * self.stake;
        self.pay(seat, cost);
        events.push(Event::SideshowAsked {
            seat,
            target,
            cost,
            pot: self.pot,
        });
        if self.pot >= self.settings.pot_limit {
            self.seats[seat].turns += 1;
            self.turns += 1;
            self.group_reveal(RevealReason::PotLimit, events);
        } else {
            self.phase = Phase::SideshowReply { seat, target };
        }
    }

    fn sideshow(&mut self, seat: usize, target: usize, events: &mut Vec<Event>) {
        self.seats[seat].knows |= 1 << target;
        self.seats[target].knows |= 1 << seat;
        // An exact tie packs the requester.
        let loser = if self.value(seat) > self.value(target) {
            target
        } else {
            seat
        };
        events.push(Event::SideshowCompared {
            seat,
            target,
            loser,
            seat_cards: Some(self.cards[seat]),
            target_cards: Some(self.cards[target]),
        });
        self.pack(loser, PackReason::LostSideshow, events);
        self.end_turn(seat, events);
    }

    fn pay(&mut self, seat: usize, amount: u64) {
        self.seats[seat].put_in += amount;
        self.pot += amount;
    }

    fn pack(&mut self, seat: usize, reason: PackReason, events: &mut Vec<Event>) {
        self.seats[seat].in_hand = false;
        events.push(Event::Packed { seat, reason });
    }

    /// Closes `seat`'s betting turn and moves play on (or ends the hand).
    fn end_turn(&mut self, seat: usize, events: &mut Vec<Event>) {
        self.seats[seat].turns += 1;
        self.turns += 1;
        if self.in_hand_count() == 1 {
            let last = self.next_in_hand(seat);
            self.finish(EndReason::LastStanding, &[last], events);
        } else if self.pot >= self.settings.pot_limit {
            self.group_reveal(RevealReason::PotLimit, events);
        } else if self.turns >= self.settings.max_turns {
            self.group_reveal(RevealReason::TurnCap, events);
        } else {
            self.start_turn(self.next_in_hand(seat));
        }
    }

    fn start_turn(&mut self, seat: usize) {
        let swaps_left = self.settings.variant == Variant::Closest555 && self.seats[seat].turns < 2;
        self.phase = if swaps_left {
            Phase::Swap(seat)
        } else {
            Phase::Bet(seat)
        };
    }

    // ----- dealing -------------------------------------------------------------------------

    fn deal(&mut self, events: &mut Vec<Event>) {
        let n = self.seats.len();
        let variant = self.settings.variant;
        loop {
            // One card at a time, clockwise from the dealer's left: the k-th seat in that
            // order gets the k-th, (n+k)-th and (2n+k)-th cards.
            let drawn: Vec<Card> = (0..3 * n).map(|_| self.deck.draw()).collect();
            self.cards = vec![[drawn[0]; 3]; n];
            for k in 0..n {
                let seat = (self.dealer + 1 + k) % n;
                self.cards[seat] = [drawn[k], drawn[n + k], drawn[2 * n + k]];
            }
            for k in 1..=n {
                let seat = (self.dealer + k) % n;
                events.push(Event::Dealt {
                    seat,
                    redeal: self.redeal,
                    cards: Some(self.cards[seat]),
                });
            }
            let blind_start = variant.has_blind_play();
            for (i, state) in self.seats.iter_mut().enumerate() {
                state.seen = !blind_start;
                state.knows = if blind_start { 0 } else { 1 << i };
                state.in_hand = true;
                state.dead = false;
            }
            if variant != Variant::LallanKallan {
                break;
            }
            let dead: Vec<usize> = (0..n).filter(|&i| eval::is_dead(&self.cards[i])).collect();
            if !dead.is_empty() {
                for &i in &dead {
                    self.seats[i].dead = true;
                    self.seats[i].in_hand = false;
                }
                events.push(Event::Dead {
                    seats: dead.clone(),
                });
            }
            if dead.len() < n {
                break;
            }
            if self.redeal >= MAX_REDEALS {
                let everyone: Vec<usize> = (0..n).collect();
                self.finish(EndReason::RedealCap, &everyone, events);
                return;
            }
            self.redeal += 1;
            self.deck = self.source.deck(self.redeal);
            events.push(Event::Redeal {
                redeal: self.redeal,
                pot: self.pot,
            });
        }
        if self.in_hand_count() == 1 {
            let survivor = self.next_in_hand(self.dealer);
            self.finish(EndReason::LoneSurvivor, &[survivor], events);
        } else {
            self.start_turn(self.next_in_hand(self.dealer));
        }
    }

    // ----- endings ---------------------------------------------------------------------------

    fn group_reveal(&mut self, reason: RevealReason, events: &mut Vec<Event>) {
        let live: Vec<usize> = self.in_hand_seats().collect();
        self.reveal(&live, reason, events);
        let values: Vec<HandValue> = live.iter().map(|&s| self.value(s)).collect();
        let winners: Vec<usize> = eval::best(&values).into_iter().map(|i| live[i]).collect();
        let end = match reason {
            RevealReason::TurnCap => EndReason::TurnCap,
            _ => EndReason::PotLimit,
        };
        self.finish(end, &winners, events);
    }

    fn reveal(&mut self, seats: &[usize], reason: RevealReason, events: &mut Vec<Event>) {
        let mask: u32 = seats.iter().fold(0, |m, &s| m | 1 << s);
        for state in &mut self.seats {
            state.knows |= mask;
        }
        let s = &self.settings;
        events.push(Event::Revealed {
            reason,
            hands: seats
                .iter()
                .map(|&seat| RevealedHand {
                    seat,
                    cards: self.cards[seat],
                    value: eval::describe(s.variant, s.sequence_order, &self.cards[seat]),
                })
                .collect(),
        });
    }

    /// Awards the pot: split evenly among `winners`, odd chips to the winner nearest the
    /// dealer's left.
    fn finish(&mut self, reason: EndReason, winners: &[usize], events: &mut Vec<Event>) {
        let n = self.seats.len();
        let mut ordered: Vec<usize> = winners.to_vec();
        ordered.sort_by_key(|&w| (w + n - self.dealer - 1) % n);
        let share = self.pot / ordered.len() as u64;
        let odd = self.pot % ordered.len() as u64;
        for (k, &w) in ordered.iter().enumerate() {
            self.seats[w].won += share + if k == 0 { odd } else { 0 };
        }
        let payoffs: Vec<i64> = self
            .seats
            .iter()
            .map(|s| s.won as i64 - s.put_in as i64)
            .collect();
        let mut winners = winners.to_vec();
        winners.sort_unstable();
        events.push(Event::HandEnded {
            reason,
            winners,
            pot: self.pot,
            payoffs: payoffs.clone(),
        });
        self.payoffs = Some(payoffs);
        self.phase = Phase::Over;
    }

    // ----- helpers ---------------------------------------------------------------------------

    fn value(&self, seat: usize) -> HandValue {
        eval::hand_value(
            self.settings.variant,
            self.settings.sequence_order,
            &self.cards[seat],
        )
    }

    fn in_hand_count(&self) -> usize {
        self.seats.iter().filter(|s| s.in_hand).count()
    }

    fn in_hand_seats(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seats.len()).filter(|&i| self.seats[i].in_hand)
    }

    /// The next seat still in the hand, clockwise after `seat` (`seat` itself if it is alone).
    fn next_in_hand(&self, seat: usize) -> usize {
        let n = self.seats.len();
        (1..=n)
            .map(|k| (seat + k) % n)
            .find(|&i| self.seats[i].in_hand)
            .unwrap_or(seat)
    }

    /// The previous seat still in the hand, counter-clockwise before `seat`.
    fn prev_in_hand(&self, seat: usize) -> usize {
        let n = self.seats.len();
        (1..=n)
            .map(|k| (seat + n - k) % n)
            .find(|&i| self.seats[i].in_hand)
            .unwrap_or(seat)
    }
}
