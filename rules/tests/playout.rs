//! Random-playout conformance: thousands of seeded hands of every variant at 2, 3, 6 and the
//! variant's largest table, with random settings and random legal actions.
//!
//! An independent model of the rules notes (`Model` below, written from the notes, not from
//! `hand.rs`) predicts every event, the legal set, who decides, the chips and what each seat
//! may know. The engine must agree at every step. On top of that:
//! - every hand ends within a bound of decisions derived from `max_turns`;
//! - whoever must decide has a non-empty legal set, and every random legal action succeeds;
//! - the pot is the sum of what was put in, and payoffs sum to zero;
//! - no `view()` and no `Event::for_seat` ever shows a seat a card it may not know.
//!
//! A proptest-style test then throws arbitrary (mostly illegal) actions at hands: no panic,
//! and a refused action changes nothing.

use std::collections::{BTreeMap, HashSet};

use proptest::prelude::*;
use rules::eval::{describe, hand_value, is_dead};
use rules::hand::MAX_REDEALS;
use rules::{
    Action, Card, DealSource, Decision, DecisionKind, Deck, EndReason, Event, Hand, HandValue,
    LegalAction, PackReason, RevealReason, RevealedHand, SequenceOrder, Settings, Variant,
};

// ----- a tiny deterministic PRNG (xorshift64*) -------------------------------------------------

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        // SplitMix64 of the seed, so that neighbouring seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
}

// ----- random settings and actions ---------------------------------------------------------------

fn random_settings(rng: &mut Rng, variant: Variant, seats: usize) -> Settings {
    let mut s = Settings::new(variant);
    s.boot = 1 + rng.below(3);
    s.max_stake = s.boot * [1, 2, 3, 8, 64][rng.below(5) as usize];
    s.pot_limit = if rng.percent(50) {
        1024 * s.boot
    } else {
        s.boot * seats as u64 + 1 + rng.below(40 * s.boot)
    };
    s.max_turns = if rng.percent(60) {
        500
    } else {
        1 + rng.below(30) as u32
    };
    s.sideshow = rng.percent(70);
    s.sequence_order = if rng.percent(50) {
        SequenceOrder::A23High
    } else {
        SequenceOrder::AkqHigh
    };
    s.blind_limit = rng.below(6) as u32;
    s.swap_cost = if rng.percent(70) { 0 } else { 1 + rng.below(3) };
    s
}

/// A random instance of a random legal entry. Packs and shows are picked less often (each
/// about one time in eight when offered), so that hands run long enough to reach sideshows,
/// second swaps, the blind limit and the caps.
fn random_action(rng: &mut Rng, legal: &[LegalAction]) -> Action {
    let rare = |l: &&LegalAction| matches!(l, LegalAction::Pack | LegalAction::Show { .. });
    let common: Vec<&LegalAction> = legal.iter().filter(|l| !rare(l)).collect();
    let rare: Vec<&LegalAction> = legal.iter().filter(rare).collect();
    let entry = if common.is_empty() || (!rare.is_empty() && rng.percent(12 * rare.len() as u64)) {
        rare[rng.below(rare.len() as u64) as usize]
    } else {
        common[rng.below(common.len() as u64) as usize]
    };
    entry.instance(|n| rng.below(n))
}

// ----- the model: the rules notes, written out independently ------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    Swap(usize),
    Bet(usize),
    Reply { asker: usize, target: usize },
    Over,
}

struct Model {
    s: Settings,
    n: usize,
    dealer: usize,
    deck: Deck,
    next_card: usize,
    cards: Vec<[Card; 3]>,
    in_hand: Vec<bool>,
    dead: Vec<bool>,
    seen: Vec<bool>,
    put_in: Vec<u64>,
    turns: Vec<u32>,
    blind_bets: Vec<u32>,
    swaps: Vec<u32>,
    pot: u64,
    stake: u64,
    total_turns: u32,
    phase: Phase,
    /// Whether each seat knows its own current cards.
    own_known: Vec<bool>,
    /// What each seat knows of other seats' current cards.
    known: Vec<BTreeMap<usize, [Card; 3]>>,
    payoffs: Option<Vec<i64>>,
}

