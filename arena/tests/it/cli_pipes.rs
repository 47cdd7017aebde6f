//! Closed pipes and signals: `arena ... | head -1` ends quietly with the command's own exit
//! code (never a panic, exit 101), and SIGINT/SIGTERM stop a match even when stderr is a pipe
//! whose reader has gone (`arena match ... 2>&1 | head`, where Ctrl-C ends `head` too).
//!
//! Each case closes the read end before the arena writes anything, the deterministic form of
//! a reader that has gone.

use crate::common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{arena, marker, processes_with, root, sample_bot, stderr};

/// A pipe whose read end is already closed: writing to the other end fails with EPIPE.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer
}

#[test]
fn check_bot_into_a_closed_stdout_exits_with_its_verdict_and_no_panic() {
    let random = sample_bot("random-bot");
    let out = Command::new(arena())
        .args(["check-bot", "--game", "classic", "--", &random])
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));

    // A failing bot with stdout and stderr both closed (`2>&1 | head -1`): still 4.
    let pipe = closed_pipe();
    let status = Command::new(arena())
        .args(["check-bot", "--game", "classic", "--", "false"])
        .stdout(pipe.try_clone().unwrap())
        .stderr(pipe)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(4), "the verdict, not a panic (101)");

    // Only stderr closed: the report is printed, the closing message is lost, the code stays.
    let out = Command::new(arena())
        .args(["check-bot", "--game", "classic", "--", "false"])
        .stdout(Stdio::piped())
        .stderr(closed_pipe())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4), "the verdict, not a panic (101)");
    assert!(
        common::stdout(&out).contains("FAIL"),
        "{}",
        common::stdout(&out)
    );
}

#[test]
fn every_printing_command_ends_quietly_on_a_closed_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("m.jsonl");
    let replay = replay.to_str().unwrap();
    let random = sample_bot("random-bot");
    let cases: [&[&str]; 5] = [
        &[
            "match", "--game", "classic", "--hands", "3", "--seed", "1", "--bot", &random, "--bot",
            &random, "--replay", replay,
        ],
        &["replay", "show", replay],
        &["replay", "verify", replay],
        &["match", "--help"],
        &["--version"],
    ];
    for args in cases {
        let out = Command::new(arena())
            .args(args)
            .current_dir(root())
            .stdout(closed_pipe())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            !err.contains("panicked") && !err.contains("arena: error"),
            "{args:?}: quietly: {err}"
        );
    }
}

/// A long match of two Python bots marked with `mark`, stdout and stderr into a closed pipe,
/// once it is past the handshakes: its replay (the one thing it writes that the test can read)
/// has actions in it. The folder holding the replay lives as long as the returned guard.
fn long_match_into_a_closed_pipe(mark: &str) -> (Child, tempfile::TempDir) {
    let bot = format!(
        "python3 -X {mark} {}",
        root().join("sample-bots/python/random_bot.py").display()
    );
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.jsonl");
    let pipe = closed_pipe();
    let child = Command::new(arena())
        .args([
            "match", "--game", "classic", "--hands", "1000000", "--bot", &bot, "--bot", &bot,
        ])
        .arg("--replay")
        .arg(&replay)
        .stdin(Stdio::null())
        .stdout(pipe.try_clone().unwrap())
        .stderr(pipe)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let playing =
        || std::fs::read_to_string(&replay).is_ok_and(|text| text.contains(r#""type":"action""#));
    while processes_with(mark).len() < 2 || !playing() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the bots start and play"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, dir)
}

fn stops_on(signal: libc::c_int, name: &str) {
    let mark = marker(name);
    let (mut child, _replay_dir) = long_match_into_a_closed_pipe(&mark);
    // SAFETY: kill(2) on the pid of our own child, which has not been waited for.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name}: the match went on after the signal (stderr a closed pipe)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130), "{name}");
    // The bots are gone with the match.
    let start = Instant::now();
    while !processes_with(&mark).is_empty() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        processes_with(&mark),
        Vec::<String>::new(),
        "{name}: orphans"
    );
}

#[test]
fn sigterm_stops_a_match_whose_stderr_is_a_closed_pipe() {
    stops_on(libc::SIGTERM, "sigterm-closed-stderr");
}

#[test]
fn sigint_stops_a_match_whose_stderr_is_a_closed_pipe() {
    stops_on(libc::SIGINT, "sigint-closed-stderr");
}
