//! The fixed action space of a game and table: every action the arena accepts has one id, the
//! same for the whole table, so a policy's output layer and a mask line up at every decision.
//!
//! | id | action |
//! |---|---|
//! | 0 | pack |
//! | 1 | see (classic, a blind seat) |
//! | 2 | show |
//! | 3 | sideshow |
//! | 4 | keep (Closest to 555) |
//! | 5, 6, 7 | swap the seat's lowest, middle, highest card in card-index order (2c 2d 2h 2s 3c ... As) |
//! | 8 | accept a sideshow |
//! | 9 | refuse a sideshow |
//! | 10 + k | bet `amounts[k]` chips |
//!
//! `amounts` are all the bet amounts the table can ever offer, ascending. A blind bet is S to
//! 2S and a seen bet an even 2S to 4S, with boot <= S <= max_stake; so the classic game offers
//! every amount from `boot` to `max_stake` and the even ones above it up to `2 * max_stake`,
//! and the two games without blind play the even amounts from `2 * boot` to `2 * max_stake`.

use rules::{Action, Card, LegalAction, Settings};

pub const PACK: usize = 0;
pub const SEE: usize = 1;
pub const SHOW: usize = 2;
pub const SIDESHOW: usize = 3;
pub const KEEP: usize = 4;
pub const SWAP: usize = 5;
pub const ACCEPT: usize = 8;
pub const REFUSE: usize = 9;
pub const FIRST_BET: usize = 10;

/// The most actions a table's space may have. A table with a chaal limit so far above its boot
/// that its bets alone pass this is refused: a mask of millions of entries per step helps no
/// one, and the arena plays it all the same.
pub const MAX_ACTIONS: usize = 1 << 16;

/// The seat's cards in card-index order: what swap ids 5, 6, 7 name. The order of the tensor's
/// `own_cards` bits, so that a policy that sees only the tensor knows which card each id swaps
/// (the order cards were dealt in is not in the tensor).
pub fn swap_order(mut cards: [Card; 3]) -> [Card; 3] {
    cards.sort_by_key(|c| c.index());
    cards
}

/// The action space of one table.
#[derive(Clone, Debug)]
pub struct ActionSpace {
    amounts: Vec<u64>,
}

impl ActionSpace {
    pub fn new(settings: &Settings) -> Result<ActionSpace, String> {
        let (boot, max_stake) = (settings.boot, settings.max_stake);
        // Counted before anything is allocated: max_stake may be 2^40.
        let count = if settings.variant.has_blind_play() {
            // Every amount up to the chaal limit, then the even ones up to twice it.
            (max_stake - boot + 1) + max_stake.div_ceil(2)
        } else {
            max_stake - boot + 1
        };
        if count > (MAX_ACTIONS - FIRST_BET) as u64 {
            return Err(format!(
                "setting max_stake: a table whose bets run from {boot} to {} chips has {count} bet \
                 amounts, more than the {} an action space may hold; lower max_stake or raise boot",
                2 * max_stake,
                MAX_ACTIONS - FIRST_BET
            ));
        }
        let amounts = if settings.variant.has_blind_play() {
            (boot..=max_stake)
                .chain((max_stake + 1..=2 * max_stake).filter(|a| a % 2 == 0))
                .collect()
        } else {
            (boot..=max_stake).map(|s| 2 * s).collect()
        };
        Ok(ActionSpace { amounts })
    }

    pub fn len(&self) -> usize {
        FIRST_BET + self.amounts.len()
    }

    pub fn amounts(&self) -> &[u64] {
        &self.amounts
    }

    /// The id of a bet of `amount`, if the table can ever offer it.
    pub fn bet_id(&self, amount: u64) -> Option<usize> {
        self.amounts
            .binary_search(&amount)
            .ok()
            .map(|k| FIRST_BET + k)
    }

    /// The action with this id, for a seat holding `cards` (swaps name a card by its rank in
    /// [`swap_order`]);
    /// `None` for an id outside the space.
    pub fn action(&self, id: usize, cards: Option<[Card; 3]>) -> Option<Action> {
        Some(match id {
            PACK => Action::Pack,
            SEE => Action::See,
            SHOW => Action::Show,
            SIDESHOW => Action::Sideshow,
            KEEP => Action::Keep,
            ACCEPT => Action::Accept,
            REFUSE => Action::Refuse,
            SWAP..ACCEPT => Action::Swap {
                card: swap_order(cards?)[id - SWAP],
            },
            _ => Action::Bet {
                amount: *self.amounts.get(id.checked_sub(FIRST_BET)?)?,
            },
        })
    }

    /// The id of `action` for a seat holding `cards`.
    pub fn id(&self, action: &Action, cards: Option<[Card; 3]>) -> Option<usize> {
        Some(match action {
            Action::Pack => PACK,
            Action::See => SEE,
            Action::Show => SHOW,
            Action::Sideshow => SIDESHOW,
            Action::Keep => KEEP,
            Action::Accept => ACCEPT,
            Action::Refuse => REFUSE,
            Action::Swap { card } => SWAP + swap_order(cards?).iter().position(|c| c == card)?,
            Action::Bet { amount } => self.bet_id(*amount)?,
        })
    }

