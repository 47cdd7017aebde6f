//! Part `matches`: one ladder worker against `arena tournament --jobs 1` on the same two
//! bots. Both bots are uploaded, built and checked by the server's pipeline; the tournament
//! runs the very files the worker runs (the versions' build directories, with the run
//! commands the worker uses), with the same game, table, time limits, sandbox level,
//! `LOAD_HANDS` hands a match and duplicate deals, over `LOAD_MATCHES` matches. The worker
//! loops as `Worker::run` does (expire leases, top the queue up, play the next match), with
//! the database on the side; the tournament writes its replays, results and standings as it
//! always does. Interleaved `LOAD_REPEATS` times; rates and the ratio per repeat.
//! `LOAD_KITS`: `python` (random vs minimal, the default), `c` (starter vs example bot), or
//! `python,c`. Each repeat runs the tournament, then the worker as a task on the
//! multi-threaded runtime (how `arena-server` ran workers before), then the same worker as
//! `arena-server` runs it now: `Worker::run` on a `WorkerThread`, a thread of its own with a
//! current-thread runtime, as the arena's job slots run matches.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use server::config::Contest;
use server::ladder::build::{Builder, run_command};
use server::ladder::cache::BuildCache;
use server::ladder::submissions::Submissions;
use server::ladder::worker::{Played, Worker};
use server::ladder::worker_thread::WorkerThread;
use server::storage::{Db, Finish};
use tokio::sync::Notify;

use super::common::{GAME, TABLE_AND_TIME, c_kit, env_or, header, kits, median, sandbox_name, zip};
use super::seed::Database;

/// The build cache the bench's workers share (as a server's workers do).
fn cache_of(contest: &Contest) -> Arc<BuildCache> {
    Arc::new(BuildCache::new(contest.data_dir.join("cache")).expect("a build cache"))
}

/// The one place this bench makes a worker.
fn new_worker(db: &Db, contest: &Arc<Contest>) -> Worker {
    Worker::new(
        db.clone(),
        contest.clone(),
        "bench-worker".to_string(),
        cache_of(contest),
    )
    .expect("a worker")
}

/// One turn of `Worker::run`'s loop that played a match; panics on anything else (the bench
/// has two ready bots and a queue kept full, so a worker never idles).
async fn play_one(worker: &Worker, db: &Db) {
    db.expire_matches(server::storage::now_ms())
        .await
        .expect("expire");
    worker.schedule().await.expect("the scheduler");
    match worker.play_next().await.expect("a match") {
        Played::Match(_, Finish::Recorded { .. }) => {}
        other => panic!("the worker did not record a match: {other:?}"),
    }
}

/// CPU seconds used so far by this process and its waited-for children (the bots a worker
/// started, an arena and its bots), from `/proc/self/stat`.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return f64::NAN;
    };
    // After the command name (in parentheses, may hold spaces): utime, stime, cutime and
    // cstime are fields 14 to 17 of the line, 12 to 15 after the name.
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
        return f64::NAN;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = (11..15)
        .filter_map(|i| fields.get(i).and_then(|f| f.parse::<f64>().ok()))
        .sum();
    ticks / 100.0 // USER_HZ
}

/// Matches stored so far.
async fn done(db: &Db) -> i64 {
    use sqlx::Row;
    sqlx::query("SELECT COUNT(*) AS n FROM matches WHERE state = 'done'")
        .fetch_one(db.pool())
        .await
        .expect("a count")
        .get("n")
}

