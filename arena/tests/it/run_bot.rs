//! `arena run-bot`: one bot started as a match starts it, its lines relayed through the
//! arena's stdin and stdout. The relay passes a protocol bot's hello and answers and its
//! stderr; nothing the bot started outlives the arena, whether its stdin closes, it is sent
//! SIGTERM or the bot exits; a bot that floods its stdout (one endless line, or lines nobody
//! reads) leaves the arena's memory bounded; and at the default level the bot cannot read a
//! file the operator did not give it.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use common::{arena, bwrap_works, marker, processes_with, reachable, root, zoo, zoo_bot};

/// Generous: the machine may be loaded. Only things expected to happen wait this long.
const PATIENCE: Duration = Duration::from_secs(20);

/// The arena's peak resident memory must stay under this, whatever a bot does (as in
/// `trust.rs`).
const ARENA_RSS_LIMIT_KB: u64 = 100 * 1024;

/// `python3 -X MARK tests/bots/NAME`, where a bot's own uid can read it (CPython ignores the
/// unknown `-X` option: the marker is on the command line of the bot and what it forks).
fn bot(mark: &str, name: &str) -> Vec<String> {
    let script = reachable(&root().join("arena/tests/bots").join(name));
    vec![
        "python3".into(),
        "-X".into(),
        mark.into(),
        script.to_string_lossy().into_owned(),
    ]
}

/// A running `arena run-bot`.
struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Its stdout, line by line, when read as it comes.
    lines: Option<Receiver<String>>,
    /// Its stdout, when the test does not read it (yet).
    stdout: Option<ChildStdout>,
    stderr: Option<JoinHandle<String>>,
}

/// Starts `arena run-bot ARGS -- BOT` from the workspace root, with `env` added; its stdout
/// read line by line as it comes when `read_stdout`.
fn start(args: &[&str], bot: &[String], env: &[(&str, &Path)], read_stdout: bool) -> Running {
    let mut command = Command::new(arena());
    command
        .arg("run-bot")
        .args(args)
        .arg("--")
        .args(bot)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("the arena starts");
    let stdin = child.stdin.take();
    let mut stdout = child.stdout.take();
    let mut err = child.stderr.take().unwrap();
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let lines = read_stdout.then(|| {
        let (tx, rx) = channel();
        let out = stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        rx
    });
    Running {
        child,
        stdin,
        lines,
        stdout,
        stderr: Some(stderr),
    }
}

impl Running {
    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    fn line(&self) -> String {
        self.lines
            .as_ref()
            .expect("stdout is read")
            .recv_timeout(PATIENCE)
            .expect("a line from the bot")
    }

    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The arena's peak resident memory so far (kB).
    fn peak_rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmHWM in /proc/PID/status")
    }

    /// Waits up to `within` for the arena to exit (killing it and failing otherwise); its
    /// status, stderr and how long the wait took.
    fn wait(mut self, within: Duration) -> (ExitStatus, String, Duration) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > within {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("arena run-bot still running after {within:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let took = start.elapsed();
        drop(self.stdout.take());
        let stderr = self.stderr.take().unwrap().join().unwrap();
        assert!(!stderr.contains("panicked"), "{stderr}");
        (status, stderr, took)
    }
}

/// No process carrying `mark` is alive, the moment the arena has exited: it killed and reaped
/// them itself (the guard process, which would clean up after a killed arena, may not have
/// run yet). Kills and names any left.
fn assert_none_left(what: &str, mark: &str) {
    let left = processes_with(mark);
    for line in &left {
        if let Some(pid) = line.split(':').next() {
            let _ = Command::new("kill").args(["-KILL", pid]).status();
        }
    }
    assert!(left.is_empty(), "{what}: processes left behind: {left:#?}");
}

/// The levels a test runs at: the default (bwrap wherever it works), `limits` and `none`.
const LEVELS: [Option<&str>; 3] = [None, Some("limits"), Some("none")];

fn level_args(level: Option<&str>) -> Vec<&str> {
    level.map_or_else(Vec::new, |level| vec!["--sandbox", level])
}

