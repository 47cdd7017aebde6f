//! The builders: each claims an uploaded version (a lease in the database), compiles it in
//! the arena's sandbox with the contest's `[build]` limits, runs `check-bot` on the result
//! with the contest's game and time limits, and records the outcome: `ready` (the bot's
//! previous ready version retires, in the same transaction) or `failed`, with both logs
//! (their paths relative to the upload: [`LogPaths`]).
//!
//! Everything the upload's code does runs in sandboxed child processes (the arena's
//! `run_to_completion` and check-bot's bot processes), never in the server's own process.
//! A server killed mid-build leaves a lease that expires; the version is then built again
//! (`Db::expire_builds`), at most `[ladder] max_attempts` times.
//!
//! On disk, under the data directory: `uploads/ID` (the upload, never written to again),
//! `builds/ID` (a copy of it where the compiler writes; kept for ready versions, which are
//! run from there, removed for failed ones) and `work/ID` (logs and check-bot's
//! scratch directories during the build, always removed).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use arena::check_bot::{Outcome, render, run_all, scenarios};
use sandbox::{BotSpec, Limits, run_to_completion};
use tokio::sync::Notify;

use super::artifact::{Artifact, PackError, pack};
use super::log_paths::LogPaths;
use super::toolchains::{self, DIR, Recipe};
use super::versions::{BuildOutcome, VersionState};
use crate::config::{Contest, Language};
use crate::storage::{Db, Version, now_ms};

/// A builder's lease on a version; renewed every [`RENEW_EVERY`] while it works, so only a
/// dead builder's lease runs out.
pub const LEASE: Duration = Duration::from_secs(60);
const RENEW_EVERY: Duration = Duration::from_secs(15);
/// How often an idle builder looks at the database (uploads through this server wake it at
/// once; the poll finds expired leases and uploads made through another server).
const POLL: Duration = Duration::from_secs(5);

/// What every builder of this server shares.
#[derive(Debug)]
pub struct Builder {
    db: Db,
    contest: Arc<Contest>,
    uploads: PathBuf,
    builds: PathBuf,
    work: PathBuf,
    /// The Rust compiler's real path: rustup puts a proxy on `PATH`, outside the system's
    /// directories, which would not work in the sandbox; the toolchain's own `rustc` does
    /// (its installation is bound read-only).
    rustc: String,
    wakeup: Arc<Notify>,
}

impl Builder {
    /// Prepares the build directories under the contest's data directory (scratch left by
    /// a killed server is removed).
    pub fn new(db: Db, contest: Arc<Contest>, wakeup: Arc<Notify>) -> std::io::Result<Builder> {
        let data = &contest.data_dir;
        let (uploads, builds, work) =
            (data.join("uploads"), data.join("builds"), data.join("work"));
        std::fs::create_dir_all(&builds)?;
        if work.exists() {
            std::fs::remove_dir_all(&work)?;
        }
        std::fs::create_dir_all(&work)?;
        Ok(Builder {
            db,
            uploads,
            builds,
            work,
            rustc: find_rustc(),
            contest,
            wakeup,
        })
    }

    /// Where a version's built files are (what the ladder runs).
    pub fn build_dir(&self, version_id: i64) -> PathBuf {
        self.builds.join(version_id.to_string())
    }

    /// Builds forever: the loop of one builder task.
    pub async fn run(self: Arc<Self>) {
        loop {
            let max_attempts = i64::from(self.contest.ladder.max_attempts);
            if let Err(e) = self.db.expire_builds(now_ms(), max_attempts).await {
                tracing::warn!("cannot expire build leases: {e}");
            }
            match self.build_next().await {
                Ok(Some(_)) => continue,
                Ok(None) => {}
                Err(e) => tracing::warn!("builder: {e:#}"),
            }
            tokio::select! {
                _ = self.wakeup.notified() => {}
                _ = tokio::time::sleep(POLL) => {}
            }
        }
    }