impl Model {
    /// `deck(k)` is the deck of the k-th deal (Lallan Kallan redeals after the first).
    fn new(
        s: Settings,
        n: usize,
        dealer: usize,
        deck: &dyn Fn(u32) -> Deck,
    ) -> (Model, Vec<Event>) {
        let mut m = Model {
            s,
            n,
            dealer,
            deck: deck(0),
            next_card: 0,
            cards: Vec::new(),
            in_hand: vec![true; n],
            dead: vec![false; n],
            seen: vec![s.variant != Variant::Classic; n],
            put_in: vec![s.boot; n],
            turns: vec![0; n],
            blind_bets: vec![0; n],
            swaps: vec![0; n],
            pot: s.boot * n as u64,
            stake: s.boot,
            total_turns: 0,
            phase: Phase::Over,
            own_known: vec![s.variant != Variant::Classic; n],
            known: vec![BTreeMap::new(); n],
            payoffs: None,
        };
        let mut events = vec![Event::HandStarted {
            dealer,
            seats: n,
            boot: s.boot,
            pot: m.pot,
            stake: m.stake,
        }];
        let mut redeal = 0u32;
        loop {
            m.deck = deck(redeal);
            m.cards = vec![[m.deck.cards()[0]; 3]; n];
            // One card at a time, clockwise, starting left of the dealer.
            for round in 0..3 {
                for k in 1..=n {
                    m.cards[(dealer + k) % n][round] = m.deck.cards()[round * n + k - 1];
                }
            }
            m.next_card = 3 * n;
            for k in 1..=n {
                let seat = (dealer + k) % n;
                events.push(Event::Dealt {
                    seat,
                    redeal,
                    cards: Some(m.cards[seat]),
                });
            }
            if s.variant != Variant::LallanKallan {
                break;
            }
            let dead: Vec<usize> = (0..n).filter(|&i| is_dead(&m.cards[i])).collect();
            for i in 0..n {
                m.dead[i] = dead.contains(&i);
                m.in_hand[i] = !m.dead[i];
            }
            if !dead.is_empty() {
                events.push(Event::Dead {
                    seats: dead.clone(),
                });
            }
            if dead.len() < n {
                break;
            }
            if redeal >= MAX_REDEALS {
                let everyone: Vec<usize> = (0..n).collect();
                m.finish(EndReason::RedealCap, &everyone, &mut events);
                return (m, events);
            }
            redeal += 1;
            events.push(Event::Redeal { redeal, pot: m.pot });
        }
        if m.live() == 1 {
            let survivor = m.next_live(dealer);
            m.finish(EndReason::LoneSurvivor, &[survivor], &mut events);
        } else {
            m.start_turn(m.next_live(dealer));
        }
        (m, events)
    }

    fn live(&self) -> usize {
        self.in_hand.iter().filter(|&&b| b).count()
    }

    fn next_live(&self, seat: usize) -> usize {
        (1..=self.n)
            .map(|k| (seat + k) % self.n)
            .find(|&i| self.in_hand[i])
            .unwrap()
    }

    fn prev_live(&self, seat: usize) -> usize {
        (1..=self.n)
            .map(|k| (seat + self.n - k) % self.n)
            .find(|&i| self.in_hand[i])
            .unwrap()
    }

    fn value(&self, seat: usize) -> HandValue {
        hand_value(self.s.variant, self.s.sequence_order, &self.cards[seat])
    }

    fn to_act(&self) -> Option<Decision> {
        let (seat, kind) = match self.phase {
            Phase::Swap(s) => (s, DecisionKind::Swap),
            Phase::Bet(s) => (s, DecisionKind::Bet),
            Phase::Reply { target, .. } => (target, DecisionKind::SideshowReply),
            Phase::Over => return None,
        };
        Some(Decision { seat, kind })
    }

    /// Section 1: the sideshow target, if a sideshow is allowed now.
    fn sideshow_target(&self, seat: usize) -> Option<usize> {
        if !self.s.sideshow || self.live() < 3 || !self.seen[seat] {
            return None;
        }
        let prev = self.prev_live(seat);
        (self.seen[prev] && self.turns[prev] > 0).then_some(prev)
    }

