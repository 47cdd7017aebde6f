//! The deal: a version-stable shuffle derived from a 64-bit seed.
//!
//! Algorithm (version 1), fixed so that replays and duplicate matches rebuild every deal:
//! 1. A 32-byte ChaCha8 key: bytes 0..8 = `seed` (little-endian), 8..16 = `hand` (the hand's
//!    index in the match, little-endian), 16..24 = `redeal` (0 for the first deal of a hand,
//!    then 1, 2, ... for Lallan Kallan's all-dead redeals), 24..32 = zero. Stream 0.
//! 2. The pack in canonical order (2c 2d 2h 2s 3c ... As, see [`Card::from_index`]).
//! 3. Fisher-Yates from the last position down: for i = 51..=1, j = below(i + 1), swap(i, j),
//!    where below(n) draws `next_u64` values and rejects those at or above the largest multiple
//!    of n (unbiased), then returns x % n.
//! 4. Cards are drawn from the front: position 0 is the first card dealt.
//!
//! Only `rand_chacha`'s raw ChaCha8 output is used (it is tested against reference vectors
//! and portable); rand's own shuffles may change between releases, ours may not. The golden
//! test in this file pins the result.

use std::sync::LazyLock;

use rand_chacha::{ChaCha8Core, ChaCha8Rng};
use rand_core::block::BlockRngCore;
use rand_core::{RngCore, SeedableRng};

use crate::card::Card;

/// Version of the deal algorithm, recorded in replays.
pub const DEAL_ALGORITHM: &str = "chacha8-fisher-yates-v1";

/// A shuffled pack and how far it has been drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    cards: [Card; 52],
    next: usize,
}

impl Deck {
    /// The shuffled pack for one deal of a match.
    pub fn shuffled(seed: u64, hand: u64, redeal: u64) -> Deck {
        let mut key = [0u8; 32];
        key[0..8].copy_from_slice(&seed.to_le_bytes());
        key[8..16].copy_from_slice(&hand.to_le_bytes());
        key[16..24].copy_from_slice(&redeal.to_le_bytes());
        let cards = match shuffle_unrejected(&first_words(key)) {
            Some(cards) => cards,
            // A word was rejected (each draw has a chance below 2^-58): the general algorithm.
            None => shuffle_general(&mut ChaCha8Rng::from_seed(key)),
        };
        Deck { cards, next: 0 }
    }

    /// A deck in a given order (tests and tools: the first cards are dealt first).
    /// Cards not listed follow in canonical order. Duplicates are refused.
    pub fn stacked(top: &[Card]) -> Option<Deck> {
        let mut seen = [false; 52];
        let mut cards = Vec::with_capacity(52);
        for &card in top {
            if std::mem::replace(&mut seen[card.index()], true) {
                return None;
            }
            cards.push(card);
        }
        cards.extend(Card::pack().into_iter().filter(|c| !seen[c.index()]));
        Some(Deck {
            cards: cards.try_into().ok()?,
            next: 0,
        })
    }

    /// Draws the next card. The engine reserves enough cards for every variant's table sizes,
    /// so running out is a bug, not a game situation.
    pub fn draw(&mut self) -> Card {
        let card = self.cards[self.next];
        self.next += 1;
        card
    }

    /// Cards not yet drawn.
    pub fn remaining(&self) -> usize {
        52 - self.next
    }

    /// The whole pack in deal order.
    pub fn cards(&self) -> &[Card; 52] {
        &self.cards
    }
}

/// The pack in canonical order, built once.
static PACK: LazyLock<[Card; 52]> = LazyLock::new(Card::pack);

/// Words a shuffle draws when none is rejected.
const WORDS: usize = 51;

