//! The starter kits of `sample-bots/` (JavaScript, C, Java, Rust) in real matches through the
//! arena binary: for each of the three games, the kit's starter bot (and its example bot)
//! plays the Rust random bot. The match must be played, the kit's bot must have no fault, no
//! restart, must announce its name in hello and exit with status 0 after `match_end`, and the
//! replay must verify.
//!
//! The C and Java kits are compiled here into a temporary directory (`cc`, `javac`); a kit
//! whose compiler or runtime is missing is skipped with a message (CI has them all). The
//! Rust starter bot is built with the workspace's binaries (`cargo build --workspace --bins`).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use common::{root, run_arena, sample_bot, stderr, stdout};
use serde_json::Value;

const GAMES: [&str; 3] = ["classic", "closest-555", "lallan-kallan"];
const HANDS: &str = "24";

/// `program` found on this process's PATH, as an absolute path. Bots run with a fixed PATH
/// (`/usr/local/bin:/usr/bin:/bin`), so the kit commands name their runtime absolutely.
fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Whether `program args` runs at all (a compiler or runtime is installed and works).
fn works(program: &Path, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|out| out.status.success())
}

/// A path as one word of a bot command line (the arena splits commands like a shell).
fn word(path: &Path) -> String {
    format!("'{}'", path.display())
}

fn kit_dir(kit: &str) -> PathBuf {
    root().join("sample-bots").join(kit)
}

/// Plays `bot` (seat 0) against the Rust random bot in `game` and checks everything the kit
/// promises. `name` is the name the bot must announce in its hello. Returns how many of its
/// answers were mixes (PROTOCOL.md, "Mixed answers"), each drawn without a fault.
fn play(bot: &str, name: &str, game: &str, seed: &str) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.jsonl");
    let random = sample_bot("random-bot");
    let out = run_arena(&[
        "match",
        "--game",
        game,
        "--hands",
        HANDS,
        "--seed",
        seed,
        "--bot",
        bot,
        "--bot",
        &random,
        "--json",
        "--replay",
        replay.to_str().unwrap(),
    ]);
    let context = format!("{name} in {game}");
    assert!(
        out.status.success(),
        "{context}: the match failed: {}",
        stderr(&out)
    );
    let summary: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    let seat = &summary["bots"][0];
    assert_eq!(
        seat["faults"],
        serde_json::json!({}),
        "{context}: {summary}"
    );
    assert_eq!(seat["restarts"], 0, "{context}: {summary}");
    assert!(
        seat["decisions"].as_u64().unwrap() > 0,
        "{context}: it decided nothing: {summary}"
    );
    assert_eq!(
        summary["bots"][1]["faults"],
        serde_json::json!({}),
        "{context}: {summary}"
    );

    // The replay: the bot's hello name, its clean exit, and a faithful re-simulation.
    let text = std::fs::read_to_string(&replay).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let of_seat0 = |status: &str| {
        records
            .iter()
            .find(|r| r["type"] == "bot" && r["seat"] == 0 && r["status"] == status)
            .unwrap_or_else(|| panic!("{context}: no `{status}` record for seat 0"))
    };
    assert_eq!(of_seat0("started")["name"], name, "{context}");
    assert_eq!(
        of_seat0("exited")["exit"],
        "exit code 0",
        "{context}: the bot must exit by itself after match_end"
    );
    let verify = run_arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert!(
        verify.status.success(),
        "{context}: the replay does not verify: {}",
        stderr(&verify)
    );
    records
        .iter()
        .filter(|r| r["type"] == "action" && r["seat"] == 0 && r["mix"].is_array())
        .count()
}

/// `arena check-bot` passes the bot: every decision kind of every variant.
fn check_bot(bot: &str, name: &str) {
    let argv = shlex::split(bot).expect("a valid command line");
    let mut args = vec![
        "check-bot",
        "--decision-ms",
        "5000",
        "--startup-ms",
        "20000",
        "--",
    ];
    args.extend(argv.iter().map(String::as_str));
    let out = run_arena(&args);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && report.contains(" 0 failed"),
        "{name}: check-bot fails:\n{report}{}",
        stderr(&out)
    );
}

