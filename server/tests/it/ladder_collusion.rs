//! Duplicate pairs on the ladder stay fair against a colluding bot (issue 28): the two
//! matches of a pair deal the same cards in swapped seats, so the copy of a bot in one half
//! holds exactly the cards its opponent holds in the other. If both halves ran at once, the
//! copies could tell each other their cards through anything the machine shares.
//!
//! Here one owner uploads the hostile bot `arena/tests/zoo/attack_channel.py` (with its
//! helpers, behind a `bot.py` that gives it its arguments: the ladder starts `bot.py` with
//! none), another the Python kit's random bot. The ladder schedules one pair (the queue holds
//! that pair only), and TWO workers (each on an OS thread of its own with its own database
//! pool, as `WorkerThread` runs them; two machines' workers as far as the database can tell)
//! start claiming at the same moment. The copy at seat 0 sends a pseudo-random bit string
//! derived from a nonce, the copy at seat 1 receives and logs what it decoded
//! (`CHANNEL <name> key=<k> bits=<..> method=<m>`) on stderr, which the ladder keeps with each
//! decision in the stored replay (`[ladder] replay_stderr_kb`). The test reads the replays
//! back from the database and scores the bits against the truth.
//!
//! The contest runs its bots at `sandbox = "none"`: the sandbox's own defences (seccomp
//! denials, frozen `/proc` copies) close these channels anyway (arena/tests/it/covert_channels.rs
//! proves that); this test isolates the ladder's defence, which must hold even for a channel
//! the sandbox cannot close (CPU contention, see covert_channels.rs): a worker never claims a
//! match while its pair's other match runs (`Db::claim_match`). The channels are ones that
//! carry hundreds of bits between two copies running at once (`locks`: fcntl locks on a
//! shared file; `filenr`: the machine's open-file count).
//!
//! Asserted, per channel and database: the pair's two matches were played and stored, and did
//! not overlap in time (the matches' `started_at` / `finished_at`); the receiver logged some
//! bits (the attack ran); its accuracy is consistent with chance (P(chance) >= [`ALPHA`],
//! one-sided binomial tail); no process of the ladder's bots is left.
//!
//! With the claim rule disabled (the `NOT EXISTS` clause and the `sibling_running` check of
//! `claim_match` removed), the two workers claimed the two halves at once in every run tried
//! (8 pairs of 8, SQLite and PostgreSQL) and this test fails: the halves overlap, and the
//! `locks` receiver got 74-90 % of 208-320 bits right (P(chance) 1e-18 to 1e-35). `filenr`
//! got 80-100 %, but of only 22-25 bits (a decision keeps 20 stderr lines, the hello's go with
//! the first), P(chance) 2e-3 to 3e-8: there the overlap is what fails.

use crate::common;

use std::path::Path;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use common::ladder::{Entry, zip_of};
use server::config::Contest;
use server::ladder::build::Builder;
use server::ladder::cache::BuildCache;
use server::ladder::submissions::Submissions;
use server::ladder::versions::VersionState;
use server::ladder::worker::{Played, Worker};
use server::storage::Finish;
use sqlx::Row;
use tokio::sync::Notify;

/// Smallest chance of a receiver's score (or better) by guessing that passes: 2 channels x
/// 2 databases, a closed channel fails somewhere with probability below 4e-6.
const ALPHA: f64 = 1e-6;

/// Far above what a pair takes, far below "hung".
const DEADLINE: Duration = Duration::from_secs(60);

/// Hands per match: the bits are carried at hello and at each decision (the receiver's
/// lines of its hello go with its first decision), the hands only give the decisions.
const HANDS: u64 = 4;

/// The channels tried, with the receiver's hello window (ms; covert_channels.rs's FAST and
/// SLOW: a bits channel carries 8 bits every 10 ms, a level channel 1 bit every 20 ms).
const CHANNELS: [(&str, u64); 2] = [("locks", 400), ("filenr", 1200)];

const ZOO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../arena/tests/zoo");

