//! Covert channels between two bots (issue 28: "no channel between two bots, whether they sit
//! at one table or in the two halves of a duplicate block, concurrently or one after the
//! other"). Two copies of `arena/tests/zoo/attack_channel.py` try to signal each other through
//! state the machine shares between sandboxes: file locks, inotify, aio contexts, the load,
//! open-file and shared-memory counters of `/proc` and `sysinfo()`, the page cache.
//!
//! What is sent is a pseudo-random bit string both the bot and this file compute from a nonce
//! (splitmix64, [`prf`]); the receiver logs what it decoded (`CHANNEL <name> key=<k> bits=<..>`)
//! and the test scores it against the truth. Each channel is played at the default level (no
//! `--sandbox`) and at `--sandbox bwrap`, in three settings:
//!
//! * a 3-seat table, two copies and the random bot (`arena match`): the lower copy sends;
//! * a 2-bot tournament with duplicate deals at `--jobs 2` (the two halves of the block may be
//!   played at once) and at `--jobs 1` (one after the other): the copy at seat 0 sends, the
//!   one at seat 1 receives (the halves swap seats).
//!
//! Each must be played to the end with no process left, and every receiver's accuracy (one
//! setting and seat, its bits at both levels pooled) must be consistent with chance: with n
//! bits of which k are right, the chance of k or more right by guessing is at least [`ALPHA`]
//! (one-sided binomial tail). A working channel is far below it
//! (hundreds of bits at 85-100 %), a closed one is above with probability > 1 - 1e-6 over the
//! whole file.
//!
//! Which channels the fixes of issue 28 close, and which stay open:
//! * closed by seccomp denials: `locks` (fcntl locks), `flock`, `inotify`, `aio` (io_setup),
//!   `sysinfo` (sysinfo(); its fallback, /proc/meminfo, is a frozen copy), the page cache's
//!   probes (`pagecache_probes_...`: mincore, preadv2(RWF_NOWAIT), fadvise);
//! * closed by frozen copies of machine-wide `/proc` files: `loadavg` (/proc/loadavg,
//!   /proc/stat), `filenr` (/proc/sys/fs/file-nr), `meminfo` (/proc/meminfo);
//! * STILL OPEN after the fixes, by design: the page cache read by timing a first touch
//!   (`pagecache_by_timing_residual`, ignored: it measures and reports, it does not assert):
//!   the page cache is the machine's, outlives the sandbox, and the time of a page fault
//!   cannot be taken away. Its bandwidth and error rate go in ARCHITECTURE's threat table;
//!   the defence is to run the two halves of a block apart (other machines) or to accept it.
//!
//! Run as root (CI does): the arena then gives every bot its own uid, as in a contest.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::channel_truth::{fresh_nonce, prf, tail};
use common::{bwrap_works, marker, processes_with, sample_bot, stderr, stdout, zoo_bot};
use serde_json::Value;

/// The levels every channel is tried at: the default (no `--sandbox`) and bwrap.
const LEVELS: [Option<&str>; 2] = [None, Some("bwrap")];

/// Smallest chance of a receiver's score (or better) by guessing that passes. Each receiver
/// (a setting and a seat) is scored over both levels together; 9 tests x 6 receivers = 54
/// scores are tested: a closed channel fails somewhere with probability below 54 x 1e-8 <
/// 1e-6.
const ALPHA: f64 = 1e-8;

/// Hands per match: the bits are carried at hello and at each decision, the hands only give
/// the decisions.
const HANDS: u64 = 1;

/// Far above what these matches take, far below "hung".
const DEADLINE: Duration = Duration::from_secs(90);

fn level_name(level: Option<&str>) -> &str {
    level.unwrap_or("default")
}

