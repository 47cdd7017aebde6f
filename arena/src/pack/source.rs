//! Reading source files just well enough to follow what a bot uses: comments blanked (a
//! class named in a comment is not a use), string literals kept or blanked as the caller
//! needs (an include or a require names its file in a string; a Java string does not name
//! a class).

use std::path::Path;

use super::PackError;

/// A source file's text (invalid UTF-8 replaced: it is only scanned).
pub fn read(path: &Path) -> Result<String, PackError> {
    let bytes = std::fs::read(path).map_err(|source| PackError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `text` with its `//` and `/* */` comments replaced by spaces (newlines kept, so lines
/// stay lines); with `blank_strings`, the insides of string literals too. `quotes` are the
/// characters that open a literal (`'` is not one in Rust, where it also starts a lifetime).
pub fn code(text: &str, quotes: &[char], blank_strings: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            for c in chars.by_ref() {
                if c == '\n' {
                    out.push('\n');
                    break;
                }
            }
        } else if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut last = ' ';
            for c in chars.by_ref() {
                if last == '*' && c == '/' {
                    break;
                }
                out.push(if c == '\n' { '\n' } else { ' ' });
                last = c;
            }
            out.push(' ');
        } else if quotes.contains(&c) {
            out.push(c);
            while let Some(s) = chars.next() {
                if s == c {
                    out.push(c);
                    break;
                }
                if s == '\\' {
                    let escaped = chars.next();
                    if !blank_strings {
                        out.push(s);
                        out.extend(escaped);
                    }
                    continue;
                }
                if s == '\n' {
                    out.push('\n'); // an unterminated literal ends with its line
                    break;
                }
                out.push(if blank_strings { ' ' } else { s });
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The identifiers (ASCII letters, digits, `_`) of `code`, in order.
pub fn identifiers(code: &str) -> impl Iterator<Item = &str> {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_go_strings_stay_or_go() {
        let text = "a // Bot\nb /* Json\n */ c \"Str // x\" 'q' d";
        let words = |s: String| {
            (
                s.lines().count(),
                s.split_whitespace().collect::<Vec<_>>().join(" "),
            )
        };
        assert_eq!(
            words(code(text, &['"', '\''], false)),
            (3, "a b c \"Str // x\" 'q' d".to_string())
        );
        assert_eq!(
            words(code(text, &['"', '\''], true)),
            (3, "a b c \" \" ' ' d".to_string())
        );
        let ids: Vec<&str> = identifiers("x1 = Foo.bar(2x, _y)").collect();
        assert_eq!(ids, ["x1", "Foo", "bar", "_y"]);
    }
}
