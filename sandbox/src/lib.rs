//! Bots as processes: spawning in their own process group with a cleared environment,
//! rlimits and an optional bubblewrap sandbox; stdout lines with a length cap and deadlines;
//! writes with deadlines; stderr drained into a capped log; and killing plus reaping the whole
//! group on every exit path. A build is such a process too, run to completion (`run.rs`).
//!
//! A crate of its own because this is the layer that faces untrusted code: its surface is
//! the small curated set re-exported below, and it can be audited alone. It knows nothing of
//! the game and depends on no other crate of the workspace: a bot is a command line, lines in
//! and out, limits and a sandbox level. The arena (the referee, `check-bot`, `play`,
//! `arena run-bot`) and the contest server (builds, match workers) run their bots through it.
//! In these docs "the arena" is whichever process runs the bots: the `arena` binary, the
//! server or a worker. Each such binary's `main` hands [`GUARD_COMMAND`] to [`run_guard`]
//! ([`spawn_guard`] re-executes the running binary with it).

// `println!` and `eprintln!` panic on a closed pipe (a stderr whose reader has gone): write
// through `eprint_line` instead, as the arena does.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

mod bwrap;
mod cgroup;
mod command;
mod cpu_watch;
mod decision_stderr;
mod descriptors;
mod error;
mod excerpt;
mod group;
mod guard;
mod identity;
mod level;
mod limits;
mod orphans;
mod output;
mod proc_view;
mod process;
mod real_dirs;
mod report;
mod run;
mod seccomp;
mod spec;
mod stderr;
mod stdout;
mod usage;

pub use bwrap::{BwrapPlan, BwrapUnusable, Hidden, SYSTEM_DIRS, bwrap_args, probe_bwrap};
pub use cgroup::{CgroupReport, CgroupUsage, CgroupVersion, reap_stale};
pub use decision_stderr::{
    DECISION_BYTES, DECISION_LINES, DecisionLines, DecisionStderr, SEAT_BUDGET_BYTES,
};
pub use descriptors::cloexec_inherited;
pub use error::{ReadError, SpawnError, WriteError};
pub use excerpt::{EXCERPT_LINES, excerpt, indented, stderr_block};
pub use group::set_child_subreaper;
pub use guard::{GUARD_COMMAND, run_guard, spawn_guard};
pub use identity::{BOT_UID_BASE, BOT_UID_COUNT, BotUid, running_as_root};
pub use level::default_level;
pub use output::{create_private, eprint_line};
pub use process::{BotProcess, ExitSummary};
pub use report::SandboxReport;
pub use run::{Completion, run_to_completion};
pub use spec::{
    BotSpec, CPUS_RANGE, CpusError, DEFAULT_MAX_LINE_BYTES, DEFAULT_MILLICPUS, DEFAULT_PATH,
    DEFAULT_STDERR_KEEP_BYTES, Limits, SandboxLevel, millicpus,
};
pub use stderr::{SUMMARY_TAIL_BYTES, StderrRelay, StderrRelayWriter, StderrSummary};
pub use usage::peak_rss_kb;