/// The first `next_u64` values of `ChaCha8Rng::from_seed(key)`, straight from the block
/// function. `ChaCha8Rng` is `BlockRng<ChaCha8Core>`: it serves the 32-bit words of each
/// 64-word block in order, a `next_u64` being the next two words, low word first; from an
/// even position it never straddles two blocks. Two blocks give 64 values.
#[inline(always)]
fn first_words(key: [u8; 32]) -> [u64; 64] {
    let mut core = ChaCha8Core::from_seed(key);
    let mut block = <ChaCha8Core as BlockRngCore>::Results::default();
    let mut words = [0u64; 64];
    for half in words.chunks_exact_mut(32) {
        core.generate(&mut block);
        for (word, pair) in half.iter_mut().zip(block.as_ref().chunks_exact(2)) {
            *word = u64::from(pair[0]) | (u64::from(pair[1]) << 32);
        }
    }
    words
}

/// Fisher-Yates on the first 51 words when none of them is rejected: the common case of
/// [`shuffle_general`], straight-line code with a constant divisor at every step (a multiply
/// instead of the two 64-bit divisions per card that were two thirds of the shuffle's time).
/// `None` if a word falls in a rejection zone (the general algorithm then draws again).
#[inline(always)]
fn shuffle_unrejected(words: &[u64; 64]) -> Option<[Card; 52]> {
    let words: &[u64; WORDS] = words[..WORDS].try_into().expect("51 of 64");
    let mut cards = *PACK;
    let mut accepted = true;
    macro_rules! fisher_yates {
        ($($n:literal)*) => {$(
            // Step i = n - 1 draws the (52 - n)-th word.
            let x = words[52 - $n];
            accepted &= x < zone($n);
            cards.swap($n - 1, (x % $n) as usize);
        )*};
    }
    fisher_yates!(
        52 51 50 49 48 47 46 45 44 43 42 41 40 39 38 37 36 35 34 33 32 31 30 29 28 27
        26 25 24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2
    );
    accepted.then_some(cards)
}

/// The shuffle exactly as specified in the module comment: for i = 51..=1, j = below(i + 1),
/// swap(i, j).
fn shuffle_general(rng: &mut ChaCha8Rng) -> [Card; 52] {
    let mut cards = *PACK;
    for i in (1..cards.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        cards.swap(i, j);
    }
    cards
}

/// Draws at or above this are rejected by `below(n)`: the largest multiple of n that fits.
#[inline(always)]
const fn zone(n: u64) -> u64 {
    u64::MAX - (u64::MAX % n)
}

