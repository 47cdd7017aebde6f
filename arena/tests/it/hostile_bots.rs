//! The real `arena match` against hostile bots of the zoo (`arena/tests/zoo/`): bots that
//! eat memory, spin the CPU, flood stderr, write a 100 MB line, open sockets, read other
//! bots' files or write outside their directory.
//!
//! Every case checks that the match finishes in bounded time with exit code 0, the fault
//! kind, that no process of the bot is left, and that the arena's own peak memory
//! (`arena_max_rss_kb` in the `--json` summary) stays under [`ARENA_RSS_LIMIT_KB`]. The
//! sandbox cases run only where bubblewrap works (they say so on stderr otherwise).

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{
    bwrap_works, marker, processes_with, sample_bot, stderr, stderr_log, stdout, zoo_bot,
};
use serde_json::Value;

/// The arena's peak resident memory must stay under this, whatever a bot does. A debug
/// build playing a short match uses 10 to 20 MB.
const ARENA_RSS_LIMIT_KB: u64 = 100 * 1024;

/// Far above what any of these matches takes, far below "hung".
const MATCH_DEADLINE: Duration = Duration::from_secs(120);

/// A scratch directory outside `/tmp`: bwrap always empties `/tmp`, so only a directory
/// elsewhere shows that the arena hides what it must hide.
fn scratch() -> tempfile::TempDir {
    common::process_tmpdir::scratch_outside_tmp("hostile-")
}

/// What one match gave.
struct Played {
    summary: Value,
    /// The arena's temporary directory (its `TMPDIR`), removed with the value.
    _tmp: tempfile::TempDir,
}

impl Played {
    fn seat(&self, seat: usize) -> &Value {
        &self.summary["bots"][seat]
    }

    fn faults(&self, seat: usize, kind: &str) -> u64 {
        common::seat_faults(&self.summary, seat, kind)
    }

    fn no_faults(&self, seat: usize) {
        common::assert_no_faults(&self.summary, seat, "match");
    }
}

/// Plays `bots` with `extra` options and checks what every case must hold. `test` names the
/// case in messages; `mark` is the marker on the bots' command lines.
fn play(
    test: &str,
    mark: &str,
    game: &str,
    hands: &str,
    bots: &[String],
    extra: &[&str],
) -> Played {
    play_in(test, mark, game, hands, bots, extra, scratch())
}

/// [`play`] with the arena's `TMPDIR` given.
fn play_in(
    test: &str,
    mark: &str,
    game: &str,
    hands: &str,
    bots: &[String],
    extra: &[&str],
    tmp: tempfile::TempDir,
) -> Played {
    let mut args = vec![
        "match", "--game", game, "--hands", hands, "--seed", "11", "--json",
    ];
    for bot in bots {
        args.extend(["--bot", bot.as_str()]);
    }
    args.extend_from_slice(extra);
    let started = Instant::now();
    let out = Command::new(common::arena())
        .args(&args)
        .current_dir(common::root())
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp.path())
        .output()
        .expect("the arena runs");
    let elapsed = started.elapsed();
    assert!(
        common::match_played(&out),
        "{test}: the match must be played whatever the bot does ({}): {}",
        out.status,
        stderr(&out)
    );
    assert!(elapsed < MATCH_DEADLINE, "{test}: took {elapsed:?}");
    // The arena reaps every group before it exits; allow a moment for /proc to catch up.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !processes_with(mark).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let leftovers = processes_with(mark);
    assert!(
        leftovers.is_empty(),
        "{test}: processes left behind: {leftovers:?}"
    );
    let summary: Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    let rss = summary["arena_max_rss_kb"]
        .as_u64()
        .expect("the summary has arena_max_rss_kb");
    eprintln!(
        "{test}: arena peak RSS {rss} KiB, {elapsed:.1?}, faults {}",
        summary["bots"][0]["faults"]
    );
    assert!(
        rss < ARENA_RSS_LIMIT_KB,
        "{test}: the arena grew to {rss} KiB"
    );
    Played { summary, _tmp: tmp }
}

