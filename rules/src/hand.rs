//! The state machine of one hand, shaped like OpenSpiel's game API:
//! [`Hand::to_act`], [`Hand::legal`], [`Hand::apply`], [`Hand::is_over`], [`Hand::payoffs`],
//! [`Hand::view`].
//!
//! The three variants share this one betting loop; they differ only in hooks:
//! blind play (classic), swaps at the start of a seat's first two turns (Closest to 555), and
//! inspection with dead hands and redeals (Lallan Kallan). Hand values come from [`crate::eval`].

use std::collections::BTreeMap;

use crate::action::{Action, Decision, DecisionKind, Illegal, LegalAction};
use crate::card::{Card, Rank, Suit};
use crate::deck::Deck;
use crate::eval::{self, HandValue};
use crate::event::{EndReason, Event, PackReason, RevealReason, RevealedHand};
use crate::settings::{Settings, SettingsError, Variant};
use crate::view::{PlayerView, SeatView};

mod why_not;
pub use why_not::WhyNot;

/// Lallan Kallan: after this many all-dead redeals in one hand the pot is shared back.
/// (Each redeal is all-dead with probability at most 0.056, so this never happens in play;
/// it only makes termination certain.)
pub const MAX_REDEALS: u32 = 100;

/// The most seats any variant allows (the classic game's 17). Per-seat state lives in arrays
/// of this size, so a hand allocates nothing for itself (only the events it returns do).
pub const MAX_SEATS: usize = 17;

// `knows` is a u32 bit set of seats.
const _: () = assert!(MAX_SEATS <= 32);

/// Filler for the card slots of seats beyond the table (never read).
const NO_CARDS: [Card; 3] = [Card::new(Rank::TWO, Suit::Clubs); 3];

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

#[derive(Clone, Copy, Debug, Default)]
struct SeatState {
    in_hand: bool,
    seen: bool,
    dead: bool,
    put_in: u64,
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
    #[inline]
    fn push(&mut self, action: LegalAction) {
        self.items[self.len] = Some(action);
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn get(&self, index: usize) -> Option<&LegalAction> {
        self.items[..self.len].get(index).and_then(Option::as_ref)
    }

    #[inline]
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
    /// Seats at the table; only the first `seat_count` entries of the arrays below are used.
    seat_count: usize,
    cards: [[Card; 3]; MAX_SEATS],
    seats: [SeatState; MAX_SEATS],
    pot: u64,
    stake: u64,
    phase: Phase,
    turns: u32,
    /// Set when the hand is over.
    payoffs: Option<[i64; MAX_SEATS]>,
}

impl Hand {
    /// Starts a hand: boots, the deal, and (Lallan Kallan) inspection. Returns the events so far.
    #[inline]
    pub fn new(
        settings: Settings,
        seats: usize,
        dealer: usize,
        source: DealSource,
    ) -> Result<(Hand, Vec<Event>), SettingsError> {
        // The hand-started event, a deal per seat, and the end when the deal settles it.
        let mut events = Vec::with_capacity(seats + 3);
        let hand = Hand::new_into(settings, seats, dealer, source, &mut events)?;
        Ok((hand, events))
    }

    /// As [`Hand::new`], appending the events to `events` (a buffer reused across hands saves
    /// an allocation per hand on hot paths). On an error nothing is appended.
    #[inline]
    pub fn new_into(
        settings: Settings,
        seats: usize,
        dealer: usize,
        source: DealSource,
        events: &mut Vec<Event>,
    ) -> Result<Hand, SettingsError> {
        settings.validate(seats)?;
        debug_assert!(seats <= MAX_SEATS, "validate() bounds the seats");
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
            seat_count: seats,
            cards: [NO_CARDS; MAX_SEATS],
            seats: [SeatState::default(); MAX_SEATS],
            pot: 0,
            stake: settings.boot,
            phase: Phase::Over,
            turns: 0,
            payoffs: None,
        };
        for seat in hand.seats_mut() {
            seat.put_in = settings.boot;
            seat.in_hand = true;
        }
        hand.pot = settings.boot * seats as u64;
        events.push(Event::HandStarted {
            dealer,
            seats,
            boot: settings.boot,
            pot: hand.pot,
            stake: hand.stake,
        });
        hand.deal(events);
        Ok(hand)
    }

    /// A hand with the seeded deal for `hand_index` of a match with `seed`.
    #[inline]
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

