//! Errors of tournament runs and their output directories. Each names the file or directory;
//! a cause below it is its `source`, said after it (`cannot read out/plan.json: permission
//! denied`), unless the message has always said it itself.

use std::io;
use std::path::PathBuf;

use super::output::{describe_revision, describe_shard};
use crate::console::exit::{ExitKind, HasExitKind};
use crate::console::output::io_reason;
use crate::referee::seeds::SeedDrawError;
use crate::standings::estimator::ESTIMATOR_REVISION;

/// A tournament output directory could not be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum TournamentOutputError {
    #[error("cannot create the output directory {}", root.display())]
    CreateDir {
        root: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{} is not a plan of this arena", path.display())]
    NotAPlan {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    /// A line of results.jsonl, not its torn last one, that is no match result.
    #[error("{}:{line}: not a match result: {reason}", path.display())]
    BadResult {
        path: PathBuf,
        line: usize,
        reason: serde_json::Error,
    },
    /// Exit status 2: the directory's plan.json has another fingerprint.
    #[error(
        "{} was started by a different tournament file (or a changed one); refusing to mix \
         results. Use another --out, or delete the directory to start over",
        root.display()
    )]
    OtherTournament { root: PathBuf },
    #[error(
        "{} was started with {}, this run asks for {}",
        root.display(),
        describe_shard(*started),
        describe_shard(*asked)
    )]
    OtherShard {
        root: PathBuf,
        started: Option<(u64, u64)>,
        asked: Option<(u64, u64)>,
    },
    /// Exit status 2: a luck-corrected SPRT of another estimator revision (`revision`, `None`
    /// for one from before revisions were recorded).
    #[error(
        "{}: this luck-corrected SPRT was started by an arena whose estimator is {}; this \
         arena's is revision {ESTIMATOR_REVISION}. A sequential test is judged by one \
         estimator from its first block to its last, so this arena does not go on with it: \
         finish it with the arena that started it, or start over with another --out. `arena \
         standings` shows the verdict its run saved",
        root.display(),
        describe_revision(*revision)
    )]
    OtherEstimator {
        root: PathBuf,
        revision: Option<u32>,
    },
    /// The seed of a resumed run, from its plan.json (`path`).
    #[error("{}", path.display())]
    PlanSeed {
        path: PathBuf,
        #[source]
        source: SettleSeedError,
    },
    #[error(transparent)]
    Seed(#[from] SettleSeedError),
    #[error("{} was started with another seed; refusing to mix results", root.display())]
    OtherSeed { root: PathBuf },
    #[error("cannot open {}", path.display())]
    OpenResults {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The temporary file that replaces a file of the directory could not be created in it.
    #[error("cannot write in {}", dir.display())]
    CreateTemporary {
        dir: PathBuf,
        #[source]
        source: io::Error,
    },
    /// Writing the temporary file that is to replace `path` failed: said as the bare reason
    /// (`no space left on device`), as it always was, so not a `source` too.
    #[error("{}", io_reason(reason))]
    WriteTemporary { path: PathBuf, reason: io::Error },
    #[error("cannot replace {}", path.display())]
    Replace {
        path: PathBuf,
        #[source]
        source: tempfile::PersistError,
    },
    /// A plan, a result or the standings did not encode as JSON: a bug of the arena.
    #[error(transparent)]
    Encode(serde_json::Error),
}

impl HasExitKind for TournamentOutputError {
    fn exit_kind(&self) -> ExitKind {
        match self {
            TournamentOutputError::OtherTournament { .. }
            | TournamentOutputError::OtherEstimator { .. } => ExitKind::BadInput,
            _ => ExitKind::Failure,
        }
    }
}

/// A tournament seed the file does not give could not be settled.
#[derive(Debug, thiserror::Error)]
pub enum SettleSeedError {
    /// Resuming a run whose plan.json has no seed.
    #[error("the plan records no seed")]
    NotRecorded,
    #[error(transparent)]
    Draw(#[from] SeedDrawError),
}

/// Shard output directories could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error(transparent)]
    Output(#[from] TournamentOutputError),
    /// A luck-corrected SPRT of another estimator revision (`None`: from before revisions
    /// were recorded).
    #[error(
        "{} holds a luck-corrected SPRT run with the estimator's {}; this arena's is revision \
         {ESTIMATOR_REVISION}, and merging would judge the test again with other arithmetic. \
         Merge it with the arena that ran it",
        dir.display(),
        describe_revision(*revision)
    )]
    OtherEstimator { dir: PathBuf, revision: Option<u32> },
    #[error(
        "{} holds a different tournament than {}; refusing to merge",
        dir.display(),
        first.display()
    )]
    OtherTournament { dir: PathBuf, first: PathBuf },
    #[error(
        "match {index} has different results in two directories (one is {})",
        dir.display()
    )]
    ConflictingResults { index: u64, dir: PathBuf },
    #[error("cannot create folder {}", dir.display())]
    CreateReplays {
        dir: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot copy {}", from.display())]
    CopyReplay {
        from: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("nothing to merge")]
    Nothing,
    /// Shards or matches are missing (`missing` says which) and `--partial` was not given.
    #[error(
        "incomplete set of shards: {missing}. Add the missing shards' directories (run them \
         first if need be), or pass --partial to merge what is there into partial standings; \
         nothing was written to {}",
        out.display()
    )]
    Incomplete { missing: String, out: PathBuf },
    /// Appending a match to the merged results file failed: said as the bare reason, as it
    /// always was, so not a `source` too.
    #[error("{}", io_reason(reason))]
    Append { path: PathBuf, reason: io::Error },
}

impl HasExitKind for MergeError {
    fn exit_kind(&self) -> ExitKind {
        match self {
            MergeError::Output(e) => e.exit_kind(),
            _ => ExitKind::Failure,
        }
    }
}
