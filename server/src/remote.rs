//! `arena-worker`: match workers in a process of their own, on any machine that reaches the
//! contest's database. Everything comes from the database: the contest file the server
//! recorded (game, limits, sandbox, ladder policy), the queued matches (claimed with leases),
//! the bots' builds; results and replays go back into it. There is no other link between
//! machines.
//!
//! The worker's own directory (`--data`) holds its build cache and the scratch of the
//! matches it plays; one process per directory (a lock file says so).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio_util::sync::CancellationToken;

use crate::config::Contest;
use crate::ladder::pool;
use crate::storage::Db;

/// How often a worker looks for a changed contest file (a restarted server's).
const CONTEST_POLL: Duration = Duration::from_secs(10);

/// How often a worker tries a database that was unreachable, at its start or between rounds.
const DATABASE_RETRY: Duration = Duration::from_secs(2);

/// Opens the database, waiting while it is unreachable (a worker started before it, or while
/// it restarts) rather than exiting; any other failure (a bad URL, a refused password) ends
/// the worker at once.
async fn open(url: &str) -> anyhow::Result<Db> {
    let mut said = false;
    loop {
        match Db::open(url).await {
            Ok(db) => return Ok(db),
            Err(e) if e.is_unavailable() => {
                if !said {
                    eprintln!(
                        "arena-worker: waiting for the database {} ({e})",
                        crate::serve::redact(url)
                    );
                    said = true;
                }
                tokio::time::sleep(DATABASE_RETRY).await;
            }
            Err(e) => {
                return Err(anyhow::Error::new(e).context(format!(
                    "cannot open the database {}",
                    crate::serve::redact(url)
                )));
            }
        }
    }
}

/// What `arena-worker` is given.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// `postgres://...` (or `sqlite://FILE` for a worker on the server's machine).
    pub db: String,
    /// This worker's directory: build cache and match scratch.
    pub data: PathBuf,
    /// Matches played at once.
    pub jobs: u64,
    /// Names the worker in the database; default `HOST:PID`.
    pub name: Option<String>,
    /// Empty the machine's page cache after every match (root, one job: see
    /// `arena::tournament::page_cache`).
    pub drop_page_cache: bool,
}

/// Runs workers until SIGINT/SIGTERM: the first lets the matches under way finish and be
/// stored, a second stops at once (their leases then run out and other workers replay them).
pub async fn run(mut options: WorkerOptions) -> anyhow::Result<()> {
    if options.drop_page_cache
        && let Some(why) = arena::tournament::page_cache::unavailable(options.jobs as usize)
    {
        anyhow::bail!(
            "--drop-page-cache: {}",
            why.replace("page_cache = \"drop\"", "it")
        );
    }
    // Absolute: bots start in their own directories with paths into this one.
    options.data = std::path::absolute(&options.data)
        .with_context(|| format!("cannot resolve {}", options.data.display()))?;
    std::fs::create_dir_all(&options.data)
        .with_context(|| format!("cannot create {}", options.data.display()))?;
    // Private, as the server's data directory: it holds every participant's build.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&options.data, std::fs::Permissions::from_mode(0o700))
            .with_context(|| format!("cannot make {} private", options.data.display()))?;
    }
    let lock_path = options.data.join("worker.lock");
    let lock = std::fs::File::create(&lock_path)
        .with_context(|| format!("cannot create {}", lock_path.display()))?;
    if lock.try_lock().is_err() {
        anyhow::bail!(
            "another arena-worker uses {}: give each worker process its own --data directory",
            options.data.display()
        );
    }
    let db = open(&options.db).await?;
    let name = options.name.clone().unwrap_or_else(pool::default_name);
    let stop = CancellationToken::new();
    let hurry = CancellationToken::new();
    tokio::spawn(signals(stop.clone(), hurry.clone()));
    let mut announced = false;
    while !stop.is_cancelled() {
        let record = match db.contest_record().await {
            Ok(record) => record,
            // Away for a moment (a restart): the workers wait rather than exit, as they do
            // mid-round.
            Err(e) if e.is_unavailable() => {
                tracing::warn!("cannot read the contest yet: {e}");
                tokio::select! {
                    _ = stop.cancelled() => break,
                    _ = tokio::time::sleep(DATABASE_RETRY) => continue,
                }
            }
            Err(e) => return Err(e.into()),
        };
        let Some(record) = record else {
            if !announced {
                eprintln!(
                    "arena-worker: waiting for a server to record its contest in the database"
                );
                announced = true;
            }
            tokio::select! {
                _ = stop.cancelled() => break,
                _ = tokio::time::sleep(CONTEST_POLL) => continue,
            }
        };
        let mut contest = Contest::parse(
            &record.toml,
            std::path::Path::new(&record.file),
            &options.data,
        )
        .map_err(|e| anyhow::anyhow!("the contest recorded by the server: {e}"))?;
        contest.data_dir = options.data.clone();
        contest.drop_page_cache = options.drop_page_cache;
        check_sandbox(&record.toml, contest.sandbox)?;
        eprintln!(
            "arena-worker {name}: {} job(s) for {:?} ({}), data in {}",
            options.jobs,
            contest.name,
            record.file,
            options.data.display()
        );
        // A changed contest (the server restarted with an edited file): finish the matches
        // under way, then start again with the new one.
        let round = stop.child_token();
        let threads = pool::start(&db, Arc::new(contest), options.jobs, &name, &round).await?;
        let watcher = tokio::spawn(watch_contest(db.clone(), record.updated_at, round.clone()));
        // The threads end after their matches once `round` is cancelled; a second signal
        // stops them at once.
        let (done_tx, done_rx) = tokio::sync::oneshot::channel();
        let hurry_now = hurry.clone();
        std::thread::spawn(move || {
            let mut threads = threads;
            while let Some(thread) = threads.pop() {
                if hurry_now.is_cancelled() {
                    thread.stop();
                } else {
                    thread.join();
                }
            }
            let _ = done_tx.send(());
        });
        tokio::select! {
            _ = done_rx => {}
            _ = hurry.cancelled() => {
                eprintln!("arena-worker {name}: stopping now; the matches under way will be replayed elsewhere");
                db.close().await;
                return Ok(());
            }
        }
        watcher.abort();
    }
    db.close().await;
    Ok(())
}

