//! Why a page could not be made or written. Each error names the file; a cause below it is
//! its `source`, said after it (`cannot write the report r.html: permission denied`).

use std::io;
use std::path::PathBuf;

use super::template::TemplateError;
use crate::console::output::CreateFolderError;
use crate::replay::ReplayReadError;
use crate::tournament::TournamentOutputError;

/// A replay page could not be made (a bad replay) or written.
#[derive(Debug, thiserror::Error)]
pub enum ReplayPageError {
    #[error("not a replay: the first record is not a header")]
    NoHeader,
    /// A line of a report's replay that is not JSON of a record (or not of its type).
    #[error("{}:{line}: not a replay record", replay.display())]
    BadRecord {
        replay: PathBuf,
        line: usize,
        #[source]
        source: serde_json::Error,
    },
    #[error("{}:{line}: not a replay record: unknown record type {kind:?}", replay.display())]
    UnknownRecordType {
        replay: PathBuf,
        line: usize,
        kind: String,
    },
    /// A line of type `header` that reads as another record.
    #[error("{}:{line}: not a replay record", replay.display())]
    NotAHeader { replay: PathBuf, line: usize },
    #[error(transparent)]
    Read(#[from] ReplayReadError),
    /// The replay was read, but is no replay a page can show (the cause says why).
    #[error("{}: cannot make a replay page", replay.display())]
    Page {
        replay: PathBuf,
        #[source]
        source: Box<ReplayPageError>,
    },
    #[error(transparent)]
    CreateFolder(#[from] CreateFolderError),
    #[error("cannot write the replay page {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot write the viewer file {}", path.display())]
    WriteViewer {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The template and the values given for it disagree: a bug of the arena.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// The page's data did not encode as JSON: a bug of the arena.
    #[error(transparent)]
    Encode(serde_json::Error),
}

/// A tournament's report could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error(
        "{} is not a tournament output directory: {} is missing",
        dir.display(),
        results.display()
    )]
    NotAnOutputDirectory { dir: PathBuf, results: PathBuf },
    /// Its results or its plan could not be read.
    #[error(transparent)]
    Output(#[from] TournamentOutputError),
    #[error("{}: the report needs a file name", output.display())]
    NoFileName { output: PathBuf },
    #[error("cannot create the folder {}", dir.display())]
    CreatePagesFolder {
        dir: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot remove the old replay page {}", path.display())]
    RemoveStalePage {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    ReplayPage(#[from] ReplayPageError),
    #[error(transparent)]
    CreateFolder(#[from] CreateFolderError),
    #[error("cannot write the report {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The template and the values given for it disagree: a bug of the arena.
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// The report's data did not encode as JSON: a bug of the arena.
    #[error(transparent)]
    Encode(serde_json::Error),
}
