//! The public site in a real browser: a ladder of three bots built through the pipeline (one
//! of them crashes with a traceback on its stderr in each ladder match), three duplicate
//! pairs played by a worker, the real router served on a loopback port, and
//! `tests/browser/check_ladder.js` driving Debian's Chromium headless through it: the
//! leaderboard against `/api/leaderboard`, a bot's page against the stored results, a
//! replay's viewer against the stored result and without the bot's stderr, and the home,
//! login and sign-up pages, each without a script error or a CSP violation.
//!
//! Uses the arena's browser harness (`arena/tests/browser`: playwright-core and `browser.js`).
//! Needs `node` and `/usr/bin/chromium` (or `$CHROMIUM`); without them the test says so and
//! passes, except under `CI=true`, where it fails.

use crate::common;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use common::ladder::{Entry, Ladder, kit, ladder_of};
use server::ladder::worker::Played;
use server::storage::Finish;
use tokio_util::sync::CancellationToken;

/// What the leaky bot writes to its stderr (tests/bots/leaky.py).
const SECRET: &str = "leaky-secret-plan";
/// The whole browser run; it takes a few seconds.
const NODE_TIMEOUT: Duration = Duration::from_secs(120);

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The arena's browser harness, whose node_modules the server's script uses.
fn harness_dir() -> PathBuf {
    manifest().join("../arena/tests/browser")
}

fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Why the browser test cannot run here, if it cannot.
fn missing_tools() -> Option<String> {
    if !chromium().exists() {
        return Some(format!(
            "{} is missing (apt-get install chromium)",
            chromium().display()
        ));
    }
    if !runs("node") {
        return Some("node is missing (apt-get install nodejs npm)".into());
    }
    if !harness_dir().join("node_modules/playwright-core").exists() && !runs("npm") {
        return Some("npm is missing and arena/tests/browser/node_modules is not installed".into());
    }
    None
}

/// Says why a test did not run; under CI a missing tool is a failure, not a skip.
fn skip(test: &str, why: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    if ci {
        panic!("{test} cannot run in CI: {why} (.ci/run should have installed it)");
    }
    eprintln!("SKIPPED {test}: {why}");
}

