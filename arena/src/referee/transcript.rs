//! A transcript of everything said with one bot: `>> ` before each line the arena wrote, `<< `
//! before each line the bot wrote. For bot authors debugging their bot, and for checking
//! recorded exchanges against the protocol's JSON Schemas.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

#[derive(Debug)]
pub struct Transcript {
    out: BufWriter<File>,
}

impl Transcript {
    pub fn create(path: &Path) -> io::Result<Transcript> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        Ok(Transcript {
            out: BufWriter::new(File::create(path)?),
        })
    }

    /// Lines the arena wrote (`block` holds whole lines, each ending in a newline).
    pub fn sent(&mut self, block: &str) {
        for line in block.lines() {
            let _ = writeln!(self.out, ">> {line}");
        }
    }

    /// A line the bot wrote.
    pub fn received(&mut self, line: &str) {
        let _ = writeln!(self.out, "<< {line}");
    }

    pub fn flush(&mut self) {
        let _ = self.out.flush();
    }
}
