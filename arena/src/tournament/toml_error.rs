//! Tournament-file errors from the TOML reader, said in the file's terms: which field, and
//! what kind of value it wants (`expected an integer, found string "ten"`), rather than
//! serde's Rust types (`invalid type: string "ten", expected u64`).

use std::ops::Range;

/// The span, the dotted path of the field (`time.startup_ms`) when the reader knows it, and
/// the message of a TOML reading error.
pub(super) fn describe(mut e: toml::de::Error) -> (Option<Range<usize>>, Option<String>, String) {
    let span = e.span();
    let message = e.message().trim().to_string();
    // The reader keeps the path of keys it was in, and shows it (only) in its plain Display,
    // the one without the source excerpt: `<message>\nin `time.startup_ms``.
    e.set_input(None);
    let shown = e.to_string();
    let field = shown
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("in `")?.strip_suffix('`'))
        .map(str::to_string)
        .or_else(|| quoted_after(&message, "missing field `"));
    let message = match &field {
        Some(name) if message == format!("missing field `{name}`") => "is missing".to_string(),
        _ => readable(&message),
    };
    (span, field, message)
}

/// `invalid type: X, expected Y` and `invalid value: X, expected Y` in words of TOML.
fn readable(message: &str) -> String {
    for (prefix, is_type) in [("invalid type: ", true), ("invalid value: ", false)] {
        if let Some(rest) = message.strip_prefix(prefix)
            && let Some((found, expected)) = rest.rsplit_once(", expected ")
        {
            return format!("expected {}, found {found}", kind(expected, is_type));
        }
    }
    message.to_string()
}

/// A serde "expected" as a TOML user knows it.
fn kind(expected: &str, is_type: bool) -> String {
    let range = |max: u64| {
        if is_type {
            "an integer".to_string()
        } else {
            format!("an integer from 0 to {max}")
        }
    };
    match expected {
        "u64" | "usize" => range(u64::MAX),
        "u32" => range(u32::MAX.into()),
        "u16" => range(u16::MAX.into()),
        "u8" => range(u8::MAX.into()),
        "i64" | "i32" => "an integer".into(),
        "f64" | "f32" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a sequence" => "an array".into(),
        "a map" => "a table".into(),
        other if other.starts_with("struct ") => "a table".into(),
        other => other.to_string(),
    }
}

fn quoted_after(text: &str, prefix: &str) -> Option<String> {
    let rest = &text[text.find(prefix)? + prefix.len()..];
    Some(rest[..rest.find('`')?].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_types_become_toml_words() {
        assert_eq!(
            readable(r#"invalid type: string "ten", expected u64"#),
            r#"expected an integer, found string "ten""#
        );
        assert_eq!(
            readable("invalid value: integer `-1`, expected u32"),
            "expected an integer from 0 to 4294967295, found integer `-1`"
        );
        assert_eq!(
            readable("invalid type: integer `1`, expected a boolean"),
            "expected true or false, found integer `1`"
        );
        assert_eq!(readable("missing field `game`"), "missing field `game`");
    }
}
