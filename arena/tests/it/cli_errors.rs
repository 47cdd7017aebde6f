//! Every bad command-line value gets a clear message naming it and the exit code of the
//! table in docs/bot-authors.md: 1 when the arena cannot do its job (a bot program missing, a
//! replay that cannot be read or does not re-simulate), 2 for a bad command line, 3 for bad
//! lines given to `arena compare`.

use crate::common;

use common::{fails, run_arena, sample_bot, stderr, stdout};

/// `arena match` with `bots` bots (the Rust random bot) and more options. Every case fails
/// before a hand is played.
fn match_args<'a>(random: &'a str, bots: usize, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["match"];
    for _ in 0..bots {
        args.extend(["--bot", random]);
    }
    args.extend_from_slice(extra);
    args
}

#[test]
fn an_unknown_game() {
    let random = sample_bot("random-bot");
    fails(
        &match_args(&random, 2, &["--game", "poker"]),
        2,
        &["poker", "classic", "closest-555", "lallan-kallan"],
    );
}

#[test]
fn a_number_that_is_not_one() {
    let random = sample_bot("random-bot");
    fails(
        &match_args(&random, 2, &["--game", "classic", "--hands", "abc"]),
        2,
        &["abc", "--hands"],
    );
    fails(
        &match_args(&random, 2, &["--game", "classic", "--seed", "-3"]),
        2,
        &["-3"],
    );
}

#[test]
fn too_many_or_too_few_bots_for_the_game() {
    let random = sample_bot("random-bot");
    fails(
        &match_args(&random, 11, &["--game", "closest-555"]),
        2,
        &["closest-555", "2 to 10", "11"],
    );
    fails(
        &match_args(&random, 1, &["--game", "classic"]),
        2,
        &["classic", "not 1"],
    );
    fails(&["match", "--game", "classic"], 2, &["--bot"]);
}

#[test]
fn a_missing_program_names_it_once() {
    let random = sample_bot("random-bot");
    let err = fails(
        &[
            "match",
            "--game",
            "classic",
            "--hands",
            "1",
            "--bot",
            &random,
            "--bot",
            "no-such-bot-program --fast",
        ],
        1,
        &["no-such-bot-program", "not found"],
    );
    assert_eq!(
        err.matches("not found").count(),
        1,
        "said once, not repeated: {err}"
    );
    fails(
        &[
            "match",
            "--game",
            "classic",
            "--hands",
            "1",
            "--bot",
            "./nowhere/bot.py",
            "--bot",
            &random,
        ],
        1,
        &["nowhere/bot.py"],
    );
}

#[test]
fn unbalanced_quotes_in_a_bot_command() {
    let random = sample_bot("random-bot");
    fails(
        &match_args(
            &random,
            1,
            &["--game", "classic", "--bot", "python3 'bot.py"],
        ),
        2,
        &["--bot number 2", "python3 'bot.py", "unbalanced quotes"],
    );
}

#[test]
fn bad_table_and_sandbox_values() {
    let random = sample_bot("random-bot");
    fails(
        &match_args(
            &random,
            2,
            &["--game", "classic", "--sequence-order", "k-high"],
        ),
        2,
        &["k-high", "a23-high", "akq-high"],
    );
    fails(
        &match_args(&random, 2, &["--game", "classic", "--boot", "0"]),
        2,
        &["--boot 0", "must be"],
    );
    fails(
        &match_args(&random, 2, &["--game", "classic", "--sandbox", "foo"]),
        2,
        &["foo", "none", "limits", "bwrap"],
    );
    fails(
        &match_args(&random, 2, &["--game", "classic", "--sideshow", "maybe"]),
        2,
        &["maybe"],
    );
    for cpus in ["0", "2000", "-1"] {
        fails(
            &match_args(
                &random,
                2,
                &["--game", "classic", &format!("--cpus={cpus}")],
            ),
            2,
            &["--cpus", "not a number of CPUs from 0.01 to 1024"],
        );
    }
    fails(
        &match_args(&random, 2, &["--game", "classic", "--cpus", "many"]),
        2,
        &["--cpus", "\"many\" is not a number of CPUs"],
    );
}

