//! Starting the server: the contest file, the database, the accounts made at start, the
//! routes, the listening socket.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio_util::sync::CancellationToken;

use crate::accounts::device::DeviceKey;
use crate::accounts::provision::{provision, write_setup_tokens};
use crate::config::Contest;
use crate::ladder::build::Builder;
use crate::ladder::pool;
use crate::ladder::submissions::Submissions;
use crate::ladder::worker_thread::WorkerThread;
use crate::listen;
use crate::storage::{Db, now_ms, sqlite_url};
use crate::web::{self, AppState, Shared};

/// What `arena-server` (started as `arena serve`) is given.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub contest: PathBuf,
    /// `sqlite://FILE` or `postgres://...`; default: `contest.db` in the data directory.
    pub db: Option<String>,
    pub listen: SocketAddr,
}

/// Opens everything a server needs, without listening yet (tests build routers from this).
pub async fn prepare(
    contest: Contest,
    db_url: Option<&str>,
) -> anyhow::Result<(Shared, Vec<String>)> {
    let data = contest.data_dir.clone();
    if !data.exists() {
        // The database (password hashes) and the uploads (participants' code) are private.
        // Only the data directory itself: its parents (e.g. a shared `out/`) keep the usual
        // mode.
        if let Some(parent) = data.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
            .create(&data)
            .with_context(|| format!("cannot create the data directory {}", data.display()))?;
    }
    let url = db_url
        .map(str::to_string)
        .unwrap_or_else(|| sqlite_url(&data.join("contest.db")));
    let db = Db::open_waiting(&url, contest.connection_wait)
        .await
        .with_context(|| format!("cannot open the database {}", redact(&url)))?;
    // Computed once here rather than by the first login, on an async thread.
    tokio::task::spawn_blocking(crate::accounts::passwords::dummy_hash).await?;
    db.record_contest(&contest.text, &contest.file.to_string_lossy())
        .await?;
    let tokens = provision(&db, &contest).await?;
    let mut notes = Vec::new();
    if !tokens.is_empty() {
        let file = write_setup_tokens(&data, &tokens)?;
        notes.push(format!(
            "{} new account(s); their one-time setup links are in {} (e.g. {} /setup/...)",
            tokens.len(),
            file.display(),
            tokens[0].name
        ));
    }
    let submissions = Submissions::of_contest(db.clone(), &contest)
        .with_context(|| format!("cannot prepare {}", data.join("uploads").display()))?;
    if let Some(assignment) = &contest.assignment {
        let added =
            crate::assignment::references::provision(&db, assignment, submissions.uploads_dir())
                .await?;
        if !added.is_empty() {
            submissions.build_wakeup.notify_one();
            notes.push(format!(
                "reference bot(s) {} stored for building",
                added.join(", ")
            ));
        }
    }
    let key = DeviceKey::load_or_create(&data)?;
    Ok((
        AppState::with_device_key(Arc::new(contest), db, submissions, key),
        notes,
    ))
}

/// Gives an existing account a new one-time setup link (a student lost theirs, or forgot
/// the password: the link sets a new one). The link is appended to `setup-tokens.txt`;
/// returns that file. Safe while the server runs.
pub async fn new_setup_link(
    contest: &std::path::Path,
    db_url: Option<&str>,
    name: &str,
) -> anyhow::Result<PathBuf> {
    let contest = Contest::load(contest)?;
    let data = contest.data_dir.clone();
    let (state, _) = prepare(contest, db_url).await?;
    let user = state
        .db
        .user_by_name(name)
        .await?
        .ok_or_else(|| anyhow::anyhow!("there is no account named {name:?}"))?;
    let secret = crate::accounts::Secret::new()?;
    state.db.set_setup_token(user.id, &secret.digest).await?;
    let token = crate::accounts::provision::SetupToken {
        name: user.name,
        token: secret.token,
    };
    let file = write_setup_tokens(&data, &[token])?;
    state.db.close().await;
    Ok(file)
}

