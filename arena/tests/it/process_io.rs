//! Line I/O with a bot process: round trips, deadlines, closed and broken streams, the
//! environment, stderr capping, and spawn errors.

use crate::process_common;

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use process_common::*;
use sandbox::{BotProcess, ReadError, SpawnError, WriteError};
use tokio::time::Instant;

#[tokio::test]
async fn echo_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "echo", python("echo.py", &[]));
    let start = Instant::now();
    let mut bot = BotProcess::spawn(&spec).unwrap();
    for i in 0..20 {
        let msg = format!(r#"{{"type":"ping","n":{i},"text":"héllo"}}"#);
        bot.send_line(&msg, after(PATIENCE)).await.unwrap();
        assert_eq!(bot.recv_line(after(PATIENCE)).await.unwrap(), msg);
    }
    let round_trips = start.elapsed();
    assert_eq!(bot.try_wait(), None, "echo is still running");
    let start = Instant::now();
    let exit = bot.shutdown(PATIENCE).await;
    eprintln!(
        "spawn + 20 round trips: {round_trips:?}; shutdown: {:?}",
        start.elapsed()
    );
    assert_eq!(exit.code, Some(0), "{exit:?}");
    assert!(!exit.killed_by_arena && !exit.leaked_pipe, "{exit:?}");
    assert_eq!(exit.stderr.total_bytes, 0);
}

#[tokio::test]
async fn silent_bot_times_out_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "silent", python("silent.py", &[]));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    bot.send_line("{}", after(PATIENCE)).await.unwrap();
    let start = Instant::now();
    let deadline = start + Duration::from_millis(300);
    assert_eq!(bot.recv_line(deadline).await, Err(ReadError::Timeout));
    let waited = start.elapsed();
    assert!(Instant::now() >= deadline);
    assert!(waited < Duration::from_secs(5), "took {waited:?}");
    // Still running: a slow bot, not a crashed one.
    assert_eq!(bot.try_wait(), None);
    let exit = bot.shutdown(PATIENCE).await;
    assert_eq!(exit.code, Some(0), "silent exits at stdin EOF: {exit:?}");
}

#[tokio::test]
async fn recv_is_cancel_safe_across_timeouts() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "slow", python("slow_writer.py", &[]));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    // The bot writes "hel", waits 0.5 s, then "lo\n". Short deadlines expire in between.
    let mut timeouts = 0;
    let line = loop {
        match bot.recv_line(after(Duration::from_millis(20))).await {
            Err(ReadError::Timeout) => timeouts += 1,
            other => break other,
        }
        assert!(timeouts < 1000, "no line after 1000 short waits");
    };
    assert_eq!(line.as_deref(), Ok("hello"));
    assert!(timeouts > 0);
    // Dropping a pending recv future loses nothing either.
    tokio::select! {
        r = bot.recv_line(after(PATIENCE)) => panic!("nothing was sent yet: {r:?}"),
        () = tokio::time::sleep(Duration::from_millis(50)) => {}
    }
    bot.send_line("again", after(PATIENCE)).await.unwrap();
    assert_eq!(bot.recv_line(after(PATIENCE)).await.as_deref(), Ok("again"));
    bot.shutdown(PATIENCE).await;
}

#[tokio::test]
async fn bot_that_exits_at_once_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "exit", sh("exit_now.sh"));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    assert_eq!(bot.recv_line(after(PATIENCE)).await, Err(ReadError::Closed));
    assert_eq!(bot.recv_line(after(PATIENCE)).await, Err(ReadError::Closed));
    let status = bot.wait_timeout(PATIENCE).await.expect("exited");
    assert_eq!(status.code(), Some(3));
    assert_eq!(bot.try_wait().and_then(|s| s.code()), Some(3));
    // Writing to a dead bot: broken pipe.
    assert_eq!(
        bot.send_line("hello?", after(PATIENCE)).await,
        Err(WriteError::Closed)
    );
    let exit = bot.shutdown(PATIENCE).await;
    assert_eq!((exit.code, exit.signal), (Some(3), None));
    assert!(!exit.killed_by_arena && !exit.leaked_pipe, "{exit:?}");
}

#[tokio::test]
async fn ten_megabyte_line_is_too_long() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "long", python("long_line.py", &[]));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    let (rss_before, start) = (rss_kib(), Instant::now());
    assert_eq!(
        bot.recv_line(after(PATIENCE)).await,
        Err(ReadError::LineTooLong)
    );
    let took = start.elapsed();
    // Informational only: other tests run in the same process.
    eprintln!(
        "LineTooLong after {took:?}; test process RSS {rss_before} -> {} KiB",
        rss_kib()
    );
    assert!(took < PATIENCE);
    // The stream is unusable afterwards.
    assert_eq!(bot.recv_line(after(PATIENCE)).await, Err(ReadError::Closed));
    let exit = bot.shutdown(Duration::from_millis(100)).await;
    assert!(exit.killed_by_arena, "long_line sleeps: {exit:?}");
    assert_eq!(exit.signal, Some(9));
}

#[tokio::test]
async fn line_at_the_limit_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&dir, "limit", python("echo.py", &[]));
    spec.max_line_bytes = 1000;
    let mut bot = BotProcess::spawn(&spec).unwrap();
    let ok = "x".repeat(1000);
    bot.send_line(&ok, after(PATIENCE)).await.unwrap();
    assert_eq!(bot.recv_line(after(PATIENCE)).await, Ok(ok));
    bot.send_line(&"y".repeat(1001), after(PATIENCE))
        .await
        .unwrap();
    assert_eq!(
        bot.recv_line(after(PATIENCE)).await,
        Err(ReadError::LineTooLong)
    );
    bot.shutdown(PATIENCE).await;
}