/// What one receiver decoded, scored against the truth.
#[derive(Debug, Default, Clone)]
struct Score {
    what: String,
    /// The setting and the receiver's seat, without the level: the scores of one group are
    /// pooled over the levels (the same attack, twice the bits).
    group: String,
    correct: u64,
    total: u64,
    /// How the receiver read the channel (the lines' `method=`).
    methods: Vec<String>,
    /// The bot's ATTACK lines (what worked, what was refused).
    attacks: Vec<String>,
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
            "{}: {}/{} bits right ({accuracy}), P(chance) = {:.1e}, by {:?}",
            self.what,
            self.correct,
            self.total,
            self.p(),
            self.methods
        )
    }
}

/// Scores the `CHANNEL` lines of one bot's log.
fn score(what: &str, group: &str, log: &str, channel: &str, nonce: u64) -> Score {
    let mut s = Score {
        what: what.to_string(),
        group: group.to_string(),
        ..Score::default()
    };
    for line in log.lines() {
        if line.starts_with("ATTACK ") {
            s.attacks.push(line.to_string());
        }
        let Some(rest) = line.strip_prefix(&format!("CHANNEL {channel} ")) else {
            continue;
        };
        let field = |name: &str| {
            rest.split_whitespace()
                .find_map(|f| f.strip_prefix(name))
                .unwrap_or_else(|| panic!("{what}: no {name} in {line:?}"))
        };
        let key: u64 = field("key=").parse().unwrap();
        let bits = field("bits=");
        let method = field("method=").to_string();
        if !s.methods.contains(&method) {
            s.methods.push(method);
        }
        let truth = prf(nonce, key);
        for (j, bit) in bits.bytes().enumerate() {
            s.total += 1;
            if u64::from(bit == b'1') == (truth >> j) & 1 {
                s.correct += 1;
            }
        }
    }
    s
}

// ----------------------------------------------------------------- the settings

/// A scratch directory outside `/tmp` (the arena's `TMPDIR`; logs and results go there).
fn scratch(test: &str) -> tempfile::TempDir {
    common::process_tmpdir::scratch_outside_tmp(&format!("covert-{test}-"))
}

/// Waits up to 5 s for the processes carrying `mark` to go; kills (by pid) and returns those
/// left.
fn leftovers(mark: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !processes_with(mark).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = processes_with(mark);
    for line in &left {
        if let Some(pid) = line.split(':').next() {
            let _ = Command::new("kill").args(["-KILL", pid]).status();
        }
    }
    left
}

/// The bot's arguments: the channel, the nonce, the hello window (ms).
fn bot_args(channel: &str, nonce: u64, window_ms: u64) -> Vec<String> {
    vec![
        channel.to_string(),
        nonce.to_string(),
        window_ms.to_string(),
    ]
}

/// Two copies and the random bot at one table; one score per copy.
fn at_table(test: &str, channel: &str, level: Option<&str>, window_ms: u64) -> Vec<Score> {
    at_table_with(test, channel, level, window_ms, &[])
}

/// [`at_table`] with `extra` arguments to `arena match` (limits such as `--cpus`).
fn at_table_with(
    test: &str,
    channel: &str,
    level: Option<&str>,
    window_ms: u64,
    extra: &[&str],
) -> Vec<Score> {
    let setting = if extra.is_empty() {
        String::new()
    } else {
        format!(" with {}", extra.join(" "))
    };
    let what = format!("{test} at a table{setting} at {}", level_name(level));
    let mark = marker(&format!("{test}-table-{}", level_name(level)));
    let nonce = fresh_nonce();
    let dir = scratch(test);
    let logs = dir.path().join("logs");
    let args = bot_args(channel, nonce, window_ms);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let copy = zoo_bot(&mark, "attack_channel.py", &args);
    let mut command = Command::new(common::arena());
    command
        .args(["match", "--game", "classic", "--hands", &HANDS.to_string()])
        .args(["--seed", "11", "--json", "--logs", logs.to_str().unwrap()])
        .args(["--startup-ms", "20000", "--decision-ms", "2000"]);
    if let Some(level) = level {
        command.args(["--sandbox", level]);
    }
    command
        .args(extra)
        .args([
            "--bot",
            &copy,
            "--bot",
            &copy,
            "--bot",
            &sample_bot("random-bot"),
        ])
        .current_dir(common::root())
        .env("NO_COLOR", "1")
        .env("TMPDIR", dir.path());
    let started = Instant::now();
    let out = command.output().expect("the arena runs");
    let elapsed = started.elapsed();
    let left = leftovers(&mark);
    assert!(
        common::match_played(&out),
        "{what}: the match must be played to the end ({}): {}",
        out.status,
        stderr(&out)
    );
    assert!(elapsed < DEADLINE, "{what}: took {elapsed:?}");
    assert!(left.is_empty(), "{what}: processes left behind: {left:?}");
    let summary: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(summary["hands"], HANDS, "{what}: {summary}");
    eprintln!("{what}: {elapsed:.1?}");
    (0..2)
        .map(|seat| {
            let log = read(&common::stderr_log(&logs, seat));
            score(
                &format!("{what}, seat {seat}"),
                &format!("{test} at a table{setting}, seat {seat}"),
                &log,
                channel,
                nonce,
            )
        })
        .collect()
}

