//! `--watch`: the live view streams a match's replay lines while it is played, only to
//! requests that carry the printed token, and stops with the arena (or, with
//! `--keep-serving`, at Ctrl-C); `--pace` keeps a match's events apart without running the
//! bots' clocks.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::*;

/// A running arena with `--watch`, and the URL it printed.
struct Watched {
    child: Child,
    base: String,
    token: String,
    /// The arena's stderr lines after the URL's, as they come.
    stderr: mpsc::Receiver<String>,
    /// The arena's `TMPDIR`, removed after the kill.
    _tmp: tempfile::TempDir,
}

impl Watched {
    /// Waits (at most `patience`) for a stderr line containing `text`; returns it.
    fn stderr_line(&self, text: &str, patience: Duration) -> String {
        let deadline = Instant::now() + patience;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(line) if line.contains(text) => return line,
                Ok(_) => {}
                Err(e) => panic!("no stderr line with {text:?} ({e})"),
            }
        }
    }

    /// Sends the arena SIGINT (Ctrl-C).
    fn interrupt(&self) {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    }

    /// Waits (at most `patience`) for the arena to exit.
    fn exit_status(&mut self, patience: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + patience;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the arena did not exit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(args: &[&str]) -> Watched {
    let tmp = process_tmpdir::process_tmpdir();
    let mut child = Command::new(arena())
        .env("TMPDIR", tmp.path())
        .args(args)
        .args(["--watch", "127.0.0.1:0"])
        .current_dir(root())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let url = loop {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the arena ended without printing the live view's URL"
        );
        if let Some(at) = line.find("http://") {
            break line[at..].trim().to_string();
        }
    };
    // Keep draining stderr so that the arena never blocks on a full pipe.
    let (lines, stderr_lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines() {
            let Ok(line) = line else { break };
            // Read on when nobody listens any more: the pipe must not fill.
            let _ = lines.send(line);
        }
    });
    let (base, token) = url.split_once("/?token=").expect("the URL carries a token");
    assert_eq!(token.len(), 32, "a 128-bit token in hex: {url}");
    Watched {
        child,
        base: base.to_string(),
        token: token.to_string(),
        stderr: stderr_lines,
        _tmp: tmp,
    }
}

/// An HTTP/1.0 GET (so the body is not chunked): the status line and a reader on the body.
fn get(base: &str, path: &str) -> (String, BufReader<TcpStream>) {
    let host = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).expect("the live view accepts connections");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).unwrap();
        if header.trim().is_empty() {
            break;
        }
    }
    (status, reader)
}

/// The `data:` lines of the server-sent events read so far, until `count` of them (or the end).
fn data_lines(reader: &mut BufReader<TcpStream>, count: usize) -> (Vec<String>, Vec<String>) {
    let (mut data, mut events) = (Vec::new(), Vec::new());
    let mut line = String::new();
    while data.len() < count {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if let Some(event) = line.strip_prefix("event: ") {
            events.push(event.trim().to_string());
        } else if let Some(payload) = line.strip_prefix("data: ") {
            data.push(payload.trim_end().to_string());
        }
    }
    (data, events)
}