    fn legal(&self) -> Vec<LegalAction> {
        let s = self.stake;
        let cap = self.s.max_stake;
        match self.phase {
            Phase::Over => vec![],
            Phase::Reply { .. } => vec![LegalAction::Accept, LegalAction::Refuse],
            Phase::Swap(seat) => vec![
                LegalAction::Swap {
                    cards: self.cards[seat],
                    cost: self.s.swap_cost,
                },
                LegalAction::Keep,
            ],
            Phase::Bet(seat) => {
                let mut legal = vec![LegalAction::Pack];
                let two = self.live() == 2;
                if !self.seen[seat] {
                    // Blind (classic): [S, 2S], no bet may lift S above max_stake.
                    legal.push(LegalAction::See);
                    if self.blind_bets[seat] < self.s.blind_limit {
                        legal.push(LegalAction::Bet {
                            min: s,
                            max: (2 * s).min(cap),
                            multiple_of: 1,
                        });
                        if two {
                            legal.push(LegalAction::Show { cost: s });
                        }
                    }
                } else {
                    // Seen: even amounts in [2S, 4S], S' = amount / 2 <= max_stake.
                    legal.push(LegalAction::Bet {
                        min: 2 * s,
                        max: (4 * s).min(2 * cap),
                        multiple_of: 2,
                    });
                    if two && self.seen[self.next_live(seat)] {
                        legal.push(LegalAction::Show { cost: 2 * s });
                    }
                    if let Some(target) = self.sideshow_target(seat) {
                        legal.push(LegalAction::Sideshow {
                            cost: 2 * s,
                            target,
                        });
                    }
                }
                legal
            }
        }
    }

    fn start_turn(&mut self, seat: usize) {
        self.phase = if self.s.variant == Variant::Closest555 && self.turns[seat] < 2 {
            Phase::Swap(seat)
        } else {
            Phase::Bet(seat)
        };
    }

    fn pay(&mut self, seat: usize, amount: u64) {
        self.put_in[seat] += amount;
        self.pot += amount;
    }

    fn apply(&mut self, seat: usize, action: Action) -> Vec<Event> {
        let mut ev = Vec::new();
        match (self.phase, action) {
            (Phase::Swap(_), Action::Swap { card }) => {
                let cost = self.s.swap_cost;
                self.pay(seat, cost);
                let drawn = self.deck.cards()[self.next_card];
                self.next_card += 1;
                let slot = self.cards[seat].iter().position(|&c| c == card).unwrap();
                self.cards[seat][slot] = drawn;
                self.swaps[seat] += 1;
                for other in 0..self.n {
                    self.known[other].remove(&seat);
                }
                ev.push(Event::Swapped {
                    seat,
                    cost,
                    discarded: Some(card),
                    drawn: Some(drawn),
                });
                self.phase = Phase::Bet(seat);
            }
            (Phase::Swap(_), Action::Keep) => {
                ev.push(Event::Kept { seat });
                self.phase = Phase::Bet(seat);
            }
            (Phase::Bet(_), Action::See) => {
                self.seen[seat] = true;
                self.own_known[seat] = true;
                ev.push(Event::Saw {
                    seat,
                    cards: Some(self.cards[seat]),
                });
            }
            (Phase::Bet(_), Action::Bet { amount }) => {
                let blind = !self.seen[seat];
                self.pay(seat, amount);
                if blind {
                    self.stake = amount;
                    self.blind_bets[seat] += 1;
                } else {
                    self.stake = amount / 2;
                }
                ev.push(Event::Bet {
                    seat,
                    amount,
                    blind,
                    stake: self.stake,
                    pot: self.pot,
                });
                self.end_turn(seat, &mut ev);
            }
            (Phase::Bet(_), Action::Pack) => {
                self.in_hand[seat] = false;
                ev.push(Event::Packed {
                    seat,
                    reason: PackReason::Chose,
                });
                self.end_turn(seat, &mut ev);
            }
            (Phase::Bet(_), Action::Show) => {
                let against = self.next_live(seat);
                let cost = if self.seen[seat] {
                    2 * self.stake
                } else {
                    self.stake
                };
                self.pay(seat, cost);
                self.turns[seat] += 1;
                self.total_turns += 1;
                ev.push(Event::ShowAsked {
                    seat,
                    against,
                    cost,
                    pot: self.pot,
                });
                self.reveal(&[seat, against], RevealReason::Show, &mut ev);
                // An exact tie loses for the requester.
                let winner = if self.value(seat) > self.value(against) {
                    seat
                } else {
                    against
                };
                self.finish(EndReason::Show, &[winner], &mut ev);
            }
            (Phase::Bet(_), Action::Sideshow) => {
                let target = self.sideshow_target(seat).unwrap();
                let cost = 2 * self.stake;
                self.pay(seat, cost);
                ev.push(Event::SideshowAsked {
                    seat,
                    target,
                    cost,
                    pot: self.pot,
                });
                if self.pot >= self.s.pot_limit {
                    self.turns[seat] += 1;
                    self.total_turns += 1;
                    self.group_reveal(RevealReason::PotLimit, &mut ev);
                } else {
                    self.phase = Phase::Reply {
                        asker: seat,
                        target,
                    };
                }
            }
            (Phase::Reply { asker, target }, Action::Accept) => {
                self.known[asker].insert(target, self.cards[target]);
                self.known[target].insert(asker, self.cards[asker]);
                let loser = if self.value(asker) > self.value(target) {
                    target
                } else {
                    asker
                };
                ev.push(Event::SideshowCompared {
                    seat: asker,
                    target,
                    loser,
                    seat_cards: Some(self.cards[asker]),
                    target_cards: Some(self.cards[target]),
                });
                self.in_hand[loser] = false;
                ev.push(Event::Packed {
                    seat: loser,
                    reason: PackReason::LostSideshow,
                });
                self.end_turn(asker, &mut ev);
            }
            (Phase::Reply { asker, target }, Action::Refuse) => {
                ev.push(Event::SideshowRefused {
                    seat: asker,
                    target,
                });
                self.end_turn(asker, &mut ev);
            }
            (phase, action) => panic!("model: {action:?} in {phase:?}"),
        }
        ev
    }