/// A 2-bot tournament with duplicate deals (one block: the two halves, seats swapped) at
/// `jobs`; one score per copy.
fn duplicate_halves(
    test: &str,
    channel: &str,
    level: Option<&str>,
    window_ms: u64,
    jobs: u32,
) -> Vec<Score> {
    duplicate_halves_with(test, channel, level, window_ms, jobs, "")
}

/// [`duplicate_halves`] with `extra` lines in the tournament file's top section.
fn duplicate_halves_with(
    test: &str,
    channel: &str,
    level: Option<&str>,
    window_ms: u64,
    jobs: u32,
    extra: &str,
) -> Vec<Score> {
    let what = format!(
        "{test} in duplicate halves, --jobs {jobs}, at {}",
        level_name(level)
    );
    let mark = marker(&format!("{test}-dup{jobs}-{}", level_name(level)));
    let nonce = fresh_nonce();
    let dir = scratch(test);
    let args = bot_args(channel, nonce, window_ms);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let sandbox = level.map_or(String::new(), |l| format!("sandbox = \"{l}\"\n"));
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"covert\"\ngame = \"classic\"\nformat = \"round-robin\"\nseats = 2\n\
             hands = {HANDS}\nseed = 90210\nrounds = 1\nduplicate = true\n{sandbox}{extra}\n\
             [time]\nstartup_ms = 20000\ndecision_ms = 2000\nbank_ms = 60000\n{}",
            common::bots_toml(&[
                ("channel", zoo_bot(&mark, "attack_channel.py", &args)),
                ("random", sample_bot("random-bot")),
            ])
        ),
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let started = Instant::now();
    let out = Command::new(common::arena())
        .args([
            "tournament",
            file.to_str().unwrap(),
            "-q",
            "--jobs",
            &jobs.to_string(),
        ])
        .arg("--out")
        .arg(&out_dir)
        .current_dir(common::root())
        .env("NO_COLOR", "1")
        .env("TMPDIR", dir.path())
        .output()
        .expect("the arena runs");
    let elapsed = started.elapsed();
    let left = leftovers(&mark);
    assert!(
        out.status.success(),
        "{what}: the tournament must be played ({}): {}",
        out.status,
        stderr(&out)
    );
    assert!(elapsed < DEADLINE, "{what}: took {elapsed:?}");
    assert!(left.is_empty(), "{what}: processes left behind: {left:?}");
    let results = read(&out_dir.join("results.jsonl"));
    let matches: Vec<Value> = results
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(matches.len(), 2, "{what}: one duplicate block: {results}");
    for m in &matches {
        assert_eq!(m["hands"], HANDS, "{what}: every hand played: {m}");
    }
    eprintln!("{what}: {elapsed:.1?}");
    let mut scores = Vec::new();
    for m in &matches {
        let index = m["index"].as_u64().unwrap();
        let seat = m["seats"]
            .as_array()
            .unwrap()
            .iter()
            .position(|s| s == "channel")
            .unwrap();
        let logs = out_dir.join(format!("logs/match-{index:06}"));
        let log = read(&common::stderr_log(&logs, seat));
        scores.push(score(
            &format!("{what}, match {index} seat {seat}"),
            &format!("{test} in duplicate halves, --jobs {jobs}, seat {seat}"),
            &log,
            channel,
            nonce,
        ));
    }
    scores
}

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap_or_else(|e| panic!("{path:?}: {e}")))
        .into_owned()
}