/// A database URL without its password, for messages.
pub(crate) fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let creds = &url[scheme + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// Runs the server until SIGINT or SIGTERM.
pub async fn serve(options: ServeOptions) -> anyhow::Result<()> {
    let contest = Contest::load(&options.contest)?;
    // Before anything opens files: what systemd's default soft limit (1,024) allows would
    // leave a few hundred connections for everyone.
    let limits = listen::Limits::fitted(&contest.http, listen::open_files::raise_soft_limit());
    if limits.max_connections as u64 != contest.http.max_connections {
        tracing::warn!(
            "the limit of open files allows {} connections at once, {} per address (http.max_connections is {}): raise the hard limit (LimitNOFILE= in a systemd unit) for more",
            limits.max_connections,
            limits.max_connections_per_address,
            contest.http.max_connections
        );
    }
    let (state, notes) = prepare(contest, options.db.as_deref()).await?;
    for note in notes {
        eprintln!("{note}");
    }
    let listener = tokio::net::TcpListener::bind(options.listen)
        .await
        .with_context(|| format!("cannot listen on {}", options.listen))?;
    let address = listener.local_addr()?;
    eprintln!(
        "{}: open http://{address}/ (data in {})",
        state.contest.name,
        state.contest.data_dir.display()
    );
    // Expired sessions are refused at once; this only keeps the table small.
    let db = state.db.clone();
    tokio::spawn(async move {
        loop {
            if let Err(e) = db.delete_expired_sessions(now_ms()).await {
                tracing::warn!("cannot delete expired sessions: {e}");
            }
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
    });
    let builders = start_builders(&state)?;
    let stop_workers = CancellationToken::new();
    let workers = start_workers(&state, &stop_workers).await?;
    // A final that a stopped or killed server left running goes on from its results file.
    state.final_round.resume_if_running().await?;
    let app = web::router(state.clone());
    let stop = CancellationToken::new();
    tokio::spawn({
        let stop = stop.clone();
        async move {
            shutdown().await;
            stop.cancel();
        }
    });
    listen::serve(listener, app, limits, stop).await;
    // A build cut short here keeps its lease until it expires, then is built again.
    // Likewise a match cut short: its lease expires and another worker plays it again.
    for task in builders {
        task.abort();
    }
    for worker in workers {
        let _ = tokio::task::spawn_blocking(move || worker.stop()).await;
    }
    // The final's matches are stopped (bots killed), its finished ones kept: the next start
    // resumes it.
    state.final_round.shutdown().await;
    state.db.close().await;
    Ok(())
}

/// Starts the contest's `[build] builders` build tasks in this process (their compilers and
/// checks run in sandboxed child processes).
pub fn start_builders(state: &Shared) -> anyhow::Result<Vec<tokio::task::JoinHandle<()>>> {
    let builder = Arc::new(
        Builder::new(
            state.db.clone(),
            state.contest.clone(),
            state.submissions.build_wakeup.clone(),
        )
        .with_context(|| {
            format!(
                "cannot prepare the build directories in {}",
                state.contest.data_dir.display()
            )
        })?,
    );
    Ok((0..state.contest.build.builders)
        .map(|_| tokio::spawn(builder.clone().run()))
        .collect())
}

/// Starts the contest's `[ladder] workers` match workers in this process (their bots run in
/// sandboxed child processes), each on a thread of its own. `arena-worker` processes on
/// other machines run the same code.
pub async fn start_workers(
    state: &Shared,
    stop: &CancellationToken,
) -> anyhow::Result<Vec<WorkerThread>> {
    let count = state.contest.ladder.workers;
    crate::ladder::pool::start(
        &state.db,
        state.contest.clone(),
        count,
        &pool::default_name(),
        stop,
    )
    .await
}

async fn shutdown() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => return std::future::pending().await,
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(
            super::redact("postgres://arena:secret@db.example/contest"),
            "postgres://arena:***@db.example/contest"
        );
        assert_eq!(super::redact("sqlite://out/c.db"), "sqlite://out/c.db");
        assert_eq!(
            super::redact("postgres://arena@h/c"),
            "postgres://arena@h/c"
        );
    }
}