/// Zoo bot `script` in seat 0 against the Rust random bot.
fn against_random(
    test: &str,
    script: &str,
    script_args: &[&str],
    game: &str,
    hands: &str,
    extra: &[&str],
) -> Played {
    let mark = marker(test);
    let bots = [
        zoo_bot(&mark, script, script_args),
        sample_bot("random-bot"),
    ];
    let played = play(test, &mark, game, hands, &bots, extra);
    played.no_faults(1);
    let net = |seat: usize| played.seat(seat)["net"].as_i64().unwrap();
    assert_eq!(net(0) + net(1), 0, "zero-sum: {}", played.summary);
    played
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn path_arg(path: &Path) -> &str {
    let text = path.to_str().unwrap();
    assert!(
        !text.contains([' ', '"', '\'']),
        "keep test paths simple: {text}"
    );
    text
}

// ---------------------------------------------------------------- resources

#[test]
fn a_memory_hog_is_stopped_by_the_memory_limit() {
    let played = against_random(
        "memory-hog",
        "memory_hog.py",
        &[],
        "classic",
        "3",
        &[
            "--sandbox",
            "limits",
            "--memory-mb",
            "256",
            "--max-restarts",
            "1",
            "--decision-ms",
            "2000",
            "--bank-ms",
            "0",
        ],
    );
    let stopped = played.faults(0, "crashed") + played.faults(0, "timeout");
    assert!(stopped >= 1, "{}", played.summary);
}

#[test]
fn a_cpu_spinner_times_out_or_is_killed_by_the_cpu_limit() {
    let played = against_random(
        "cpu-spin",
        "cpu_spin.py",
        &[],
        "closest-555",
        "3",
        &[
            "--cpu-seconds",
            "2",
            "--decision-ms",
            "1000",
            "--bank-ms",
            "0",
        ],
    );
    let stopped = played.faults(0, "timeout") + played.faults(0, "crashed");
    assert!(stopped >= 1, "{}", played.summary);
}

#[test]
fn a_stderr_flood_is_drained_and_its_log_capped() {
    let dir = scratch();
    let logs = dir.path().join("logs");
    let played = against_random(
        "stderr-flood",
        "stderr_flood.py",
        &[],
        "classic",
        "10",
        &["--logs", path_arg(&logs), "--decision-ms", "2000"],
    );
    played.no_faults(0);
    let log = stderr_log(&logs, 0);
    let size = std::fs::metadata(&log).unwrap().len();
    eprintln!("stderr-flood: log {} bytes", size);
    assert!(size < 200 * 1024, "{} is {size} bytes", log.display());
    let text = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
    assert!(text.contains("all work and no play"), "the head is kept");
    assert!(text.contains("bytes dropped"), "the middle is dropped");
}

#[test]
fn a_line_of_100_mb_is_cut_without_the_arena_growing() {
    let played = against_random(
        "long-line",
        "long_line.py",
        &[],
        "classic",
        "2",
        &["--decision-ms", "2000"],
    );
    assert!(played.faults(0, "line_too_long") >= 1, "{}", played.summary);
}

// ------------------------------------------------------------------ sandbox

#[test]
fn bwrap_cuts_the_network_but_the_bot_plays_on() {
    let test = "bwrap-network";
    if !bwrap_works(test) {
        return;
    }
    // A listener on this machine's loopback: reachable from outside any sandbox.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let target = format!("127.0.0.1:{}", listener.local_addr().unwrap().port());
    for (sandbox, reachable) in [("limits", true), ("bwrap", false)] {
        let dir = scratch();
        let logs = dir.path().join("logs");
        let played = against_random(
            &format!("{test}-{sandbox}"),
            "network.py",
            &[&target],
            "closest-555",
            "4",
            &[
                "--sandbox",
                sandbox,
                "--logs",
                path_arg(&logs),
                "--decision-ms",
                "2000",
            ],
        );
        played.no_faults(0);
        let log = read(&stderr_log(&logs, 0));
        let expected = if reachable {
            format!("network: {target} connected")
        } else {
            format!("network: {target} failed")
        };
        // The control run (limits) shows the listener is reachable, so the failure under
        // bwrap is the sandbox's doing.
        assert!(log.contains(&expected), "{sandbox}: {log}");
    }
}

/// Seat 0 writes a secret into its working directory and on stderr; seat 1 tries to read it
/// there (a sibling directory), and to read seat 0's stderr log, transcript and the replay.
///
/// The paths are relative to seat 1's working directory, `TMPDIR/arena-match-XXX/seat1`:
/// what a bot could find on its own. (An absolute path on a bot's command line is the
/// operator's grant: it stays readable, see `BotSpec::hidden`.)
#[test]
fn bwrap_hides_other_bots_files_the_logs_and_the_replay() {
    let test = "bwrap-read-other";
    if !bwrap_works(test) {
        return;
    }
    for sandbox in ["limits", "bwrap"] {
        let name = format!("{test}-{sandbox}");
        let mark = marker(&name);
        let tmp = scratch();
        // Next to the arena's directory for the match, outside it: hidden on their own.
        let logs = tmp.path().join("logs");
        let transcripts = tmp.path().join("transcripts");
        let replay = tmp.path().join("match.jsonl");
        let targets = [
            "../seat0/secret.txt",
            "../../logs/seat0-write_secret.stderr.log",
            "../../transcripts/seat0.txt",
            "../../match.jsonl",
        ];
        let bots = [
            zoo_bot(&mark, "write_secret.py", &[]),
            zoo_bot(&mark, "read_other.py", &targets),
        ];
        let played = play_in(
            &name,
            &mark,
            "classic",
            "3",
            &bots,
            &[
                "--name",
                "write_secret",
                "--name",
                "read_other",
                "--sandbox",
                sandbox,
                "--logs",
                path_arg(&logs),
                "--transcripts",
                path_arg(&transcripts),
                "--replay",
                path_arg(&replay),
                "--decision-ms",
                "2000",
            ],
            tmp,
        );
        played.no_faults(0);
        played.no_faults(1);
        let victim = read(&logs.join("seat0-write_secret.stderr.log"));
        let secret = victim
            .split_whitespace()
            .find(|w| w.starts_with("SECRET-"))
            .unwrap_or_else(|| panic!("no secret in {victim}"))
            .to_string();
        let snoop = read(&stderr_log(&logs, 1));
        eprintln!("{sandbox}:\n{snoop}");
        let line = |target: &str| {
            snoop
                .lines()
                .find(|l| l.starts_with(&format!("read_other: {target} ")))
                .unwrap_or_else(|| panic!("no line for {target} in {snoop}"))
                .to_string()
        };
        if sandbox == "limits" {
            // The control: at `limits` the file system is open (as documented), which shows
            // that the paths are right and the bwrap result below is the sandbox's doing.
            // Under root each bot has a uid of its own: the other seat's private directory
            // is that uid's alone, and the logs, transcripts and replay are the arena's
            // user's alone (0600). Otherwise all of them are open.
            if sandbox::running_as_root() {
                for target in targets {
                    assert!(line(target).contains(" failed: "), "{snoop}");
                }
            } else {
                assert!(line(targets[0]).contains(&secret), "{snoop}");
                assert!(line(targets[1]).contains(" read "), "{snoop}");
                assert!(line(targets[2]).contains(" read "), "{snoop}");
                assert!(line(targets[3]).contains(" read "), "{snoop}");
            }
            continue;
        }
        assert!(!snoop.contains(&secret), "the secret leaked: {snoop}");
        for target in targets {
            assert!(line(target).contains(" failed: "), "{snoop}");
        }
    }
}

#[test]
fn bwrap_stops_writes_outside_the_bot_directory() {
    let test = "bwrap-write-outside";
    if !bwrap_works(test) {
        return;
    }
    for sandbox in ["limits", "bwrap"] {
        let dir = scratch();
        let logs = dir.path().join("logs");
        std::fs::create_dir_all(&logs).unwrap();
        let escape = format!("escape-{}", marker(&format!("{test}-{sandbox}")));
        let home_parent = format!("$HOME/../{escape}");
        let in_logs = logs.join(&escape).display().to_string();
        let var_tmp = format!("/var/tmp/{escape}");
        let tmp = format!("/tmp/{escape}");
        let mut targets = vec!["own.txt", home_parent.as_str(), in_logs.as_str()];
        if sandbox == "bwrap" {
            // Only where the write must fail: the control run must not litter the machine.
            targets.extend([var_tmp.as_str(), tmp.as_str()]);
        }
        let played = against_random(
            &format!("{test}-{sandbox}"),
            "write_outside.py",
            &targets,
            "closest-555",
            "3",
            &[
                "--sandbox",
                sandbox,
                "--logs",
                path_arg(&logs),
                "--decision-ms",
                "2000",
            ],
        );
        played.no_faults(0);
        let log = read(&stderr_log(&logs, 0));
        eprintln!("{sandbox}:\n{log}");
        let result = |target: &str| {
            log.lines()
                .find(|l| l.starts_with(&format!("write_outside: {target} ")))
                .unwrap_or_else(|| panic!("no line for {target} in {log}"))
                .to_string()
        };
        assert!(result("own.txt").ends_with(" ok"), "{log}");
        if sandbox == "limits" {
            // Under root the bot's own uid may write only its own directory.
            if sandbox::running_as_root() {
                assert!(result(&home_parent).contains(" failed: "), "control: {log}");
            } else {
                assert!(result(&home_parent).ends_with(" ok"), "control: {log}");
            }
            let _ = std::fs::remove_file(&in_logs);
            continue;
        }
        for target in [&in_logs, &var_tmp] {
            assert!(result(target).contains(" failed: "), "{log}");
        }
        // $HOME/.. (the match's own temporary directory) is read-only when it lies outside
        // /tmp; when it lies under /tmp it is part of the sandbox's private /tmp, where a write
        // "succeeds" but is thrown away with the sandbox. Either way it is not the host's.
        // Whatever the bot saw, nothing reached the real file system.
        for path in [&in_logs, &var_tmp, &tmp] {
            let exists = Path::new(path).exists();
            let _ = std::fs::remove_file(path);
            assert!(!exists, "{path} was written from inside the sandbox");
        }
    }
}

/// A tournament hides its whole output directory (the other seat's directory, the logs, the
/// replays, the results) from a bot under bwrap; at `limits` all of it is in sight.
#[test]
fn bwrap_tournament_hides_its_output_directory() {
    let test = "bwrap-tournament";
    if !bwrap_works(test) {
        return;
    }
    // A seat's directory is OUT/work/match-N/seatK: OUT is three levels up.
    // (Not `..`: a tournament makes a path that exists from the file's directory absolute.)
    let looks = [
        "../seat0",
        "../../../logs",
        "../../../replays",
        "../../../results.jsonl",
    ];
    for sandbox in ["limits", "bwrap"] {
        let name = format!("{test}-{sandbox}");
        let mark = marker(&name);
        let dir = scratch();
        let out_dir = dir.path().join("out");
        let file = dir.path().join("t.toml");
        let snoop = zoo_bot(&mark, "snoop.py", &looks);
        std::fs::write(
            &file,
            format!(
                r#"name = "hostile"
game = "closest-555"
format = "round-robin"
seats = 2
hands = 2
seed = 1
rounds = 1
duplicate = true
output = "{}"
sandbox = "{sandbox}"

[[bot]]
name = "snoop"
command = "{snoop}"

[[bot]]
name = "random"
command = "{}"
"#,
                out_dir.display(),
                sample_bot("random-bot")
            ),
        )
        .unwrap();
        let started = Instant::now();
        let out = Command::new(common::arena())
            .args(["tournament", file.to_str().unwrap(), "-q", "--jobs", "1"])
            .current_dir(common::root())
            .env("TMPDIR", dir.path())
            .output()
            .expect("the arena runs");
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(started.elapsed() < MATCH_DEADLINE, "{name}");
        let deadline = Instant::now() + Duration::from_secs(5);
        while !processes_with(&mark).is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(processes_with(&mark).is_empty(), "{name}: processes left");
        // The second match of the block: the first one's replay and results exist by then.
        let logs = out_dir.join("logs/match-000001");
        let log = read(&stderr_log(&logs, 1));
        eprintln!("{sandbox}:\n{log}");
        let line = |target: &str| {
            log.lines()
                .find(|l| l.starts_with(&format!("snoop: {target} ")))
                .unwrap_or_else(|| panic!("no line for {target} in {log}"))
                .to_string()
        };
        if sandbox == "limits" {
            assert!(
                line("../../../replays").contains("match-000000.jsonl"),
                "control: {log}"
            );
            // Under root each bot has a uid of its own: the other seat's directory and the
            // results file (mode 0600) are closed to it even at `limits`.
            if sandbox::running_as_root() {
                assert!(line("../seat0").contains(" failed: "), "{log}");
            } else {
                assert!(line("../seat0").contains(" lists "), "control: {log}");
                assert!(line("../../../results.jsonl").contains(" read "), "{log}");
            }
            continue;
        }
        for target in looks {
            assert!(line(target).contains(" failed: "), "{log}");
        }
    }
}