/// Every setting of `channel` at every level; returns the scores (each printed).
fn every_setting(test: &str, channel: &str, window_ms: u64) -> Vec<Score> {
    let mut scores = Vec::new();
    for level in LEVELS {
        scores.extend(at_table(test, channel, level, window_ms));
        scores.extend(duplicate_halves(test, channel, level, window_ms, 2));
        scores.extend(duplicate_halves(test, channel, level, window_ms, 1));
    }
    for s in &scores {
        eprintln!("SCORE {}", s.line());
        for attack in &s.attacks {
            eprintln!("    {attack}");
        }
    }
    scores
}

/// The scores of each group summed over the levels.
fn pooled(scores: &[Score]) -> Vec<Score> {
    let mut groups: Vec<Score> = Vec::new();
    for s in scores {
        match groups.iter_mut().find(|g| g.group == s.group) {
            Some(g) => {
                g.correct += s.correct;
                g.total += s.total;
                for m in &s.methods {
                    if !g.methods.contains(m) {
                        g.methods.push(m.clone());
                    }
                }
            }
            None => groups.push(Score {
                what: format!("{} (every level)", s.group),
                ..s.clone()
            }),
        }
    }
    for g in &groups {
        eprintln!("POOLED {}", g.line());
    }
    groups
}

/// The channel carries nothing anywhere: every receiver is consistent with chance, and the
/// attack ran (some copy logged an ATTACK line).
fn channel_is_closed(test: &str, channel: &str, window_ms: u64) {
    if !bwrap_works(test) {
        return;
    }
    let scores = every_setting(test, channel, window_ms);
    assert!(
        scores.iter().any(|s| !s.attacks.is_empty()),
        "{test}: the attack never ran"
    );
    let open: Vec<String> = pooled(&scores)
        .iter()
        .filter(|s| s.total > 0 && s.p() < ALPHA)
        .map(Score::line)
        .collect();
    assert!(
        open.is_empty(),
        "{test}: the {channel} channel carries bits between two bots:\n{}",
        open.join("\n")
    );
}

/// The hello window (ms) the receiver listens for: bits channels carry 8 bits every 10 ms,
/// level channels 1 bit every 20-30 ms and need longer.
const FAST: u64 = 400;
const SLOW: u64 = 1200;

// ----------------------------------------------------------------- closed by seccomp

#[test]
fn fcntl_locks_on_shared_files_carry_nothing() {
    channel_is_closed("locks", "locks", FAST);
}

#[test]
fn flock_on_shared_files_carries_nothing() {
    channel_is_closed("flock", "flock", FAST);
}

#[test]
fn inotify_watches_carry_nothing() {
    channel_is_closed("inotify", "inotify", FAST);
}

#[test]
fn aio_contexts_carry_nothing() {
    channel_is_closed("aio", "aio", SLOW);
}

/// mincore and preadv2(RWF_NOWAIT) (and fadvise's eviction) only: the probes seccomp can
/// deny. Timing is `pagecache_by_timing_residual`.
#[test]
fn pagecache_probes_carry_nothing() {
    channel_is_closed("pagecache-probe", "pagecache-probe", FAST);
}

// ----------------------------------------------------------------- closed by frozen /proc

#[test]
fn load_average_carries_nothing() {
    // The noisiest (every runnable task on the machine counts): a longer window.
    channel_is_closed("loadavg", "loadavg", 2 * SLOW);
}

