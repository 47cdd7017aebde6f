//! rlimits (sandbox level `limits`) and the bubblewrap sandbox (level `bwrap`, tested only
//! where bwrap works).

use crate::process_common;

use std::time::Duration;

use process_common::*;
use sandbox::{BotProcess, BotSpec, Limits, ReadError, SandboxLevel, probe_bwrap};

const MIB: u64 = 1024 * 1024;

async fn first_line(spec: &BotSpec) -> (Result<String, ReadError>, sandbox::ExitSummary) {
    let mut bot = BotProcess::spawn(spec).unwrap();
    let line = bot.recv_line(after(Duration::from_secs(30))).await;
    let exit = bot.shutdown(PATIENCE).await;
    (line, exit)
}

#[tokio::test]
async fn memory_limit_stops_a_2_gib_allocation() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&dir, "mem", python("limits.py", &["mem"]));
    spec.limits.memory_bytes = Some(256 * MIB);
    let (line, exit) = first_line(&spec).await;
    eprintln!("mem: {line:?}, {exit:?}");
    match line {
        Ok(line) => assert_eq!(line, "memory-error"),
        // Or the runtime was killed outright: fine as long as it didn't get the memory.
        Err(ReadError::Closed) => assert!(exit.signal.is_some(), "{exit:?}"),
        Err(e) => panic!("{e:?}"),
    }
}

#[tokio::test]
async fn cpu_limit_kills_a_busy_loop() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&dir, "cpu", python("limits.py", &["cpu"]));
    spec.limits.cpu_seconds = Some(1);
    let mut bot = BotProcess::spawn(&spec).unwrap();
    assert_eq!(
        bot.recv_line(after(PATIENCE)).await.as_deref(),
        Ok("spinning")
    );
    // One CPU second takes at least a wall second, more on a loaded machine.
    assert_eq!(
        bot.recv_line(after(Duration::from_secs(60))).await,
        Err(ReadError::Closed)
    );
    let status = bot.wait_timeout(PATIENCE).await.expect("exited");
    let exit = bot.shutdown(PATIENCE).await;
    eprintln!("cpu: {status:?}, {exit:?}");
    assert!(!exit.killed_by_arena);
    // SIGXCPU (24) at the soft limit, SIGKILL at the hard one.
    assert!(matches!(exit.signal, Some(24 | 9)), "{exit:?}");
}

#[tokio::test]
async fn file_size_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&dir, "fsize", python("limits.py", &["fsize"]));
    spec.limits.file_size_bytes = Some(MIB);
    let (line, _) = first_line(&spec).await;
    assert_eq!(line.as_deref(), Ok("efbig"));
    let written = std::fs::metadata(workdir(&spec).join("big.bin"))
        .unwrap()
        .len();
    assert!(written <= MIB, "{written}");
}

#[tokio::test]
async fn open_files_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&dir, "nofile", python("limits.py", &["nofile"]));
    spec.limits.open_files = Some(32);
    let (line, _) = first_line(&spec).await;
    let line = line.unwrap();
    let (kind, count) = line.split_once(' ').unwrap();
    assert_eq!(kind, "emfile", "{line}");
    assert!(count.parse::<u32>().unwrap() < 32, "{line}");
}

#[tokio::test]
async fn core_dumps_are_off_under_limits() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "core", python("limits.py", &["core"]));
    assert_eq!(spec.limits, Limits::default());
    let (line, _) = first_line(&spec).await;
    assert_eq!(line.as_deref(), Ok("0 0"));
}

#[tokio::test]
async fn level_none_applies_no_limits() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&dir, "nolimits", python("limits.py", &["nofile"]));
    spec.sandbox = SandboxLevel::None;
    spec.limits.open_files = Some(32);
    let (line, _) = first_line(&spec).await;
    let line = line.unwrap();
    let count: u32 = line.split_once(' ').unwrap().1.parse().unwrap();
    assert!(count > 32, "{line}");
}

#[tokio::test]
async fn limits_level_runs_the_bot_in_its_own_session() {
    let dir = tempfile::tempdir().unwrap();
    // Read from /proc rather than getsid(2): in a container whose session leader lives outside
    // the PID namespace the session id is 0, which rustix's Pid cannot hold (it panics).
    let arena_sid = own_session_id();
    for level in [SandboxLevel::None, SandboxLevel::Limits] {
        let mut spec = spec(&dir, &format!("ids-{level:?}"), python("ids.py", &[]));
        spec.sandbox = level;
        let (line, _) = first_line(&spec).await;
        let v: serde_json::Value = serde_json::from_str(&line.unwrap()).unwrap();
        eprintln!("{level:?}: {v}");
        assert_eq!(v["pgid"], v["pid"], "{level:?}: own process group");
        if level == SandboxLevel::None {
            assert_eq!(v["sid"], arena_sid, "stays in the arena's session");
        } else {
            assert_eq!(v["sid"], v["pid"], "own session");
            assert_eq!(v["tty"], false, "no controlling terminal");
        }
    }
}

/// Field 6 of /proc/self/stat; the command (field 2) may hold spaces, so split after its ')'.
fn own_session_id() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after_comm = &stat[stat.rfind(')').unwrap() + 2..];
    after_comm.split(' ').nth(3).unwrap().parse().unwrap()
}

