//! Filling the page templates of `arena/assets/`: placeholders, HTML escaping, and JSON that is
//! safe inside a `<script>` element.

use serde::Serialize;

/// A template and the values given for it disagree: a bug in the template or its caller.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    #[error("template placeholder {{{{{0}}}}} has no value")]
    NoValue(String),
    #[error("template has no placeholder {{{{{0}}}}}")]
    NoPlaceholder(String),
}

/// Fills `{{NAME}}` placeholders of `template` with the given values.
///
/// Only the template is scanned: a value is inserted as it is, so a value that happens to
/// contain `{{...}}` is never expanded. A placeholder without a value is an error (a bug in a
/// template or its caller), as is a value whose placeholder is missing.
pub fn fill(template: &str, values: &[(&str, &str)]) -> Result<String, TemplateError> {
    let extra: usize = values.iter().map(|(_, v)| v.len()).sum();
    let mut out = String::with_capacity(template.len() + extra);
    let mut used = vec![false; values.len()];
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        let name = &rest[start + 2..start + 2 + len];
        let Some(index) = values.iter().position(|(key, _)| *key == name) else {
            return Err(TemplateError::NoValue(name.to_string()));
        };
        used[index] = true;
        out.push_str(&rest[..start]);
        out.push_str(values[index].1);
        rest = &rest[start + 2 + len + 2..];
    }
    out.push_str(rest);
    if let Some(unused) = used.iter().position(|u| !u) {
        return Err(TemplateError::NoPlaceholder(values[unused].0.to_string()));
    }
    Ok(out)
}

/// Escapes text for HTML element content and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// `value` as JSON that can stand inside `<script type="application/json">`: every `<`, `>`
/// and `&` is written as a `\u` escape, so no `</script>` or `<!--` can end or confuse the
/// element, whatever the strings hold (bot names, fault details, lines a bot sent). The text
/// is still JSON and parses to the same value. U+2028 and U+2029 are escaped as well.
pub fn json_for_script<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let json = serde_json::to_string(value)?;
    Ok(escape_json_for_script(&json))
}

/// See [`json_for_script`]. These characters only ever occur inside JSON strings, where the
/// `\u` escape means the same character.
pub fn escape_json_for_script(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + json.len() / 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(c),
        }
    }
    out
}

/// Percent-encodes one path segment of a relative link (everything but unreserved
/// characters), so that any file name makes a working `href`.
pub fn encode_path_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_each_placeholder_and_never_expands_values() {
        let page = fill(
            "<title>{{TITLE}}</title><p>{{BODY}}</p>{{TITLE}}",
            &[("TITLE", "a {{BODY}} b"), ("BODY", "x")],
        )
        .unwrap();
        assert_eq!(page, "<title>a {{BODY}} b</title><p>x</p>a {{BODY}} b");
    }

    #[test]
    fn fill_reports_missing_and_unused_values() {
        let missing = fill("{{A}}", &[]).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "template placeholder {{A}} has no value"
        );
        let unused = fill("no placeholder", &[("A", "x")]).unwrap_err();
        assert_eq!(unused.to_string(), "template has no placeholder {{A}}");
        // A lone "{{" without its end is plain text.
        assert_eq!(fill("a {{ b", &[]).unwrap(), "a {{ b");
    }

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape_html(r#"<b a="1">'&'</b>"#),
            "&lt;b a=&quot;1&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;"
        );
    }

    #[test]
    fn json_for_a_script_element_cannot_close_it_and_still_parses() {
        let value =
            serde_json::json!({"name": "</script><script>alert(1)</script> <!-- & \u{2028}"});
        let json = json_for_script(&value).unwrap();
        assert!(!json.contains('<'), "{json}");
        assert!(!json.contains('>'), "{json}");
        assert!(!json.contains('&'), "{json}");
        assert!(!json.contains('\u{2028}'), "{json}");
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn path_segments_are_percent_encoded() {
        assert_eq!(
            encode_path_segment("match-000001.html"),
            "match-000001.html"
        );
        assert_eq!(encode_path_segment("my report#1"), "my%20report%231");
        assert_eq!(encode_path_segment("é"), "%C3%A9");
    }
}
