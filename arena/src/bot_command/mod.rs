//! Turning a user's bot command line into a [`BotSpec`].

mod paths;

use std::path::{Path, PathBuf};

use sandbox::{BotSpec, Limits, SandboxLevel};

pub use paths::{PathBase, absolutize, missing_file_note, missing_path};

/// A command line split like a shell would, with a clear error for unbalanced quotes.
pub fn split(command: &str) -> Result<Vec<String>, String> {
    let argv = shlex::split(command).ok_or_else(|| {
        format!(
            "cannot split bot command {}: unbalanced quotes",
            crate::console::quote::quoted(command)
        )
    })?;
    if argv.is_empty() {
        return Err("empty bot command".into());
    }
    Ok(argv)
}

/// A readable default name: the script's file stem, or the program's name.
pub fn default_name(argv: &[String]) -> String {
    let program = Path::new(&argv[0])
        .file_name()
        .map(|f| f.to_string_lossy().into_owned());
    let pick = match program.as_deref() {
        // `java -cp DIR Main`: the class name, not the class path.
        Some("java") => argv[1..]
            .iter()
            .enumerate()
            .filter(|(i, a)| {
                let after_classpath =
                    *i > 0 && matches!(argv[*i].as_str(), "-cp" | "-classpath" | "--class-path");
                !a.starts_with('-') && !after_classpath
            })
            .map(|(_, a)| a.clone())
            .next()
            .unwrap_or_else(|| argv[0].clone()),
        Some(p) if paths::INTERPRETERS.contains(&p) => argv[1..]
            .iter()
            .find(|a| !a.starts_with('-'))
            .cloned()
            .unwrap_or_else(|| argv[0].clone()),
        _ => argv[0].clone(),
    };
    Path::new(&pick)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or(pick)
}

/// Makes names unique by appending `#2`, `#3`, ... to repeats.
pub fn unique_names(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let mut candidate = name.clone();
        let mut k = 2;
        while out.contains(&candidate) {
            candidate = format!("{name}#{k}");
            k += 1;
        }
        out.push(candidate);
    }
    out
}

/// The resource limits a bot gets when the user has not chosen any: generous enough for any
/// honest bot (JVMs included), tight enough to stop a runaway one.
pub const DEFAULT_LIMITS: Limits = Limits {
    cpu_seconds: Some(600),
    memory_bytes: Some(2048 << 20),
    file_size_bytes: Some(64 << 20),
    open_files: Some(256),
    processes: Some(256),
    disk_bytes: Some(256 << 20),
    millicpus: Some(sandbox::DEFAULT_MILLICPUS),
};

/// Default `--max-log-kb`: a bot's stderr log keeps its first and last 64 KiB.
pub const DEFAULT_MAX_LOG_KB: u64 = 2 * (sandbox::DEFAULT_STDERR_KEEP_BYTES as u64 >> 10);

/// The bytes kept at the head, and again at the tail, of a stderr log of at most `max_kb`.
pub fn log_keep_bytes(max_kb: u64) -> usize {
    usize::try_from(max_kb.saturating_mul(1024) / 2).unwrap_or(usize::MAX)
}

/// Everything needed to build the spec of one seat's bot.
pub struct SpecInput<'a> {
    pub name: &'a str,
    pub argv: Vec<String>,
    pub workdir: PathBuf,
    pub log_dir: &'a Path,
    pub seat: usize,
    pub sandbox: SandboxLevel,
    pub limits: Limits,
}

pub fn spec(input: SpecInput<'_>) -> BotSpec {
    let safe: String = input
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut spec = BotSpec::new(
        input.name,
        input.argv,
        input.workdir,
        input
            .log_dir
            .join(format!("seat{}-{safe}.stderr.log", input.seat)),
    );
    spec.sandbox = input.sandbox;
    spec.limits = input.limits;
    spec
}

/// The stderr log of a seat's `restart`-th restart, next to the log of its first process:
/// `seat1-x.stderr.log` becomes `seat1-x.restart2.stderr.log`.
pub fn restart_log(first: &Path, restart: u32) -> PathBuf {
    let name = first
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match name.strip_suffix(".stderr.log") {
        Some(stem) => format!("{stem}.restart{restart}.stderr.log"),
        None => format!("{name}.restart{restart}"),
    };
    first.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_script_or_the_program() {
        let argv = split("python3 sample-bots/python/random_bot.py --seed 3").unwrap();
        assert_eq!(default_name(&argv), "random_bot");
        assert_eq!(
            default_name(&split("./target/release/mc-bot").unwrap()),
            "mc-bot"
        );
        assert_eq!(
            unique_names(vec!["a".into(), "a".into(), "b".into(), "a".into()]),
            ["a", "a#2", "b", "a#3"]
        );
    }

    #[test]
    fn each_restart_has_its_own_log() {
        assert_eq!(
            restart_log(Path::new("logs/seat1-x.stderr.log"), 2),
            Path::new("logs/seat1-x.restart2.stderr.log")
        );
        assert_eq!(restart_log(Path::new("err"), 1), Path::new("err.restart1"));
    }

    #[test]
    fn unbalanced_quotes_are_an_error() {
        assert!(split("python3 'oops").is_err());
        assert!(split("   ").is_err());
    }
}