    fn end_turn(&mut self, seat: usize, ev: &mut Vec<Event>) {
        self.turns[seat] += 1;
        self.total_turns += 1;
        if self.live() == 1 {
            let last = self.next_live(seat);
            self.finish(EndReason::LastStanding, &[last], ev);
        } else if self.pot >= self.s.pot_limit {
            self.group_reveal(RevealReason::PotLimit, ev);
        } else if self.total_turns >= self.s.max_turns {
            self.group_reveal(RevealReason::TurnCap, ev);
        } else {
            self.start_turn(self.next_live(seat));
        }
    }

    fn reveal(&mut self, seats: &[usize], reason: RevealReason, ev: &mut Vec<Event>) {
        for viewer in 0..self.n {
            for &s in seats {
                if s == viewer {
                    self.own_known[viewer] = true;
                } else {
                    self.known[viewer].insert(s, self.cards[s]);
                }
            }
        }
        ev.push(Event::Revealed {
            reason,
            hands: seats
                .iter()
                .map(|&seat| RevealedHand {
                    seat,
                    cards: self.cards[seat],
                    value: describe(self.s.variant, self.s.sequence_order, &self.cards[seat]),
                })
                .collect(),
        });
    }

    fn group_reveal(&mut self, reason: RevealReason, ev: &mut Vec<Event>) {
        let live: Vec<usize> = (0..self.n).filter(|&i| self.in_hand[i]).collect();
        self.reveal(&live, reason, ev);
        let best = live.iter().map(|&s| self.value(s)).max().unwrap();
        let winners: Vec<usize> = live
            .iter()
            .copied()
            .filter(|&s| self.value(s) == best)
            .collect();
        let end = if reason == RevealReason::TurnCap {
            EndReason::TurnCap
        } else {
            EndReason::PotLimit
        };
        self.finish(end, &winners, ev);
    }

    /// The pot goes to the winners; odd chips to the winner nearest the dealer's left.
    fn finish(&mut self, reason: EndReason, winners: &[usize], ev: &mut Vec<Event>) {
        let mut won = vec![0u64; self.n];
        let share = self.pot / winners.len() as u64;
        let odd = self.pot % winners.len() as u64;
        let first = (1..=self.n)
            .map(|k| (self.dealer + k) % self.n)
            .find(|s| winners.contains(s))
            .unwrap();
        for &w in winners {
            won[w] = share + if w == first { odd } else { 0 };
        }
        let payoffs: Vec<i64> = (0..self.n)
            .map(|i| won[i] as i64 - self.put_in[i] as i64)
            .collect();
        let mut sorted = winners.to_vec();
        sorted.sort_unstable();
        ev.push(Event::HandEnded {
            reason,
            winners: sorted,
            pot: self.pot,
            payoffs: payoffs.clone(),
        });
        self.payoffs = Some(payoffs);
        self.phase = Phase::Over;
    }
}

// ----- checks ----------------------------------------------------------------------------------

fn sorted_legal(mut legal: Vec<LegalAction>) -> Vec<LegalAction> {
    legal.sort_by_key(|l| format!("{l:?}"));
    legal
}

/// Cards each seat may know, from the full events (rules notes section 4).
struct Knowledge {
    blind_start: bool,
    allowed: Vec<HashSet<Card>>,
}