#[test]
fn sandbox_level_serde_is_kebab_case() {
    let levels: Vec<SandboxLevel> = serde_json::from_str(r#"["none","limits","bwrap"]"#).unwrap();
    assert_eq!(
        levels,
        [
            SandboxLevel::None,
            SandboxLevel::Limits,
            SandboxLevel::Bwrap
        ]
    );
    let limits: Limits = serde_json::from_str(r#"{"memory_bytes": 1024}"#).unwrap();
    assert_eq!(limits.memory_bytes, Some(1024));
    assert_eq!(limits.cpu_seconds, None);
}

/// `true` if bwrap works here; otherwise says why the test is skipped.
async fn bwrap_works(test: &str) -> bool {
    match probe_bwrap().await {
        Ok(_) => true,
        Err(why) => {
            skip(test, &why.to_string());
            false
        }
    }
}

#[tokio::test]
async fn bwrap_sandbox_isolates_the_bot() {
    if !bwrap_works("bwrap_sandbox_isolates_the_bot").await {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&dir, "probe", python("sandbox_probe.py", &[]));
    spec.sandbox = SandboxLevel::Bwrap;
    let (line, exit) = first_line(&spec).await;
    let line = line.unwrap_or_else(|e| {
        panic!(
            "{e:?}; stderr: {}",
            std::fs::read_to_string(&spec.stderr_log).unwrap()
        )
    });
    eprintln!("sandbox: {line}");
    assert_eq!(exit.code, Some(0), "{exit:?}");
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    let wd = workdir(&spec);
    assert_eq!(v["cwd"], wd.to_str().unwrap());
    assert_eq!(v["interfaces"], serde_json::json!(["lo"]), "no network");
    assert_eq!(v["write_workdir"], true);
    assert_eq!(v["write_root"], false);
    assert_eq!(v["write_usr"], false);
    assert!(v["pid"].as_u64().unwrap() < 10, "own PID namespace");
    // Private /tmp: only the paths down to the workdir and to the bot's own program (if
    // they live under /tmp, as when the repository itself is checked out there, or its bots
    // copied there from a private folder).
    let allowed: Vec<String> = [
        wd.clone(),
        std::fs::canonicalize(script("sandbox_probe.py")).unwrap(),
    ]
    .iter()
    .filter_map(|p| p.strip_prefix("/tmp").ok())
    .filter_map(|rest| rest.components().next())
    .map(|c| c.as_os_str().to_string_lossy().into_owned())
    .collect();
    for entry in v["tmp"].as_array().unwrap() {
        let name = entry.as_str().unwrap();
        assert!(
            allowed.iter().any(|a| a == name),
            "{name} visible in /tmp: {}",
            v["tmp"]
        );
    }
}

#[tokio::test]
async fn bwrap_forked_child_dies_with_the_sandbox() {
    if !bwrap_works("bwrap_forked_child_dies_with_the_sandbox").await {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mark = marker("bwrap-fork");
    let mut spec = spec(&dir, "bwfork", python("fork_holder.py", &[&mark]));
    spec.sandbox = SandboxLevel::Bwrap;
    let mut bot = BotProcess::spawn(&spec).unwrap();
    let pgid = bot.pid();
    bot.recv_line(after(PATIENCE)).await.unwrap();
    // bwrap, its namespace init, the bot and its child all carry the marker, and all stay in
    // the bot's process group.
    let marked = live_with_marker(&mark);
    assert_eq!(marked.len(), 4, "{marked:?}");
    let mut members = live_group_members(pgid);
    members.sort();
    let mut marked = marked;
    marked.sort();
    assert_eq!(members, marked);
    let exit = bot.shutdown(PATIENCE).await;
    eprintln!("bwrap fork: {exit:?}");
    assert!(
        eventually(PATIENCE, || live_with_marker(&mark).is_empty()).await,
        "survivors: {:?}",
        live_with_marker(&mark)
    );
}

#[tokio::test]
async fn bwrap_applies_the_memory_limit() {
    if !bwrap_works("bwrap_applies_the_memory_limit").await {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&dir, "bwmem", python("limits.py", &["mem"]));
    spec.sandbox = SandboxLevel::Bwrap;
    spec.limits.memory_bytes = Some(256 * MIB);
    let (line, exit) = first_line(&spec).await;
    match line {
        Ok(line) => assert_eq!(line, "memory-error"),
        Err(ReadError::Closed) => assert!(exit.signal.is_some(), "{exit:?}"),
        Err(e) => panic!("{e:?}"),
    }
}

#[tokio::test]
async fn bwrap_bot_ignoring_sigterm_and_eof_is_killed() {
    if !bwrap_works("bwrap_bot_ignoring_sigterm_and_eof_is_killed").await {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mark = marker("bwrap-stubborn");
    let mut spec = spec(&dir, "bwstubborn", python("ignore_term.py", &[&mark]));
    spec.sandbox = SandboxLevel::Bwrap;
    let mut bot = BotProcess::spawn(&spec).unwrap();
    assert_eq!(bot.recv_line(after(PATIENCE)).await.as_deref(), Ok("ready"));
    let exit = bot.shutdown(Duration::from_millis(300)).await;
    assert!(exit.killed_by_arena, "{exit:?}");
    assert!(
        eventually(PATIENCE, || live_with_marker(&mark).is_empty()).await,
        "survivors: {:?}",
        live_with_marker(&mark)
    );
}
