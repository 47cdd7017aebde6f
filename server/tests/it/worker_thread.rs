//! A worker on its own thread (`WorkerThread`, as `arena-server` runs its workers) plays
//! and rates pairs while the test's runtime goes on, and stops when told.

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use server::config::Contest;
use server::ladder::build::Builder;
use server::ladder::cache::BuildCache;
use server::ladder::submissions::Submissions;
use server::ladder::versions::VersionState;
use server::ladder::worker::Worker;
use server::ladder::worker_thread::WorkerThread;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

const MINIMAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../sample-bots/python/minimal_bot.py"
);

on_both!(a_worker_thread_plays_until_stopped, |t| {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "game = \"classic\"\nlanguages = [\"python\"]\n[storage]\ndata_dir = \"{}\"\n\
         [ladder]\nhands_per_match = 4\nworkers = 1\n[time]\nstartup_ms = 4000\n",
        dir.path().join("data").display()
    );
    let contest = Arc::new(Contest::parse(&text, Path::new("contest.toml"), dir.path()).unwrap());
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    let submissions = Submissions::of_contest(t.db.clone(), &contest).unwrap();
    for owner in ["ann", "ben"] {
        let user =
            t.db.create_user(owner, owner, Some("$argon2id$x"), None, false)
                .await
                .unwrap();
        submissions
            .submit(
                &user,
                &format!("{owner}-bot"),
                "python",
                "bot.py",
                std::fs::read(MINIMAL).unwrap(),
            )
            .await
            .unwrap();
    }
    let builder = Builder::new(t.db.clone(), contest.clone(), Arc::new(Notify::new())).unwrap();
    while let Some((_, state)) = builder.build_next().await.unwrap() {
        assert_eq!(state, VersionState::Ready);
    }
    let cache = Arc::new(BuildCache::new(contest.data_dir.join("cache")).unwrap());
    let c = contest.clone();
    let thread = WorkerThread::spawn(
        "test-worker".into(),
        &t.db,
        CancellationToken::new(),
        move |db| Worker::new(db, c, "thread".into(), cache),
    )
    .unwrap();
    let started = Instant::now();
    loop {
        let board = t.db.leaderboard().await.unwrap();
        if board.iter().all(|s| s.games >= 1) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "no pair rated: {board:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Stopping cuts a match short (its bots killed) and returns promptly.
    let stopping = Instant::now();
    tokio::task::spawn_blocking(move || thread.stop())
        .await
        .unwrap();
    assert!(stopping.elapsed() < Duration::from_secs(10));
    let scratch = std::fs::read_dir(contest.data_dir.join("matches"))
        .unwrap()
        .count();
    // At most the match that was cut short left its directory (the next start clears it).
    assert!(scratch <= 1, "{scratch}");
});