impl Knowledge {
    fn learn(&mut self, event: &Event) {
        match event {
            Event::Dealt {
                seat,
                cards: Some(c),
                ..
            } if !self.blind_start => self.allowed[*seat].extend(c),
            Event::Saw {
                seat,
                cards: Some(c),
            } => self.allowed[*seat].extend(c),
            Event::Swapped {
                seat,
                drawn: Some(d),
                ..
            } => {
                self.allowed[*seat].insert(*d);
            }
            Event::SideshowCompared {
                seat,
                target,
                seat_cards: Some(a),
                target_cards: Some(b),
                ..
            } => {
                for viewer in [*seat, *target] {
                    self.allowed[viewer].extend(a.iter().chain(b));
                }
            }
            Event::Revealed { hands, .. } => {
                for allowed in &mut self.allowed {
                    allowed.extend(hands.iter().flat_map(|h| h.cards));
                }
            }
            _ => {}
        }
    }

    /// `event` as each seat receives it shows no card the seat may not know, and hides none
    /// the seat is owed.
    fn check_event(&self, event: &Event, ctx: &str) {
        for (viewer, allowed) in self.allowed.iter().enumerate() {
            let seen = event.for_seat(viewer, self.blind_start);
            if event.is_public() {
                assert_eq!(
                    &seen, event,
                    "{ctx}: a public event differs for seat {viewer}"
                );
            }
            for card in seen.cards() {
                assert!(
                    allowed.contains(&card),
                    "{ctx}: seat {viewer} receives {card} it may not know: {seen:?}"
                );
            }
            let owed = match event {
                Event::Revealed { .. } => true,
                Event::Dealt { seat, .. } => *seat == viewer && !self.blind_start,
                Event::Saw { seat, .. } | Event::Swapped { seat, .. } => *seat == viewer,
                Event::SideshowCompared { seat, target, .. } => {
                    viewer == *seat || viewer == *target
                }
                _ => true,
            };
            if owed {
                assert_eq!(
                    &seen, event,
                    "{ctx}: seat {viewer} was denied what it may know"
                );
            }
        }
    }
}

fn check_state(hand: &Hand, model: &Model, know: &Knowledge, ctx: &str) {
    assert_eq!(hand.to_act(), model.to_act(), "{ctx}: who decides");
    assert_eq!(
        sorted_legal(hand.legal()),
        sorted_legal(model.legal()),
        "{ctx}: legal set"
    );
    assert_eq!(hand.pot(), model.pot, "{ctx}: pot");
    assert_eq!(hand.stake(), model.stake, "{ctx}: stake");
    assert!(
        model.stake <= model.s.max_stake,
        "{ctx}: stake above max_stake"
    );
    assert_eq!(hand.turns(), model.total_turns, "{ctx}: turns");
    assert_eq!(
        model.put_in.iter().sum::<u64>(),
        hand.pot(),
        "{ctx}: pot != sum of put_in"
    );
    assert_eq!(hand.is_over(), model.phase == Phase::Over, "{ctx}: over");
    assert_eq!(hand.payoffs(), model.payoffs.as_deref(), "{ctx}: payoffs");
    if let Some(p) = hand.payoffs() {
        assert_eq!(p.iter().sum::<i64>(), 0, "{ctx}: payoffs not zero-sum");
    }
    if let Some(decision) = hand.to_act() {
        assert!(!hand.legal().is_empty(), "{ctx}: empty legal set");
        assert!(
            model.in_hand[decision.seat],
            "{ctx}: a seat out of the hand decides"
        );
    }
    for seat in 0..model.n {
        assert_eq!(
            hand.cards(seat),
            model.cards[seat],
            "{ctx}: cards of seat {seat}"
        );
    }
    for viewer in 0..model.n {
        let view = hand.view(viewer);
        assert_eq!(view.seat, viewer);
        assert_eq!(view.dealer, model.dealer);
        assert_eq!(view.pot, model.pot);
        assert_eq!(view.stake, model.stake);
        assert_eq!(view.to_act, model.to_act());
        let expected_legal = match model.to_act() {
            Some(d) if d.seat == viewer => hand.legal(),
            _ => vec![],
        };
        assert_eq!(
            view.legal, expected_legal,
            "{ctx}: legal in seat {viewer}'s view"
        );
        for (i, p) in view.players.iter().enumerate() {
            assert_eq!(p.in_hand, model.in_hand[i], "{ctx}: in_hand {i}");
            assert_eq!(p.seen, model.seen[i], "{ctx}: seen {i}");
            assert_eq!(p.dead, model.dead[i], "{ctx}: dead {i}");
            assert_eq!(p.put_in, model.put_in[i], "{ctx}: put_in {i}");
            assert_eq!(p.turns, model.turns[i], "{ctx}: turns {i}");
            assert_eq!(p.swaps, model.swaps[i], "{ctx}: swaps {i}");
        }
        let own = model.own_known[viewer].then_some(model.cards[viewer]);
        assert_eq!(view.cards, own, "{ctx}: seat {viewer}'s own cards");
        assert_eq!(
            view.known, model.known[viewer],
            "{ctx}: what seat {viewer} knows"
        );
        for card in view.cards_visible() {
            assert!(
                know.allowed[viewer].contains(&card),
                "{ctx}: seat {viewer}'s view shows {card} it may not know"
            );
        }
    }
}