    /// As [`Hand::seeded`], appending the events to `events`.
    #[inline]
    pub fn seeded_into(
        settings: Settings,
        seats: usize,
        dealer: usize,
        seed: u64,
        hand_index: u64,
        events: &mut Vec<Event>,
    ) -> Result<Hand, SettingsError> {
        Hand::new_into(
            settings,
            seats,
            dealer,
            DealSource::Seeded {
                seed,
                hand: hand_index,
            },
            events,
        )
    }

    // ----- queries -------------------------------------------------------------------------

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn seat_count(&self) -> usize {
        self.seat_count
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
        self.cards[..self.seat_count][seat]
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
        self.payoffs.as_ref().map(|p| &p[..self.seat_count])
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
    #[inline]
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

    #[inline]
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

    /// Whether `action` is an instance of an entry of [`Hand::legal_set`], without building
    /// the set (the hot path of [`Hand::apply_into`]). Mirrors `legal_set` and `legal_bets`;
    /// the test `allows_agrees_with_the_legal_set` checks them against each other.
    #[inline]
    fn allows(&self, action: &Action) -> bool {
        match (self.phase, *action) {
            (Phase::SideshowReply { .. }, Action::Accept | Action::Refuse) => true,
            (Phase::Swap(seat), Action::Swap { card }) => self.cards[seat].contains(&card),
            (Phase::Swap(_), Action::Keep) => true,
            (Phase::Bet(seat), action) => self.allows_bet(seat, action),
            _ => false,
        }
    }

    #[inline]
    fn allows_bet(&self, seat: usize, action: Action) -> bool {
        let s = self.stake;
        let max_stake = self.settings.max_stake;
        let me = &self.seats[seat];
        let blind_bet_left = me.blind_bets < self.settings.blind_limit;
        match action {
            Action::Pack => true,
            Action::See => !me.seen,
            Action::Bet { amount } if !me.seen => {
                blind_bet_left && (s..=(2 * s).min(max_stake)).contains(&amount)
            }
            Action::Bet { amount } => {
                (2 * s..=(4 * s).min(2 * max_stake)).contains(&amount) && amount % 2 == 0
            }
            Action::Show if self.in_hand_count() == 2 => {
                if me.seen {
                    self.seats[self.next_in_hand(seat)].seen
                } else {
                    blind_bet_left
                }
            }
            Action::Sideshow => {
                me.seen
                    && self.in_hand_count() != 2
                    && self.settings.sideshow
                    && self.sideshow_target(seat).is_some()
            }
            _ => false,
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

    /// Seat `seat`'s public state, as every view shows it (`SeatView::players[seat]`), without
    /// building a view (hot paths that encode views themselves).
    #[inline]
    pub fn player(&self, seat: usize) -> PlayerView {
        let s = &self.seats()[seat];
        PlayerView {
            in_hand: s.in_hand,
            seen: s.seen,
            dead: s.dead,
            put_in: s.put_in,
            turns: s.turns,
            swaps: s.swaps,
        }
    }

    /// Whether `viewer` knows `seat`'s current cards: its own once seen, another's once
    /// revealed to it. Exactly what [`Hand::view`] shows `viewer` (its `cards` and `known`).
    #[inline]
    pub fn knows(&self, viewer: usize, seat: usize) -> bool {
        seat < self.seat_count && self.seats()[viewer].knows & (1 << seat) != 0
    }

    /// What `seat` may know, and nothing more.
    pub fn view(&self, seat: usize) -> SeatView {
        let known: BTreeMap<usize, [Card; 3]> = (0..self.seat_count)
            .filter(|&other| other != seat && self.knows(seat, other))
            .map(|other| (other, self.cards[other]))
            .collect();
        let to_act = self.to_act();
        SeatView {
            seat,
            dealer: self.dealer,
            pot: self.pot,
            stake: self.stake,
            cards: self.knows(seat, seat).then_some(self.cards[seat]),
            players: (0..self.seat_count).map(|s| self.player(s)).collect(),
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
        if !self.allows(&action) {
            let legal = self.legal_set();
            let offered = legal.iter().find(|l| l.name() == action.name());
            let reason = match offered {
                Some(LegalAction::Bet {
                    min,
                    max,
                    multiple_of,
                }) => format!("the amounts offered are {min}..{max} in steps of {multiple_of}"),
                Some(LegalAction::Swap { cards, .. }) => format!(
                    "the cards offered are {}",
                    cards.map(|c| c.to_string()).join(" ")
                ),
                Some(l) => format!("offered: {}", l.name()),
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
        for (other, state) in self.seats_mut().iter_mut().enumerate() {
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
        let n = self.seat_count;
        let variant = self.settings.variant;
        loop {
            // One card at a time, clockwise from the dealer's left: the k-th seat in that
            // order gets the k-th, (n+k)-th and (2n+k)-th cards.
            let first = (self.dealer + 1) % n;
            for round in 0..3 {
                let mut seat = first;
                for _ in 0..n {
                    self.cards[seat][round] = self.deck.draw();
                    seat = if seat + 1 == n { 0 } else { seat + 1 };
                }
            }
            let mut seat = first;
            for _ in 0..n {
                events.push(Event::Dealt {
                    seat,
                    redeal: self.redeal,
                    cards: Some(self.cards[seat]),
                });
                seat = if seat + 1 == n { 0 } else { seat + 1 };
            }
            let blind_start = variant.has_blind_play();
            for (i, state) in self.seats_mut().iter_mut().enumerate() {
                state.seen = !blind_start;
                state.knows = if blind_start { 0 } else { 1 << i };
                state.in_hand = true;
                state.dead = false;
            }
            if variant != Variant::LallanKallan {
                break;
            }
            let mut dead = 0usize;
            for i in 0..n {
                if eval::is_dead(&self.cards[i]) {
                    self.seats[i].dead = true;
                    self.seats[i].in_hand = false;
                    dead += 1;
                }
            }
            if dead > 0 {
                events.push(Event::Dead {
                    seats: (0..n).filter(|&i| self.seats[i].dead).collect(),
                });
            }
            if dead < n {
                break;
            }
            if self.redeal >= MAX_REDEALS {
                let everyone: [usize; MAX_SEATS] = std::array::from_fn(|i| i);
                self.finish(EndReason::RedealCap, &everyone[..n], events);
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
        let mut live = [0usize; MAX_SEATS];
        let mut count = 0;
        for seat in self.in_hand_seats() {
            live[count] = seat;
            count += 1;
        }
        let live = &live[..count];
        self.reveal(live, reason, events);
        // The best value, and every live seat holding it (in seat order).
        let top = live.iter().map(|&s| self.value(s)).max();
        let mut winners = [0usize; MAX_SEATS];
        let mut won = 0;
        for &seat in live {
            if Some(self.value(seat)) == top {
                winners[won] = seat;
                won += 1;
            }
        }
        let end = match reason {
            RevealReason::TurnCap => EndReason::TurnCap,
            _ => EndReason::PotLimit,
        };
        self.finish(end, &winners[..won], events);
    }

    fn reveal(&mut self, seats: &[usize], reason: RevealReason, events: &mut Vec<Event>) {
        let mask: u32 = seats.iter().fold(0, |m, &s| m | 1 << s);
        for state in self.seats_mut() {
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
        let n = self.seat_count;
        // Winners are distinct seats, so their distances from the dealer's left differ.
        let first = winners
            .iter()
            .copied()
            .min_by_key(|&w| (w + n - self.dealer - 1) % n)
            .expect("a hand has a winner");
        let share = self.pot / winners.len() as u64;
        let odd = self.pot % winners.len() as u64;
        let mut payoffs = [0i64; MAX_SEATS];
        for (payoff, s) in payoffs.iter_mut().zip(self.seats()) {
            *payoff = -(s.put_in as i64);
        }
        for &w in winners {
            payoffs[w] += (share + if w == first { odd } else { 0 }) as i64;
        }
        let mut winners = winners.to_vec();
        winners.sort_unstable();
        events.push(Event::HandEnded {
            reason,
            winners,
            pot: self.pot,
            payoffs: payoffs[..n].to_vec(),
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

    /// The seats at the table.
    #[inline(always)]
    fn seats(&self) -> &[SeatState] {
        &self.seats[..self.seat_count]
    }

    #[inline(always)]
    fn seats_mut(&mut self) -> &mut [SeatState] {
        &mut self.seats[..self.seat_count]
    }

    fn in_hand_count(&self) -> usize {
        self.seats().iter().filter(|s| s.in_hand).count()
    }

    fn in_hand_seats(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.seat_count).filter(|&i| self.seats[i].in_hand)
    }

    /// The next seat still in the hand, clockwise after `seat` (`seat` itself if it is alone).
    fn next_in_hand(&self, seat: usize) -> usize {
        let n = self.seat_count;
        let mut i = seat;
        for _ in 0..n {
            i = if i + 1 == n { 0 } else { i + 1 };
            if self.seats[i].in_hand {
                return i;
            }
        }
        seat
    }

    /// The previous seat still in the hand, counter-clockwise before `seat`.
    fn prev_in_hand(&self, seat: usize) -> usize {
        let n = self.seat_count;
        let mut i = seat;
        for _ in 0..n {
            i = if i == 0 { n - 1 } else { i - 1 };
            if self.seats[i].in_hand {
                return i;
            }
        }
        seat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_fits_the_seat_arrays() {
        for variant in Variant::ALL {
            assert!(*variant.seat_range().end() <= MAX_SEATS, "{variant}");
            let seats = *variant.seat_range().end();
            let (hand, events) = Hand::seeded(Settings::new(variant), seats, 0, 1, 0).unwrap();
            assert_eq!(hand.seat_count(), seats);
            assert!(events.len() > seats);
        }
        let too_many = Hand::seeded(Settings::new(Variant::Classic), MAX_SEATS + 1, 0, 1, 0);
        assert!(too_many.is_err());
    }

    /// Every kind of action, with bet amounts around every bound and every card to swap.
    fn candidates(stake: u64) -> Vec<Action> {
        let mut all = vec![
            Action::Pack,
            Action::See,
            Action::Show,
            Action::Sideshow,
            Action::Keep,
            Action::Accept,
            Action::Refuse,
            Action::Bet { amount: u64::MAX },
        ];
        all.extend((0..=4 * stake + 3).map(|amount| Action::Bet { amount }));
        all.extend((0..52).map(|i| Action::Swap {
            card: Card::from_index(i),
        }));
        all
    }

    #[test]
    fn allows_agrees_with_the_legal_set() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut checked = 0u64;
        for variant in Variant::ALL {
            for seats in [2, 3, 5] {
                for tweak in 0..4 {
                    let mut settings = Settings::new(variant);
                    match tweak {
                        1 => settings.sideshow = false,
                        2 => {
                            settings.blind_limit = 1;
                            settings.max_stake = 3;
                            settings.pot_limit = 60;
                        }
                        3 => settings.blind_limit = 0,
                        _ => {}
                    }
                    for hand_index in 0..40 {
                        let (mut hand, _) =
                            Hand::seeded(settings, seats, 0, 5, hand_index).unwrap();
                        loop {
                            let legal = hand.legal_set();
                            for action in candidates(hand.stake()) {
                                let expected = legal.iter().any(|l| l.allows(&action));
                                assert_eq!(hand.allows(&action), expected, "{action:?} {legal:?}");
                                checked += 1;
                            }
                            let Some(decision) = hand.to_act() else { break };
                            // Mostly the cheapest entries, so hands run long.
                            let entry = legal.get(next(legal.len())).unwrap().clone();
                            let action = match entry {
                                LegalAction::Pack if next(4) > 0 => continue_with(&legal),
                                other => concrete(&other, next(3)),
                            };
                            hand.apply(decision.seat, action).unwrap();
                        }
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }

    /// Any entry but a pack, if there is one (a pack otherwise).
    fn continue_with(legal: &LegalSet) -> Action {
        let entry = legal
            .iter()
            .find(|l| !matches!(l, LegalAction::Pack))
            .unwrap_or(&LegalAction::Pack);
        concrete(entry, 0)
    }

    /// An action of a legal entry: for a bet its minimum, middle or maximum, for a swap the
    /// k-th card.
    fn concrete(entry: &LegalAction, k: usize) -> Action {
        // Of n choices, index 0, the middle or n - 1; a swap has 3, so that is the k-th card.
        entry.instance(|n| (n - 1) * k as u64 / 2)
    }

    #[test]
    fn new_into_appends_the_same_events_as_new() {
        for variant in Variant::ALL {
            for hand_index in 0..50 {
                let settings = Settings::new(variant);
                let (hand, events) = Hand::seeded(settings, 4, 1, 9, hand_index).unwrap();
                let mut buffer = vec![Event::Kept { seat: 0 }];
                let again = Hand::seeded_into(settings, 4, 1, 9, hand_index, &mut buffer).unwrap();
                assert_eq!(buffer[0], Event::Kept { seat: 0 });
                assert_eq!(buffer[1..], events[..]);
                assert_eq!(again.payoffs(), hand.payoffs());
                assert_eq!(again.to_act(), hand.to_act());
            }
        }
        let mut buffer = Vec::new();
        assert!(Hand::seeded_into(Settings::default(), 1, 0, 1, 0, &mut buffer).is_err());
        assert!(buffer.is_empty());
    }
}