// The truth (what the sender sends) and the chance of a score: the arena's own helpers.
#[path = "../../../arena/tests/common/channel_truth.rs"]
mod channel_truth;
use channel_truth::{fresh_nonce, prf, tail};

/// What the receiver decoded over a pair, scored against the truth.
#[derive(Debug, Default)]
struct Score {
    correct: u64,
    total: u64,
    methods: Vec<String>,
    /// The bot's ATTACK lines (what it tried, what was refused).
    attacks: Vec<String>,
    /// Lines the replay did not keep (past a decision's bound).
    dropped: u64,
}

impl Score {
    fn p(&self) -> f64 {
        tail(self.total, self.correct)
    }

    fn line(&self) -> String {
        let accuracy = if self.total == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", 100.0 * self.correct as f64 / self.total as f64)
        };
        format!(
            "{}/{} bits right ({accuracy}), P(chance) = {:.1e}, by {:?}, {} lines dropped",
            self.correct,
            self.total,
            self.p(),
            self.methods,
            self.dropped
        )
    }

    /// Adds the `CHANNEL` lines of one stored replay (any seat: only the hostile bot writes
    /// them).
    fn add_replay(&mut self, replay: &str, channel: &str, nonce: u64) {
        for record in replay.lines() {
            let record: serde_json::Value = serde_json::from_str(record).unwrap();
            self.dropped += record["stderr_dropped"].as_u64().unwrap_or(0);
            let Some(lines) = record["stderr_lines"].as_array() else {
                continue;
            };
            for line in lines.iter().filter_map(|l| l.as_str()) {
                if line.starts_with("ATTACK ") {
                    self.attacks.push(line.to_string());
                }
                // A line cut to fit a decision's bound ends in `…`: its bits are not whole.
                let Some(rest) = line
                    .strip_prefix(&format!("CHANNEL {channel} "))
                    .filter(|_| !line.ends_with('\u{2026}'))
                else {
                    continue;
                };
                let field = |name: &str| {
                    rest.split_whitespace()
                        .find_map(|f| f.strip_prefix(name))
                        .unwrap_or_else(|| panic!("no {name} in {line:?}"))
                };
                let key: u64 = field("key=").parse().unwrap();
                let method = field("method=").to_string();
                if !self.methods.contains(&method) {
                    self.methods.push(method);
                }
                let truth = prf(nonce, key);
                for (j, bit) in field("bits=").bytes().enumerate() {
                    self.total += 1;
                    if u64::from(bit == b'1') == (truth >> j) & 1 {
                        self.correct += 1;
                    }
                }
            }
        }
    }
}

// ----------------------------------------------------------------- the ladder

fn zoo(file: &str) -> Vec<u8> {
    std::fs::read(Path::new(ZOO).join(file)).unwrap()
}

/// The hostile bot as an upload: attack_channel.py and its helpers, started by a `bot.py`
/// that gives it its arguments (the channel, the nonce, the hello window).
fn hostile(channel: &str, nonce: u64, window_ms: u64) -> Entry {
    let wrapper = format!(
        "\"\"\"The ladder starts bot.py without arguments: run attack_channel.py as\n\
         `attack_channel.py CHANNEL NONCE WINDOW_MS`.\"\"\"\n\
         import os\nimport runpy\nimport sys\n\n\
         sys.argv = [os.path.join(os.path.dirname(os.path.abspath(__file__)), \
         \"attack_channel.py\"), \"{channel}\", \"{nonce}\", \"{window_ms}\"]\n\
         runpy.run_path(sys.argv[0], run_name=\"__main__\")\n"
    );
    Entry {
        owner: "mallory",
        bot: "colluder",
        files: vec![
            ("bot.py", wrapper.into_bytes()),
            ("attack_channel.py", zoo("attack_channel.py")),
            ("attack_common.py", zoo("attack_common.py")),
            ("zoo_common.py", zoo("zoo_common.py")),
        ],
    }
}