#[tokio::test]
async fn invalid_utf8_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "utf8", python("bad_utf8.py", &[]));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    assert_eq!(
        bot.recv_line(after(PATIENCE)).await,
        Err(ReadError::InvalidUtf8)
    );
    bot.shutdown(Duration::from_millis(100)).await;
}

#[tokio::test]
async fn bot_that_stops_reading_makes_send_time_out() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "noread", python("no_read.py", &[]));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    assert_eq!(bot.recv_line(after(PATIENCE)).await.as_deref(), Ok("ready"));
    let line = "z".repeat(16 * 1024);
    let start = Instant::now();
    let mut sent = 0;
    let err = loop {
        match bot
            .send_line(&line, after(Duration::from_millis(500)))
            .await
        {
            Ok(()) => sent += 1,
            Err(e) => break e,
        }
        assert!(sent < 100, "6 MiB went into a pipe nobody reads");
    };
    eprintln!(
        "send_line: {err:?} after {sent} lines, {:?}",
        start.elapsed()
    );
    assert_eq!(err, WriteError::Timeout);
    let exit = bot.shutdown(Duration::from_millis(100)).await;
    assert!(exit.killed_by_arena, "{exit:?}");
}

#[tokio::test]
async fn environment_is_cleared_and_workdir_used() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&dir, "env", python("env.py", &[]));
    spec.env.insert("SEED".into(), "42".into());
    let mut bot = BotProcess::spawn(&spec).unwrap();
    let line = bot.recv_line(after(PATIENCE)).await.unwrap();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    let wd = workdir(&spec);
    assert_eq!(v["cwd"], wd.to_str().unwrap());
    let env = v["env"].as_object().unwrap();
    assert_eq!(env["PATH"], "/usr/local/bin:/usr/bin:/bin");
    assert_eq!(env["HOME"], wd.to_str().unwrap());
    assert_eq!(env["SEED"], "42");
    // Python may add LC_CTYPE itself (PEP 538 locale coercion); nothing else may appear.
    let keys: BTreeSet<&str> = env.keys().map(String::as_str).collect();
    let allowed = BTreeSet::from(["PATH", "HOME", "SEED", "LC_CTYPE"]);
    assert!(keys.is_subset(&allowed), "unexpected variables: {keys:?}");
    bot.shutdown(PATIENCE).await;
}

#[tokio::test]
async fn stderr_flood_is_drained_and_capped() {
    const MIB: u64 = 200;
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(
        &dir,
        "flood",
        python("stderr_flood.py", &[&MIB.to_string()]),
    );
    let start = Instant::now();
    let mut bot = BotProcess::spawn(&spec).unwrap();
    // If stderr weren't drained, the bot would block on its first 64 KiB and never say "done".
    assert_eq!(
        bot.recv_line(after(Duration::from_secs(60)))
            .await
            .as_deref(),
        Ok("done")
    );
    let exit = bot.shutdown(PATIENCE).await;
    let took = start.elapsed();
    let log = log_len(&spec);
    eprintln!("{MIB} MiB of stderr in {took:?}; log file {log} bytes");
    assert_eq!(exit.code, Some(0));
    assert_eq!(exit.stderr.total_bytes, MIB << 20);
    let kept = 2 * spec.stderr_keep_bytes as u64;
    assert_eq!(exit.stderr.dropped_bytes, (MIB << 20) - kept);
    assert!(log < 200 * 1024, "log is {log} bytes");
    assert!(log >= kept);
    let text = std::fs::read_to_string(&spec.stderr_log).unwrap();
    assert!(text.contains(&format!(
        "[... {} bytes dropped ...]",
        exit.stderr.dropped_bytes
    )));
    assert!(exit.stderr.tail.ends_with("xxx\n"));
}

#[tokio::test]
async fn missing_program_is_a_spawn_error() {
    let dir = tempfile::tempdir().unwrap();
    let err = BotProcess::spawn(&spec(&dir, "m1", vec!["no-such-bot-xyz".into()])).unwrap_err();
    match &err {
        SpawnError::ProgramNotFound { program, .. } => assert_eq!(program, "no-such-bot-xyz"),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("no-such-bot-xyz"), "{err}");

    let err = BotProcess::spawn(&spec(&dir, "m2", vec!["./missing.sh".into()])).unwrap_err();
    assert!(
        matches!(&err, SpawnError::ProgramNotFound { program, .. } if program == "./missing.sh"),
        "{err:?}"
    );

    // The file exists but its #! interpreter doesn't: exec fails with ENOENT.
    let script = dir.path().join("bad-interp.sh");
    std::fs::write(&script, "#!/nonexistent/interpreter\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let argv = vec![script.to_str().unwrap().to_string()];
    let err = BotProcess::spawn(&spec(&dir, "m3", argv)).unwrap_err();
    assert!(
        matches!(&err, SpawnError::ProgramNotFound { .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("bad-interp.sh"), "{err}");

    let err = BotProcess::spawn(&spec(&dir, "m4", vec![])).unwrap_err();
    assert!(matches!(err, SpawnError::EmptyArgv { .. }), "{err:?}");
}
