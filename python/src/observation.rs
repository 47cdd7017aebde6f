//! The fixed-size numeric observation of one seat: what that seat may know (its `SeatView`,
//! the protocol request's content), as float32, seats counted from the viewer (0 is the
//! viewer, 1 the next seat clockwise, ...) so that one policy serves every seat.
//!
//! | field | size | meaning |
//! |---|---|---|
//! | `own_cards` | 52 | 1 at each of the viewer's cards (index rank * 4 + suit: 2c 2d 2h 2s 3c ... As), once it has seen them |
//! | `known_cards` | 52 (N-1) | per other seat (relative 1..N-1): its cards revealed to the viewer (show, sideshow, group reveal) |
//! | `players` | 8 N | per seat (relative 0..N-1): in_hand, seen, dead, put_in / boot, turns, swaps, is_dealer, cards known to the viewer |
//! | `pot_stake` | 2 | pot / boot, stake / boot |
//! | `decision` | 3 | one-hot of the viewer's decision now: swap, bet, sideshow_reply (all 0 when it is not the viewer's) |
//! | `sideshow_from` | N | one-hot (relative seat) of who asks the viewer for a sideshow, at a sideshow reply |
//!
//! Total: 61 N + 5 values for N seats. Chips are counted in boots, so tables that differ only
//! in the boot's size look alike.

use protocol::Request;
use rules::{Card, DecisionKind, Hand, PlayerView};

/// One field of the tensor: name, offset, size.
pub type Field = (&'static str, usize, usize);

const PER_PLAYER: usize = 8;

/// The tensor of a table of `seats` seats with this boot.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    seats: usize,
    boot: f32,
}

impl Layout {
    pub fn new(seats: usize, boot: u64) -> Layout {
        Layout {
            seats,
            boot: boot as f32,
        }
    }

    pub fn len(&self) -> usize {
        61 * self.seats + 5
    }

    pub fn fields(&self) -> Vec<Field> {
        let n = self.seats;
        let sizes = [
            ("own_cards", 52),
            ("known_cards", 52 * (n - 1)),
            ("players", PER_PLAYER * n),
            ("pot_stake", 2),
            ("decision", 3),
            ("sideshow_from", n),
        ];
        let mut offset = 0;
        sizes
            .into_iter()
            .map(|(name, size)| {
                offset += size;
                (name, offset - size, size)
            })
            .collect()
    }

    /// Writes what `seen` shows its viewer into `out`, which must be `len()` long. Every value
    /// is written.
    pub fn encode(&self, seen: &impl Seen, out: &mut [f32]) {
        let n = self.seats;
        debug_assert_eq!(out.len(), self.len());
        out.fill(0.0);
        let me = seen.viewer();
        let relative = |seat: usize| (seat + n - me) % n;
        let players = 52 * n;
        let dealer = seen.dealer();
        for seat in 0..n {
            let r = relative(seat);
            let cards = seen.cards_of(seat);
            if let Some(cards) = cards {
                for c in cards {
                    out[52 * r + c.index()] = 1.0;
                }
            }
            let p = seen.player(seat);
            let at = players + PER_PLAYER * r;
            out[at..at + PER_PLAYER].copy_from_slice(&[
                f32::from(u8::from(p.in_hand)),
                f32::from(u8::from(p.seen)),
                f32::from(u8::from(p.dead)),
                p.put_in as f32 / self.boot,
                p.turns as f32,
                p.swaps as f32,
                f32::from(u8::from(seat == dealer)),
                f32::from(u8::from(cards.is_some())),
            ]);
        }
        let at = players + PER_PLAYER * n;
        out[at] = seen.pot() as f32 / self.boot;
        out[at + 1] = seen.stake() as f32 / self.boot;
        if let Some(kind) = seen.decision() {
            let k = match kind {
                DecisionKind::Swap => 0,
                DecisionKind::Bet => 1,
                DecisionKind::SideshowReply => 2,
            };
            out[at + 2 + k] = 1.0;
            if let (DecisionKind::SideshowReply, Some(asker)) = (kind, seen.sideshow_from()) {
                out[at + 5 + relative(asker)] = 1.0;
            }
        }
    }
}

/// What one seat knows, from either source the tensor is made from: the engine's hand (the
/// state and batch APIs, without building a view) or a protocol request (`serve`). One encoder
/// over both keeps training and play seeing the same numbers.
pub trait Seen {
    fn viewer(&self) -> usize;
    fn dealer(&self) -> usize;
    fn pot(&self) -> u64;
    fn stake(&self) -> u64;
    /// The seat's cards if the viewer knows them (its own once seen; others' once revealed).
    fn cards_of(&self, seat: usize) -> Option<[Card; 3]>;
    fn player(&self, seat: usize) -> PlayerView;
    /// The viewer's decision now, if it is the one to decide.
    fn decision(&self) -> Option<DecisionKind>;
    /// At a sideshow reply: the seat that asked.
    fn sideshow_from(&self) -> Option<usize>;
}

