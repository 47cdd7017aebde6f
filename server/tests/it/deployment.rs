//! A deployment as an organizer runs one: `arena-server` on PostgreSQL playing no match
//! itself (`[ladder] workers = 0`) and two `arena-worker` processes sharing nothing with it
//! but the database. Accounts upload bots in three languages over HTTP; a broken bot is
//! rejected with its log; a hostile bot that tries to reach the database, the server's files
//! and the other workers, and to leave a process behind, is contained; the ladder plays; a
//! worker SIGKILLed in the middle of a match leaves that match to be played again exactly
//! once, by the other worker.
//!
//! Needs ARENA_TEST_POSTGRES_URL (`.ci/run` starts a PostgreSQL); skipped without it.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::binaries::{new_account_bearer, request, start_server_with, start_worker, upload_body};
use common::ladder::{kit, zip_of as zip};
use sqlx::Row;

/// A word no other process on the machine has in its command line.
fn marker() -> String {
    format!(
        "arena-deploy-marker-{}",
        server::storage::random_hex(6).unwrap()
    )
}

/// The ids of live processes whose command line contains `needle`.
fn processes_with(needle: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline"))
            && String::from_utf8_lossy(&cmdline).contains(needle)
        {
            found.push(pid);
        }
    }
    found
}

/// How long a step of the ladder (a build, a match to catch, a lapsed lease's match played
/// again, every bot rated) may take before the test calls it hung. A guard, not a speed
/// check: the suite runs two tests a core (scripts/test), and under that load the replay of
/// the killed match, queued behind 150-hand matches on the one worker left, took over 90 s.
const HUNG: Duration = Duration::from_secs(300);

