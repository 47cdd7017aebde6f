//! Quoting a user's text in a message: as JSON (and TOML's basic strings) write it, never as
//! Rust's `Debug` does (`"\u{1b}"` is Rust; `"\u001b"` is what a user can paste back).

/// `text` in double quotes, escaped as JSON escapes it.
pub fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("\"{text}\""))
}

#[cfg(test)]
mod tests {
    #[test]
    fn quotes_as_json_does() {
        assert_eq!(super::quoted("rr"), "\"rr\"");
        assert_eq!(super::quoted("a\"b\u{1b}"), "\"a\\\"b\\u001b\"");
    }
}