/// Runs `npm ci` in the arena's harness unless node_modules is there. The arena's browser
/// tests may install at the same time: the same lock directory as theirs lets one install
/// while the others wait.
fn ensure_node_modules() {
    let dir = harness_dir();
    let installed = || {
        dir.join("node_modules/playwright-core/package.json")
            .exists()
    };
    let lock = dir.join(".npm-ci.lock");
    let start = Instant::now();
    while !installed() {
        match std::fs::create_dir(&lock) {
            Ok(()) => {
                let result = (!installed()).then(|| {
                    Command::new("npm")
                        .args(["ci", "--no-audit", "--no-fund"])
                        .current_dir(&dir)
                        .output()
                        .expect("npm runs")
                });
                let _ = std::fs::remove_dir(&lock);
                if let Some(output) = result {
                    assert!(
                        output.status.success(),
                        "npm ci in {} failed:\n{}{}",
                        dir.display(),
                        String::from_utf8_lossy(&output.stdout),
                        String::from_utf8_lossy(&output.stderr)
                    );
                }
            }
            Err(_) => {
                // Another test installs; a lock older than five minutes was left by a killed run.
                let stale = std::fs::metadata(&lock)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| SystemTime::now().duration_since(t).ok())
                    .is_some_and(|age| age > Duration::from_secs(300));
                if stale {
                    let _ = std::fs::remove_dir(&lock);
                }
                assert!(
                    start.elapsed() < Duration::from_secs(600),
                    "timed out waiting for npm ci"
                );
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
}

/// The worker plays `matches` matches (whole duplicate pairs when even), topping the queue up
/// as the server's workers do. The one place this test drives a worker.
async fn play(l: &Ladder, matches: usize) {
    let worker = l.worker("w1");
    let mut played = 0;
    while played < matches {
        worker.schedule().await.unwrap();
        match worker.play_next().await.unwrap() {
            Played::Match(_, Finish::Recorded { .. }) => played += 1,
            other => panic!("the worker did not record a match: {other:?}"),
        }
    }
}

/// A played match's replay as the worker stored it, bot stderr and all.
async fn stored_replay(l: &Ladder, id: i64) -> String {
    use std::io::Read;
    let gz = l.db.replay_gz(id).await.unwrap().expect("a replay");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// A stored match as the pages should show it.
#[derive(Default, serde::Serialize)]
struct Expected {
    /// Seat by seat: `BOT-vN`, as the replay names them.
    seats: [String; 2],
    /// Net chips, seat by seat, as stored.
    chips: [i64; 2],
    /// Fault records, seat by seat, and the hands (from 0) they are in.
    faults: [u64; 2],
    fault_hands: Vec<u64>,
    /// The stored replay holds the leaky bot's stderr.
    leaks: bool,
}

/// Every played match of `bots`, from the database and the stored replays.
async fn expected_matches(l: &Ladder, bots: &[&str]) -> BTreeMap<i64, Expected> {
    let mut matches: BTreeMap<i64, Expected> = BTreeMap::new();
    for name in bots {
        let bot = l.db.bot_by_name(name).await.unwrap().unwrap();
        for m in l.db.recent_matches(bot.id, 50).await.unwrap() {
            let e = matches.entry(m.match_id).or_default();
            let seat = m.seat as usize;
            e.seats[seat] = format!("{name}-v{}", m.version);
            e.chips[seat] = m.chips;
            e.chips[1 - seat] = m.opponent_chips;
        }
    }
    for (id, e) in matches.iter_mut() {
        let replay = stored_replay(l, *id).await;
        e.leaks = replay.contains(SECRET);
        for line in replay.lines() {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            if record["type"] == "fault" {
                e.faults[record["seat"].as_u64().unwrap() as usize] += 1;
                e.fault_hands.push(record["hand"].as_u64().unwrap());
            }
        }
    }
    matches
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_and_a_replay_in_a_real_browser() {
    const TEST: &str = "the_leaderboard_and_a_replay_in_a_real_browser";
    if let Some(why) = missing_tools() {
        skip(TEST, &why);
        return;
    }
    ensure_node_modules();
    let t = common::TestDb::sqlite().await;
    let leaky = std::fs::read(manifest().join("tests/bots/leaky.py")).unwrap();
    let bots = [
        Entry::single("alice", "caller", kit("python/minimal_bot.py")),
        Entry::kit_bot("carol", "random", "python/random_bot.py"),
        Entry::single("dave", "leaky", leaky),
    ];
    let l = ladder_of(&t, 60, &bots).await;
    // Three pairs: every bot plays two, the leaky one in four matches.
    play(&l, 6).await;

    let names = ["caller", "random", "leaky"];
    let matches = expected_matches(&l, &names).await;
    assert_eq!(matches.len(), 6);
    // The leaky bot's crash, traceback and all, is in the stored replays: what the public
    // page must leave out is really there to leave out.
    let leaked: Vec<i64> = matches
        .iter()
        .filter(|(_, e)| e.leaks && e.faults.iter().sum::<u64>() > 0)
        .map(|(id, _)| *id)
        .collect();
    assert!(
        !leaked.is_empty(),
        "no stored replay holds the leaky bot's crash"
    );

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("expected.json");
    let expected = serde_json::json!({
        "bots": names,
        "focus": "leaky",
        // A string: match ids are random 64-bit numbers, which JavaScript numbers round.
        "replay": leaked[0].to_string(),
        "secret": SECRET,
        "matches": matches,
    });
    std::fs::write(&file, serde_json::to_vec_pretty(&expected).unwrap()).unwrap();

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let stop = CancellationToken::new();
    let app = l
        .router()
        .into_make_service_with_connect_info::<SocketAddr>();
    let until = stop.clone().cancelled_owned();
    let site = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(until)
            .await
    });

    let node = tokio::process::Command::new("node")
        .arg(manifest().join("tests/browser/check_ladder.js"))
        .arg(&base)
        .arg(&file)
        .current_dir(manifest().join("tests/browser"))
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(NODE_TIMEOUT, node).await;

    stop.cancel();
    let stopped = tokio::time::timeout(Duration::from_secs(10), site).await;
    drop(dir);
    t.cleanup().await;

    let output = output
        .unwrap_or_else(|_| panic!("check_ladder.js took more than {NODE_TIMEOUT:?}"))
        .expect("node runs");
    let (out, err) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    print!("{out}");
    eprint!("{err}");
    assert!(
        output.status.success(),
        "check_ladder.js failed ({}):\n{out}{err}",
        output.status
    );
    stopped
        .expect("the server stops once the browser is gone")
        .unwrap()
        .unwrap();
}
