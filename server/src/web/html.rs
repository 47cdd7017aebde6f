//! Server-rendered HTML: one layout, and helpers. Every string from a user (names, file
//! names, logs) goes through [`esc`], the arena's escaper.

use axum::response::Html;

use crate::storage::User;

pub use arena::html::escape_html as esc;

/// Who is looking, for the header: the user and the session's form token (for the logout
/// button).
pub struct Viewer<'a> {
    pub user: &'a User,
    pub csrf: &'a str,
}

/// A whole page. `contest` may be empty (error pages made before the state is at hand).
pub fn page(contest: &str, title: &str, viewer: Option<Viewer<'_>>, body: &str) -> Html<String> {
    let nav = match viewer {
        Some(v) => format!(
            "<nav>{}<a href=\"/bots\">My bots</a> <span class=\"who\">{}</span> \
             <form method=\"post\" action=\"/logout\" class=\"inline\">{}\
             <button type=\"submit\">Log out</button></form></nav>",
            if v.user.is_admin {
                "<a href=\"/admin\">Organizer</a> "
            } else {
                ""
            },
            esc(&v.user.name),
            csrf_field(v.csrf)
        ),
        None => "<nav><a href=\"/login\">Log in</a></nav>".to_string(),
    };
    let heading = if contest.is_empty() {
        "Arena".to_string()
    } else {
        esc(contest)
    };
    Html(format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} · {heading}</title>\
         <link rel=\"stylesheet\" href=\"/assets/common.css\">\
         <link rel=\"stylesheet\" href=\"/assets/server.css\"></head>\
         <body><header class=\"site\"><h1><a href=\"/\">{heading}</a></h1>{nav}</header>\
         <main>{body}</main></body></html>\n",
        esc(title)
    ))
}

/// A person as the pages show them: the display name they chose, then their login name
/// when it differs (names are unique, display names need not be), both escaped.
pub fn person(login: &str, display: &str) -> String {
    if display.is_empty() || display == login {
        esc(login)
    } else {
        format!(
            "{} <span class=\"muted login\">({})</span>",
            esc(display),
            esc(login)
        )
    }
}

/// The hidden form field carrying the session's CSRF token.
pub fn csrf_field(token: &str) -> String {
    format!(
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\">",
        esc(token)
    )
}

/// A message box (an error above a form).
pub fn notice(message: &str) -> String {
    if message.is_empty() {
        String::new()
    } else {
        format!("<p class=\"notice\">{}</p>", esc(message))
    }
}

/// A size in bytes, in words: `512 bytes`, `64 KiB`, `1 MiB`, `1.5 MiB`.
pub fn bytes(n: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    let (value, unit) = if n >= MIB {
        (n as f64 / MIB as f64, "MiB")
    } else if n >= KIB {
        (n as f64 / KIB as f64, "KiB")
    } else {
        return format!("{n} bytes");
    };
    let text = format!("{value:.1}");
    format!("{} {unit}", text.strip_suffix(".0").unwrap_or(&text))
}

/// A time in milliseconds since the epoch as `YYYY-MM-DD HH:MM UTC`.
pub use crate::clock::utc_text as time;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(bytes(0), "0 bytes");
        assert_eq!(bytes(4096), "4 KiB");
        assert_eq!(bytes(1 << 20), "1 MiB");
        assert_eq!(bytes(3 << 19), "1.5 MiB");
    }

    #[test]
    fn times() {
        assert_eq!(time(0), "1970-01-01 00:00 UTC");
        assert_eq!(time(951_782_400_000), "2000-02-29 00:00 UTC");
        assert_eq!(time(1_796_120_700_000), "2026-12-01 10:25 UTC");
    }

    #[test]
    fn pages_escape_what_users_wrote() {
        let user = User {
            id: 1,
            name: "<b>".into(),
            display_name: String::new(),
            is_admin: false,
            has_password: true,
        };
        let Html(text) = page(
            "a<script>",
            "t\"",
            Some(Viewer {
                user: &user,
                csrf: "\"x",
            }),
            "",
        );
        assert!(
            !text.contains("<script>") && !text.contains("<b>"),
            "{text}"
        );
        assert!(text.contains("a&lt;script&gt;") && text.contains("value=\"&quot;x\""));
    }
}
