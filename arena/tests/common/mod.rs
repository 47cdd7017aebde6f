//! Helpers shared by the arena's integration tests: where the binaries and bots are, and how
//! to run the arena and look for leftover processes.
#![allow(dead_code)] // each test file uses a different part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub mod channel_truth;
pub mod process_tmpdir;
pub mod reachable;

pub use reachable::reachable;

/// The arena binary under test.
pub fn arena() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arena"))
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A binary of the sample-bots package, built next to the arena (`scripts/test` builds every
/// binary of the workspace before running the tests), where a bot's own uid can run it.
pub fn sample_bot(name: &str) -> String {
    let path = arena().parent().unwrap().join(name);
    assert!(
        path.exists(),
        "{} is missing: build the workspace's binaries first (`cargo build --workspace --bins`, \
         which scripts/test does)",
        path.display()
    );
    reachable(&path).to_string_lossy().into_owned()
}

/// A Python bot of the repository, as a `--bot` command.
pub fn python_bot(relative: &str) -> String {
    format!("python3 {}", reachable(&root().join(relative)).display())
}

/// Runs the arena with `args` from the workspace root.
pub fn run_arena(args: &[&str]) -> Output {
    Command::new(arena())
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the arena runs")
}

/// Runs the arena with `args` from `dir`, with `input` on its stdin, which is then closed.
pub fn run_arena_with_input(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(arena())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(input)
        .expect("the arena's stdin takes the input");
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// Runs the arena, checks its exit code, that stderr names every one of `needles` and that
/// nothing panicked. Returns stderr.
pub fn fails(args: &[&str], code: i32, needles: &[&str]) -> String {
    let out = run_arena(args);
    let err = stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(code),
        "arena {args:?}: expected exit {code}, stderr: {err}"
    );
    for needle in needles {
        assert!(
            err.contains(needle),
            "arena {args:?}: the message should name {needle:?}: {err}"
        );
    }
    assert!(!err.contains("panicked"), "arena {args:?}: {err}");
    err
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Processes whose command line contains `marker` (bots are given a unique marker argument,
/// so a leftover is easy to find).
pub fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            // Zombies have an empty cmdline; a live leftover has the marker.
            if text.contains(marker) {
                found.push(format!("{pid}: {text}"));
            }
        }
    }
    found
}

/// A marker unique to this test run.
pub fn marker(test: &str) -> String {
    format!("arena-test-{test}-{}", std::process::id())
}

/// A test that cannot run here (a tool is missing): skipped on a developer machine, but a
/// failure under CI, where `.ci/run` installs every tool, so a missing install never passes
/// silently.
pub fn skip(test: &str, why: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    if ci {
        panic!("{test} cannot run in CI: {why} (.ci/run should have installed it)");
    }
    eprintln!("SKIPPED {test}: {why}");
}

/// How many faults of `kind` seat `seat` has in an `arena match --json` summary.
pub fn seat_faults(summary: &serde_json::Value, seat: usize, kind: &str) -> u64 {
    summary["bots"][seat]["faults"][kind].as_u64().unwrap_or(0)
}

/// Seat `seat` of an `arena match --json` summary has no fault at all.
pub fn assert_no_faults(summary: &serde_json::Value, seat: usize, what: &str) {
    assert_eq!(
        summary["bots"][seat]["faults"],
        serde_json::json!({}),
        "{what}: seat {seat} has faults: {summary}"
    );
}

/// A script of the zoo of misbehaving bots (`arena/tests/zoo/`), where a bot's own uid can
/// read it.
pub fn zoo(script: &str) -> PathBuf {
    reachable(&root().join("arena/tests/zoo").join(script))
}

/// `python3 -X MARK zoo/SCRIPT ARGS`: CPython ignores the unknown `-X` option, so the marker
/// is on the command line (of the bot, of bwrap around it, and of anything re-executed with
/// it) without reaching the script's own arguments.
pub fn zoo_bot(mark: &str, script: &str, args: &[&str]) -> String {
    let mut command = format!("python3 -X {mark} {}", zoo(script).display());
    for arg in args {
        command.push(' ');
        command.push_str(arg);
    }
    command
}

/// Whether bubblewrap works here, exactly as the arena uses it. Says why not on stderr (and
/// fails under CI, which installs it).
pub fn bwrap_works(test: &str) -> bool {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    match runtime.block_on(sandbox::probe_bwrap()) {
        Ok(()) => true,
        Err(why) => {
            skip(test, &format!("bubblewrap does not work here: {why}"));
            false
        }
    }
}

/// The stderr log of `seat` (named `seatN-NAME.stderr.log`) in `logs`.
pub fn stderr_log(logs: &Path, seat: usize) -> PathBuf {
    let prefix = format!("seat{seat}-");
    std::fs::read_dir(logs)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".stderr.log"))
        })
        .unwrap_or_else(|| panic!("no stderr log of seat {seat} in {}", logs.display()))
}

/// Time limits far above what the sample bots need, even on a loaded machine (a tournament
/// file's `[time]` table).
pub const GENEROUS_TIME: &str =
    "[time]\nstartup_ms = 30000\ndecision_ms = 10000\nbank_ms = 600000\n";

/// A TOML basic string (JSON's escapes are valid TOML).
pub fn toml_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// `[[bot]]` entries of a tournament file for `(name, command)` pairs.
pub fn bots_toml(bots: &[(&str, String)]) -> String {
    bots.iter()
        .map(|(name, command)| {
            format!(
                "\n[[bot]]\nname = {}\ncommand = {}\n",
                toml_string(name),
                toml_string(command)
            )
        })
        .collect()
}

/// `arena match --json` played to the end: exit code 0, or 5 when (and only when) its summary
/// shows a seat that was disabled.
pub fn match_played(out: &Output) -> bool {
    let Ok(summary) = serde_json::from_str::<serde_json::Value>(stdout(out).trim()) else {
        return false;
    };
    let disabled = summary["bots"]
        .as_array()
        .is_some_and(|bots| bots.iter().any(|b| b["disabled_before_hand"].is_u64()));
    match out.status.code() {
        Some(0) => !disabled,
        Some(5) => disabled,
        _ => false,
    }
}
