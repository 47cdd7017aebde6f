//! No information leaks, end to end: real matches of the real arena and real bots, every line
//! the arena wrote to every bot (`--transcripts`) checked against the whole truth (the
//! replay, `--replay`).
//!
//! The model here is independent of the engine's `view()` and `Event::for_seat`: it follows
//! the replay's full events and says which cards seat `s` may know at each moment:
//!
//! - its own dealt cards: at once in closest-555 and Lallan Kallan, after its own `saw` in
//!   the classic game; the card it draws at its own swap;
//! - both hands of a sideshow, only to the two seats of the sideshow;
//! - every hand shown at a show or a group reveal, to everyone;
//! - nothing of a previous deal after a Lallan Kallan redeal.
//!
//! Every card in every message to `s` (events, requests' `cards`, `known` and legal swap
//! cards) must be one it may know, and never a card of a dead hand (Lallan Kallan) or of a
//! packed hand that was not revealed to it. Each event a bot received must be the replay's
//! event at the same place with at most the card fields left out, and every bot received
//! every event. The hello's seed must differ from the deal's seed and between seats.

use crate::common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use common::{run_arena, sample_bot, stderr};
use serde_json::Value;

/// Fields of an event that carry hidden cards and may be left out for a seat.
const CARD_FIELDS: [&str; 5] = ["cards", "discarded", "drawn", "seat_cards", "target_cards"];

/// One match to play and check.
struct Case {
    game: &'static str,
    hands: u64,
    seed: u64,
    /// `true`: the Monte-Carlo bot (asks for shows and sideshows with strong hands).
    bots: &'static [bool],
}

const CASES: [Case; 9] = [
    Case {
        game: "classic",
        hands: 400,
        seed: 101,
        bots: &[false, true],
    },
    Case {
        game: "classic",
        hands: 200,
        seed: 102,
        bots: &[false, true, false],
    },
    Case {
        game: "classic",
        hands: 80,
        seed: 103,
        bots: &[false, false, true, false, true, false],
    },
    Case {
        game: "closest-555",
        hands: 400,
        seed: 201,
        bots: &[true, false],
    },
    Case {
        game: "closest-555",
        hands: 200,
        seed: 202,
        bots: &[false, true, false],
    },
    Case {
        game: "closest-555",
        hands: 80,
        seed: 203,
        bots: &[false, true, false, false, true, false],
    },
    Case {
        game: "lallan-kallan",
        hands: 400,
        seed: 301,
        bots: &[false, true],
    },
    Case {
        game: "lallan-kallan",
        hands: 200,
        seed: 302,
        bots: &[true, false, false],
    },
    Case {
        game: "lallan-kallan",
        hands: 80,
        seed: 303,
        bots: &[false, false, true, false, false, true],
    },
];

/// What the checks went through, over all matches: each count must be positive, so that no
/// check passes for lack of material.
#[derive(Debug, Default)]
struct Coverage {
    hands: u64,
    messages: u64,
    cards_checked: u64,
    requests_with_known: u64,
    blind_requests: u64,
    swaps_hidden_from_others: u64,
    sideshows_hidden_from_others: u64,
    reveals: u64,
    packed_hands_hidden: u64,
    dead_hands_hidden: u64,
    redeals: u64,
}

impl Coverage {
    fn add(&mut self, other: &Coverage) {
        self.hands += other.hands;
        self.messages += other.messages;
        self.cards_checked += other.cards_checked;
        self.requests_with_known += other.requests_with_known;
        self.blind_requests += other.blind_requests;
        self.swaps_hidden_from_others += other.swaps_hidden_from_others;
        self.sideshows_hidden_from_others += other.sideshows_hidden_from_others;
        self.reveals += other.reveals;
        self.packed_hands_hidden += other.packed_hands_hidden;
        self.dead_hands_hidden += other.dead_hands_hidden;
        self.redeals += other.redeals;
    }
}

