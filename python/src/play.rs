//! A table (game, seats, settings, action space, tensor layout) and one hand played on it by
//! action ids: the pure-Rust core under the Python classes. Every refusal is a message naming
//! the problem and the legal choices; nothing here panics on a caller's input.

use std::sync::Arc;

use rules::{Action, DecisionKind, Event, Hand, LegalSet, Settings};

use crate::actions::ActionSpace;
use crate::observation::Layout;

/// OpenSpiel's player id of a finished game (`kTerminalPlayerId`).
pub const TERMINAL: i64 = -4;

/// Everything fixed for a table.
#[derive(Debug)]
pub struct Table {
    pub settings: Settings,
    pub seats: usize,
    pub space: ActionSpace,
    pub layout: Layout,
}

impl Table {
    pub fn new(settings: Settings, seats: usize) -> Result<Arc<Table>, String> {
        settings.validate(seats).map_err(|e| e.to_string())?;
        Ok(Arc::new(Table {
            settings,
            seats,
            space: ActionSpace::new(&settings)?,
            layout: Layout::new(seats, settings.boot),
        }))
    }

    /// "0 pack, 10 bet 2, 11 bet 4": ids with their names, for messages.
    pub fn listing(&self, ids: &[usize]) -> String {
        if ids.is_empty() {
            return "none".into();
        }
        ids.iter()
            .map(|&id| format!("{id} {}", self.space.name(id).unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One hand in play, with its history.
#[derive(Clone, Debug)]
pub struct Play {
    pub table: Arc<Table>,
    pub hand: Hand,
    pub seed: u64,
    pub hand_index: u64,
    /// (seat, action id) of every decision so far.
    pub history: Vec<(usize, usize)>,
    /// Every event with full information, as the arena's replay keeps them.
    pub events: Vec<Event>,
}

impl Play {
    /// Hand `hand_index` of a match played with `seed`: the cards `arena match --seed` deals
    /// for it, dealt by seat `hand_index mod seats` as in the arena's first match.
    pub fn new(table: &Arc<Table>, seed: u64, hand_index: u64) -> Play {
        // Room for a typical hand's events and decisions up front: growing these vectors
        // was the largest part of `apply_action`'s cost (malloc, copy, free).
        let mut events = Vec::with_capacity(2 * table.seats + 24);
        let dealer = (hand_index % table.seats as u64) as usize;
        let hand = Hand::seeded_into(
            table.settings,
            table.seats,
            dealer,
            seed,
            hand_index,
            &mut events,
        )
        .expect("the table was validated when it was made");
        Play {
            table: Arc::clone(table),
            hand,
            seed,
            hand_index,
            history: Vec::with_capacity(24),
            events,
        }
    }

    pub fn current_player(&self) -> i64 {
        self.hand.to_act().map_or(TERMINAL, |d| d.seat as i64)
    }

    /// The legal ids of the seat to act (empty when the hand is over).
    pub fn legal_ids(&self) -> Vec<usize> {
        self.table.space.legal_ids(self.hand.legal_set().iter())
    }

    pub fn fill_mask(&self, legal: &LegalSet, mask: &mut [bool]) {
        mask.fill(false);
        self.table.space.fill_mask(legal.iter(), mask);
    }

    /// Applies action `id` for `seat` (the seat to act when `None`), or says why not.
    pub fn apply(&mut self, seat: Option<i64>, id: i64) -> Result<(), String> {
        let events = &mut self.events;
        let (seat, id) = check(&self.table, &self.hand, seat, id)?;
        let action = action_of(&self.table, &self.hand, seat, id)?;
        self.hand
            .apply_into(seat, action, events)
            .map_err(|e| refusal(&self.table, &self.hand, id, &e.to_string()))?;
        self.history.push((seat, id));
        Ok(())
    }

    /// The seat's current cards when it may look at them, else none (swap ids name one of them).
    pub fn own_cards(&self, seat: usize) -> Option<[rules::Card; 3]> {
        self.hand.view(seat).cards
    }
}

/// The seat and id to apply, checked: the hand is not over, the seat is the one to act, the
/// id is inside the space.
pub fn check(
    table: &Table,
    hand: &Hand,
    seat: Option<i64>,
    id: i64,
) -> Result<(usize, usize), String> {
    let Some(decision) = hand.to_act() else {
        return Err(
            "the hand is over (is_terminal() is true): no action is legal; start a new state"
                .into(),
        );
    };
    if let Some(seat) = seat
        && seat != decision.seat as i64
    {
        return Err(format!(
            "seat {seat} is not the one to decide: seat {} is ({} decision); its legal actions: {}",
            decision.seat,
            decision.kind.name(),
            table.listing(&table.space.legal_ids(hand.legal_set().iter()))
        ));
    }
    let size = table.space.len();
    match usize::try_from(id) {
        Ok(id) if id < size => Ok((decision.seat, id)),
        _ => Err(format!(
            "action {id} is outside this table's action space (0 to {}); legal now: {}",
            size - 1,
            table.listing(&table.space.legal_ids(hand.legal_set().iter()))
        )),
    }
}

/// The engine's action for an id in the space.
pub fn action_of(table: &Table, hand: &Hand, seat: usize, id: usize) -> Result<Action, String> {
    // A swap id names one of the seat's own cards (by card-index order), which the seat to act
    // at a swap always sees (Closest to 555 has no blind play).
    let cards =
        (hand.to_act().map(|d| d.kind) == Some(DecisionKind::Swap)).then(|| hand.cards(seat));
    table
        .space
        .action(id, cards)
        .ok_or_else(|| refusal(table, hand, id, "there is no swap decision"))
}

/// "action 2 (show) is not legal: <reason>; legal now: ...".
pub fn refusal(table: &Table, hand: &Hand, id: usize, reason: &str) -> String {
    format!(
        "action {id} ({}) is not legal: {reason}; legal now: {}",
        table.space.name(id).unwrap_or_default(),
        table.listing(&table.space.legal_ids(hand.legal_set().iter()))
    )
}