/// Plays each bot of a kit in the three games, after `arena check-bot` passes it. The kits'
/// example bots (names ending in `-example`) show how to answer with a mix, so they must
/// have sent some, and every one was drawn without a fault.
fn play_kit(bots: &[(String, &str)]) {
    let started = Instant::now();
    for (bot, name) in bots {
        check_bot(bot, name);
    }
    let mut mixes = vec![0; bots.len()];
    for (i, game) in GAMES.iter().enumerate() {
        for (b, (bot, name)) in bots.iter().enumerate() {
            mixes[b] += play(bot, name, game, &(11 + i).to_string());
        }
    }
    for ((_, name), mixes) in bots.iter().zip(mixes) {
        if name.ends_with("-example") {
            assert!(mixes > 0, "{name} sent no mixed answer in {GAMES:?}");
        }
    }
    eprintln!("{:?} played in {:?}", bots, started.elapsed());
}

#[test]
fn javascript_kit_plays_the_three_games() {
    let Some(node) = which("node").filter(|n| works(n, &["--version"])) else {
        common::skip("javascript kit", "`node` is not on PATH");
        return;
    };
    let dir = kit_dir("javascript");
    let bot = |file: &str| format!("{} {}", word(&node), word(&dir.join(file)));
    play_kit(&[
        (bot("bot.js"), "js-starter"),
        (bot("example_bot.js"), "js-example"),
    ]);
}

#[test]
fn c_kit_builds_cleanly_and_plays_the_three_games() {
    let Some(cc) = which("cc").filter(|cc| works(cc, &["--version"])) else {
        common::skip("C kit", "no C compiler (`cc`) on PATH");
        return;
    };
    let src = kit_dir("c");
    let build = tempfile::tempdir().unwrap();
    for program in ["bot", "example_bot"] {
        let out = Command::new(&cc)
            .args(["-O2", "-Wall", "-Wextra", "-std=c99", "-o"])
            .arg(build.path().join(program))
            .arg(src.join(format!("{program}.c")))
            .arg(src.join("teenpatti.c"))
            .arg(src.join("json.c"))
            .output()
            .expect("cc runs");
        assert!(out.status.success(), "cc failed: {}", stderr(&out));
        assert!(
            stderr(&out).trim().is_empty(),
            "the C kit must compile without warnings:\n{}",
            stderr(&out)
        );
    }
    let bot = |program: &str| word(&build.path().join(program));
    play_kit(&[(bot("bot"), "c-starter"), (bot("example_bot"), "c-example")]);
}

#[test]
fn java_kit_builds_and_plays_the_three_games() {
    let (Some(javac), Some(java)) = (
        which("javac").filter(|j| works(j, &["-version"])),
        which("java").filter(|j| works(j, &["-version"])),
    ) else {
        common::skip("Java kit", "`javac` or `java` is not on PATH");
        return;
    };
    let src = kit_dir("java").join("src");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "java"))
        .collect();
    sources.sort();
    let build = tempfile::tempdir().unwrap();
    // The JIT flags only make javac itself start faster (about twice, on a small machine).
    let out = Command::new(&javac)
        .args(["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-d"])
        .arg(build.path())
        .args(&sources)
        .output()
        .expect("javac runs");
    assert!(out.status.success(), "javac failed: {}", stderr(&out));
    let bot = |class: &str| format!("{} -cp {} {class}", word(&java), word(build.path()));
    play_kit(&[
        (bot("Bot"), "java-starter"),
        (bot("ExampleBot"), "java-example"),
    ]);
}

#[test]
fn rust_starter_bot_plays_the_three_games() {
    play_kit(&[(sample_bot("starter-bot"), "starter-bot")]);
}
