//! A class roster: a CSV file with a header line and the columns `name` (the login name) and
//! optionally `display_name`. Every row becomes an account at start.

use std::path::{Path, PathBuf};

use crate::config::valid_login_name;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RosterEntry {
    pub name: String,
    pub display_name: String,
}

/// A mistake in a roster file, with its line.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{}{}: {message}", file.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct RosterError {
    pub file: PathBuf,
    pub line: Option<u64>,
    pub message: String,
}

/// Most characters of a display name.
pub const MAX_DISPLAY_NAME: usize = 100;

/// Whether a display name is acceptable (printable, 1 to 100 characters).
pub fn valid_display_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=MAX_DISPLAY_NAME).contains(&n) && !name.chars().any(char::is_control)
}

pub fn read_roster(path: &Path) -> Result<Vec<RosterEntry>, RosterError> {
    let text = std::fs::read_to_string(path).map_err(|e| RosterError {
        file: path.to_path_buf(),
        line: None,
        message: format!("cannot read the roster: {e}"),
    })?;
    parse_roster(&text, path)
}

pub fn parse_roster(text: &str, file: &Path) -> Result<Vec<RosterEntry>, RosterError> {
    let err = |line: Option<u64>, message: String| RosterError {
        file: file.to_path_buf(),
        line,
        message,
    };
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(false)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| err(Some(1), e.to_string()))?
        .clone();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let name_col = column("name").ok_or_else(|| {
        err(
            Some(1),
            "the first line names the columns: name and optionally display_name".into(),
        )
    })?;
    let display_col = column("display_name");
    if let Some(unknown) = headers
        .iter()
        .find(|h| *h != "name" && *h != "display_name")
    {
        return Err(err(
            Some(1),
            format!("unknown column {unknown:?}; expected name and display_name"),
        ));
    }
    let mut entries: Vec<RosterEntry> = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map(|p| p.line());
            err(line, e.to_string())
        })?;
        let line = record.position().map(|p| p.line());
        let name = record.get(name_col).unwrap_or("").to_string();
        if !valid_login_name(&name) {
            return Err(err(
                line,
                format!(
                    "{name:?} is not a login name (1 to 32 of a-z, 0-9, _ . -, starting with a letter or digit)"
                ),
            ));
        }
        if entries.iter().any(|e| e.name == name) {
            return Err(err(line, format!("{name:?} is listed twice")));
        }
        let display_name = display_col
            .and_then(|c| record.get(c))
            .filter(|d| !d.is_empty())
            .unwrap_or(&name)
            .to_string();
        if !valid_display_name(&display_name) {
            return Err(err(
                line,
                format!(
                    "the display name of {name:?} is not 1 to {MAX_DISPLAY_NAME} printable characters"
                ),
            ));
        }
        entries.push(RosterEntry { name, display_name });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Vec<RosterEntry>, RosterError> {
        parse_roster(text, Path::new("class.csv"))
    }

    #[test]
    fn rows_become_entries() {
        let r =
            parse("name,display_name\nalice,Alice A.\nbob,\n\"carol\",\"Carol, C.\"\n").unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].display_name, "Alice A.");
        assert_eq!(r[1].display_name, "bob");
        assert_eq!(r[2].display_name, "Carol, C.");
        assert_eq!(parse("name\nzed\n").unwrap()[0].name, "zed");
    }

    #[test]
    fn mistakes_name_the_line() {
        let e = parse("name,display_name\nalice,A\nAlice Smith,B\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().starts_with("class.csv:3: "), "{e}");
        let e = parse("name\nalice\nalice\n").unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.message.contains("twice"));
        let e = parse("login,display_name\nalice,A\n").unwrap_err();
        assert_eq!(e.line, Some(1));
        let e = parse("name,display_name,email\na,b,c\n").unwrap_err();
        assert!(e.message.contains("email"), "{e}");
        let e = parse("name,display_name\nalice,A,extra\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
    }

    #[test]
    fn the_example_roster_reads() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tournaments/classroom-roster.csv");
        assert_eq!(read_roster(&path).unwrap().len(), 3);
    }
}