#[test]
fn a_protocol_bots_hello_answers_and_stderr_are_relayed() {
    let mark = marker("run-bot-relay");
    let bot: Vec<String> = zoo_bot(&mark, "read_other.py", &[])
        .split(' ')
        .map(String::from)
        .collect();
    let mut running = start(&[], &bot, &[], true);
    running.send(r#"{"type":"hello","protocol":1,"seat":0,"seats":2}"#);
    let hello: serde_json::Value = serde_json::from_str(&running.line()).unwrap();
    assert_eq!(hello["type"], "hello", "{hello}");
    assert_eq!(hello["name"], "read-other", "{hello}");
    for id in [7, 8] {
        running.send(&format!(r#"{{"type":"request","id":{id},"kind":"bet"}}"#));
        let answer: serde_json::Value = serde_json::from_str(&running.line()).unwrap();
        assert_eq!(answer, serde_json::json!({"id": id, "action": "pack"}));
    }
    running.close_stdin();
    // The bot returns at the end of its stdin: its own exit code.
    let (status, stderr, _) = running.wait(PATIENCE);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("read_other: no path given"), "{stderr}");
    assert_none_left("relay", &mark);
}

#[test]
fn a_bot_and_the_child_it_forked_are_gone_when_stdin_closes_or_at_sigterm() {
    for level in LEVELS {
        let what = level.unwrap_or("default");
        // fork_holder.py forks a child that ignores SIGTERM and holds the pipes, prints its
        // pid and exits at the end of its stdin.
        let mark = marker(&format!("run-bot-fork-{what}"));
        let mut running = start(&level_args(level), &bot(&mark, "fork_holder.py"), &[], true);
        let _child: u32 = running.line().parse().expect("the child's pid");
        assert!(
            processes_with(&mark).len() >= 2,
            "{what}: the bot and its child run"
        );
        running.close_stdin();
        let (status, stderr, _) = running.wait(PATIENCE);
        assert_eq!(status.code(), Some(0), "{what}: {stderr}");
        assert_none_left(what, &mark);

        let mark = marker(&format!("run-bot-term-{what}"));
        let running = start(&level_args(level), &bot(&mark, "fork_holder.py"), &[], true);
        let _child: u32 = running.line().parse().expect("the child's pid");
        assert!(
            processes_with(&mark).len() >= 2,
            "{what}: the bot and its child run"
        );
        let killed = Command::new("kill")
            .args(["-TERM", &running.pid().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let (status, stderr, _) = running.wait(PATIENCE);
        assert_eq!(status.code(), Some(130), "{what}: {stderr}");
        assert_none_left(what, &mark);
    }
}

#[test]
fn the_arena_ends_with_the_bot_and_kills_one_that_outlives_its_grace() {
    // A bot that exits at once, stdin still open: its own code, at once.
    let exit_now = reachable(&root().join("arena/tests/bots/exit_now.sh"));
    let running = start(
        &[],
        &["sh".into(), exit_now.to_string_lossy().into_owned()],
        &[],
        true,
    );
    let (status, stderr, took) = running.wait(PATIENCE);
    assert_eq!(status.code(), Some(3), "{stderr}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert!(
        !stderr.contains("arena run-bot:"),
        "nothing to say: {stderr}"
    );

    // A bot that ignores the end of its stdin (and SIGTERM): killed when its grace ends.
    let mark = marker("run-bot-grace");
    let mut running = start(
        &["--grace-ms", "300"],
        &bot(&mark, "ignore_term.py"),
        &[],
        true,
    );
    assert_eq!(running.line(), "ready");
    running.close_stdin();
    let (status, stderr, took) = running.wait(PATIENCE);
    assert_eq!(status.code(), Some(137), "{stderr}");
    assert!(took >= Duration::from_millis(300), "{took:?}");
    assert!(
        stderr.contains("still running 300 ms after its stdin closed"),
        "{stderr}"
    );
    assert_none_left("grace", &mark);
}

#[test]
fn a_flooding_bot_leaves_the_arenas_memory_bounded() {
    // One endless line (10 MB without a newline): the line cap ends the bot at once.
    let mark = marker("run-bot-long-line");
    let running = start(&[], &bot(&mark, "long_line.py"), &[], true);
    let (status, stderr, _) = running.wait(PATIENCE);
    assert_eq!(status.code(), Some(124), "{stderr}");
    assert!(
        stderr.contains("a stdout line longer than 65536 bytes"),
        "{stderr}"
    );
    assert_none_left("long line", &mark);

    // Lines as fast as it can, to a caller that does not read them: the arena's queue
    // fills, then the bot waits on its pipe; the arena's memory stays bounded, and closing
    // its stdin still ends everything although its stdout is full.
    let mark = marker("run-bot-flood");
    let mut running = start(&[], &bot(&mark, "line_flood.py"), &[], false);
    std::thread::sleep(Duration::from_secs(2));
    let peak = running.peak_rss_kb();
    assert!(
        peak < ARENA_RSS_LIMIT_KB,
        "the arena's peak memory is {peak} kB"
    );
    // It is the caller's pipe that is full, not the arena that is stuck: some lines came.
    let mut first = vec![0; 60001];
    running
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    assert!(first.starts_with(b"yyyy") && first.ends_with(b"\n"));
    running.close_stdin();
    let (status, stderr, _) = running.wait(PATIENCE);
    assert_eq!(status.code(), Some(137), "{stderr}");
    assert_none_left("flood", &mark);
}

/// `../../secret.txt` from the bot's folder (`TMPDIR/arena-run-bot-XXX/bot`) is a file in the
/// arena's `TMPDIR`, which the test sets: a file the bot could find on its own but was not
/// given (a path on the command line would be the operator's grant).
#[test]
fn at_the_default_level_the_bot_cannot_read_what_it_was_not_given() {
    let test = "run-bot-hidden";
    if !bwrap_works(test) {
        return;
    }
    let tmp = common::process_tmpdir::scratch_outside_tmp("run-bot-hidden-");
    let secret = format!("SECRET-{}", std::process::id());
    std::fs::write(tmp.path().join("secret.txt"), &secret).unwrap();
    let target = "../../secret.txt";
    let read_other = zoo("read_other.py").to_string_lossy().into_owned();
    for level in [Some("none"), None] {
        let what = level.unwrap_or("default");
        let mark = marker(&format!("{test}-{what}"));
        let bot = vec![
            "python3".to_string(),
            "-X".into(),
            mark.clone(),
            read_other.clone(),
            target.into(),
        ];
        let mut running = start(&level_args(level), &bot, &[("TMPDIR", tmp.path())], true);
        running.send(r#"{"type":"hello","protocol":1}"#);
        assert!(running.line().contains("hello"));
        running.close_stdin();
        let (status, stderr, _) = running.wait(PATIENCE);
        assert_eq!(status.code(), Some(0), "{what}: {stderr}");
        let line = stderr
            .lines()
            .find(|l| l.starts_with(&format!("read_other: {target} ")))
            .unwrap_or_else(|| panic!("{what}: no line for {target}: {stderr}"));
        if level == Some("none") {
            // The control: unsandboxed, the path is right and the file readable.
            assert!(line.contains(&secret), "{what}: {line}");
        } else {
            assert!(line.contains(" failed: "), "{what}: {line}");
            assert!(!stderr.contains(&secret), "{what}: {stderr}");
        }
        assert_none_left(what, &mark);
    }
}

/// The CPU time and memory limits are the arena's: a bot over either is stopped with 124 and
/// a message naming the limit (the caller keeps only its own decision deadlines).
#[test]
fn a_bot_over_its_cpu_time_or_memory_is_stopped_with_124() {
    let cases = [
        (
            "cpu",
            ["--cpu-seconds", "1"],
            "while True: pass",
            "over its CPU time limit (1 s, --cpu-seconds)",
        ),
        (
            // Pages of its private /tmp (at the default level, bwrap here) count as its
            // memory in its cgroup, not in its rlimit: the kernel kills it.
            "memory",
            ["--memory-mb", "64"],
            "f = open('/tmp/fill', 'wb')\nwhile True: f.write(b'x' * (1 << 20)); f.flush()",
            "over its memory limit (64 MiB, --memory-mb)",
        ),
    ];
    for (what, limit, code, message) in cases {
        // Outside bwrap `/tmp` is the machine's: no filling it.
        if what == "memory" && !bwrap_works("run-bot-memory") {
            continue;
        }
        let mark = marker(&format!("run-bot-{what}"));
        let bot = vec![
            "python3".to_string(),
            "-X".into(),
            mark.clone(),
            "-c".into(),
            code.into(),
        ];
        // Its stdin stays open: only the limit can end it.
        let running = start(&limit, &bot, &[], true);
        let (status, stderr, _) = running.wait(PATIENCE);
        assert_eq!(status.code(), Some(124), "{what}: {stderr}");
        assert!(stderr.contains(message), "{what}: {stderr}");
        assert_none_left(what, &mark);
    }
}
