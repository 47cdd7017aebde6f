//! The arena's integration tests, one test binary: a module per concern (failing bots, bot
//! paths, check-bot, the command line's errors and pipes, hostile bots, replays, tournaments,
//! the sandbox's trust, ...), sharing `common` (where the binaries and bots are, how to run
//! the arena, leftover processes). One binary rather than one per file, each of which linked
//! the whole arena library again. `common/` stays beside this folder: the server's tests
//! include two of its files.

#[path = "../common/mod.rs"]
mod common;

mod bot_failures;
mod bot_paths;
mod check_bot_cli;
mod cli_consistency;
mod cli_errors;
mod cli_pipes;
mod covert_channels;
mod decision_stderr;
mod doc_examples;
mod grading;
mod hostile_bots;
mod hostile_fuzz;
mod html_browser;
mod html_cli;
mod leaks;
mod match_faults;
mod mixed_answers;
mod pack_cli;
mod play_pty;
mod process_cleanup;
mod process_common;
mod process_io;
mod process_limits;
mod process_run;
mod process_subreaper;
mod replay_snapshots;
mod run_bot;
mod seed_secrecy;
mod standings_stats;
mod starter_kits;
mod tournament_cli;
mod tournament_crash_safety;
mod trust;
mod watch_live;