#[test]
fn open_file_count_carries_nothing() {
    channel_is_closed("filenr", "filenr", SLOW);
}

/// /proc/meminfo, then sysinfo() (denied by seccomp; the bot falls back to /proc/meminfo):
/// one test, as both read the machine's shared memory, which two tests at once would blur.
#[test]
fn memory_figures_carry_nothing() {
    channel_is_closed("meminfo", "meminfo", SLOW);
    channel_is_closed("sysinfo", "sysinfo", SLOW);
}

// ----------------------------------------------------------------- what remains

/// EXPECTED TO STAY OPEN after the fixes: the page cache of a large shared /usr file, read
/// by timing the first touch of each page (a cached page faults in ~5 us, an uncached one
/// takes a disk read, ~100s of us). It works at one table and across the halves of a
/// duplicate block, at once or one after the other (the page cache outlives the sandbox), and
/// needs no system call seccomp could refuse (a page fault). Measured, not asserted: run
/// with `--run-ignored only` to print each setting's bits, accuracy and rate.
#[test]
#[ignore = "residual channel: the page cache by timing cannot be closed on one machine; \
            this measures it (bits, error rate) for the threat table"]
fn pagecache_by_timing_residual() {
    let test = "pagecache-timing";
    if !bwrap_works(test) {
        return;
    }
    let scores = every_setting(test, "pagecache-timing", FAST);
    pooled(&scores);
    let (correct, total) = scores
        .iter()
        .filter(|s| s.total > 0)
        .fold((0, 0), |(c, t), s| (c + s.correct, t + s.total));
    eprintln!(
        "RESIDUAL pagecache-timing: {correct}/{total} bits right over every receiver \
         (including those that read before anything was written)"
    );
    assert!(total > 0, "{test}: nothing was received at all");
}

/// `Cputiming.slot` of attack_channel.py: one bit per slot while the receiver listens.
const CPU_TIMING_SLOT_S: f64 = 0.02;

/// The hello window of the CPU timing channel: about 150 slots per receiver and match.
const CPU_TIMING_WINDOW: u64 = 3000;

/// Binary entropy (bits).
fn entropy(p: f64) -> f64 {
    if p <= 0.0 || p >= 1.0 {
        0.0
    } else {
        -p * p.log2() - (1.0 - p) * (1.0 - p).log2()
    }
}

/// EXPECTED TO STAY OPEN at a table: the contention for the machine's cores, caches and
/// memory bus, read by timing. The sender's churning children run (copying memory) in one
/// half of each slot and are stopped in the other; the receiver times a fixed piece of its
/// own work back to back. No system call to deny and no shared state but the hardware: a CPU
/// quota per bot (`--cpus`, 1 by default) bounds the sender's share but not what its running
/// children do to the receiver's caches and memory bandwidth. Across the halves of a
/// duplicate block it needs both halves running at once, which the tournament never does
/// now: there the receivers should be at chance. Measured, not asserted: run with
/// `--run-ignored only --no-capture` to print each setting's accuracy, raw rate and capacity
/// (rate x (1 - H(error))), at the default quota and at `--cpus 0.5`.
#[test]
#[ignore = "residual channel: CPU and memory contention by timing cannot be closed on one \
            shared machine; this measures it (accuracy, bit rate) for the threat table"]