    /// Claims and builds the oldest waiting version; `None` when nothing waits. Returns the
    /// version's id and state, or `Uploaded` when the lease was lost meanwhile (another
    /// builder has it now, and this result was dropped).
    pub async fn build_next(&self) -> anyhow::Result<Option<(i64, VersionState)>> {
        let Some(claim) = self.db.claim_build(LEASE.as_millis() as i64).await? else {
            return Ok(None);
        };
        let id = claim.version.id;
        let work = self.build(&claim.version);
        tokio::pin!(work);
        let outcome = loop {
            tokio::select! {
                outcome = &mut work => break outcome,
                _ = tokio::time::sleep(RENEW_EVERY) => {
                    match self.db.renew_build(id, &claim.lease_token, LEASE.as_millis() as i64).await {
                        Ok(true) => {}
                        // Expired (this server stalled): someone else builds it now.
                        // Dropping the build kills its processes.
                        Ok(false) => return Ok(Some((id, VersionState::Uploaded))),
                        Err(e) => tracing::warn!("cannot renew the build lease of {id}: {e}"),
                    }
                }
            }
        };
        if !outcome.passed {
            // Nothing will run it: keep the logs (in the database), not the files.
            let _ = std::fs::remove_dir_all(self.build_dir(id));
        }
        let recorded = self
            .db
            .finish_build(id, &claim.lease_token, &outcome)
            .await?;
        let state = match (recorded, outcome.passed) {
            (false, _) => VersionState::Uploaded,
            (true, true) => VersionState::Ready,
            (true, false) => VersionState::Failed,
        };
        tracing::info!(version = id, %state, "build finished");
        Ok(Some((id, state)))
    }

    /// Compiles and checks one version; every failure ends up in the logs.
    async fn build(&self, version: &Version) -> BuildOutcome {
        let log_bytes = self.contest.build.log_bytes as usize;
        let work = self.work.join(version.id.to_string());
        // The owner reads these logs: paths relative to the upload, none of the server's.
        let paths = LogPaths::new(&self.build_dir(version.id), &work, &self.contest.data_dir)
            .and(&self.rustc, "rustc");
        let result = self.build_in(version, &work).await;
        let _ = std::fs::remove_dir_all(&work);
        let (artifact, build_log, check_log) = match result {
            Ok(done) => done,
            Err(e) => (
                None,
                format!("the build could not run (a fault of the server, not of the bot): {e:#}\n"),
                String::new(),
            ),
        };
        BuildOutcome {
            passed: artifact.is_some(),
            build_log: bounded(&paths.apply(&build_log), log_bytes),
            check_log: bounded(&paths.apply(&check_log), log_bytes),
            artifact,
        }
    }