    /// The id's name for people and logs: `pack`, `bet 4`, `swap #1` (the card's rank in
    /// [`swap_order`], as the space has no card names).
    pub fn name(&self, id: usize) -> Option<String> {
        Some(match id {
            SWAP..ACCEPT => format!("swap #{}", id - SWAP),
            FIRST_BET.. => format!("bet {}", self.amounts.get(id - FIRST_BET)?),
            _ => self.action(id, None)?.name().to_string(),
        })
    }

    /// Marks in `mask` (of length `len()`, cleared by the caller) every id the legal set allows.
    pub fn fill_mask<'a>(
        &self,
        legal: impl IntoIterator<Item = &'a LegalAction>,
        mask: &mut [bool],
    ) {
        for entry in legal {
            match *entry {
                LegalAction::Pack => mask[PACK] = true,
                LegalAction::See => mask[SEE] = true,
                LegalAction::Show { .. } => mask[SHOW] = true,
                LegalAction::Sideshow { .. } => mask[SIDESHOW] = true,
                LegalAction::Keep => mask[KEEP] = true,
                LegalAction::Accept => mask[ACCEPT] = true,
                LegalAction::Refuse => mask[REFUSE] = true,
                LegalAction::Swap { .. } => mask[SWAP..ACCEPT].fill(true),
                LegalAction::Bet {
                    min,
                    max,
                    multiple_of,
                } => {
                    let from = self.amounts.partition_point(|&a| a < min);
                    let to = self.amounts.partition_point(|&a| a <= max);
                    for k in from..to {
                        if self.amounts[k].is_multiple_of(multiple_of) {
                            mask[FIRST_BET + k] = true;
                        }
                    }
                }
            }
        }
    }

    /// The legal ids, ascending.
    pub fn legal_ids<'a>(&self, legal: impl IntoIterator<Item = &'a LegalAction>) -> Vec<usize> {
        let mut mask = vec![false; self.len()];
        self.fill_mask(legal, &mut mask);
        (0..mask.len()).filter(|&i| mask[i]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::{Hand, Variant};

    /// Every action the engine offers, over many random hands of every game, has an id that
    /// maps back to it and is in the mask; every id in the mask is accepted by the engine.
    #[test]
    fn ids_and_masks_agree_with_the_engine_on_random_hands() {
        for variant in Variant::ALL {
            for (boot, max_stake) in [(1, 64), (3, 10), (2, 2)] {
                let mut settings = Settings::new(variant);
                (settings.boot, settings.max_stake) = (boot, max_stake);
                let space = ActionSpace::new(&settings).unwrap();
                let mut x = 12345u64;
                let mut next = |n: usize| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % n as u64) as usize
                };
                for seed in 0..300 {
                    let (mut hand, _) =
                        Hand::seeded(settings, 2 + seed as usize % 4, 0, seed, 0).unwrap();
                    while let Some(d) = hand.to_act() {
                        let legal = hand.legal();
                        let cards = Some(hand.cards(d.seat));
                        let ids = space.legal_ids(&legal);
                        for entry in &legal {
                            let mut offered = Vec::new();
                            let choices = match entry {
                                LegalAction::Bet {
                                    min,
                                    max,
                                    multiple_of,
                                } => (max - min) / multiple_of + 1,
                                LegalAction::Swap { .. } => 3,
                                _ => 1,
                            };
                            for k in 0..choices {
                                offered.push(entry.instance(|_| k));
                            }
                            for action in offered {
                                let id = space
                                    .id(&action, cards)
                                    .expect("every legal action has an id");
                                assert_eq!(space.action(id, cards), Some(action));
                                assert!(ids.contains(&id), "{action:?} not in the mask");
                            }
                        }
                        for &id in &ids {
                            let action = space.action(id, cards).unwrap();
                            assert!(
                                hand.clone().apply(d.seat, action).is_ok(),
                                "{id} {action:?}"
                            );
                        }
                        let id = ids[next(ids.len())];
                        hand.apply(d.seat, space.action(id, cards).unwrap())
                            .unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn a_space_too_large_is_refused_naming_the_setting() {
        let mut settings = Settings::new(Variant::Classic);
        settings.max_stake = 1 << 40;
        let err = ActionSpace::new(&settings).unwrap_err();
        assert!(err.starts_with("setting max_stake:"), "{err}");
        let space = ActionSpace::new(&Settings::new(Variant::Closest555)).unwrap();
        assert_eq!(space.len(), 10 + 64);
        assert_eq!(space.name(10).as_deref(), Some("bet 2"));
        assert_eq!(space.name(6).as_deref(), Some("swap #1"));
        assert_eq!(space.name(0).as_deref(), Some("pack"));
        assert_eq!(space.name(74), None);
        let classic = ActionSpace::new(&Settings::new(Variant::Classic)).unwrap();
        assert_eq!(classic.len(), 10 + 64 + 32);
    }
}