#[test]
fn the_live_view_streams_the_replay_lines_as_they_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("live.jsonl");
    let mut watched = start(&[
        "match",
        "--game",
        "classic",
        "--hands",
        "1000000",
        "--seed",
        "18446744073709551615",
        "--sandbox",
        "none",
        "--bot",
        &sample_bot("random-bot"),
        "--bot",
        &sample_bot("chaal-bot"),
        "--replay",
        replay.to_str().unwrap(),
    ]);

    // Without the token (or with a wrong one) nothing is served: the view shows every card.
    for path in ["/", "/matches", "/events", "/events?token=0", "/?token=x"] {
        let (status, _) = get(&watched.base, path);
        assert!(status.contains(" 403 "), "{path}: {status}");
    }

    let (status, mut body) = get(&watched.base, &format!("/matches?token={}", watched.token));
    assert!(status.contains(" 200 "), "{status}");
    let mut list = String::new();
    body.read_to_string(&mut list).unwrap();
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(list[0]["label"], "random-bot vs chaal-bot", "{list}");
    assert_eq!(list[0]["live"], true, "{list}");

    let (status, mut events) = get(&watched.base, &format!("/events?token={}", watched.token));
    assert!(status.contains(" 200 "), "{status}");
    let started = Instant::now();
    let (lines, names) = data_lines(&mut events, 2001);
    assert_eq!(
        names.first().map(String::as_str),
        Some("reset"),
        "{names:?}"
    );
    assert_eq!(
        lines.len(),
        2001,
        "the stream goes on while the match is played"
    );
    let header: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    assert_eq!(header["type"], "header");
    // The seed arrives exactly (the viewer must not round it: it reads it as text).
    assert!(
        lines[1].contains("\"seed\":18446744073709551615"),
        "{}",
        lines[1]
    );
    assert!(started.elapsed() < Duration::from_secs(20));

    // Stop the match: the stream ends, and what it sent is the replay file, line for line.
    let pid = rustix::process::Pid::from_raw(watched.child.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    let status = watched.child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    let written = std::fs::read_to_string(&replay).unwrap();
    let written: Vec<&str> = written.lines().collect();
    assert!(written.len() >= 2000, "{}", written.len());
    // The stream adds what the viewer shows beyond the replay (hand values at a sideshow);
    // the rest is the replay file's, line for line.
    for (i, line) in lines[1..].iter().enumerate() {
        let mut streamed: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(object) = streamed.as_object_mut() {
            object.remove("seat_value");
            object.remove("target_value");
        }
        let written: serde_json::Value = serde_json::from_str(written[i]).unwrap();
        assert_eq!(streamed, written, "line {}", i + 1);
    }
}

#[test]
fn a_watched_tournament_lists_its_matches_and_replays_a_finished_one_whole() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    // The slow bot's matches last seconds (each decision times out), so the tournament is
    // still running when the first, fast match has finished.
    let slow = python_bot("arena/tests/zoo/slow.py");
    std::fs::write(
        &file,
        format!(
            "name = \"watched\"\ngame = \"classic\"\nhands = 20\nseed = 5\nrounds = 1\n\
             sandbox = \"none\"\noutput = {out}\n\
             [time]\nstartup_ms = 5000\ndecision_ms = 200\nbank_ms = 100\n{bots}",
            out = toml_string(dir.path().join("out").to_str().unwrap()),
            bots = bots_toml(&[
                ("chaal", sample_bot("chaal-bot")),
                ("random", sample_bot("random-bot")),
                ("slow", slow),
            ]),
        ),
    )
    .unwrap();
    let watched = start(&["tournament", file.to_str().unwrap(), "--jobs", "1"]);
    // Wait until one match has finished and another is being played.
    let deadline = Instant::now() + Duration::from_secs(60);
    let list = loop {
        let (_, mut body) = get(&watched.base, &format!("/matches?token={}", watched.token));
        let mut text = String::new();
        body.read_to_string(&mut text).unwrap();
        let list: serde_json::Value = serde_json::from_str(&text).unwrap();
        let entries = list.as_array().unwrap().clone();
        if entries.iter().any(|m| m["live"] == false) {
            break entries;
        }
        assert!(Instant::now() < deadline, "no match finished: {text}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        list.iter()
            .all(|m| m["label"].as_str().unwrap().starts_with("match ")),
        "{list:?}"
    );
    let done = list.iter().find(|m| m["live"] == false).unwrap();
    let (_, mut events) = get(
        &watched.base,
        &format!("/events?token={}&match={}", watched.token, done["id"]),
    );
    let (lines, names) = data_lines(&mut events, usize::MAX);
    assert_eq!(names.first().map(String::as_str), Some("reset"));
    assert_eq!(names.last().map(String::as_str), Some("end"), "{names:?}");
    let header: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    assert_eq!(header["type"], "header", "a finished match is sent whole");
    assert!(
        lines.iter().any(|l| l.starts_with("{\"type\":\"result\"")),
        "a finished match is sent whole, result included"
    );
    let (status, _) = get(
        &watched.base,
        &format!("/events?token={}&match=999", watched.token),
    );
    assert!(status.contains(" 404 "), "{status}");
}

/// The event lines of a replay file.
fn event_count(replay: &std::path::Path) -> usize {
    std::fs::read_to_string(replay)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"type\":\"event\""))
        .count()
}

