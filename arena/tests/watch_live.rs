//! `--watch`: the live view streams a match's replay lines while it is played, only to
//! requests that carry the printed token, and stops with the arena.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// A running arena with `--watch`, and the URL it printed.
struct Watched {
    child: Child,
    base: String,
    token: String,
    /// The arena's `TMPDIR`, removed after the kill.
    _tmp: tempfile::TempDir,
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
    std::thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = stderr.read_to_end(&mut sink);
    });
    let (base, token) = url.split_once("/?token=").expect("the URL carries a token");
    assert_eq!(token.len(), 32, "a 128-bit token in hex: {url}");
    Watched {
        child,
        base: base.to_string(),
        token: token.to_string(),
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
