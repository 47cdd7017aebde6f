//! Reading replay files into records.

use std::path::{Path, PathBuf};

use super::Record;

/// Why a replay could not be read: the file, or a line that is no record (named by the
/// replay's name and the line, counted from 1).
#[derive(Debug, thiserror::Error)]
pub enum ReplayReadError {
    #[error("cannot read replay {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{replay}:{line}: not a replay record")]
    Record {
        replay: String,
        line: usize,
        #[source]
        source: serde_json::Error,
    },
}

/// Reads a replay file into records, naming the line of any bad record.
pub fn read(path: &Path) -> Result<Vec<Record>, ReplayReadError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReplayReadError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&text, &path.display().to_string())
}

/// Parses a replay's text (`replay` names it in errors, with the line of a bad record).
pub fn parse(text: &str, replay: &str) -> Result<Vec<Record>, ReplayReadError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|source| ReplayReadError::Record {
                replay: replay.to_string(),
                line: i + 1,
                source,
            })
        })
        .collect()
}
