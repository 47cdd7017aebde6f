//! A tournament stopped in the middle (SIGKILL, SIGINT, SIGTERM) keeps every finished match,
//! leaves no bot behind, and the same command run again completes it with the standings of an
//! uninterrupted run.
//!
//! The tournaments are long enough (matches of 100 hands, one at a time) that the arena is
//! stopped while it plays; the tests poll `results.jsonl` to know when, with timeouts of tens of
//! seconds, and never assert on timing.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use common::{marker, processes_with, run_arena, sample_bot, stderr, stdout};
use serde_json::Value;

/// How long a poll waits before it calls something hung (far above a normal run).
const PATIENCE: Duration = Duration::from_secs(120);

fn q(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn p(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// A duplicate round-robin of three random bots (3 pairs x 2 seat orders x `rounds` matches of
/// `hands` hands). Every bot carries `mark` on its command line (the Rust random bot ignores
/// arguments it does not know), so a leftover process is easy to find.
fn tournament_file(dir: &Path, mark: &str, hands: u64, rounds: u64) -> PathBuf {
    let random = sample_bot("random-bot");
    let bots = [
        ("random-1", format!("{random} --marker {mark}")),
        ("random-2", format!("{random} --seed 4 --marker {mark}")),
        ("random-3", format!("{random} --seed 77 --marker {mark}")),
    ];
    let mut text = format!(
        "name = \"crash\"\ngame = \"classic\"\nseats = 2\nhands = {hands}\nseed = 11\n\
         rounds = {rounds}\nduplicate = true\n\
         [time]\nstartup_ms = 30000\ndecision_ms = 10000\nbank_ms = 600000\n"
    );
    for (name, command) in bots {
        text.push_str(&format!(
            "\n[[bot]]\nname = {}\ncommand = {}\n",
            q(name),
            q(&command)
        ));
    }
    let path = dir.join("crash.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn args<'a>(file: &'a Path, out: &'a Path) -> Vec<&'a str> {
    vec!["tournament", p(file), "--out", p(out), "--jobs", "1", "-q"]
}

/// Runs the tournament to the end.
fn run_to_completion(file: &Path, out: &Path) -> Output {
    let output = run_arena(&args(file, out));
    assert!(
        output.status.success(),
        "the run failed ({:?}):\n{}\n{}",
        output.status,
        stdout(&output),
        stderr(&output)
    );
    output
}

/// Starts the tournament in the background, with its own `TMPDIR` (keep it until the child
/// is gone: a SIGKILLed arena leaves its scratch directories there).
fn start(file: &Path, out: &Path) -> (Child, tempfile::TempDir) {
    let tmp = common::process_tmpdir::process_tmpdir();
    let child = Command::new(common::arena())
        .env("TMPDIR", tmp.path())
        .args(args(file, out))
        .current_dir(common::root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena starts");
    (child, tmp)
}

/// Complete lines of `results.jsonl` (0 before it exists).
fn finished_lines(out: &Path) -> usize {
    std::fs::read_to_string(out.join("results.jsonl"))
        .map(|t| t.matches('\n').count())
        .unwrap_or(0)
}

/// Waits until at least `n` matches are finished while the run is still going.
fn wait_for_matches(child: &mut Child, out: &Path, n: usize, total: usize) {
    let started = Instant::now();
    loop {
        let done = finished_lines(out);
        if done >= n {
            assert!(
                done < total,
                "the whole tournament finished before it could be interrupted; make it longer"
            );
            return;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the arena ended ({status:?}) after {done} matches, before it was stopped");
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no {n} finished matches after {PATIENCE:?} ({done} so far)");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Waits for the child to exit on its own.
fn wait_with_timeout(child: &mut Child) -> ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the arena did not stop within {PATIENCE:?} of the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until no process carries `mark` (a bot orphaned by a killed arena sees its stdin
/// close and exits on its own, which can take a moment on a loaded machine).
fn assert_no_process_left(mark: &str) {
    let started = Instant::now();
    loop {
        let left = processes_with(mark);
        if left.is_empty() {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "bot processes left behind: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The records of `results.jsonl` by index; every line must be a whole record.
fn records(out: &Path) -> BTreeMap<u64, Value> {
    read(&out.join("results.jsonl"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}"));
            (v["index"].as_u64().unwrap(), v)
        })
        .collect()
}

/// Every replay of the output re-simulates (a match replayed after an interruption rewrote
/// its replay instead of appending to the torn one).
fn assert_replays_verify(out: &Path, records: &BTreeMap<u64, Value>) {
    for r in records.values() {
        let replay = out.join(r["replay"].as_str().expect("a replay path"));
        let verify = run_arena(&["replay", "verify", p(&replay)]);
        assert!(
            verify.status.success(),
            "{}: {}{}",
            replay.display(),
            stdout(&verify),
            stderr(&verify)
        );
    }
}

/// The standings written in `out` are those of its `results.jsonl`: as many matches, and each
/// bot's chips and hands are the sums over its records.
fn assert_standings_reflect_results(out: &Path) {
    let records = records(out);
    let standings: Value = serde_json::from_str(&read(&out.join("standings.json"))).unwrap();
    assert_eq!(standings["matches"], records.len() as u64, "{standings:#}");
    let mut chips: BTreeMap<String, (i64, u64)> = BTreeMap::new();
    for r in records.values() {
        for (seat, name) in r["seats"].as_array().unwrap().iter().enumerate() {
            let entry = chips.entry(name.as_str().unwrap().to_string()).or_default();
            entry.0 += r["net"][seat].as_i64().unwrap();
            entry.1 += r["hands"].as_u64().unwrap();
        }
    }
    for bot in standings["bots"].as_array().unwrap() {
        let (total, hands) = chips[bot["name"].as_str().unwrap()];
        assert_eq!(bot["chips"], total, "{bot}");
        assert_eq!(bot["hands"], hands, "{bot}");
    }
    let shown = run_arena(&["standings", p(out)]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert_eq!(stdout(&shown), read(&out.join("standings.txt")));
}

#[test]
fn a_tournament_killed_with_sigkill_resumes_to_the_uninterrupted_result() {
    let mark = marker("tournament-sigkill");
    let dir = tempfile::tempdir().unwrap();
    // 3 pairs x 2 seat orders x 5 rounds = 30 matches of 100 hands, one at a time.
    let file = tournament_file(dir.path(), &mark, 100, 5);
    let total = 30;
    let out = dir.path().join("killed");

    let (mut child, _tmp) = start(&file, &out);
    wait_for_matches(&mut child, &out, 2, total);
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    let status = child.wait().unwrap();
    assert!(!status.success(), "{status:?}");
    let kept = records(&out);
    assert!(
        kept.len() >= 2 && kept.len() < total,
        "{} matches kept",
        kept.len()
    );
    for r in kept.values() {
        assert_eq!(r["hands"], 100, "only finished matches are kept: {r}");
    }

    // A power cut in the middle of an append leaves a torn last line: the rerun must ignore
    // it (and play that match again).
    {
        use std::io::Write;
        let mut results = std::fs::OpenOptions::new()
            .append(true)
            .open(out.join("results.jsonl"))
            .unwrap();
        results
            .write_all(br#"{"index":29,"block":14,"seats":["random-2","ran"#)
            .unwrap();
    }

    let rerun = run_to_completion(&file, &out);
    assert!(
        stdout(&rerun).contains(&format!(
            "{} matches played now, {} from before",
            total - kept.len(),
            kept.len()
        )),
        "{}",
        stdout(&rerun)
    );
    assert_no_process_left(&mark);

    let reference = dir.path().join("uninterrupted");
    run_to_completion(&file, &reference);
    assert_no_process_left(&mark);

    let resumed = records(&out);
    assert_eq!(resumed.len(), total);
    assert_eq!(resumed, records(&reference));
    // The matches finished before the kill are kept as they were.
    for (index, r) in &kept {
        assert_eq!(&resumed[index], r);
    }
    assert_eq!(
        read(&out.join("standings.json")),
        read(&reference.join("standings.json")),
        "resuming after SIGKILL must give the standings of an uninterrupted run"
    );
    assert_replays_verify(&out, &resumed);
    assert!(
        !out.join("work").exists(),
        "scratch directories are removed"
    );
}

/// Stops a run with `signal` while it plays, then checks what was kept and resumes it.
fn interrupt_and_resume(test: &str, signal: rustix::process::Signal) {
    let mark = marker(test);
    let dir = tempfile::tempdir().unwrap();
    // 3 pairs x 2 seat orders x 3 rounds = 18 matches of 100 hands, one at a time.
    let file = tournament_file(dir.path(), &mark, 100, 3);
    let total = 18;
    let out = dir.path().join("interrupted");

    let (mut child, _tmp) = start(&file, &out);
    wait_for_matches(&mut child, &out, 2, total);
    let pid = rustix::process::Pid::from_raw(child.id() as i32).expect("a pid");
    rustix::process::kill_process(pid, signal).unwrap();
    let status = wait_with_timeout(&mut child);
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        status.code(),
        Some(130),
        "{signal:?} must exit with 130 ({status:?}):\n{}\n{}",
        stdout(&output),
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("interrupted"),
        "{}",
        stderr(&output)
    );
    assert_no_process_left(&mark);

    // The finished matches are kept, whole, and the standings are theirs.
    let kept = records(&out);
    assert!(
        kept.len() >= 2 && kept.len() < total,
        "{} matches kept",
        kept.len()
    );
    for r in kept.values() {
        assert_eq!(r["hands"], 100, "a cancelled match is not recorded: {r}");
    }
    assert!(
        stdout(&output).contains(&format!("{} matches played now, 0 from before", kept.len())),
        "{}",
        stdout(&output)
    );
    assert_standings_reflect_results(&out);
    assert_replays_verify(&out, &kept);

    // The same command completes the tournament.
    let rerun = run_to_completion(&file, &out);
    assert!(
        stdout(&rerun).contains(&format!(
            "{} matches played now, {} from before",
            total - kept.len(),
            kept.len()
        )),
        "{}",
        stdout(&rerun)
    );
    assert_no_process_left(&mark);
    let resumed = records(&out);
    assert_eq!(resumed.len(), total);
    for (index, r) in &kept {
        assert_eq!(&resumed[index], r);
    }
    assert_standings_reflect_results(&out);

    let reference = dir.path().join("uninterrupted");
    run_to_completion(&file, &reference);
    assert_eq!(resumed, records(&reference));
    assert_eq!(
        read(&out.join("standings.json")),
        read(&reference.join("standings.json"))
    );
    assert_no_process_left(&mark);
}

#[test]
fn sigint_keeps_finished_matches_exits_130_and_resumes() {
    interrupt_and_resume("tournament-sigint", rustix::process::Signal::INT);
}

#[test]
fn sigterm_keeps_finished_matches_exits_130_and_resumes() {
    interrupt_and_resume("tournament-sigterm", rustix::process::Signal::TERM);
}