#[test]
fn no_bot_is_ever_sent_a_card_it_may_not_know() {
    let started = Instant::now();
    let random = sample_bot("random-bot");
    let montecarlo = sample_bot("montecarlo-bot");
    // Two matches at a time: the machine may have two cores.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(usize, Coverage)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        let Some(case) = CASES.get(i) else {
                            return done;
                        };
                        done.push((i, play_and_check(case, &random, &montecarlo)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a match check panicked"))
            .collect()
    });
    let mut total = Coverage::default();
    for (i, coverage) in &results {
        eprintln!(
            "{} with {} seats: {coverage:?}",
            CASES[*i].game,
            CASES[*i].bots.len()
        );
        total.add(coverage);
    }
    eprintln!("total: {total:?} in {:.1?}", started.elapsed());
    assert_eq!(results.len(), CASES.len());
    assert!(total.hands >= 2000, "{total:?}");
    for (what, n) in [
        ("requests with known cards", total.requests_with_known),
        ("blind requests", total.blind_requests),
        ("swaps seen by others", total.swaps_hidden_from_others),
        (
            "sideshows seen by a third seat",
            total.sideshows_hidden_from_others,
        ),
        ("reveals", total.reveals),
        ("packed hands", total.packed_hands_hidden),
        ("dead hands", total.dead_hands_hidden),
        ("redeals", total.redeals),
    ] {
        assert!(
            n > 0,
            "no {what}: the leak checks were not exercised ({total:?})"
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(300),
        "took {:?}",
        started.elapsed()
    );
}

