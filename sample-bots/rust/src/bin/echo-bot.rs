//! Not a player: writes every input line back to stdout at once, flushed. The arena's
//! benchmarks (`cargo bench -p arena --bench round_trip`) time a line's round trip through
//! it as the floor any bot protocol over pipes pays, to compare the arena's decisions with.
//!
//! Build: `cargo build --release -p sample-bots --bin echo-bot`

use std::io::{self, BufRead, Write};

fn main() {
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut line = Vec::with_capacity(4096);
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            // Rust's stdout is line-buffered: a whole line goes out in one write.
            Ok(_) => {
                if output
                    .write_all(&line)
                    .and_then(|_| output.flush())
                    .is_err()
                {
                    break;
                }
            }
        }
    }
}
