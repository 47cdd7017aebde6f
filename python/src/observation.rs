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

use rules::{DecisionKind, SeatView};

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

    /// Writes `view` (the viewer's; `sideshow_from` the asker when the viewer must reply to a
    /// sideshow) into `out`, which must be `len()` long. Every value is written.
    pub fn encode(&self, view: &SeatView, sideshow_from: Option<usize>, out: &mut [f32]) {
        let n = self.seats;
        debug_assert_eq!(out.len(), self.len());
        out.fill(0.0);
        let me = view.seat;
        let relative = |seat: usize| (seat + n - me) % n;
        if let Some(cards) = view.cards {
            for c in cards {
                out[c.index()] = 1.0;
            }
        }
        for (&seat, cards) in &view.known {
            let base = 52 * relative(seat);
            for c in cards {
                out[base + c.index()] = 1.0;
            }
        }
        let players = 52 * n;
        for (seat, p) in view.players.iter().enumerate() {
            let r = relative(seat);
            let known = if seat == me {
                view.cards.is_some()
            } else {
                view.known.contains_key(&seat)
            };
            let at = players + PER_PLAYER * r;
            out[at..at + PER_PLAYER].copy_from_slice(&[
                f32::from(u8::from(p.in_hand)),
                f32::from(u8::from(p.seen)),
                f32::from(u8::from(p.dead)),
                p.put_in as f32 / self.boot,
                p.turns as f32,
                p.swaps as f32,
                f32::from(u8::from(seat == view.dealer)),
                f32::from(u8::from(known)),
            ]);
        }
        let at = players + PER_PLAYER * n;
        out[at] = view.pot as f32 / self.boot;
        out[at + 1] = view.stake as f32 / self.boot;
        if let Some(decision) = view.to_act.filter(|d| d.seat == me) {
            let k = match decision.kind {
                DecisionKind::Swap => 0,
                DecisionKind::Bet => 1,
                DecisionKind::SideshowReply => 2,
            };
            out[at + 2 + k] = 1.0;
            if let (DecisionKind::SideshowReply, Some(asker)) = (decision.kind, sideshow_from) {
                out[at + 5 + relative(asker)] = 1.0;
            }
        }
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
        layout.encode(&hand.view(seat), None, &mut out);
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
}
