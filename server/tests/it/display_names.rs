//! The display name asked at sign-up is shown where people look, escaped: the account's own
//! page, its bot's page ("By NAME") and the leaderboard's owner column; the JSON gives it as
//! written.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::router::HOST;

use server::config::Contest;
use server::ladder::submissions::Submissions;
use server::web::{AppState, router};

const DISPLAY: &str = "<script>alert('owned')</script> & \"Co\"";
const ESCAPED: &str = "&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt; &amp; &quot;Co&quot;";

on_both!(a_display_name_is_shown_escaped_where_people_look, |t| {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "name = \"Names\"\ngame = \"classic\"\nlanguages = [\"python\"]\n\
         [storage]\ndata_dir = \"{}\"\n",
        dir.path().join("data").display()
    );
    let contest = Contest::parse(&text, Path::new("contest.toml"), dir.path()).unwrap();
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    let submissions = Submissions::of_contest(t.db.clone(), &contest).unwrap();
    let state = AppState::new(Arc::new(contest), t.db.clone(), submissions.clone());
    let app = router(state);

    let form = format!(
        "name=mallory&display_name={}&password=pass-word-1&confirm=pass-word-1",
        encode(DISPLAY)
    );
    let signed_up = common::router::send(
        &app,
        Request::post("/register")
            .header(header::HOST, HOST)
            .header(header::ORIGIN, "http://contest.test")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(form))
            .unwrap(),
    )
    .await;
    assert_eq!(
        signed_up.status,
        StatusCode::SEE_OTHER,
        "{}",
        signed_up.body
    );
    let cookie = signed_up.cookie().unwrap();
    // A ready bot, as the builder leaves one.
    let user = t.db.user_by_name("mallory").await.unwrap().unwrap();
    assert_eq!(user.display_name, DISPLAY, "stored as written");
    submissions
        .submit(&user, "hal", "python", "bot.py", b"print(1)\n".to_vec())
        .await
        .unwrap();
    sqlx::query("UPDATE bot_versions SET state = 'ready'")
        .execute(t.db.pool())
        .await
        .unwrap();

    for (uri, cookie, marker) in [
        ("/bots", Some(cookie.as_str()), "id=\"account\""),
        ("/leaderboard/hal", None, "id=\"owner\""),
        ("/leaderboard", None, "href=\"/leaderboard/hal\""),
    ] {
        let page = common::router::get(&app, uri, cookie).await;
        assert_eq!(page.status, StatusCode::OK, "{uri}");
        assert!(!page.body.contains("<script>"), "{uri}: {}", page.body);
        // The name, escaped, with the login name beside it, in the part of the page that
        // names the owner.
        let at = page
            .body
            .find(marker)
            .unwrap_or_else(|| panic!("{uri}: {marker}"));
        let shown = format!("{ESCAPED} <span class=\"muted login\">(mallory)</span>");
        let near = &page.body[at..(at + 600).min(page.body.len())];
        assert!(near.contains(&shown), "{uri}: {near}");
    }

    // The JSON, as written (a JSON reader is no HTML page).
    let board = common::router::get(&app, "/api/leaderboard", None).await;
    assert_eq!(
        board.json()["leaderboard"][0]["owner_display_name"],
        DISPLAY
    );
    assert_eq!(board.json()["leaderboard"][0]["owner"], "mallory");
    let bot = common::router::get(&app, "/api/leaderboard/hal", None).await;
    assert_eq!(bot.json()["owner_display_name"], DISPLAY);
});

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