/// `matches` matches played by the worker as `arena-server` now runs it
/// (`serve::start_workers`: `Worker::run` on a [`WorkerThread`]), timed from its start to the
/// last one stored; the wall time in seconds. The match it starts after those is cut short.
async fn play_on_worker_thread(contest: &Arc<Contest>, db: &Db, matches: u64) -> f64 {
    let before = done(db).await;
    let t = Instant::now();
    let (c, cache) = (contest.clone(), cache_of(contest));
    let thread = WorkerThread::spawn(
        "bench-worker".into(),
        db,
        tokio_util::sync::CancellationToken::new(),
        move |db| Worker::new(db, c, "bench-worker".to_string(), cache),
    )
    .expect("a worker thread");
    while done(db).await < before + matches as i64 {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let wall = t.elapsed().as_secs_f64();
    tokio::task::block_in_place(|| thread.stop());
    wall
}

/// The two bots of a kit: (owner, bot, language, file name, upload).
fn uploads(
    kit: &str,
) -> [(
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Vec<u8>,
); 2] {
    match kit {
        "c" => [
            ("ann", "starter", "c", "bot.zip", c_kit()),
            (
                "ben",
                "example",
                "c",
                "bot.zip",
                zip(&[
                    ("bot.c", "c/example_bot.c"),
                    ("json.c", "c/json.c"),
                    ("json.h", "c/json.h"),
                    ("teenpatti.c", "c/teenpatti.c"),
                    ("teenpatti.h", "c/teenpatti.h"),
                ]),
            ),
        ],
        _ => [
            (
                "ann",
                "random",
                "python",
                "bot.zip",
                super::common::python_kit(),
            ),
            (
                "ben",
                "minimal",
                "python",
                "bot.py",
                std::fs::read(kits().join("python/minimal_bot.py")).expect("the kit"),
            ),
        ],
    }
}

/// The two bots uploaded and built; their names and run commands.
async fn ready_bots(db: &Db, contest: &Arc<Contest>, kit: &str) -> Vec<(String, Vec<String>)> {
    let submissions = Submissions::of_contest(db.clone(), contest).expect("uploads");
    let builder =
        Builder::new(db.clone(), contest.clone(), Arc::new(Notify::new())).expect("builder");
    let mut versions = Vec::new();
    for (owner, bot, language, file, bytes) in uploads(kit) {
        let user = db
            .create_user(owner, owner, Some("$argon2id$x"), None, false)
            .await
            .expect("an account");
        let (_, version) = submissions
            .submit(&user, bot, language, file, bytes)
            .await
            .expect("an upload");
        versions.push((bot.to_string(), version.id));
    }
    while let Some((id, state)) = builder.build_next().await.expect("a build") {
        let v = db.version_by_id(id).await.unwrap().unwrap();
        assert_eq!(
            state,
            server::ladder::versions::VersionState::Ready,
            "{}\n{}",
            v.build_log,
            v.check_log
        );
    }
    let mut out = Vec::new();
    for (name, id) in versions {
        let version = db.version_by_id(id).await.unwrap().unwrap();
        out.push((
            name,
            run_command(&contest.data_dir, &version).expect("a run command"),
        ));
    }
    out
}

/// The arena binary next to this bench (release), built if missing.
fn arena_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the bench's path");
    // target/release/deps/ladder_load-HASH -> target/release/arena
    let dir = exe.parent().and_then(Path::parent).expect("target/release");
    let arena = dir.join("arena");
    if !arena.exists() {
        eprintln!("building the arena (cargo build --release -p arena --bin arena)");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["build", "--release", "-p", "arena", "--bin", "arena"])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cannot build the arena");
    }
    arena
}

fn toml_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string")
}

fn tournament_file(
    dir: &Path,
    bots: &[(String, Vec<String>)],
    hands: u64,
    matches: u64,
) -> PathBuf {
    let mut text = format!(
        "name = \"load\"\n{GAME}format = \"round-robin\"\nhands = {hands}\nseed = 7\n\
         rounds = {}\nduplicate = true\nsandbox = \"{}\"\n\n{TABLE_AND_TIME}\n",
        matches.div_ceil(2),
        sandbox_name()
    );
    for (name, argv) in bots {
        let argv: Vec<String> = argv.iter().map(|a| toml_string(a)).collect();
        text.push_str(&format!(
            "[[bot]]\nname = \"{name}\"\ncommand = [{}]\n\n",
            argv.join(", ")
        ));
    }
    let file = dir.join("load.toml");
    std::fs::write(&file, text).expect("the tournament file");
    file
}