fn cpu_timing_residual() {
    let test = "cputiming";
    if !bwrap_works(test) {
        return;
    }
    let mut scores = every_setting(test, "cputiming", CPU_TIMING_WINDOW);
    for level in LEVELS {
        let half: Vec<Score> = at_table_with(
            test,
            "cputiming",
            level,
            CPU_TIMING_WINDOW,
            &["--cpus", "0.5"],
        );
        for s in &half {
            eprintln!("SCORE {}", s.line());
        }
        scores.extend(half);
    }
    let rate = 1.0 / CPU_TIMING_SLOT_S;
    let report = |s: &Score| {
        let accuracy = s.correct as f64 / s.total as f64;
        // At chance, 1 - H(error) of a sample is only its noise (~0.5 bit/s at 150 bits).
        let capacity = if s.p() < 1e-3 || s.p() > 1.0 - 1e-3 {
            format!("{:.1} bit/s", rate * (1.0 - entropy(1.0 - accuracy)))
        } else {
            "none (at chance)".to_string()
        };
        eprintln!(
            "RESIDUAL {}: accuracy {:.1}% ({}/{}), raw {rate:.1} bit/s while listening, \
             capacity {capacity}, P(chance) = {:.1e}",
            s.what,
            100.0 * accuracy,
            s.correct,
            s.total,
            s.p()
        );
    };
    for s in scores.iter().filter(|s| s.total > 0) {
        report(s);
    }
    for s in pooled(&scores).iter().filter(|s| s.total > 0) {
        report(s);
    }
    assert!(
        scores.iter().any(|s| s.total > 0),
        "{test}: nothing was received at all"
    );
}

/// The organizer's mode against that residual, for the halves of a duplicate block:
/// `page_cache = "drop"` (root, `--jobs 1`) empties the page cache between the halves, so the
/// second copy's timed reads find only what it cached itself. Its receivers are at chance.
#[test]
fn pagecache_by_timing_across_halves_carries_nothing_with_page_cache_drop() {
    let test = "pagecache-timing-drop";
    if !bwrap_works(test) {
        return;
    }
    if !sandbox::running_as_root() {
        common::skip(test, "page_cache = \"drop\" needs root");
        return;
    }
    let mut scores = Vec::new();
    for level in LEVELS {
        scores.extend(duplicate_halves_with(
            test,
            "pagecache-timing",
            level,
            FAST,
            1,
            "page_cache = \"drop\"\n",
        ));
    }
    assert!(
        scores.iter().any(|s| !s.attacks.is_empty()),
        "{test}: the attack never ran"
    );
    let pooled = pooled(&scores);
    assert!(
        pooled.iter().any(|s| s.total >= 64),
        "{test}: too few bits received to judge: {:?}",
        pooled.iter().map(Score::line).collect::<Vec<_>>()
    );
    let open: Vec<String> = pooled
        .iter()
        .filter(|s| s.total > 0 && s.p() < ALPHA)
        .map(Score::line)
        .collect();
    assert!(
        open.is_empty(),
        "{test}: the page cache still carries bits across the halves:\n{}",
        open.join("\n")
    );
}

// ----------------------------------------------------------------- the scorer itself

#[test]
fn the_scorer_tells_a_working_channel_from_chance() {
    // The test's truth is the bot's (values printed by attack_channel.py's prf).
    assert_eq!(prf(12345, 7), 0xfbdf_4c68_fa8a_fdec);
    assert_eq!(prf(0, 0), 0xa706_dd2f_4d19_7e6f);
    let nonce = 12345;
    let truth = |key: u64| -> String {
        (0..8)
            .map(|j| {
                if (prf(nonce, key) >> j) & 1 == 1 {
                    '1'
                } else {
                    '0'
                }
            })
            .collect()
    };
    let perfect: String = (100..140)
        .map(|k| format!("CHANNEL x key={k} bits={} method=m\n", truth(k)))
        .collect();
    let s = score("perfect", "", &perfect, "x", nonce);
    assert_eq!((s.correct, s.total), (320, 320));
    assert!(s.p() < 1e-90);
    let zeros: String = (100..140)
        .map(|k| format!("CHANNEL x key={k} bits=00000000 method=m\n"))
        .collect();
    let s = score("zeros", "", &zeros, "x", nonce);
    assert!(s.p() > ALPHA, "all zeros is chance: {}", s.line());
    assert!((tail(10, 0) - 1.0).abs() < 1e-12);
    assert!((tail(10, 10) - 1.0 / 1024.0).abs() < 1e-12);
    assert!((tail(4, 3) - 5.0 / 16.0).abs() < 1e-12);
}