/// A hand as `seat` sees it.
pub struct HandSeat<'a> {
    pub hand: &'a Hand,
    pub seat: usize,
}

impl Seen for HandSeat<'_> {
    fn viewer(&self) -> usize {
        self.seat
    }
    fn dealer(&self) -> usize {
        self.hand.dealer()
    }
    fn pot(&self) -> u64 {
        self.hand.pot()
    }
    fn stake(&self) -> u64 {
        self.hand.stake()
    }
    fn cards_of(&self, seat: usize) -> Option<[Card; 3]> {
        self.hand
            .knows(self.seat, seat)
            .then(|| self.hand.cards(seat))
    }
    fn player(&self, seat: usize) -> PlayerView {
        self.hand.player(seat)
    }
    fn decision(&self) -> Option<DecisionKind> {
        self.hand
            .to_act()
            .filter(|d| d.seat == self.seat)
            .map(|d| d.kind)
    }
    fn sideshow_from(&self) -> Option<usize> {
        self.hand.sideshow_asker()
    }
}

/// A protocol request as received by the seat `seat` (from its hello).
pub struct RequestSeat<'a> {
    pub request: &'a Request,
    pub seat: usize,
}

impl Seen for RequestSeat<'_> {
    fn viewer(&self) -> usize {
        self.seat
    }
    fn dealer(&self) -> usize {
        self.request.dealer
    }
    fn pot(&self) -> u64 {
        self.request.pot
    }
    fn stake(&self) -> u64 {
        self.request.stake
    }
    fn cards_of(&self, seat: usize) -> Option<[Card; 3]> {
        if seat == self.seat {
            self.request.cards
        } else {
            self.request.known.get(&seat).copied()
        }
    }
    fn player(&self, seat: usize) -> PlayerView {
        self.request.players[seat].clone()
    }
    fn decision(&self) -> Option<DecisionKind> {
        Some(self.request.kind)
    }
    fn sideshow_from(&self) -> Option<usize> {
        self.request.sideshow_from
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{Hand, Settings, Variant};

    #[test]
    fn fields_tile_the_tensor_and_cards_land_where_documented() {
        for n in [2, 5, 17] {
            let layout = Layout::new(n, 1);
            let fields = layout.fields();
            assert_eq!(fields.iter().map(|f| f.2).sum::<usize>(), layout.len());
            for w in fields.windows(2) {
                assert_eq!(w[0].1 + w[0].2, w[1].1);
            }
        }
        let (hand, _) = Hand::seeded(Settings::new(Variant::Closest555), 3, 0, 7, 0).unwrap();
        let layout = Layout::new(3, 1);
        let mut out = vec![9.0; layout.len()];
        let seat = hand.to_act().unwrap().seat;
        layout.encode(&HandSeat { hand: &hand, seat }, &mut out);
        let mine: Vec<usize> = (0..52).filter(|&i| out[i] == 1.0).collect();
        let mut expected: Vec<usize> = hand.cards(seat).iter().map(|c| c.index()).collect();
        expected.sort();
        assert_eq!(mine, expected);
        assert!(
            out[52..52 * 3].iter().all(|&v| v == 0.0),
            "nothing of the others is known yet"
        );
        let decision = layout.fields()[4].1;
        assert_eq!(
            &out[decision..decision + 3],
            &[1.0, 0.0, 0.0],
            "a swap decision"
        );
        let players = layout.fields()[2].1;
        assert_eq!(out[players + 3], 1.0, "the boot, in boots");
    }

    /// The hand and the request the arena would send give the same tensor: training (state,
    /// batch) and play (`serve`) see the same numbers.
    #[test]
    fn a_hand_and_its_request_encode_alike() {
        for variant in Variant::ALL {
            let settings = Settings::new(variant);
            for seed in 0..200u64 {
                let seats = 2 + (seed % 5) as usize;
                let (mut hand, _) = Hand::seeded(settings, seats, 0, seed, 0).unwrap();
                let layout = Layout::new(seats, 1);
                let (mut a, mut b) = (vec![0.0; layout.len()], vec![0.0; layout.len()]);
                let mut step = seed;
                while let Some(d) = hand.to_act() {
                    let request = protocol::Request::from_hand(&hand, 0, d.kind, d.seat, 1, 0, 0);
                    layout.encode(
                        &HandSeat {
                            hand: &hand,
                            seat: d.seat,
                        },
                        &mut a,
                    );
                    layout.encode(
                        &RequestSeat {
                            request: &request,
                            seat: d.seat,
                        },
                        &mut b,
                    );
                    assert_eq!(a, b);
                    let legal = hand.legal();
                    step = step
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let entry = &legal[(step >> 33) as usize % legal.len()];
                    let action = entry.instance(|n| (step >> 40) % n);
                    hand.apply(d.seat, action).unwrap();
                }
            }
        }
    }
}