/// `arena play --seat` counts seats from 1, as everything `play` prints does.
#[test]
fn a_seat_of_play_outside_the_table() {
    let random = sample_bot("random-bot");
    let play = |seat: &'static str| {
        vec![
            "play", "--game", "classic", "--bot", &random, "--bot", &random, "--seat", seat,
        ]
    };
    for seat in ["0", "4"] {
        fails(
            &play(seat),
            2,
            &[&format!(
                "--seat {seat}: seats are counted from 1; this table (you and 2 bots) has seats 1 to 3"
            )],
        );
    }
}

#[test]
fn replay_verify_of_a_missing_file_or_a_non_replay() {
    fails(
        &["replay", "verify", "/nonexistent/replay.jsonl"],
        1,
        &["/nonexistent/replay.jsonl"],
    );
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.jsonl");
    std::fs::write(&text, "{\"type\":\"header\"}\nthis is not a replay\n").unwrap();
    let path = text.to_str().unwrap();
    fails(&["replay", "verify", path], 1, &[&format!("{path}:1")]);
}

#[test]
fn replay_verify_of_a_tampered_replay_names_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("m.jsonl");
    let random = sample_bot("random-bot");
    let out = run_arena(&[
        "match",
        "--game",
        "closest-555",
        "--hands",
        "5",
        "--seed",
        "3",
        "--bot",
        &random,
        "--bot",
        &random,
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let verified = run_arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", stderr(&verified));

    // One action's amount changed: the first bet.
    let text = std::fs::read_to_string(&replay).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let at = lines
        .iter()
        .position(|l| l.contains(r#""type":"action""#) && l.contains(r#""action":"bet""#))
        .expect("a bet in five hands");
    let mut record: serde_json::Value = serde_json::from_str(&lines[at]).unwrap();
    record["amount"] = 999_999.into();
    lines[at] = record.to_string();
    let tampered = dir.path().join("tampered.jsonl");
    std::fs::write(&tampered, lines.join("\n") + "\n").unwrap();
    fails(
        &["replay", "verify", tampered.to_str().unwrap()],
        1,
        &[
            "tampered.jsonl",
            "does not re-simulate",
            &format!("record {}", at + 1),
        ],
    );
}

#[test]
fn compare_answers_good_lines_and_names_each_bad_one() {
    let input = [
        r#"[["As","Kd","3h"],["2c","2d","9s"]]"#,
        "not json",
        r#"[["As","Kd"],["2c","2d","9s"]]"#,
        r#"[["As","Kd","3h"],["2c","2d","1x"]]"#,
        r#"[["5s","5d","4h"],["5c","5h","7s"]]"#,
        r#"{"hands":[]}"#,
    ]
    .join("\n")
        + "\n";
    let out = common::run_arena_with_input(
        &common::root(),
        &["compare", "--game", "classic"],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("4 bad line"), "{}", stderr(&out));
    let answers: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 6, "one answer per line");
    for (i, answer) in answers.iter().enumerate() {
        assert_eq!(answer["line"], i + 1, "{answer}");
        let bad = [2, 3, 4, 6].contains(&(i + 1));
        if bad {
            let error = answer["error"].as_str().expect("an error line");
            assert!(!error.is_empty());
        } else {
            assert!(
                answer["winners"].is_array(),
                "a good line is answered: {answer}"
            );
        }
    }
    assert!(
        answers[3]["error"].as_str().unwrap().contains("1x"),
        "names the bad card"
    );
}

#[test]
fn compare_with_an_unknown_variant() {
    fails(&["compare", "--game", "rummy"], 2, &["rummy"]);
}

#[test]
fn a_bad_shard() {
    let file = common::root().join("tournaments/demo.toml");
    let file = file.to_str().unwrap();
    for shard in ["0/2", "3/2", "1/0", "half"] {
        fails(&["tournament", file, "--shard", shard], 2, &[shard]);
    }
}