/// A contest file that names no sandbox gets each machine's default: the isolating sandbox
/// where bubblewrap works, else `limits` with a warning. On a server that is the organizer's
/// own choice of machine; a worker that joins on a machine without bubblewrap would quietly
/// play everyone's bots unisolated, so it refuses unless the contest file asks for a lower
/// level itself.
fn check_sandbox(contest_toml: &str, level: sandbox::SandboxLevel) -> anyhow::Result<()> {
    let named = contest_toml
        .parse::<toml::Table>()
        .map(|t| t.contains_key("sandbox"))
        .unwrap_or(false);
    if !named && level != sandbox::SandboxLevel::Bwrap {
        anyhow::bail!(
            "this machine cannot run the isolating sandbox (bubblewrap: Debian `apt-get install \
             bubblewrap`), and the contest file names no sandbox level; install it, or write \
             sandbox = \"limits\" in the contest file to let workers play bots without isolation"
        );
    }
    Ok(())
}

/// Cancels `round` when the recorded contest changes.
async fn watch_contest(db: Db, seen: i64, round: CancellationToken) {
    loop {
        tokio::select! {
            _ = round.cancelled() => return,
            _ = tokio::time::sleep(CONTEST_POLL) => {}
        }
        match db.contest_updated_at().await {
            Ok(Some(at)) if at != seen => {
                tracing::info!(
                    "the contest file changed: restarting the workers after their matches"
                );
                round.cancel();
                return;
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("cannot read the contest: {e}"),
        }
    }
}

async fn signals(stop: CancellationToken, hurry: CancellationToken) {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return;
    };
    for token in [&stop, &hurry] {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        if !stop.is_cancelled() {
            eprintln!("arena-worker: finishing the matches under way (again to stop at once)");
        }
        token.cancel();
    }
}

#[cfg(test)]
mod tests {
    use sandbox::SandboxLevel;

    #[test]
    fn a_worker_without_bubblewrap_plays_only_what_the_contest_allows() {
        let unnamed = "game = \"classic\"\n";
        let named = "game = \"classic\"\nsandbox = \"limits\"\n";
        assert!(super::check_sandbox(unnamed, SandboxLevel::Bwrap).is_ok());
        let refused = super::check_sandbox(unnamed, SandboxLevel::Limits).unwrap_err();
        assert!(refused.to_string().contains("bubblewrap"), "{refused}");
        assert!(super::check_sandbox(named, SandboxLevel::Limits).is_ok());
        assert!(super::check_sandbox(named, SandboxLevel::Bwrap).is_ok());
    }
}
