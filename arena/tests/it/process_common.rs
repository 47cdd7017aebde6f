//! Helpers shared by the `process_*` tests.
#![allow(dead_code)]

use crate::common;

use std::path::PathBuf;
use std::time::Duration;

use sandbox::{BotSpec, SandboxLevel};
use tempfile::TempDir;
use tokio::time::Instant;

/// Generous: the machine may be loaded. Only things expected to succeed wait this long.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// `tests/bots/<name>`, where a bot's own uid can read it.
pub fn script(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bots")
        .join(name);
    common::reachable(&path).to_string_lossy().into_owned()
}

/// `python3 tests/bots/<name> args..`; `python3` is found on the bot's default PATH.
pub fn python(name: &str, args: &[&str]) -> Vec<String> {
    let mut argv = vec!["python3".to_string(), script(name)];
    argv.extend(args.iter().map(|a| a.to_string()));
    argv
}

pub fn sh(name: &str) -> Vec<String> {
    vec!["sh".to_string(), script(name)]
}

/// A spec with its workdir and stderr log inside `dir`.
pub fn spec(dir: &TempDir, name: &str, argv: Vec<String>) -> BotSpec {
    let mut spec = BotSpec::new(
        name,
        argv,
        dir.path().join(name),
        dir.path().join(format!("{name}.stderr.log")),
    );
    spec.sandbox = SandboxLevel::Limits;
    spec
}

pub fn after(d: Duration) -> Instant {
    Instant::now() + d
}

/// A string unique to this test run, to find our processes in /proc by command line.
pub fn marker(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("arena-test-{tag}-{}-{nanos}", std::process::id())
}

#[derive(Debug)]
pub struct ProcInfo {
    pub pid: u32,
    pub state: char,
    pub ppid: u32,
    pub pgrp: u32,
}

/// `/proc/<pid>/stat`, or `None` if there is no such process.
pub fn proc_info(pid: u32) -> Option<ProcInfo> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid pgrp ..."; comm may contain spaces and parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some(ProcInfo {
        pid,
        state,
        ppid,
        pgrp,
    })
}

fn all_pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

/// Processes that are alive (not zombies) and in process group `pgid`.
pub fn live_group_members(pgid: u32) -> Vec<u32> {
    all_pids()
        .into_iter()
        .filter_map(proc_info)
        .filter(|p| p.pgrp == pgid && !matches!(p.state, 'Z' | 'X'))
        .map(|p| p.pid)
        .collect()
}

/// Live (non-zombie) processes whose command line contains `marker`.
pub fn live_with_marker(marker: &str) -> Vec<u32> {
    all_pids()
        .into_iter()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
        .filter(|&pid| proc_info(pid).is_some_and(|p| !matches!(p.state, 'Z' | 'X')))
        .collect()
}

/// Polls `cond` every 20 ms until it holds or `limit` passes.
pub async fn eventually(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    loop {
        if cond() {
            return true;
        }
        if Instant::now() >= end {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub fn log_len(spec: &BotSpec) -> u64 {
    std::fs::metadata(&spec.stderr_log).unwrap().len()
}

pub fn workdir(spec: &BotSpec) -> PathBuf {
    spec.workdir.canonicalize().unwrap()
}

/// Current resident set size of the test process in KiB (for measurements printed by tests).
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// A test that cannot run here (a tool is missing): skipped on a developer machine, but a
/// failure under CI, where `.ci/run` installs every tool, so a missing install never passes
/// silently.
pub fn skip(test: &str, why: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    if ci {
        panic!("{test} cannot run in CI: {why} (.ci/run should have installed it)");
    }
    eprintln!("SKIPPED {test}: {why}");
}