/// The checks above would see a leak: plant one in a real transcript and watch them fail.
#[test]
fn the_checker_catches_planted_leaks() {
    let random = sample_bot("random-bot");
    for game in ["closest-555", "classic"] {
        let dir = tempfile::tempdir().unwrap();
        let transcripts = dir.path().join("transcripts");
        let replay = dir.path().join("replay.jsonl");
        let out = run_arena(&[
            "match",
            "--game",
            game,
            "--hands",
            "10",
            "--seed",
            "9",
            "--transcripts",
            transcripts.to_str().unwrap(),
            "--replay",
            replay.to_str().unwrap(),
            "--bot",
            &random,
            "--bot",
            &random,
            "--bot",
            &random,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let truth = Truth::read(&replay);
        let original = std::fs::read_to_string(transcripts.join("seat1.txt")).unwrap();
        // Unchanged, it passes.
        check_seat(
            &truth,
            1,
            &transcripts.join("seat1.txt"),
            game,
            &mut Coverage::default(),
        );
        let mut plants: Vec<(&str, String)> = Vec::new();
        if game == "closest-555" {
            plants.push((
                "another seat's dealt cards",
                plant(&original, |m| {
                    (m["event"] == "dealt" && m["seat"] != 1).then(|| {
                        let full = &truth.hands[&m["hand"].as_u64().unwrap()];
                        let dealt = full
                            .iter()
                            .find(|e| e["event"] == "dealt" && e["seat"] == m["seat"]);
                        m["cards"] = dealt.unwrap()["cards"].clone();
                    })
                }),
            ));
            plants.push((
                "another seat's cards in known",
                plant(&original, |m| {
                    (m["type"] == "request").then(|| {
                        let full = &truth.hands[&m["hand"].as_u64().unwrap()];
                        let dealt = full
                            .iter()
                            .find(|e| e["event"] == "dealt" && e["seat"] == 0);
                        m["known"] = serde_json::json!({"0": dealt.unwrap()["cards"].clone()});
                    })
                }),
            ));
        } else {
            plants.push((
                "its own cards before it saw them",
                plant(&original, |m| {
                    (m["type"] == "request" && m.get("cards").is_none()).then(|| {
                        let full = &truth.hands[&m["hand"].as_u64().unwrap()];
                        let dealt = full
                            .iter()
                            .find(|e| e["event"] == "dealt" && e["seat"] == 1);
                        m["cards"] = dealt.unwrap()["cards"].clone();
                    })
                }),
            ));
        }
        for (leak, text) in plants {
            let path = dir.path().join("planted.txt");
            std::fs::write(&path, text).unwrap();
            let caught = std::panic::catch_unwind(|| {
                check_seat(&truth, 1, &path, game, &mut Coverage::default())
            });
            assert!(caught.is_err(), "{game}: {leak} went unnoticed");
        }
    }
}

/// `transcript` with the first `>>` message that `change` accepts (returns `Some`) changed.
fn plant(transcript: &str, mut change: impl FnMut(&mut Value) -> Option<()>) -> String {
    let mut done = false;
    let mut out = String::new();
    for line in transcript.lines() {
        match line.strip_prefix(">> ") {
            Some(json) if !done => {
                let mut message: Value = serde_json::from_str(json).unwrap();
                done = change(&mut message).is_some();
                out.push_str(&format!(">> {message}\n"));
            }
            _ => out.push_str(&format!("{line}\n")),
        }
    }
    assert!(done, "nothing to plant a leak in");
    out
}

fn play_and_check(case: &Case, random: &str, montecarlo: &str) -> Coverage {
    let started = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let transcripts = dir.path().join("transcripts");
    let replay = dir.path().join("replay.jsonl");
    let hands = case.hands.to_string();
    let seed = case.seed.to_string();
    let mut args = vec![
        "match",
        "--game",
        case.game,
        "--hands",
        &hands,
        "--seed",
        &seed,
        "--json",
        "--transcripts",
        transcripts.to_str().unwrap(),
        "--replay",
        replay.to_str().unwrap(),
        // Generous: only a hung bot could be slower, and these are not.
        "--decision-ms",
        "10000",
    ];
    for &mc in case.bots {
        args.extend(["--bot", if mc { montecarlo } else { random }]);
    }
    let out = run_arena(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let played = started.elapsed();
    let truth = Truth::read(&replay);
    assert_eq!(truth.hands.len() as u64, case.hands);
    let mut coverage = Coverage {
        hands: case.hands,
        ..Coverage::default()
    };
    let mut hello_seeds = Vec::new();
    for seat in 0..case.bots.len() {
        let path = transcripts.join(format!("seat{seat}.txt"));
        let label = format!("{} seat {seat}", case.game);
        let seed = check_seat(&truth, seat, &path, &label, &mut coverage);
        hello_seeds.push(seed);
    }
    let files = std::fs::read_dir(&transcripts).unwrap().count();
    assert_eq!(files, case.bots.len(), "no restarts expected");
    for (seat, seed) in hello_seeds.iter().enumerate() {
        assert_ne!(
            *seed, truth.seed,
            "seat {seat}'s hello seed is the deal seed"
        );
        assert_eq!(
            hello_seeds.iter().filter(|s| *s == seed).count(),
            1,
            "seat {seat} shares its hello seed: {hello_seeds:?}"
        );
    }
    eprintln!(
        "{} with {} seats: played in {played:.1?}, checked in {:.1?}",
        case.game,
        case.bots.len(),
        started.elapsed() - played
    );
    coverage
}

/// The replay: the deal seed, the variant and every hand's full events.
struct Truth {
    seed: u64,
    classic: bool,
    hands: BTreeMap<u64, Vec<Value>>,
}

impl Truth {
    fn read(path: &Path) -> Truth {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap());
        let header = lines.next().unwrap();
        assert_eq!(header["type"], "header");
        let mut hands: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
        for record in lines.filter(|r| r["type"] == "event") {
            let mut event = record;
            let hand = event["hand"].as_u64().unwrap();
            let object = event.as_object_mut().unwrap();
            object.remove("type");
            object.remove("hand");
            hands.entry(hand).or_default().push(event);
        }
        Truth {
            seed: header["seed"].as_u64().unwrap(),
            classic: header["settings"]["variant"] == "classic",
            hands,
        }
    }
}

/// What one seat may know in the current hand, and which cards it must never be sent.
#[derive(Default)]
struct Knowledge {
    /// Cards it may know (of its own, drawn, shown to it).
    allowed: HashSet<String>,
    /// Cards it must not be sent, with the reason (dead or packed hands not shown to it).
    forbidden: HashMap<String, String>,
    /// Every seat's current cards (the truth, to check `cards` and `known`).
    hands: BTreeMap<usize, Vec<String>>,
}

impl Knowledge {
    /// Follows one full event from the replay, from `me`'s point of view.
    fn follow(&mut self, me: usize, classic: bool, event: &Value, coverage: &mut Coverage) {
        let seat = event["seat"].as_u64().map(|s| s as usize);
        match event["event"].as_str().unwrap() {
            "hand_started" => *self = Knowledge::default(),
            "redeal" => {
                // A new deal: nothing of the old one may come up again.
                *self = Knowledge::default();
                coverage.redeals += 1;
            }
            "dealt" => {
                let cards = cards_of(&event["cards"]);
                if seat == Some(me) && !classic {
                    self.allowed.extend(cards.iter().cloned());
                }
                self.hands.insert(seat.unwrap(), cards);
            }
            "saw" if seat == Some(me) => self.allowed.extend(cards_of(&event["cards"])),
            "swapped" => {
                let seat = seat.unwrap();
                let discarded = event["discarded"].as_str().unwrap().to_string();
                let drawn = event["drawn"].as_str().unwrap().to_string();
                let hand = self.hands.get_mut(&seat).unwrap();
                let at = hand.iter().position(|c| *c == discarded).unwrap();
                hand[at] = drawn.clone();
                if seat == me {
                    self.allowed.insert(drawn);
                } else {
                    coverage.swaps_hidden_from_others += 1;
                }
            }
            "sideshow_compared" => {
                let asker = seat.unwrap();
                let target = event["target"].as_u64().unwrap() as usize;
                if me == asker || me == target {
                    self.allowed.extend(cards_of(&event["seat_cards"]));
                    self.allowed.extend(cards_of(&event["target_cards"]));
                } else {
                    coverage.sideshows_hidden_from_others += 1;
                }
            }
            "revealed" => {
                for hand in event["hands"].as_array().unwrap() {
                    self.allowed.extend(cards_of(&hand["cards"]));
                }
                coverage.reveals += 1;
            }
            "dead" => {
                for dead in event["seats"].as_array().unwrap() {
                    let dead = dead.as_u64().unwrap() as usize;
                    if dead != me {
                        for card in &self.hands[&dead] {
                            self.forbidden
                                .insert(card.clone(), format!("dead seat {dead}"));
                        }
                        coverage.dead_hands_hidden += 1;
                    }
                }
            }
            "packed" => {
                let packed = seat.unwrap();
                if packed != me {
                    let mut hidden = false;
                    for card in &self.hands[&packed] {
                        if !self.allowed.contains(card) {
                            self.forbidden
                                .insert(card.clone(), format!("packed seat {packed}"));
                            hidden = true;
                        }
                    }
                    coverage.packed_hands_hidden += u64::from(hidden);
                }
            }
            _ => {}
        }
    }

    /// Every card of `message` may be known by this seat.
    fn check(&self, message: &Value, what: &str) -> u64 {
        let mut cards = Vec::new();
        collect_cards(message, &mut cards);
        for card in &cards {
            if let Some(reason) = self.forbidden.get(card) {
                panic!("{what}: sent {card}, a card of the {reason}: {message}");
            }
            assert!(
                self.allowed.contains(card),
                "{what}: sent {card}, which it may not know: {message}"
            );
        }
        cards.len() as u64
    }
}

/// Checks everything the arena wrote to `seat` (its transcript) against the truth. Returns
/// the seed its hello carried.
fn check_seat(
    truth: &Truth,
    seat: usize,
    transcript: &Path,
    label: &str,
    coverage: &mut Coverage,
) -> u64 {
    let text = std::fs::read_to_string(transcript).unwrap();
    let mut knowledge = Knowledge::default();
    let mut hello_seed = None;
    let mut next_event: BTreeMap<u64, usize> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let Some(json) = line.strip_prefix(">> ") else {
            assert!(
                line.starts_with("<< "),
                "{label}: odd transcript line {line}"
            );
            continue;
        };
        let what = format!("{label}, transcript line {}", n + 1);
        let message: Value = serde_json::from_str(json).unwrap();
        coverage.messages += 1;
        match message["type"].as_str().unwrap() {
            "hello" => {
                assert_eq!(message["seat"], seat, "{what}");
                let mut bare = message.clone();
                bare.as_object_mut().unwrap().remove("players");
                let mut cards = Vec::new();
                collect_cards(&bare, &mut cards);
                assert!(cards.is_empty(), "{what}: cards in hello: {message}");
                hello_seed = message["seed"].as_u64();
            }
            "event" => {
                let hand = message["hand"].as_u64().unwrap();
                let index = next_event.entry(hand).or_default();
                let full = truth.hands[&hand]
                    .get(*index)
                    .unwrap_or_else(|| panic!("{what}: more events than the replay has"));
                *index += 1;
                same_event(&message, full, &what);
                knowledge.follow(seat, truth.classic, full, coverage);
                coverage.cards_checked += knowledge.check(&message, &what);
            }
            "request" => {
                coverage.cards_checked += knowledge.check(&message, &what);
                match message.get("cards") {
                    Some(cards) => assert_eq!(
                        sorted(cards_of(cards)),
                        sorted(knowledge.hands[&seat].clone()),
                        "{what}: request cards are not its current hand"
                    ),
                    None => {
                        assert!(truth.classic, "{what}: no cards outside the classic game");
                        coverage.blind_requests += 1;
                    }
                }
                if let Some(known) = message.get("known").and_then(Value::as_object) {
                    coverage.requests_with_known += 1;
                    for (other, cards) in known {
                        let other: usize = other.parse().unwrap();
                        assert_ne!(other, seat, "{what}: its own seat in known");
                        assert_eq!(
                            sorted(cards_of(cards)),
                            sorted(knowledge.hands[&other].clone()),
                            "{what}: known cards of seat {other} are not its current hand"
                        );
                    }
                }
            }
            "fault" | "match_end" => {
                coverage.cards_checked += knowledge.check(&message, &what);
            }
            other => panic!("{what}: unknown message type {other}"),
        }
    }
    for (hand, events) in &truth.hands {
        assert_eq!(
            next_event.get(hand).copied().unwrap_or(0),
            events.len(),
            "{label}: not every event of hand {hand} was sent"
        );
    }
    hello_seed.unwrap_or_else(|| panic!("{label}: no hello"))
}

/// `sent` is `full` (from the replay) with at most its card fields left out.
fn same_event(sent: &Value, full: &Value, what: &str) {
    let sent = sent.as_object().unwrap();
    let full = full.as_object().unwrap();
    for (key, value) in sent {
        if key == "type" || key == "hand" {
            continue;
        }
        assert_eq!(
            Some(value),
            full.get(key),
            "{what}: field {key} differs from the replay's event {full:?}"
        );
    }
    for key in full.keys() {
        assert!(
            sent.contains_key(key) || CARD_FIELDS.contains(&key.as_str()),
            "{what}: field {key} of the replay's event is missing"
        );
    }
}

/// Every card in a message: every string that is a card, anywhere, except inside a hand's
/// `value` (whose `cards` may name the card a Lallan Kallan wild became, which nobody holds).
fn collect_cards(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) if is_card(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| collect_cards(v, out)),
        Value::Object(map) => {
            for (key, v) in map {
                if key != "value" {
                    collect_cards(v, out);
                }
            }
        }
        _ => {}
    }
}

fn is_card(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && b"23456789TJQKA".contains(&b[0]) && b"cdhs".contains(&b[1])
}

fn cards_of(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not a list of cards: {value}"))
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

fn sorted(mut cards: Vec<String>) -> Vec<String> {
    cards.sort();
    cards
}
