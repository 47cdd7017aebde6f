//! `arena-worker --db URL`: plays the contest's ladder matches from its database, on this or
//! another machine (`arena worker` runs it). See `server::remote`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use server::remote::{WorkerOptions, run};

/// Plays ladder matches claimed from the contest's database.
#[derive(Parser, Debug)]
#[command(name = "arena-worker", version)]
struct Args {
    /// The contest's database, e.g. postgres://USER:PASSWORD@HOST/DB (or sqlite://FILE on
    /// the server's machine). Read from ARENA_DB_URL when not given: a password on the
    /// command line is visible to every user of this machine.
    #[arg(long)]
    db: Option<String>,
    /// This worker's directory (build cache, match scratch); one worker process per
    /// directory.
    #[arg(long, default_value = "arena-worker-data")]
    data: PathBuf,
    /// Matches played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: u64,
    /// Names this worker in the database (default: HOST:PID).
    #[arg(long)]
    name: Option<String>,
    /// Empty this machine's page cache after every match, so that the two halves of a
    /// duplicate pair played here one after the other share nothing cached (needs root and
    /// --jobs 1, and no other worker on this machine).
    #[arg(long)]
    drop_page_cache: bool,
}

fn main() -> ExitCode {
    if server::process::run_as_guard() {
        return ExitCode::SUCCESS;
    }
    let args = Args::parse();
    server::process::init_tracing();
    let Some(db) = args.db.or_else(|| std::env::var("ARENA_DB_URL").ok()) else {
        eprintln!("arena-worker: error: give the contest's database with --db URL or ARENA_DB_URL");
        return ExitCode::from(2);
    };
    server::process::prepare_for_bots();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("arena-worker: cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let options = WorkerOptions {
        drop_page_cache: args.drop_page_cache,
        db,
        data: args.data,
        jobs: args.jobs,
        name: args.name,
    };
    match runtime.block_on(run(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => server::process::exit_code("arena-worker", &e),
    }
}
