//! Shared by the parts: knobs from the environment, the header line, statistics, a contest
//! file for a temporary data directory, and the sample bots as uploads.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use server::config::Contest;

/// A knob from the environment, else its default.
pub fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The 1-, 5- and 15-minute load averages, as `/proc/loadavg` gives them.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// The header of every part: what machine, when, how loaded.
pub fn header(title: &str) {
    println!();
    println!("== {title} ({} CPUs, load {}) ==", cpus(), load_average());
}

/// The `q` quantile (nearest rank) of a sample, sorted in place; 0 when empty.
pub fn quantile(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

pub fn median(values: &mut [f64]) -> f64 {
    quantile(values, 0.5)
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The sandbox level both the server and the arena use here: the default level (bubblewrap
/// where it works), or `LOAD_SANDBOX`.
pub fn sandbox_name() -> String {
    if let Ok(level) = std::env::var("LOAD_SANDBOX") {
        return level;
    }
    match sandbox::default_level() {
        sandbox::SandboxLevel::None => "none",
        sandbox::SandboxLevel::Limits => "limits",
        sandbox::SandboxLevel::Bwrap => "bwrap",
    }
    .to_string()
}

/// The game, table and time limits of both the contest and the tournament it is compared
/// with (those of tournaments/contest.toml).
pub const GAME: &str = "game = \"classic\"\nseats = 2\n";
pub const TABLE_AND_TIME: &str = "[table]\nboot = 1\nmax_stake = 128\n\n\
    [time]\nstartup_ms = 10000\ndecision_ms = 1000\nbank_ms = 10000\n";

/// A contest whose data directory is `dir/data`, with `extra` appended (its `[ladder]` and
/// `[build]` sections).
pub fn contest(dir: &Path, extra: &str) -> Arc<Contest> {
    let text = format!(
        "name = \"load\"\n{GAME}sandbox = \"{}\"\nlanguages = [\"python\", \"c\"]\n\
         {TABLE_AND_TIME}\n[storage]\ndata_dir = \"{}\"\n\n{extra}",
        sandbox_name(),
        dir.join("data").display()
    );
    let contest = Contest::parse(&text, Path::new("load.toml"), dir).expect("the bench's contest");
    std::fs::create_dir_all(&contest.data_dir).expect("the data directory");
    Arc::new(contest)
}

/// The sample bots' directory.
pub fn kits() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample-bots")
}

/// A zip of `(name in the archive, file under sample-bots/)`.
pub fn zip(files: &[(&str, &str)]) -> Vec<u8> {
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, path) in files {
        let bytes = std::fs::read(kits().join(path)).expect("a sample bot file");
        out.start_file(*name, zip::write::SimpleFileOptions::default())
            .expect("zip");
        std::io::Write::write_all(&mut out, &bytes).expect("zip");
    }
    out.finish().expect("zip").into_inner()
}

/// The Python starter kit as a participant uploads it: the random bot and its helper module.
pub fn python_kit() -> Vec<u8> {
    zip(&[
        ("bot.py", "python/random_bot.py"),
        ("teenpatti.py", "python/teenpatti.py"),
    ])
}

/// The C starter kit: its bot and the helper library (built with gcc in the sandbox).
pub fn c_kit() -> Vec<u8> {
    zip(&[
        ("bot.c", "c/bot.c"),
        ("json.c", "c/json.c"),
        ("json.h", "c/json.h"),
        ("teenpatti.c", "c/teenpatti.c"),
        ("teenpatti.h", "c/teenpatti.h"),
    ])
}

/// A fresh temporary directory.
pub fn temp_dir(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .expect("a temporary directory")
}