/// An unbiased integer in 0..n (n >= 1) by rejection sampling on 64-bit outputs.
fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    let zone = zone(n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Guards the deal algorithm: if this changes, every recorded replay and published
    /// tournament seed would deal differently. Never update it without bumping
    /// `DEAL_ALGORITHM` and the replay format version.
    #[test]
    fn golden_deal_is_stable_across_versions() {
        let deck = Deck::shuffled(42, 0, 0);
        let first: Vec<String> = deck.cards()[..12].iter().map(|c| c.to_string()).collect();
        assert_eq!(first.join(" "), GOLDEN_SEED_42_HAND_0);
        let other = Deck::shuffled(42, 1, 0);
        let first: Vec<String> = other.cards()[..12].iter().map(|c| c.to_string()).collect();
        assert_eq!(first.join(" "), GOLDEN_SEED_42_HAND_1);
    }

    #[test]
    fn golden_chacha8_output_is_stable() {
        let mut rng = ChaCha8Rng::from_seed([0u8; 32]);
        let words: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
        assert_eq!(words, GOLDEN_CHACHA8_ZERO_KEY);
    }

    /// The shuffle exactly as specified in the module comment, written plainly (a runtime
    /// divisor, one `next_u64` per draw): the fast one must deal the same decks.
    fn reference_shuffle(seed: u64, hand: u64, redeal: u64) -> [Card; 52] {
        fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
            let zone = u64::MAX - (u64::MAX % n);
            loop {
                let x = rng.next_u64();
                if x < zone {
                    return x % n;
                }
            }
        }
        let mut key = [0u8; 32];
        key[0..8].copy_from_slice(&seed.to_le_bytes());
        key[8..16].copy_from_slice(&hand.to_le_bytes());
        key[16..24].copy_from_slice(&redeal.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        let mut cards = Card::pack();
        for i in (1..cards.len()).rev() {
            let j = below(&mut rng, i as u64 + 1) as usize;
            cards.swap(i, j);
        }
        cards
    }

    #[test]
    fn fast_shuffle_equals_the_reference_shuffle() {
        for seed in [0, 1, 42, u64::MAX] {
            for hand in 0..500 {
                for redeal in [0, 1, 99] {
                    assert_eq!(
                        Deck::shuffled(seed, hand, redeal).cards(),
                        &reference_shuffle(seed, hand, redeal),
                        "seed {seed} hand {hand} redeal {redeal}"
                    );
                }
            }
        }
    }

    #[test]
    fn first_words_are_the_generators_next_u64_stream() {
        for key in [[0u8; 32], [7u8; 32], [0xff; 32]] {
            let mut plain = ChaCha8Rng::from_seed(key);
            let expected: Vec<u64> = (0..64).map(|_| plain.next_u64()).collect();
            assert_eq!(first_words(key).to_vec(), expected);
        }
    }

    #[test]
    fn a_rejected_word_falls_back_to_the_general_shuffle() {
        let words = first_words([7u8; 32]);
        let mut plain = ChaCha8Rng::from_seed([7u8; 32]);
        assert_eq!(
            shuffle_unrejected(&words),
            Some(shuffle_general(&mut plain))
        );
        // Step k draws for n = 52 - k; zone(n) is its first rejected word.
        for step in [0, 39, 50] {
            let n = 52 - step as u64;
            let mut bad = words;
            bad[step] = zone(n);
            assert_eq!(shuffle_unrejected(&bad), None, "step {step}");
            let mut ok = words;
            ok[step] = zone(n) - 1;
            assert!(shuffle_unrejected(&ok).is_some(), "step {step}");
        }
    }

    #[test]
    fn every_deal_is_a_permutation_of_the_pack() {
        for hand in 0..200 {
            let deck = Deck::shuffled(7, hand, 0);
            let mut seen = [false; 52];
            for c in deck.cards() {
                assert!(!std::mem::replace(&mut seen[c.index()], true));
            }
        }
    }

    #[test]
    fn seed_hand_and_redeal_each_change_the_deal() {
        let base = Deck::shuffled(1, 2, 3);
        assert_eq!(base, Deck::shuffled(1, 2, 3));
        assert_ne!(base, Deck::shuffled(2, 2, 3));
        assert_ne!(base, Deck::shuffled(1, 3, 3));
        assert_ne!(base, Deck::shuffled(1, 2, 4));
    }

    #[test]
    fn shuffle_is_roughly_uniform() {
        // Where the ace of spades lands over 52,000 deals: each position ~1000 times.
        let ace = "As".parse::<Card>().unwrap();
        let mut counts = [0u32; 52];
        for hand in 0..52_000 {
            let deck = Deck::shuffled(99, hand, 0);
            counts[deck.cards().iter().position(|&c| c == ace).unwrap()] += 1;
        }
        assert!(
            counts.iter().all(|&n| (800..1200).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn stacked_deck_deals_the_given_cards_first() {
        let top = crate::card::cards("As Kd 3h").unwrap();
        let mut deck = Deck::stacked(&top).unwrap();
        assert_eq!(deck.draw(), top[0]);
        assert_eq!(deck.draw(), top[1]);
        assert_eq!(deck.draw(), top[2]);
        assert_eq!(deck.remaining(), 49);
        assert!(Deck::stacked(&[top[0], top[0]]).is_none());
    }

    const GOLDEN_SEED_42_HAND_0: &str = "3h 4c Kd 8s 4h 6c 9d 9h 7h Ad Kc 7c";
    const GOLDEN_SEED_42_HAND_1: &str = "8s 9h 5s 5c 5h Ah 8h Qs 9s Js 2s Th";
    /// ChaCha8 with an all-zero key, stream 0: the published reference keystream begins
    /// 3e 00 ef 2f 89 5f 40 d6 (read here as little-endian words).
    const GOLDEN_CHACHA8_ZERO_KEY: [u64; 4] = [
        0xd640_5f89_2fef_003e,
        0xa1a5_091f_e8b8_5b7f,
        0x3b7f_9ace_c30e_842c,
        0x1e1a_71ef_88e1_1b18,
    ];
}
