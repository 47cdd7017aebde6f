//! Killing and reaping: no bot process survives shutdown, kill_now or drop.
//!
//! The arena is not a subreaper here, so killed grandchildren are re-parented to PID 1, which
//! may never reap them (some containers): the checks look for *live* processes and ignore
//! zombies. `process_subreaper.rs` checks the stronger property.

use crate::process_common;

use std::time::Duration;

use process_common::*;
use sandbox::{BotProcess, ReadError};

#[tokio::test]
async fn forked_child_holding_the_pipes_is_killed_at_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let mark = marker("fork");
    let spec = spec(&dir, "fork", python("fork_holder.py", &[&mark]));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    let pgid = bot.pid();
    let grandchild: u32 = bot
        .recv_line(after(PATIENCE))
        .await
        .unwrap()
        .parse()
        .unwrap();
    let info = proc_info(grandchild).expect("grandchild is running");
    assert_eq!(info.pgrp, pgid, "grandchild inherited the bot's group");
    assert_eq!(live_group_members(pgid).len(), 2);

    // The bot exits at stdin EOF; its child ignores SIGTERM and keeps stdout/stderr open.
    let exit = bot.shutdown(PATIENCE).await;
    assert_eq!(exit.code, Some(0), "{exit:?}");
    assert!(!exit.killed_by_arena, "{exit:?}");
    assert!(exit.leaked_pipe, "the grandchild held the pipes: {exit:?}");

    assert!(
        eventually(PATIENCE, || live_group_members(pgid).is_empty()).await,
        "still alive in group {pgid}: {:?}",
        live_group_members(pgid)
    );
    assert!(live_with_marker(&mark).is_empty());
    // The leader itself was reaped: no zombie of ours.
    assert!(proc_info(pgid).is_none_or(|p| p.ppid != std::process::id()));
}

#[tokio::test]
async fn bot_ignoring_sigterm_and_eof_is_killed_after_the_grace_period() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "stubborn", python("ignore_term.py", &[]));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    let pgid = bot.pid();
    assert_eq!(bot.recv_line(after(PATIENCE)).await.as_deref(), Ok("ready"));
    let start = tokio::time::Instant::now();
    let exit = bot.shutdown(Duration::from_millis(300)).await;
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(300));
    assert!(took < PATIENCE, "shutdown took {took:?}");
    assert!(exit.killed_by_arena, "{exit:?}");
    assert_eq!((exit.code, exit.signal), (None, Some(9)));
    assert!(exit.status.is_some());
    assert!(eventually(PATIENCE, || live_group_members(pgid).is_empty()).await);
}

#[tokio::test]
async fn kill_now_then_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&dir, "killed", python("silent.py", &[]));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    let pgid = bot.pid();
    bot.kill_now();
    let status = bot
        .wait_timeout(PATIENCE)
        .await
        .expect("dead after SIGKILL");
    assert_eq!(status.code(), None);
    assert_eq!(bot.recv_line(after(PATIENCE)).await, Err(ReadError::Closed));
    let exit = bot.shutdown(PATIENCE).await;
    assert!(exit.killed_by_arena);
    assert_eq!(exit.signal, Some(9));
    assert!(eventually(PATIENCE, || live_group_members(pgid).is_empty()).await);
}

#[tokio::test]
async fn dropping_a_bot_mid_read_kills_and_reaps_its_group() {
    let dir = tempfile::tempdir().unwrap();
    let mark = marker("drop");
    let spec = spec(&dir, "dropped", python("fork_holder.py", &[&mark]));
    let mut bot = BotProcess::spawn(&spec).unwrap();
    let pgid = bot.pid();
    let _grandchild: u32 = bot
        .recv_line(after(PATIENCE))
        .await
        .unwrap()
        .parse()
        .unwrap();
    // Cancel a pending read, as a referee's `select!` or an aborted task would, then drop.
    tokio::select! {
        r = bot.recv_line(after(PATIENCE)) => panic!("unexpected {r:?}"),
        () = tokio::time::sleep(Duration::from_millis(50)) => {}
    }
    drop(bot);
    assert!(
        eventually(PATIENCE, || live_group_members(pgid).is_empty()).await,
        "still alive: {:?}",
        live_group_members(pgid)
    );
    assert!(live_with_marker(&mark).is_empty());
    // The background task reaped the leader.
    let me = std::process::id();
    assert!(
        eventually(PATIENCE, || proc_info(pgid).is_none_or(|p| p.ppid != me)).await,
        "leader {pgid} not reaped: {:?}",
        proc_info(pgid)
    );
    // The stderr log was finished too (empty: the bot wrote nothing).
    assert!(eventually(PATIENCE, || spec.stderr_log.exists()).await);
}

#[test]
fn dropping_a_bot_with_its_runtime_still_kills_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let mark = marker("rt-drop");
    let spec = spec(&dir, "rt", python("fork_holder.py", &[&mark]));
    let pgid;
    {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let bot = rt.block_on(async {
            let mut bot = BotProcess::spawn(&spec).unwrap();
            bot.recv_line(after(PATIENCE)).await.unwrap();
            bot
        });
        pgid = bot.pid();
        drop(rt);
        drop(bot); // no runtime any more: only the synchronous group kill runs
    }
    let end = std::time::Instant::now() + PATIENCE;
    while !live_group_members(pgid).is_empty() && std::time::Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(live_group_members(pgid).is_empty());
    assert!(live_with_marker(&mark).is_empty());
}