struct Stats {
    hands: u64,
    decisions: u64,
    ends: BTreeMap<String, u64>,
    /// How often each kind of event occurred (coverage of the rules exercised).
    events: BTreeMap<String, u64>,
}

/// Replays hold events as JSON and their readers get `Event`s back: every event, and every
/// seat's view of it, reads back as itself, under the name `Event::name` gives.
fn check_written_and_read_back(event: &Event, ctx: &str) {
    for seen in std::iter::once(event.clone()).chain((0..2).map(|s| event.for_seat(s, true))) {
        let json = serde_json::to_value(&seen).unwrap();
        assert_eq!(json["event"], seen.name(), "{ctx}: the name of {json}");
        let back: Event = serde_json::from_value(json.clone())
            .unwrap_or_else(|e| panic!("{ctx}: {json} does not read back: {e}"));
        assert_eq!(back, seen, "{ctx}: {json} read back");
    }
}

fn event_name(event: &Event) -> String {
    let text = format!("{event:?}");
    text.split([' ', '{', '('])
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Plays one random hand against the model, checking every step.
/// A shuffled deck in which two to four random seats are dealt the same three ranks, each
/// seat in a different rotation of the suits (so no such hand is of one suit).
fn tied_deck(rng: &mut Rng, seats: usize, dealer: usize) -> Deck {
    let mut ranks = [0usize; 3];
    while ranks[0] == ranks[1] || ranks[1] == ranks[2] || ranks[0] == ranks[2] {
        ranks = [0, 1, 2].map(|_| rng.below(13) as usize);
    }
    let tied = 2 + rng.below(3.min(seats as u64 - 1)) as usize;
    let mut chosen: Vec<usize> = Vec::new();
    while chosen.len() < tied {
        let seat = rng.below(seats as u64) as usize;
        if !chosen.contains(&seat) {
            chosen.push(seat);
        }
    }
    let mut hands: Vec<Option<[Card; 3]>> = vec![None; seats];
    for (j, &seat) in chosen.iter().enumerate() {
        hands[seat] = Some([0, 1, 2].map(|i| Card::from_index(ranks[i] * 4 + (j + i) % 4)));
    }
    let mut rest: Vec<Card> = Card::pack()
        .into_iter()
        .filter(|c| !hands.iter().flatten().flatten().any(|h| h == c))
        .collect();
    for i in (1..rest.len()).rev() {
        rest.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut rest = rest.into_iter();
    let hands: Vec<[Card; 3]> = hands
        .into_iter()
        .map(|h| h.unwrap_or_else(|| [(); 3].map(|_| rest.next().unwrap())))
        .collect();
    let order: Vec<Card> = (0..3)
        .flat_map(|round| (1..=seats).map(move |k| (round, (dealer + k) % seats)))
        .map(|(round, seat)| hands[seat][round])
        .chain(rest)
        .collect();
    Deck::stacked(&order).unwrap()
}

/// With `ties`, the turn cap is 1 to 3, so that most hands end in a group reveal, and the
/// deck is stacked so that two to four seats hold the same ranks in different suits.
fn play_one(variant: Variant, seats: usize, hand_seed: u64, ties: bool, stats: &mut Stats) {
    let mut rng = Rng::new(hand_seed);
    let mut settings = random_settings(&mut rng, variant, seats);
    if ties {
        settings.max_turns = 1 + rng.below(3) as u32;
    }
    let dealer = rng.below(seats as u64) as usize;
    let (seed, hand_index) = (rng.next(), rng.below(1000));
    let ctx0 = format!("{variant} seats={seats} hand_seed={hand_seed} settings={settings:?}");
    let (source, deck): (DealSource, Box<dyn Fn(u32) -> Deck>) = if ties {
        let deck = tied_deck(&mut rng, seats, dealer);
        (
            DealSource::Stacked(vec![deck.clone()]),
            Box::new(move |_| deck.clone()),
        )
    } else {
        (
            DealSource::Seeded {
                seed,
                hand: hand_index,
            },
            Box::new(move |redeal| Deck::shuffled(seed, hand_index, u64::from(redeal))),
        )
    };
    let (mut hand, events) =
        Hand::new(settings, seats, dealer, source).unwrap_or_else(|e| panic!("{ctx0}: {e}"));
    let (mut model, expected) = Model::new(settings, seats, dealer, &*deck);
    assert_eq!(events, expected, "{ctx0}: deal events");
    let mut know = Knowledge {
        blind_start: variant == Variant::Classic,
        allowed: vec![HashSet::new(); seats],
    };
    for event in &events {
        know.learn(event);
        know.check_event(event, &ctx0);
        *stats.events.entry(event_name(event)).or_default() += 1;
        check_written_and_read_back(event, &ctx0);
    }
    check_state(&hand, &model, &know, &ctx0);

    // Each betting turn has at most a swap, a see, the decision and a sideshow reply.
    let bound = 4 * u64::from(settings.max_turns) + 4;
    let mut decisions = 0u64;
    let mut last_events = events;
    while let Some(decision) = hand.to_act() {
        decisions += 1;
        assert!(decisions <= bound, "{ctx0}: no end after {bound} decisions");
        let legal = hand.legal();
        let action = random_action(&mut rng, &legal);
        let ctx = format!("{ctx0} step={decisions} seat={} {action:?}", decision.seat);
        let events = hand
            .apply(decision.seat, action)
            .unwrap_or_else(|e| panic!("{ctx}: legal action refused: {e}"));
        let expected = model.apply(decision.seat, action);
        assert_eq!(events, expected, "{ctx}: events");
        for event in &events {
            know.learn(event);
            know.check_event(event, &ctx);
            *stats.events.entry(event_name(event)).or_default() += 1;
            check_written_and_read_back(event, &ctx);
        }
        check_state(&hand, &model, &know, &ctx);
        last_events = events;
    }
    let Some(Event::HandEnded {
        reason,
        winners,
        pot,
        ..
    }) = last_events.last()
    else {
        panic!("{ctx0}: the hand ended without HandEnded: {last_events:?}");
    };
    *stats.ends.entry(format!("{reason:?}")).or_default() += 1;
    if winners.len() > 1 && *reason != EndReason::RedealCap {
        let key = if pot % winners.len() as u64 != 0 {
            "split pot with odd chips"
        } else {
            "split pot"
        };
        *stats.ends.entry(key.to_string()).or_default() += 1;
    }
    stats.hands += 1;
    stats.decisions += decisions;
}

#[test]
fn random_playouts_conform_to_the_rules_model_for_every_variant_and_table_size() {
    // Hands per (variant, size); the large tables get fewer, they cost more per hand.
    let mut stats = Stats {
        hands: 0,
        decisions: 0,
        ends: BTreeMap::new(),
        events: BTreeMap::new(),
    };
    for variant in Variant::ALL {
        let max = *variant.seat_range().end();
        for (size_index, seats) in [2, 3, 6, max].into_iter().enumerate() {
            let count = match seats {
                2 | 3 => 700,
                6 => 400,
                _ => 120,
            };
            for k in 0..count {
                let hand_seed = (variant as u64) << 40 | (size_index as u64) << 32 | k;
                play_one(variant, seats, hand_seed, false, &mut stats);
            }
        }
    }
    eprintln!(
        "{} hands, {} decisions\nendings {:?}\nevents {:?}",
        stats.hands, stats.decisions, stats.ends, stats.events
    );
    assert!(stats.hands >= 5000);
    // The random settings must reach every ending of a played hand.
    for reason in [
        "LastStanding",
        "LoneSurvivor",
        "Show",
        "PotLimit",
        "TurnCap",
    ] {
        assert!(
            stats.ends.get(reason).copied().unwrap_or(0) > 10,
            "{reason}: {stats:?}",
            stats = stats.ends
        );
    }
    for event in [
        "Dead",
        "Redeal",
        "Saw",
        "Swapped",
        "Kept",
        "SideshowAsked",
        "SideshowRefused",
        "SideshowCompared",
    ] {
        assert!(
            stats.events.get(event).copied().unwrap_or(0) > 10,
            "{event} too rare: {:?}",
            stats.events
        );
    }
}

#[test]
fn group_reveals_with_ties_split_the_pot_as_the_rules_model_says() {
    // Short hands, stacked so that several seats hold equal hands: many group reveals with
    // tied best hands, some with odd chips to place.
    let mut stats = Stats {
        hands: 0,
        decisions: 0,
        ends: BTreeMap::new(),
        events: BTreeMap::new(),
    };
    for (variant, seats, count) in [
        (Variant::Closest555, 3, 300),
        (Variant::Closest555, 6, 300),
        (Variant::Closest555, 10, 100),
        (Variant::Classic, 3, 300),
        (Variant::Classic, 6, 300),
        (Variant::Classic, 17, 100),
    ] {
        for k in 0..count {
            let hand_seed = 1 << 50 | (variant as u64) << 40 | (seats as u64) << 32 | k;
            play_one(variant, seats, hand_seed, true, &mut stats);
        }
    }
    eprintln!("{} hands, endings {:?}", stats.hands, stats.ends);
    for key in ["split pot", "split pot with odd chips"] {
        assert!(
            stats.ends.get(key).copied().unwrap_or(0) > 20,
            "{key} too rare: {:?}",
            stats.ends
        );
    }
}

// ----- arbitrary actions ------------------------------------------------------------------------

/// Everything observable about a hand.
fn snapshot(hand: &Hand) -> String {
    let views: Vec<_> = (0..hand.seat_count()).map(|s| hand.view(s)).collect();
    format!(
        "{hand:?}\n{views:?}\n{:?}\n{:?}\n{:?}",
        hand.legal(),
        hand.to_act(),
        hand.payoffs()
    )
}

fn arbitrary_action(kind: u8, amount: u64, card: u8) -> Action {
    match kind % 9 {
        0 => Action::Pack,
        1 => Action::See,
        2 => Action::Bet { amount },
        3 => Action::Show,
        4 => Action::Sideshow,
        5 => Action::Swap {
            card: Card::from_index(usize::from(card % 52)),
        },
        6 => Action::Keep,
        7 => Action::Accept,
        _ => Action::Refuse,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Arbitrary action sequences, legal or not, never panic; a refused action changes
    /// nothing; an accepted one was in the legal set.
    #[test]
    fn arbitrary_action_sequences_never_panic_and_refused_actions_change_nothing(
        variant in 0usize..3,
        seats_pick in 0usize..17,
        setting_seed in any::<u64>(),
        steps in prop::collection::vec(
            (any::<bool>(), 0usize..20, any::<u8>(), prop_oneof![0u64..300, any::<u64>()], any::<u8>()),
            1..80,
        ),
    ) {
        let variant = Variant::ALL[variant];
        let range = variant.seat_range();
        let seats = range.start() + seats_pick % (range.end() - range.start() + 1);
        let mut rng = Rng::new(setting_seed);
        let settings = random_settings(&mut rng, variant, seats);
        let dealer = rng.below(seats as u64) as usize;
        let (mut hand, _) = Hand::seeded(settings, seats, dealer, rng.next(), 0).unwrap();
        for (use_legal, seat, kind, amount, card) in steps {
            let (seat, action) = match hand.to_act() {
                Some(d) if use_legal => {
                    let legal = hand.legal();
                    let entry = &legal[usize::from(kind) % legal.len()];
                    let mut r = Rng::new(amount);
                    (d.seat, entry.instance(|n| r.below(n)))
                }
                _ => (seat, arbitrary_action(kind, amount, card)),
            };
            let before = snapshot(&hand);
            let legal = hand.legal();
            let who = hand.to_act();
            match hand.apply(seat, action) {
                Ok(_) => {
                    prop_assert_eq!(who.map(|d| d.seat), Some(seat));
                    prop_assert!(legal.iter().any(|l| l.allows(&action)), "accepted {:?} not in {:?}", action, legal);
                }
                Err(_) => {
                    prop_assert!(who.is_none_or(|d| d.seat != seat) || !legal.iter().any(|l| l.allows(&action)),
                        "refused a legal {:?} by seat {}", action, seat);
                    prop_assert_eq!(snapshot(&hand), before, "refused {:?} changed the hand", action);
                }
            }
            if let Some(p) = hand.payoffs() {
                prop_assert_eq!(p.iter().sum::<i64>(), 0);
            }
        }
    }
}
