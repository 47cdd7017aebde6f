//! The Rust strength bot decides as the kit's `sample-bots/python/strength_bot.py`: both are
//! given the same lines (the arena's hello, events and requests of one seat, over hundreds of
//! hands of each game) and must answer every request alike. The bluff, the only draw (from
//! different generators in the two languages), is left out of both (`--no-bluff`). Skipped,
//! saying so, where there is no `python3`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::table::{Seat, match_end, play_hand};
use protocol::{SequenceOrder, Settings, Variant};
use sample_bots::Bot;
use sample_bots::policies::{PassiveBot, RandomBot, StrengthBot};
use serde_json::Value;

fn python3() -> bool {
    Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// strength_bot.py's answers to `lines`, one per request.
fn python_answers(lines: &[String]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python/strength_bot.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg("--no-bluff")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 runs");
    let input = lines.join("\n") + "\n";
    let mut stdin = child.stdin.take().expect("piped");
    // Written from a thread: the bot answers while it reads, and both pipes must keep moving.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("python3 ends");
    writer
        .join()
        .expect("the writer ends")
        .expect("python3 reads all");
    assert!(out.status.success(), "strength_bot.py failed");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut answers = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON answers"));
    let hello: Value = answers.next().expect("a hello");
    assert_eq!(hello["type"], "hello");
    answers.collect()
}

/// One table: the seat `tracked` is the Rust strength bot without bluff; the others are
/// `others` in order. Returns the Rust and the Python answers of the tracked seat.
fn both_answer(
    settings: Settings,
    others: Vec<Box<dyn Bot>>,
    tracked: usize,
    hands: u64,
    seed: u64,
) -> (Vec<Value>, Vec<Value>) {
    let n = others.len() + 1;
    let mut others = others.into_iter();
    let mut seats: Vec<Seat> = (0..n)
        .map(|i| {
            let hello_seed = seed * 100 + i as u64;
            if i == tracked {
                let bot = Box::new(StrengthBot::new(None).without_bluff());
                Seat::new(bot, settings, i, n, hello_seed).recorded()
            } else {
                Seat::new(
                    others.next().expect("a bot per seat"),
                    settings,
                    i,
                    n,
                    hello_seed,
                )
            }
        })
        .collect();
    let mut next_id = 1;
    for hand in 0..hands {
        play_hand(settings, seed, hand, &mut seats, &mut next_id);
    }
    let seat = &mut seats[tracked];
    let mut lines = seat.lines.take().expect("recorded");
    lines.push(match_end(hands, n));
    let theirs = python_answers(&lines);
    (std::mem::take(&mut seat.answers), theirs)
}

/// One table of the comparison.
struct Case {
    name: &'static str,
    settings: Settings,
    /// The other seats' bots, in seat order.
    others: Vec<Box<dyn Bot>>,
    /// The Rust strength bot's seat.
    tracked: usize,
}

fn case(
    name: &'static str,
    variant: Variant,
    change: fn(&mut Settings),
    others: Vec<Box<dyn Bot>>,
    tracked: usize,
) -> Case {
    let mut settings = Settings::new(variant);
    change(&mut settings);
    Case {
        name,
        settings,
        others,
        tracked,
    }
}

#[test]
fn the_rust_strength_bot_answers_every_request_as_strength_bot_py() {
    if !python3() {
        eprintln!("SKIPPED: no python3 to run sample-bots/python/strength_bot.py");
        return;
    }
    let random = |seed| -> Box<dyn Bot> { Box::new(RandomBot::new(Some(seed))) };
    let strength = |seed| -> Box<dyn Bot> { Box::new(StrengthBot::new(Some(seed))) };
    let same = |_: &mut Settings| {};
    // Every game, 2 to 5 seats, against random play (which asks for and answers sideshows of
    // every kind) and against strength bots (bluffing, so their play differs from the
    // tracked seat's); a paid swap and the other sequence order once each.
    let cases = vec![
        case(
            "555, 2 seats",
            Variant::Closest555,
            same,
            vec![random(1)],
            0,
        ),
        case(
            "555, 4 seats, swaps cost 1",
            Variant::Closest555,
            |s| s.swap_cost = 1,
            vec![random(2), strength(3), Box::new(PassiveBot)],
            1,
        ),
        case(
            "555, 3 seats",
            Variant::Closest555,
            same,
            vec![strength(4), random(5)],
            2,
        ),
        case(
            "classic, 2 seats",
            Variant::Classic,
            same,
            vec![strength(6)],
            0,
        ),
        case(
            "classic, 3 seats",
            Variant::Classic,
            same,
            vec![random(7), strength(8)],
            0,
        ),
        case(
            "classic, 4 seats, A-K-Q high",
            Variant::Classic,
            |s| s.sequence_order = SequenceOrder::AkqHigh,
            vec![random(9), random(10), strength(11)],
            3,
        ),
        case(
            "lallan-kallan, 3 seats",
            Variant::LallanKallan,
            same,
            vec![random(12), strength(13)],
            0,
        ),
        case(
            "lallan-kallan, 5 seats",
            Variant::LallanKallan,
            same,
            vec![random(14), strength(15), random(16), strength(17)],
            1,
        ),
    ];
    let mut seen_actions = std::collections::BTreeMap::new();
    let mut total = 0;
    for (i, case) in cases.into_iter().enumerate() {
        let name = case.name;
        let (ours, theirs) =
            both_answer(case.settings, case.others, case.tracked, 250, 40 + i as u64);
        assert_eq!(ours.len(), theirs.len(), "{name}: one answer per request");
        for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "{name}: answer {k} differs (Rust, then Python)");
            let action = a["action"].as_str().expect("an action").to_string();
            *seen_actions.entry(action).or_insert(0) += 1;
        }
        eprintln!("{name}: {} answers alike", ours.len());
        total += ours.len();
    }
    eprintln!("{total} answers alike: {seen_actions:?}");
    // The comparison reached every decision and every kind of answer.
    for action in [
        "see", "bet", "pack", "show", "sideshow", "swap", "keep", "accept", "refuse",
    ] {
        assert!(
            seen_actions.get(action).is_some_and(|&n| n > 0),
            "no {action} answer compared: {seen_actions:?}"
        );
    }
}