pub async fn run() {
    let hands = env_or("LOAD_HANDS", 100);
    let matches = env_or("LOAD_MATCHES", 40).max(2) / 2 * 2;
    let repeats = env_or("LOAD_REPEATS", 3) as usize;
    let kits = std::env::var("LOAD_KITS").unwrap_or_else(|_| "python".into());
    let arena = arena_binary();
    // As the arena does at start: orphaned descendants of bots (a sandbox's inner process
    // when its bot is killed) are reaped by this process, so their CPU time is counted here
    // as it is in the arena's. (`arena-server` does not do this yet.)
    if let Err(e) = sandbox::set_child_subreaper() {
        eprintln!("cannot become a child subreaper ({e}): the CPU columns miss some bot time");
    }
    for kit in kits.split(',').map(str::trim).filter(|k| !k.is_empty()) {
        header(&format!(
            "matches: one worker vs arena tournament --jobs 1, {kit} bots, {matches} matches of {hands} hands, sandbox {}",
            sandbox_name()
        ));
        let database = Database::open("sqlite").await;
        let dir = super::common::temp_dir("ladder-load-matches-");
        let contest = super::common::contest(
            dir.path(),
            &format!("[ladder]\nhands_per_match = {hands}\nworkers = 1\nlease_seconds = 900\n"),
        );
        let bots = ready_bots(&database.db, &contest, kit).await;
        let file = tournament_file(dir.path(), &bots, hands, matches);
        let worker = Arc::new(new_worker(&database.db, &contest));
        println!(
            "{:<7} {:>9} {:>9} {:>9} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9}",
            "repeat",
            "arena s",
            "task s",
            "thread s",
            "arena m/m",
            "task m/m",
            "thread m/m",
            "arena cpu",
            "task cpu",
            "thr cpu"
        );
        let mut ratios = Vec::new();
        let mut own_ratios = Vec::new();
        let mut cpu_ratios = Vec::new();
        let mut own_cpu_ratios = Vec::new();
        for r in 0..repeats {
            let out = dir.path().join(format!("out{r}"));
            let (t, c) = (Instant::now(), cpu_seconds());
            let status = tokio::process::Command::new(&arena)
                .arg("tournament")
                .arg(&file)
                .arg("--out")
                .arg(&out)
                .args(["--jobs", "1", "-q"])
                .stdout(std::process::Stdio::null())
                .status()
                .await
                .expect("the arena runs");
            let (arena_s, arena_cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
            assert!(status.success(), "arena tournament failed");
            let _ = std::fs::remove_dir_all(&out);
            // As `arena-server` ran its workers before: a task on the multi-threaded runtime.
            let (t, c) = (Instant::now(), cpu_seconds());
            for _ in 0..matches {
                play_one(&worker, &database.db).await;
            }
            let (worker_s, worker_cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
            let c = cpu_seconds();
            let own_s = play_on_worker_thread(&contest, &database.db, matches).await;
            let own_cpu = cpu_seconds() - c;
            let rate = |s: f64| matches as f64 * 60.0 / s;
            ratios.push(arena_s / worker_s);
            own_ratios.push(arena_s / own_s);
            cpu_ratios.push(worker_cpu / arena_cpu);
            own_cpu_ratios.push(own_cpu / arena_cpu);
            println!(
                "{r:<7} {arena_s:>9.2} {worker_s:>9.2} {own_s:>9.2} {:>10.1} {:>10.1} {:>10.1} {arena_cpu:>9.2} {worker_cpu:>9.2} {own_cpu:>9.2}",
                rate(arena_s),
                rate(worker_s),
                rate(own_s),
            );
        }
        println!(
            "worker / arena, medians of the repeats: rate as a task {:.3}x, on its thread \
             (arena-server) {:.3}x; CPU as a task {:.3}x, on its thread {:.3}x",
            median(&mut ratios),
            median(&mut own_ratios),
            median(&mut cpu_ratios),
            median(&mut own_cpu_ratios)
        );
        database.close().await;
    }
}