/// A contest of short classic matches at `sandbox = "none"` that keeps the bots' stderr
/// lines in its replays, with `bots` uploaded, built and checked (ready).
async fn contest_with(
    t: &common::TestDb,
    dir: &Path,
    bots: &[Entry],
) -> (Arc<Contest>, Submissions) {
    // `workers = 1`: this server's one worker keeps the queue at one pair; the second worker
    // stands for another machine's `arena-worker` on the same database.
    let text = format!(
        "game = \"classic\"\nsandbox = \"none\"\nlanguages = [\"python\"]\n\
         [storage]\ndata_dir = \"{}\"\n\
         [ladder]\nhands_per_match = {HANDS}\nlease_seconds = 60\nworkers = 1\n\
         replay_stderr_kb = 64\n\
         [time]\nstartup_ms = 10000\ndecision_ms = 2000\n",
        dir.join("data").display()
    );
    let contest = Arc::new(Contest::parse(&text, Path::new("contest.toml"), dir).unwrap());
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    let submissions = Submissions::of_contest(t.db.clone(), &contest).unwrap();
    for entry in bots {
        let user =
            t.db.create_user(entry.owner, entry.owner, Some("$argon2id$x"), None, false)
                .await
                .unwrap();
        let (name, bytes) = ("bot.zip", zip_of(&entry.files));
        submissions
            .submit(&user, entry.bot, "python", name, bytes)
            .await
            .unwrap();
    }
    let builder = Builder::new(t.db.clone(), contest.clone(), Arc::new(Notify::new())).unwrap();
    while let Some((_, state)) = builder.build_next().await.unwrap() {
        assert_eq!(state, VersionState::Ready);
    }
    (contest, submissions)
}

/// Whether both matches of `pair` are over.
async fn pair_over(db: &server::storage::Db, pair: i64) -> bool {
    let over: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM matches WHERE pair_id = $1 AND state NOT IN ('queued', 'running')",
    )
    .bind(pair)
    .fetch_one(db.pool())
    .await
    .unwrap();
    over == 2
}

/// A worker on an OS thread of its own (a current-thread runtime and a pool of its own, as
/// `WorkerThread`), with a build cache of its own (another machine's), that claims and
/// plays until `pair` is over, starting when `start` lets every worker go.
fn worker_thread(
    t: &common::TestDb,
    contest: &Arc<Contest>,
    name: &str,
    pair: i64,
    start: Arc<Barrier>,
) -> std::thread::JoinHandle<Vec<i64>> {
    let (db, contest, name) = (t.db.clone(), contest.clone(), name.to_string());
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let own = db.reconnect(2).await.unwrap();
            let cache = BuildCache::new(contest.data_dir.join(format!("cache-{name}"))).unwrap();
            let worker = Worker::new(own.clone(), contest, name.clone(), Arc::new(cache)).unwrap();
            let started = Instant::now();
            let mut played = Vec::new();
            start.wait();
            while !pair_over(&own, pair).await {
                assert!(
                    started.elapsed() < DEADLINE,
                    "{name}: the pair took too long"
                );
                match worker.play_next().await.unwrap() {
                    Played::Idle => tokio::time::sleep(Duration::from_millis(20)).await,
                    Played::Match(id, Finish::Recorded { .. }) => played.push(id),
                    other => panic!("{name}: {other:?}"),
                }
            }
            own.close().await;
            played
        })
    })
}

/// The processes whose command line names `dir` (the ladder's bots run from its data
/// directory), after waiting up to 5 s for them to go.
fn processes_under(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    let find = || -> Vec<String> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(|e| {
                let e = e.ok()?;
                let pid: u32 = e.file_name().to_str()?.parse().ok()?;
                let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
                let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                cmdline
                    .contains(&needle)
                    .then(|| format!("{pid}: {cmdline}"))
            })
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while !find().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    find()
}

