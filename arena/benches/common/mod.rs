//! Shared by the arena's benches: finding (and building) the binaries, running commands
//! pinned or not, timing, and summary statistics.

#![allow(dead_code)] // each bench uses a different part

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The arena binary cargo built for this bench (release profile).
pub fn arena() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arena"))
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("arena/ is in the workspace")
        .to_path_buf()
}

/// A sample bot next to the arena binary. Cargo builds the arena for a bench but not the
/// other package's binaries, so the missing ones are built here, in the same profile.
pub fn bot(name: &str) -> PathBuf {
    let path = arena().with_file_name(name);
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        eprintln!("building the sample bots (cargo build --release -p sample-bots --bins)");
        let status = Command::new(cargo)
            .args(["build", "--release", "-p", "sample-bots", "--bins"])
            .current_dir(root())
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cannot build the sample bots");
    }
    assert!(path.exists(), "{} is missing", path.display());
    path
}

/// The machine's CPUs, for the headers.
pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `program args` as a command, under `taskset -c 0` when `pinned` (every process of the tree
/// then shares CPU 0: the arena, its runtime's threads and the bots).
pub fn command(pinned: bool, program: &Path, args: &[String]) -> Command {
    if pinned {
        let mut cmd = Command::new("taskset");
        cmd.args(["-c", "0"]).arg(program).args(args);
        cmd
    } else {
        let mut cmd = Command::new(program);
        cmd.args(args);
        cmd
    }
}

/// Whether `taskset` is there to pin with.
pub fn can_pin() -> bool {
    Command::new("taskset")
        .args(["-c", "0", "true"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs a command to the end; its output and wall time. Panics on failure (a bench has no
/// use for a broken run).
pub fn timed(mut cmd: Command) -> (Output, Duration) {
    let start = Instant::now();
    let output = cmd.output().expect("the command runs");
    let elapsed = start.elapsed();
    assert!(
        output.status.success(),
        "{cmd:?} failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    (output, elapsed)
}

/// Median of a sample (sorted in place).
pub fn median(values: &mut [f64]) -> f64 {
    quantile(values, 0.5)
}

/// The `q` quantile (nearest rank) of a sample (sorted in place).
pub fn quantile(values: &mut [f64], q: f64) -> f64 {
    assert!(!values.is_empty());
    values.sort_by(f64::total_cmp);
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

/// A fresh temporary directory for outputs.
pub fn temp_dir(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .expect("a temporary directory")
}

/// Today's date (UTC) for the headers, from the system clock.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The load average over the last minute, to print with results on a shared machine.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}
