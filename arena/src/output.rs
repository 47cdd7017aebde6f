//! Writing to stdout without panicking on a closed pipe (`arena ... | head`).

use std::io::{self, Write};

/// Writes `text` to stdout; a broken pipe comes back as an error that `main` exits quietly on.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}