/// One pair of the hostile bot against the random bot, with `channel`; asserts the halves
/// apart and the receiver at chance.
async fn one_pair(t: &common::TestDb, channel: &str, window_ms: u64) {
    let what = format!("{} {channel}", t.label);
    let dir = tempfile::tempdir().unwrap();
    let nonce = fresh_nonce();
    let bots = [
        hostile(channel, nonce, window_ms),
        Entry::kit_bot("randall", "random", "python/random_bot.py"),
    ];
    let (contest, _) = contest_with(t, dir.path(), &bots).await;
    let scheduler = Worker::new(
        t.db.clone(),
        contest.clone(),
        "scheduler".into(),
        Arc::new(BuildCache::new(contest.data_dir.join("cache")).unwrap()),
    )
    .unwrap();
    assert_eq!(scheduler.schedule().await.unwrap(), 1, "{what}: one pair");
    let pair: i64 = sqlx::query_scalar("SELECT id FROM match_pairs")
        .fetch_one(t.db.pool())
        .await
        .unwrap();

    // Two workers, ready to claim at the same moment: without the claim rule the second
    // would take the pair's other half while the first plays.
    let started = Instant::now();
    let start = Arc::new(Barrier::new(2));
    let threads = [
        worker_thread(t, &contest, "w1", pair, start.clone()),
        worker_thread(t, &contest, "w2", pair, start),
    ];
    let played: Vec<Vec<i64>> = tokio::task::spawn_blocking(move || {
        threads
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
    .await
    .unwrap();
    let elapsed = started.elapsed();
    let left = processes_under(dir.path());
    assert!(left.is_empty(), "{what}: processes left behind: {left:?}");
    assert_eq!(
        played.iter().map(Vec::len).sum::<usize>(),
        2,
        "{what}: the pair's two matches played once each: {played:?}"
    );

    // Apart in time: one half finished before the other was claimed.
    let rows = sqlx::query(
        "SELECT id, state, started_at, finished_at FROM matches WHERE pair_id = $1 ORDER BY id",
    )
    .bind(pair)
    .fetch_all(t.db.pool())
    .await
    .unwrap();
    assert_eq!(rows.len(), 2);
    let mut spans = Vec::new();
    for r in &rows {
        let state: String = r.get("state");
        assert_eq!(state, "done", "{what}");
        let (id, from, to): (i64, i64, i64) =
            (r.get("id"), r.get("started_at"), r.get("finished_at"));
        spans.push((id, from, to));
    }
    let [(_, a0, a1), (_, b0, b1)] = [spans[0], spans[1]];
    let apart = a1 <= b0 || b1 <= a0;

    // The receiver's lines, from the stored replays.
    let mut score = Score::default();
    for &(id, _, _) in &spans {
        let gz = t.db.replay_gz(id).await.unwrap().expect("a stored replay");
        let mut replay = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut replay)
            .unwrap();
        score.add_replay(&replay, channel, nonce);
    }
    eprintln!(
        "{what}: pair played in {elapsed:.1?}, matches {:?} (ms {:?}), halves {}; \
         receiver: {}",
        played,
        spans
            .iter()
            .map(|&(_, from, to)| (from - a0.min(b0), to - a0.min(b0)))
            .collect::<Vec<_>>(),
        if apart { "apart" } else { "OVERLAPPED" },
        score.line()
    );
    for attack in &score.attacks {
        eprintln!("    {attack}");
    }
    assert!(
        apart,
        "{what}: the two halves of a pair ran at once: {spans:?} (id, started_at, finished_at)"
    );
    assert!(
        score.total > 0,
        "{what}: the receiver logged no bits (the attack never ran)"
    );
    assert!(
        score.p() >= ALPHA,
        "{what}: the receiver learnt the other half's bits: {}",
        score.line()
    );
    assert!(elapsed < DEADLINE, "{what}: took {elapsed:?}");
}

/// Every channel on a fresh SQLite database, then on PostgreSQL if configured (as
/// `on_both!`, with a database per channel: each run is a ladder of its own).
#[tokio::test]
async fn a_colluding_bot_learns_nothing_across_the_halves_of_a_pair() {
    for (channel, window_ms) in CHANNELS {
        let t = common::TestDb::sqlite().await;
        one_pair(&t, channel, window_ms).await;
        t.cleanup().await;
        if let Some(t) = common::TestDb::postgres("ladder_collusion").await {
            one_pair(&t, channel, window_ms).await;
            t.cleanup().await;
        }
    }
}