#[test]
fn a_paced_match_keeps_its_events_apart_without_running_the_bots_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("paced.jsonl");
    let pace = Duration::from_millis(400);
    let started = Instant::now();
    let mut watched = start(&[
        "match",
        "--game",
        "classic",
        "--hands",
        "2",
        "--seed",
        "7",
        "--sandbox",
        "none",
        "--bot",
        &sample_bot("random-bot"),
        "--bot",
        &format!("{} 0", python_bot("arena/tests/bots/paced.py")),
        "--replay",
        replay.to_str().unwrap(),
        "--json",
        // Together less than the pace: were the pace on a bot's clock, its first decision
        // would time out.
        "--decision-ms",
        "200",
        "--bank-ms",
        "100",
        "--pace",
        "400",
    ]);
    let status = watched.exit_status(Duration::from_secs(60));
    let took = started.elapsed();
    assert!(status.success(), "{status:?}");
    let events = event_count(&replay);
    assert!(events >= 8, "two hands have at least 8 events: {events}");
    let least = pace * (events as u32 - 1);
    assert!(
        took >= least,
        "{events} events {pace:?} apart take at least {least:?}, the match took {took:?}"
    );
    let actions = std::fs::read_to_string(&replay)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"type\":\"action\""))
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .collect::<Vec<_>>();
    assert!(actions.len() >= 2, "{actions:?}");
    for action in &actions {
        assert_eq!(
            action["source"], "bot",
            "every decision was the bot's, none timed out: {action}"
        );
    }
    // Without --keep-serving the view stops with the match, and says how to keep it.
    watched.stderr_line("--keep-serving", Duration::from_secs(5));
    let host = watched.base.trim_start_matches("http://").to_string();
    assert!(
        TcpStream::connect(&host).is_err(),
        "the live view stopped with the arena"
    );
}

#[test]
fn pace_and_keep_serving_need_watch() {
    let commands = [
        &["match", "--game", "classic", "--bot", "x"][..],
        &["tournament", "t.toml"][..],
    ];
    for command in commands {
        for flag in [&["--pace", "100"][..], &["--keep-serving"][..]] {
            let output = Command::new(arena())
                .args(command)
                .args(flag)
                .output()
                .unwrap();
            assert_eq!(output.status.code(), Some(2), "{flag:?}: {output:?}");
            let text = String::from_utf8_lossy(&output.stderr);
            assert!(text.contains("--watch"), "{command:?} {flag:?}: {text}");
        }
    }
    let output = Command::new(arena())
        .args(["match", "--game", "classic", "--bot", "x", "--watch"])
        .args(["--pace", "60001"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("60000"));
}

#[test]
fn keep_serving_serves_the_finished_match_until_ctrl_c() {
    let mut watched = start(&[
        "match",
        "--game",
        "classic",
        "--hands",
        "3",
        "--seed",
        "11",
        "--sandbox",
        "none",
        "--bot",
        &sample_bot("random-bot"),
        "--bot",
        &sample_bot("chaal-bot"),
        "--keep-serving",
    ]);
    let line = watched.stderr_line("until Ctrl-C", Duration::from_secs(60));
    assert!(line.contains(&watched.token), "names the URL: {line}");
    // Long after the match: still served, as a finished match, whole.
    std::thread::sleep(Duration::from_secs(4));
    assert!(watched.child.try_wait().unwrap().is_none(), "still serving");
    let (_, mut body) = get(&watched.base, &format!("/matches?token={}", watched.token));
    let mut list = String::new();
    body.read_to_string(&mut list).unwrap();
    let list: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert_eq!(list[0]["live"], false, "{list}");
    let (_, mut events) = get(&watched.base, &format!("/events?token={}", watched.token));
    let (lines, names) = data_lines(&mut events, usize::MAX);
    assert_eq!(names.first().map(String::as_str), Some("reset"));
    assert_eq!(names.last().map(String::as_str), Some("end"), "{names:?}");
    let reset: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(reset["finished"], true, "{reset}");
    assert!(lines[1].starts_with("{\"type\":\"header\""));
    assert!(
        lines.iter().any(|l| l.starts_with("{\"type\":\"result\"")),
        "the whole match"
    );
    // Ctrl-C ends it, as a success: the match was played.
    watched.interrupt();
    let status = watched.exit_status(Duration::from_secs(20));
    assert_eq!(status.code(), Some(0), "{status:?}");
    let host = watched.base.trim_start_matches("http://").to_string();
    assert!(TcpStream::connect(&host).is_err(), "stopped after Ctrl-C");
}
