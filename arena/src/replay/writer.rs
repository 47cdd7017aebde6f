//! Writes a replay as the match goes: one line per record, buffered, flushed at the end of
//! every hand so that a killed run keeps what it played.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use super::record::Record;

pub struct ReplayWriter {
    out: Option<BufWriter<File>>,
}

impl ReplayWriter {
    /// A writer to `path`, or one that discards everything.
    pub fn create(path: Option<&Path>) -> io::Result<ReplayWriter> {
        let out = match path {
            Some(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)?;
                }
                Some(BufWriter::new(File::create(path)?))
            }
            None => None,
        };
        Ok(ReplayWriter { out })
    }

    pub fn is_enabled(&self) -> bool {
        self.out.is_some()
    }

    pub fn write(&mut self, record: &Record) -> io::Result<()> {
        if let Some(out) = &mut self.out {
            serde_json::to_writer(&mut *out, record)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        if let Some(out) = &mut self.out {
            out.flush()?;
        }
        Ok(())
    }
}