    /// The build's logs, and its packed files if it built and passed the checks.
    async fn build_in(
        &self,
        version: &Version,
        work: &Path,
    ) -> anyhow::Result<(Option<Artifact>, String, String)> {
        let language = Language::parse(&version.language)
            .ok_or_else(|| anyhow::anyhow!("unknown language {:?}", version.language))?;
        let source = self.uploads.join(version.id.to_string());
        let dir = self.build_dir(version.id);
        let (dir2, work2) = (dir.clone(), work.to_path_buf());
        // A fresh copy: a build that died half-way (its server killed) starts over.
        let files = tokio::task::spawn_blocking(move || -> std::io::Result<Vec<PathBuf>> {
            for d in [&dir2, &work2] {
                if d.exists() {
                    std::fs::remove_dir_all(d)?;
                }
            }
            std::fs::create_dir_all(&work2)?;
            copy_tree(&toolchains::source_root(&source)?, &dir2)?;
            toolchains::files(&dir2)
        })
        .await??;
        let read = |f: &Path| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
        let recipe = match toolchains::recipe(language, &files, &read, &self.rustc) {
            Ok(r) => r,
            Err(why) => return Ok((None, format!("{why}\n"), String::new())),
        };
        let (built, build_log) = self.compile(&recipe, &dir, work, version.id).await?;
        // Back to the server's own user, readable (the bot's uid changes from run to run).
        let dir2 = dir.clone();
        tokio::task::spawn_blocking(move || reclaim(&dir2)).await??;
        if !built {
            return Ok((None, build_log, String::new()));
        }
        let argv: Vec<String> = recipe
            .run
            .iter()
            .map(|a| a.replace(DIR, &dir.to_string_lossy()))
            .collect();
        // The report names the command as documented (`./bot`), not the server's paths.
        let shown_run: Vec<String> = recipe.run.iter().map(|a| a.replace(DIR, ".")).collect();
        let (passed, mut check_log) = self.check(&argv, &shown_run, work, &version.language).await;
        if !passed {
            return Ok((None, build_log, check_log));
        }
        // Packed for the workers, with the run command as the recipe says it (`{dir}` is
        // filled in by each worker where it unpacks the files).
        let (run, max) = (recipe.run.clone(), self.contest.build.max_artifact_bytes);
        let packed = tokio::task::spawn_blocking(move || pack(&dir, run, max)).await?;
        match packed {
            Ok(artifact) => Ok((Some(artifact), build_log, check_log)),
            Err(e @ PackError::TooLarge { .. }) => {
                check_log.push_str(&format!("{e}\n"));
                Ok((None, build_log, check_log))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Runs the recipe's steps in `dir`, in the sandbox; the log shows each command and
    /// what it printed.
    async fn compile(
        &self,
        recipe: &Recipe,
        dir: &Path,
        work: &Path,
        id: i64,
    ) -> anyhow::Result<(bool, String)> {
        let policy = &self.contest.build;
        let limit = Duration::from_secs(policy.time_seconds);
        let started = tokio::time::Instant::now();
        let mut log = String::new();
        for (i, step) in recipe.steps.iter().enumerate() {
            let left = limit.saturating_sub(started.elapsed());
            log.push_str(&format!("$ {}\n", shown(step)));
            let mut spec = BotSpec::new(
                format!("build-{id}"),
                step.clone(),
                dir,
                work.join(format!("step{i}.log")),
            );
            spec.sandbox = self.contest.sandbox;
            spec.private_workdir = false;
            spec.writable_workdir = true;
            spec.limits = build_limits(policy.time_seconds, policy.memory_bytes);
            spec.stderr_keep_bytes = (policy.log_bytes as usize / 2).max(1024);
            let done = match run_to_completion(&spec, left).await {
                Ok(done) => done,
                Err(e) => {
                    log.push_str(&format!("cannot start the build: {e}\n"));
                    return Ok((false, log));
                }
            };
            log.push_str(&done.stdout);
            log.push_str(&done.stderr);
            if done.timed_out {
                log.push_str(&format!(
                    "stopped: the build took longer than the contest's {} s\n",
                    policy.time_seconds
                ));
                return Ok((false, log));
            }
            if !done.succeeded() {
                log.push_str(&match (done.exit.code, done.exit.signal) {
                    (Some(code), _) => format!("the build failed (exit status {code})\n"),
                    (None, Some(sig)) => format!("the build was killed by signal {sig}\n"),
                    _ => "the build failed\n".to_string(),
                });
                return Ok((false, log));
            }
        }
        log.push_str("built\n");
        Ok((true, log))
    }

    /// `arena check-bot` on the built bot: the contest's game, time limits, resource limits
    /// and sandbox, as in a ladder match.
    async fn check(
        &self,
        argv: &[String],
        shown_argv: &[String],
        work: &Path,
        language: &str,
    ) -> (bool, String) {
        let time = self.contest.time;
        let scenarios = scenarios(Some(self.contest.settings.variant));
        let checks = run_all(&scenarios, time, |i, _| {
            let mut spec = BotSpec::new(
                format!("check-{language}"),
                argv.to_vec(),
                work.join(format!("scenario{i}")),
                work.join(format!("scenario{i}.stderr.log")),
            );
            spec.sandbox = self.contest.sandbox;
            spec.limits = self.contest.limits;
            spec
        })
        .await;
        let passed = !checks.is_empty() && checks.iter().all(|c| c.outcome != Outcome::Fail);
        (passed, render(&shown(shown_argv), &checks))
    }
}

/// How a ready version is started: its language's run command over the upload's files (the
/// same input its build had, so the same command), with the build directory filled in.
pub fn run_command(data_dir: &Path, version: &Version) -> anyhow::Result<Vec<String>> {
    let language = Language::parse(&version.language)
        .ok_or_else(|| anyhow::anyhow!("unknown language {:?}", version.language))?;
    let source = toolchains::source_root(&data_dir.join("uploads").join(version.id.to_string()))?;
    let files = toolchains::files(&source)?;
    let read = |f: &Path| std::fs::read_to_string(source.join(f)).unwrap_or_default();
    let recipe = toolchains::recipe(language, &files, &read, "rustc")
        .map_err(|why| anyhow::anyhow!("version {}: {why}", version.id))?;
    let dir = data_dir.join("builds").join(version.id.to_string());
    if !dir.is_dir() {
        anyhow::bail!(
            "version {} has no build directory {}",
            version.id,
            dir.display()
        );
    }
    Ok(recipe
        .run
        .iter()
        .map(|a| a.replace(DIR, &dir.to_string_lossy()))
        .collect())
}

/// The limits of one build step: the contest's time (as CPU time too) and memory; room for
/// a compiler's helper processes, threads (javac) and output.
///
/// The CPU time is that of every process of the build together (its cgroup counts it), so
/// it is the wall time on every core: a parallel build (`make -j`, cargo) is bounded by the
/// wall-clock limit, as it was when the CPU limit was per process.
fn build_limits(time_seconds: u64, memory_bytes: u64) -> Limits {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    Limits {
        cpu_seconds: Some(time_seconds.saturating_mul(cpus)),
        memory_bytes: Some(memory_bytes),
        file_size_bytes: Some(256 << 20),
        open_files: Some(1024),
        processes: Some(128),
        disk_bytes: Some(512 << 20),
        // A build runs before its bot plays and may use every core (`make -j`).
        millicpus: None,
    }
}

/// A command line as a shell would read it, for the logs: plain words bare, the rest
/// single-quoted.
fn shown(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_./=:+,@%-".contains(&b));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` cut to at most about `max` bytes: its head and its tail (where a compiler's first
/// error and a check's verdict are), with the number of bytes dropped between them.
pub fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let half = max / 2;
    let mut head = half;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - half;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    format!(
        "{}\n[... {} bytes dropped ...]\n{}",
        &text[..head],
        tail - head,
        &text[tail..]
    )
}

/// Copies the directories and regular files of `from` into `to` (created). Uploads hold
/// nothing else (the unpacker refuses links and devices).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// After a build under a uid of its own: every file back to the server's user (the owner of
/// the build directory's parent), readable by all (the check and the ladder run the bot
/// under yet another uid; the data directory's mode 0700 keeps everyone else out), and
/// anything but directories and regular files (a build may leave a symlink) removed.
fn reclaim(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let parent = dir.parent().unwrap_or(dir);
    let owner = std::fs::metadata(parent)?;
    let (uid, gid) = (owner.uid(), owner.gid());
    fn walk(path: &Path, uid: u32, gid: u32) -> std::io::Result<()> {
        let meta = std::fs::symlink_metadata(path)?;
        if !(meta.is_dir() || meta.is_file()) {
            return std::fs::remove_file(path);
        }
        if meta.uid() != uid || meta.gid() != gid {
            std::os::unix::fs::lchown(path, Some(uid), Some(gid))?;
        }
        let mode = meta.permissions().mode() & 0o7777;
        let wanted = if meta.is_dir() || mode & 0o111 != 0 {
            0o755
        } else {
            0o644
        };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(wanted))?;
        if meta.is_dir() {
            for entry in std::fs::read_dir(path)? {
                walk(&entry?.path(), uid, gid)?;
            }
        }
        Ok(())
    }
    walk(dir, uid, gid)
}

/// The toolchain's own `rustc` (`rustc --print sysroot`/bin/rustc), else plain `rustc`.
fn find_rustc() -> String {
    std::process::Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|root| Path::new(root.trim()).join("bin/rustc"))
        .filter(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| "rustc".to_string())
}

#[cfg(test)]
mod tests {
    use super::{bounded, shown};

    #[test]
    fn commands_are_shown_as_a_shell_reads_them() {
        let argv = ["gcc", "-O2", "./my bot.c", "it's"].map(String::from);
        assert_eq!(shown(&argv), "gcc -O2 './my bot.c' 'it'\\''s'");
    }

    #[test]
    fn long_logs_keep_head_and_tail() {
        assert_eq!(bounded("short", 10), "short");
        let text = format!("first error\n{}\nverdict", "x".repeat(1000));
        let cut = bounded(&text, 40);
        assert!(cut.starts_with("first error"), "{cut}");
        assert!(cut.ends_with("verdict"), "{cut}");
        assert!(cut.contains("bytes dropped"), "{cut}");
        assert!(cut.len() < 100);
        // Never inside a character.
        let cut = bounded(&"é".repeat(100), 21);
        assert!(cut.starts_with('é') && cut.ends_with('é'));
    }
}
