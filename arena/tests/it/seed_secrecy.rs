//! A bot cannot learn the deal from its hello seed.
//!
//! The attacker is modelled apart from the arena's code: it knows only what seat 0 received
//! (its hello seed and its first hand's cards, from its `--transcripts` file) and the public
//! deal algorithm (`rules`). It tries every match seed it can think of: the ones the old
//! SplitMix64 bot seed gave away (inverting it, 2,048 candidates after the 53-bit cut), the
//! first 2^20 small seeds, and the hello seed itself. A candidate that deals seat 0 its cards
//! and also deals seat 1 its real cards (from the replay) means the deal leaked.
//!
//! The search is shown to work: fed the old derivation's hello seed, or a small match seed,
//! it finds the deal (`the_search_finds_the_deal_when_the_seed_is_weak`).

use crate::common;

use std::path::Path;

use common::{run_arena, sample_bot, stderr, stdout};
use rules::{Card, Deck, Event, Hand, Settings, Variant};
use serde_json::Value;

/// Small match seeds the attacker tries (0 up to this).
const SMALL_SEEDS: u64 = 1 << 20;

const GAME: Variant = Variant::Closest555;

/// The bot seed of the arena before the fix: SplitMix64 of the match seed and the seat.
fn old_bot_seed(match_seed: u64, seat: u64) -> u64 {
    let mut z = match_seed.wrapping_add((seat + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Undoes `z ^= z >> shift`.
fn unxorshift(y: u64, shift: u32) -> u64 {
    let mut x = y;
    for _ in 0..64 / shift {
        x = y ^ (x >> shift);
    }
    x
}

/// The inverse of an odd number modulo 2^64 (Newton's iteration).
fn inverse(a: u64) -> u64 {
    let mut x = a;
    for _ in 0..6 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
    }
    x
}

/// Every match seed whose old hello seed (53 bits of the old bot seed) for `seat` is `hello`.
fn invert_old_hello(hello: u64, seat: u64) -> impl Iterator<Item = u64> {
    (0..1u64 << 11).map(move |top| {
        let mut z = hello | (top << 53);
        z = unxorshift(z, 31).wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
        z = unxorshift(z, 27).wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
        z = unxorshift(z, 30);
        z.wrapping_sub((seat + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    })
}

/// Each seat's first-hand cards (hand 0, dealer 0, two seats) when the match seed is `seed`.
fn first_hands(seed: u64) -> [Vec<Card>; 2] {
    let (_, events) = Hand::seeded(Settings::new(GAME), 2, 0, seed, 0).unwrap();
    let mut hands = [Vec::new(), Vec::new()];
    for event in events {
        if let Event::Dealt {
            seat,
            cards: Some(cards),
            ..
        } = event
        {
            hands[seat] = sorted(cards.to_vec());
        }
    }
    hands
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort_by_key(|c| c.index());
    cards
}

/// The match seeds the attacker tries, given seat 0's hello seed.
fn candidates(hello: u64) -> impl Iterator<Item = u64> {
    invert_old_hello(hello, 0)
        .chain(0..SMALL_SEEDS)
        .chain([hello])
}

/// The attack: the candidate seeds that deal seat 0 its cards, with the seat 1 cards each
/// would deal. A quick filter first (with two seats, seat 0's cards are among the first six
/// of the pack), then the engine's own deal.
fn attack(hello: u64, seat0: &[Card]) -> Vec<(u64, Vec<Card>)> {
    candidates(hello)
        .filter(|&seed| {
            let deck = Deck::shuffled(seed, 0, 0);
            seat0.iter().all(|c| deck.cards()[..6].contains(c))
        })
        .filter_map(|seed| {
            let [zero, one] = first_hands(seed);
            (zero == seat0).then_some((seed, one))
        })
        .collect()
}

#[test]
fn the_search_finds_the_deal_when_the_seed_is_weak() {
    // The old derivation: a large, secret match seed is recovered from one hello seed.
    let secret = 0xC0FF_EE12_3456_789A;
    let [zero, one] = first_hands(secret);
    let old_hello = old_bot_seed(secret, 0) & ((1 << 53) - 1);
    let found = attack(old_hello, &zero);
    assert!(
        found.contains(&(secret, one.clone())),
        "the old hello seed gives the deal away: {found:?}"
    );
    // A small match seed is found whatever the hello says: keep seeds secret and large.
    let [zero, one] = first_hands(7);
    assert!(attack(12345, &zero).contains(&(7, one)));
}

/// Seat 0's hello seed and its first-hand cards, from its transcript.
fn seen_by_seat0(transcript: &Path) -> (u64, Vec<Card>) {
    let text = std::fs::read_to_string(transcript).unwrap();
    let mut hello = None;
    for line in text.lines().filter_map(|l| l.strip_prefix(">> ")) {
        let message: Value = serde_json::from_str(line).unwrap();
        match (message["type"].as_str(), message["event"].as_str()) {
            (Some("hello"), _) => hello = message["seed"].as_u64(),
            (Some("event"), Some("dealt")) if message["hand"] == 0 && message["seat"] == 0 => {
                let cards = message["cards"].as_array().expect("its own cards");
                let cards = cards
                    .iter()
                    .map(|c| c.as_str().unwrap().parse().unwrap())
                    .collect();
                return (hello.expect("hello first"), sorted(cards));
            }
            _ => {}
        }
    }
    panic!("{}: no first deal for seat 0", transcript.display())
}

/// Seat 1's real first-hand cards and the match seed, from the replay.
fn truth(replay: &Path) -> (u64, Vec<Card>) {
    let text = std::fs::read_to_string(replay).unwrap();
    let mut seed = None;
    for line in text.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        if record["type"] == "header" {
            seed = record["seed"].as_u64();
        }
        if record["event"] == "dealt" && record["hand"] == 0 && record["seat"] == 1 {
            let cards = serde_json::from_value(record["cards"].clone()).unwrap();
            return (seed.unwrap(), sorted(cards));
        }
    }
    panic!("{}: no first deal for seat 1", replay.display())
}

/// Plays a two-seat match (with `--seed` when given) and attacks it from seat 0.
fn attack_a_match(seed: Option<u64>) {
    let dir = tempfile::tempdir().unwrap();
    let transcripts = dir.path().join("transcripts");
    let replay = dir.path().join("replay.jsonl");
    let random = sample_bot("random-bot");
    let seed_text = seed.map(|s| s.to_string());
    let mut args = vec![
        "match",
        "--game",
        "closest-555",
        "--hands",
        "1",
        "--json",
        "--bot",
        &random,
        "--bot",
        &random,
        "--transcripts",
        transcripts.to_str().unwrap(),
        "--replay",
        replay.to_str().unwrap(),
    ];
    if let Some(seed) = &seed_text {
        args.extend(["--seed", seed]);
    }
    let out = run_arena(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let (match_seed, seat1) = truth(&replay);
    let summary: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(summary["seed"].as_u64(), Some(match_seed));
    if let Some(seed) = seed {
        assert_eq!(match_seed, seed);
    }
    let (hello, seat0) = seen_by_seat0(&transcripts.join("seat0.txt"));
    assert!(hello < 1 << 53, "the hello seed fits a double: {hello}");
    // The model deals what the arena dealt (else the search below would prove nothing).
    assert_eq!(first_hands(match_seed), [seat0.clone(), seat1.clone()]);
    let leaks: Vec<u64> = attack(hello, &seat0)
        .into_iter()
        .filter(|(_, one)| *one == seat1)
        .map(|(seed, _)| seed)
        .collect();
    assert!(
        leaks.is_empty(),
        "match seed {match_seed}: seat 0 can compute seat 1's cards from seeds {leaks:?}"
    );
}

#[test]
fn a_bot_cannot_find_the_deal_of_a_match_with_a_drawn_seed() {
    attack_a_match(None);
}

#[test]
fn a_bot_cannot_find_the_deal_of_a_match_with_a_large_explicit_seed() {
    attack_a_match(Some(0xC0FF_EE12_3456_789A));
}

/// `arena match` without `--seed` and with a replay: the seed it printed.
fn match_with_a_drawn_seed(replay: &Path) -> u64 {
    let random = sample_bot("random-bot");
    let out = run_arena(&[
        "match",
        "--game",
        "classic",
        "--hands",
        "5",
        "--bot",
        &random,
        "--bot",
        &random,
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let first = text.lines().next().unwrap();
    let seed = first
        .rsplit_once("seed ")
        .and_then(|(_, s)| s.parse().ok())
        .unwrap_or_else(|| panic!("no seed in the summary: {text}"));
    assert_eq!(
        truth_seed(replay),
        seed,
        "the replay records the printed seed"
    );
    seed
}

fn truth_seed(replay: &Path) -> u64 {
    let text = std::fs::read_to_string(replay).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    header["seed"].as_u64().unwrap()
}

#[test]
fn a_match_without_a_seed_draws_one_records_it_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.jsonl");
    let second = dir.path().join("second.jsonl");
    let a = match_with_a_drawn_seed(&first);
    let b = match_with_a_drawn_seed(&second);
    assert_ne!(a, b, "two matches drew the same seed");
    for replay in [&first, &second] {
        let verified = run_arena(&["replay", "verify", replay.to_str().unwrap()]);
        assert!(verified.status.success(), "{}", stderr(&verified));
    }
}

/// A seed written in a shipped template is known to everyone who reads the repository, and
/// with it every deal of a run made from that file: a template that grades, ranks or decides
/// leaves the seed to the operating system (only the demo, which decides nothing, fixes one).
#[test]
fn no_shipped_template_but_the_demo_fixes_a_seed() {
    let dir = common::root().join("tournaments");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let file: toml::Table = toml::from_str(&text).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        if name != "demo.toml" {
            assert!(
                !file.contains_key("seed"),
                "{name} fixes `seed`: leave it to the operating system"
            );
        }
        checked += 1;
    }
    assert!(
        checked >= 6,
        "only {checked} templates in {}",
        dir.display()
    );
}
