//! Building a request from what the deciding seat may know.

use protocol::{DecisionKind, Request};
use rules::Hand;

/// The request for `seat`'s decision, from `Hand::view(seat)` (nothing it may not know).
pub fn build_request(
    hand: &Hand,
    hand_index: u64,
    kind: DecisionKind,
    seat: usize,
    id: u64,
    time_ms: u64,
    bank_ms: u64,
) -> Request {
    let view = hand.view(seat);
    Request {
        id,
        hand: hand_index,
        kind,
        legal: view.legal,
        pot: view.pot,
        stake: view.stake,
        dealer: view.dealer,
        sideshow_from: hand.sideshow_asker(),
        cards: view.cards,
        players: view.players,
        known: view.known,
        time_ms,
        bank_ms,
    }
}
