//! `run_to_completion`: a process run to its end in the sandbox, as a bot's build is, with a
//! time limit and its output kept, bounded.

use crate::process_common;

use std::time::Duration;

use process_common::*;
use sandbox::{SandboxLevel, probe_bwrap, run_to_completion};

fn shell(script: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), script.into()]
}

#[tokio::test]
async fn output_and_exit_status_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "ok", shell("echo out; echo err >&2; exit 3"));
    let done = run_to_completion(&spec, PATIENCE).await.unwrap();
    assert_eq!(done.stdout, "out\n");
    assert_eq!(done.stderr, "err\n");
    assert_eq!(done.exit.code, Some(3));
    assert!(!done.timed_out && !done.succeeded());
    let zero = process_common::spec(&dir, "zero", shell("true"));
    assert!(
        run_to_completion(&zero, PATIENCE)
            .await
            .unwrap()
            .succeeded()
    );
}

#[tokio::test]
async fn output_beyond_the_caps_is_counted_not_kept() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(
        &dir,
        "chatty",
        shell("i=0; while [ $i -lt 2000 ]; do echo line$i; echo err$i >&2; i=$((i+1)); done"),
    );
    spec.stderr_keep_bytes = 1000;
    let done = run_to_completion(&spec, PATIENCE).await.unwrap();
    assert!(done.succeeded(), "{done:?}");
    assert!(done.stdout.starts_with("line0\n"), "{}", done.stdout);
    assert!(done.stdout.contains("more bytes of stdout dropped"));
    assert!(done.stdout.len() < 1200, "{}", done.stdout.len());
    assert!(done.stderr.starts_with("err0\n"));
    assert!(
        done.stderr.trim_end().ends_with("err1999"),
        "{}",
        done.stderr
    );
    assert!(done.stderr.len() < 2200, "{}", done.stderr.len());
}

#[tokio::test]
async fn a_process_that_runs_forever_is_stopped_at_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mark = marker("run-forever");
    // A child that would outlive its parent is killed with it.
    let spec = spec(
        &dir,
        "forever",
        shell(&format!(
            "echo started; sleep 1000 & exec sleep 1001 # {mark}"
        )),
    );
    let done = run_to_completion(&spec, Duration::from_millis(500))
        .await
        .unwrap();
    assert!(done.timed_out && !done.succeeded(), "{done:?}");
    assert_eq!(done.stdout, "started\n");
    assert!(done.elapsed < Duration::from_secs(5), "{:?}", done.elapsed);
    assert!(live_with_marker(&mark).is_empty());
}

/// A build in an operator's directory writes its products there, under the bot's own uid
/// when the arena is root, and cannot reach the network.
#[tokio::test]
async fn bwrap_build_writes_its_workdir_and_has_no_network() {
    if let Err(why) = probe_bwrap().await {
        skip(
            "bwrap_build_writes_its_workdir_and_has_no_network",
            &why.to_string(),
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    std::fs::write(src.join("sub/in.txt"), "source").unwrap();
    let script = format!(
        "cat sub/in.txt > out.txt && echo more > sub/made.txt && \
         python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", {port}), 2)' \
         && echo CONNECTED"
    );
    let mut spec = spec(&dir, "build", shell(&script));
    spec.workdir = src.clone();
    spec.sandbox = SandboxLevel::Bwrap;
    spec.private_workdir = false;
    spec.writable_workdir = true;
    let done = run_to_completion(&spec, PATIENCE).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(src.join("out.txt")).unwrap(),
        "source"
    );
    assert_eq!(
        std::fs::read_to_string(src.join("sub/made.txt")).unwrap(),
        "more\n"
    );
    assert!(!done.stdout.contains("CONNECTED"), "{done:?}");
    // Its own network namespace: the machine's listener on the loopback is not there.
    assert!(
        done.stderr.contains("Connection refused") || done.stderr.contains("unreachable"),
        "{}",
        done.stderr
    );
    listener.set_nonblocking(true).unwrap();
    assert!(listener.accept().is_err(), "the build reached the machine");
    assert_ne!(done.exit.code, Some(0));
    // Without the flag the same directory is read-only.
    spec.writable_workdir = false;
    spec.argv = shell("echo x > out2.txt");
    let done = run_to_completion(&spec, PATIENCE).await.unwrap();
    assert!(!done.succeeded(), "{done:?}");
    assert!(!src.join("out2.txt").exists());
}
