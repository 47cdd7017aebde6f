//! Server-rendered HTML. The pages are askama templates in `server/templates/`, checked at
//! compile time against the typed structs the handlers fill: `base.html` is the layout
//! ([`Layout`]), each page extends it, and `macros.html` and `partials/` hold what several
//! share. Every value a template writes is escaped ([`Entities`]); the only `|safe` in the
//! templates inserts a [`Fragment`], HTML an askama template rendered (and escaped) before.

use std::fmt;

use askama::Template;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use super::auth::Session;
use crate::storage::User;

/// Who is looking, for the header: the user and the session's form token (for the logout
/// button).
pub struct Viewer<'a> {
    pub user: &'a User,
    pub csrf: &'a str,
}

impl<'a> Viewer<'a> {
    pub fn of(session: &'a Session) -> Viewer<'a> {
        Viewer {
            user: session.user(),
            csrf: &session.record.csrf_token,
        }
    }
}

/// What `base.html` shows around a page: the contest's name (empty for error pages made
/// before the state is at hand), the page's title and who is looking.
pub struct Layout<'a> {
    pub contest: &'a str,
    pub title: String,
    pub viewer: Option<Viewer<'a>>,
}

impl<'a> Layout<'a> {
    pub fn new(contest: &'a str, title: impl Into<String>, viewer: Option<Viewer<'a>>) -> Self {
        Layout {
            contest,
            title: title.into(),
            viewer,
        }
    }

    /// The site's heading: the contest's name, or "Arena" without one.
    pub fn heading(&self) -> &str {
        if self.contest.is_empty() {
            "Arena"
        } else {
            self.contest
        }
    }
}

/// A rendered page as a response; a template that fails to render (only a `Display` error
/// could make it) is logged and answered as a plain internal error.
pub fn page(template: &impl Template) -> Response {
    match template.render() {
        Ok(text) => Html(text).into_response(),
        Err(e) => {
            tracing::error!("internal error: a page's template: {e}");
            (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
        }
    }
}

/// HTML rendered by an askama template (every value in it escaped there), kept to be put in
/// a page later: the leaderboard's table and a bot page's panel, made once for all their
/// readers. Only [`Fragment::render`] makes one, so a template may insert it with `|safe`.
#[derive(Debug, Default)]
pub struct Fragment(String);

impl Fragment {
    pub fn render(template: &impl Template) -> askama::Result<Fragment> {
        template.render().map(Fragment)
    }
}

impl std::ops::Deref for Fragment {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Fragment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The templates' escaper (`server/askama.toml`): the arena's entities, so that the pages
/// escape exactly as the arena's own pages do.
#[derive(Clone, Copy, Debug)]
pub struct Entities;

impl askama::filters::Escaper for Entities {
    fn write_escaped_str<W: fmt::Write>(&self, mut dest: W, text: &str) -> fmt::Result {
        if text.contains(['&', '<', '>', '"', '\'']) {
            dest.write_str(&arena::html::escape_html(text))
        } else {
            dest.write_str(text)
        }
    }
}

/// A person as the pages show them (the macro `person`): the display name they chose, then
/// their login name when it differs (names are unique, display names need not be).
pub struct Person<'a> {
    pub shown: &'a str,
    pub login: Option<&'a str>,
}

pub fn person<'a>(login: &'a str, display: &'a str) -> Person<'a> {
    if display.is_empty() || display == login {
        Person {
            shown: login,
            login: None,
        }
    } else {
        Person {
            shown: display,
            login: Some(login),
        }
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

    #[derive(Template)]
    #[template(path = "error.html")]
    struct Probe<'a> {
        layout: Layout<'a>,
        message: &'a str,
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
        let text = Probe {
            layout: Layout::new(
                "a<script>",
                "t\"",
                Some(Viewer {
                    user: &user,
                    csrf: "\"x",
                }),
            ),
            message: "<i>'",
        }
        .render()
        .unwrap();
        assert!(
            !text.contains("<script>") && !text.contains("<b>") && !text.contains("<i>"),
            "{text}"
        );
        assert!(text.contains("a&lt;script&gt;") && text.contains("value=\"&quot;x\""));
        assert!(
            text.contains("<title>t&quot; · a&lt;script&gt;</title>"),
            "{text}"
        );
        assert!(text.contains("&lt;i&gt;&#39;"), "{text}");
    }
}
