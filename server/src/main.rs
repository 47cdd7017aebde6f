//! `arena-server CONTEST.toml [--db URL] [--listen ADDR]`: the contest ladder server, which
//! people start as `arena serve CONTEST.toml ...` (the arena execs this binary). A separate
//! binary so that the `arena` crate builds without sqlx.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use server::serve::{ServeOptions, new_setup_link, serve};

/// Serves a contest: accounts, bot uploads, the ladder and the final round robin.
///
/// Start it as `arena serve CONTEST.toml [OPTIONS]` (which runs this program, installed next
/// to `arena`), e.g. from the repository root:
/// `./target/release/arena serve tournaments/contest.toml`.
#[derive(Parser, Debug)]
#[command(name = "arena-server", version)]
struct Args {
    /// The contest file (see tournaments/contest.toml).
    contest: PathBuf,
    /// The database: sqlite://FILE or postgres://USER:PASSWORD@HOST/DB. Default: contest.db
    /// in the contest's data directory.
    #[arg(long)]
    db: Option<String>,
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Instead of serving: give the account NAME a new one-time setup link (appended to
    /// setup-tokens.txt in the data directory), e.g. for a forgotten password.
    #[arg(long, value_name = "NAME")]
    new_setup_link: Option<String>,
}

fn main() -> ExitCode {
    if server::process::run_as_guard() {
        return ExitCode::SUCCESS;
    }
    let args = Args::parse();
    server::process::init_tracing();
    if args.new_setup_link.is_none() {
        // The server's builders and workers start bots (in sandboxed child processes).
        server::process::prepare_for_bots();
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("arena-server: cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let result = match &args.new_setup_link {
        Some(name) => runtime
            .block_on(new_setup_link(&args.contest, args.db.as_deref(), name))
            .map(|file| eprintln!("a new setup link for {name} is in {}", file.display())),
        None => runtime.block_on(serve(ServeOptions {
            contest: args.contest,
            db: args.db,
            listen: args.listen,
        })),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => server::process::exit_code("arena-server", &e),
    }
}