/// Waits (polling) until `done` gives a value, or fails after `limit` saying `what`.
async fn wait_for<T, F, Fut>(limit: Duration, what: &str, mut done: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let started = Instant::now();
    loop {
        if let Some(value) = done().await {
            return value;
        }
        assert!(started.elapsed() < limit, "not within {limit:?}: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A Python bot that first tries to break out (read the server's files and the workers':
/// uploads, other bots' builds, the database, logs),
/// reach the database over the network, read other processes' command lines, leave a
/// process running) and then plays like the minimal bot. Any attempt that succeeds makes it
/// exit at once with status 3: it then fails its check, or faults in the ladder.
fn hostile_bot(targets: &[&Path], marker: &str) -> Vec<u8> {
    let paths: Vec<String> = targets
        .iter()
        .map(|p| format!("{:?}", p.display().to_string()))
        .collect();
    let escape = format!(
        r#"import os, socket, sys
def escaped(why):
    sys.stderr.write("ESCAPED: " + why + "\n")
    sys.exit(3)
# Its own files (the build it runs from, its working directory) are fine to read; any
# other file under the server's or the workers' directories is not.
own = (os.path.dirname(os.path.abspath(__file__)), os.getcwd())
for root in [{paths}]:
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            if path.startswith(own):
                continue
            try:
                with open(path, "rb") as f:
                    f.read(1)
                escaped("read " + path)
            except OSError:
                pass
try:
    socket.create_connection(("127.0.0.1", 5432), timeout=1).close()
    escaped("reached the database")
except OSError:
    pass
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            with open("/proc/" + pid + "/cmdline", "rb") as f:
                text = f.read()
            if b"postgres" in text or b"arena-worker" in text or b"arena-server" in text:
                escaped("saw " + text.decode(errors="replace"))
        except OSError:
            pass
# A process of its own that would outlive the bot if nothing killed it.
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", "{marker}"])
    os._exit(0)
"#,
        paths = paths.join(", ")
    );
    let mut source = escape.into_bytes();
    source.extend_from_slice(&kit("python/minimal_bot.py"));
    source
}

struct Account {
    bearer: String,
}

fn register(address: &str, name: &str) -> Account {
    Account {
        bearer: new_account_bearer(address, name),
    }
}

fn upload(address: &str, who: &Account, bot: &str, language: &str, file: &str, bytes: &[u8]) {
    let (status, _, body) = request(
        address,
        "POST",
        &format!("/api/bots/{bot}/versions"),
        &[
            ("Authorization", &who.bearer),
            ("Content-Type", "multipart/form-data; boundary=b0"),
        ],
        &upload_body(language, file, bytes),
    );
    assert_eq!(status, 201, "{bot}: {body}");
}

/// The bot's first version as its owner sees it through the API, once built.
fn built(address: &str, who: &Account, bot: &str) -> serde_json::Value {
    let started = Instant::now();
    loop {
        let (status, _, body) = request(
            address,
            "GET",
            &format!("/api/bots/{bot}/versions/1"),
            &[("Authorization", &who.bearer)],
            b"",
        );
        assert_eq!(status, 200, "{body}");
        let version: serde_json::Value = serde_json::from_str(&body).unwrap();
        if version["state"] == "failed" || version["state"] == "ready" {
            return version;
        }
        assert!(
            started.elapsed() < HUNG,
            "{bot} not built within {HUNG:?}: {body}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_on_postgres_play_the_ladder_and_a_killed_one_is_replaced() {
    let Some(t) = common::TestDb::postgres("deployment").await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("server-data");
    let (w1_data, w2_data) = (dir.path().join("w1"), dir.path().join("w2"));
    let contest = dir.path().join("contest.toml");
    std::fs::write(
        &contest,
        format!(
            "name = \"deploy\"\ngame = \"classic\"\nlanguages = [\"python\", \"javascript\", \"c\"]\n\
             [time]\nstartup_ms = 3000\n\
             [build]\nbuilders = 2\n\
             [ladder]\nhands_per_match = 150\nlease_seconds = 10\nworkers = 0\n\
             [storage]\ndata_dir = \"{}\"\n",
            data.display()
        ),
    )
    .unwrap();
    let server = start_server_with(&contest, &["--db", &t.url]);
    let a = server.address.clone();
    let mut w1 = start_worker(&t.url, &w1_data, "w1");
    let w2 = start_worker(&t.url, &w2_data, "w2");

    // Three accounts, three languages, over HTTP; a fourth with a hostile bot.
    let alice = register(&a, "alice");
    let bob = register(&a, "bob");
    let carol = register(&a, "carol");
    let mallory = register(&a, "mallory");
    upload(
        &a,
        &alice,
        "py-caller",
        "python",
        "bot.py",
        &kit("python/minimal_bot.py"),
    );
    let js = zip(&[
        ("bot.js", kit("javascript/bot.js")),
        ("teenpatti.js", kit("javascript/teenpatti.js")),
    ]);
    upload(&a, &bob, "js-kit", "javascript", "bot.zip", &js);
    let c = zip(&[
        ("bot.c", kit("c/bot.c")),
        ("json.c", kit("c/json.c")),
        ("json.h", kit("c/json.h")),
        ("teenpatti.c", kit("c/teenpatti.c")),
        ("teenpatti.h", kit("c/teenpatti.h")),
    ]);
    upload(&a, &carol, "c-kit", "c", "bot.zip", &c);
    let broken = b"#include <stdio.h>\nint main(void) { return missing_function(; }\n";
    upload(&a, &carol, "c-broken", "c", "bot.c", broken);
    let marker = marker();
    let hostile = hostile_bot(&[&data, &w1_data, &w2_data], &marker);
    upload(&a, &mallory, "sneaky", "python", "bot.py", &hostile);

    for (who, bot) in [
        (&alice, "py-caller"),
        (&bob, "js-kit"),
        (&carol, "c-kit"),
        (&mallory, "sneaky"),
    ] {
        let v = built(&a, who, bot);
        assert_eq!(v["state"], "ready", "{bot}: {v}");
    }
    // The workers' directories (every participant's build) are private.
    for dir in [&w1_data, &w2_data] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700, "{}", dir.display());
    }
    // The broken bot is rejected, and its owner reads why.
    let v = built(&a, &carol, "c-broken");
    assert_eq!(v["state"], "failed", "{v}");
    let log = v["build_log"].as_str().unwrap();
    assert!(
        log.contains("missing_function") && log.contains("error"),
        "{log}"
    );
    // Nobody else reads it, or anyone's code (404: not even whether it exists).
    for path in [
        "/api/bots/c-broken/versions/1",
        "/api/bots/c-kit/versions/1/files/bot.c",
    ] {
        let (status, _, _) = request(&a, "GET", path, &[("Authorization", &alice.bearer)], b"");
        assert_eq!(status, 404, "{path}");
    }

    // The ladder plays on the workers: catch w1 in the middle of a match and SIGKILL it.
    let db = t.db.clone();
    let mut tries = 0;
    let (victim, attempt) = loop {
        let (id, attempt) = wait_for(HUNG, "w1 playing a match", || {
            let db = db.clone();
            async move {
                let row = sqlx::query(
                    "SELECT id, attempt FROM matches \
                     WHERE state = 'running' AND lease_owner LIKE 'w1:%'",
                )
                .fetch_optional(db.pool())
                .await
                .unwrap()?;
                Some((row.get::<i64, _>("id"), row.get::<i64, _>("attempt")))
            }
        })
        .await;
        w1.kill();
        let (state, _) = db.match_state(id).await.unwrap().unwrap();
        if state == "running" {
            break (id, attempt);
        }
        // It finished between the look and the kill: catch the next one with a new w1.
        tries += 1;
        assert!(tries < 5, "w1 was never caught in the middle of a match");
        w1 = start_worker(&t.url, &w1_data, "w1");
    };
    // Its bots went with it (sandboxed under it, or killed by its guard).
    let w1_path = w1_data.display().to_string();
    wait_for(Duration::from_secs(10), "w1's bots gone", || {
        let left = processes_with(&w1_path);
        async move { left.is_empty().then_some(()) }
    })
    .await;
    // Its lease runs out (10 s) and the other worker plays the match again, once.
    let winner = wait_for(HUNG, "the killed match replayed", || {
        let db = db.clone();
        async move {
            let row = sqlx::query(
                "SELECT m.state, m.attempt, r.worker FROM matches m \
                 LEFT JOIN match_results r ON r.match_id = m.id WHERE m.id = $1",
            )
            .bind(victim)
            .fetch_one(db.pool())
            .await
            .unwrap();
            let state: String = row.get("state");
            assert_ne!(state, "failed", "the killed match was given up");
            (state == "done")
                .then(|| (row.get::<i64, _>("attempt"), row.get::<String, _>("worker")))
        }
    })
    .await;
    assert_eq!(winner.0, attempt + 1, "played exactly once more");
    assert!(winner.1.starts_with("w2:"), "{winner:?}");
    assert_eq!(db.results_count(victim).await.unwrap(), 1);

    // More matches, all on w2 now; every bot gets rated, the hostile one without a fault.
    let board = wait_for(HUNG, "every bot rated", || {
        let a = a.clone();
        async move {
            let (status, _, body) = request(&a, "GET", "/api/leaderboard", &[], b"");
            assert_eq!(status, 200, "{body}");
            let json: serde_json::Value = serde_json::from_str(&body).unwrap();
            let rows = json["leaderboard"].as_array().unwrap().clone();
            (rows.len() == 4 && rows.iter().all(|r| r["games"].as_i64() > Some(0))).then_some(rows)
        }
    })
    .await;
    let names: Vec<&str> = board.iter().map(|r| r["bot"].as_str().unwrap()).collect();
    for bot in ["py-caller", "js-kit", "c-kit", "sneaky"] {
        assert!(names.contains(&bot), "{names:?}");
    }
    let faults: i64 = sqlx::query(
        "SELECT CAST(COALESCE(SUM(rs.faults), 0) AS BIGINT) AS n FROM match_result_seats rs \
         JOIN match_seats s ON s.match_id = rs.match_id AND s.seat = rs.seat \
         JOIN bot_versions v ON v.id = s.version_id JOIN bots b ON b.id = v.bot_id \
         WHERE b.name = 'sneaky'",
    )
    .fetch_one(db.pool())
    .await
    .unwrap()
    .get("n");
    assert_eq!(
        faults, 0,
        "the hostile bot escaped somewhere (it exits 3 when it does)"
    );
    // A replay stored by a worker is served by the server.
    let (status, _, page) = request(&a, "GET", &format!("/matches/{victim}/replay"), &[], b"");
    assert_eq!(status, 200);
    assert!(page.contains("<script"), "{page}");

    drop(w2);
    drop(server);
    // Nothing a bot started is left: not the hostile bot's double-forked sleeper either.
    wait_for(Duration::from_secs(10), "no process left behind", || {
        let left = processes_with(&marker);
        async move { left.is_empty().then_some(()) }
    })
    .await;
    drop(dir);
    t.cleanup().await;
}
