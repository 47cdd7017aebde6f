//! The server over HTTP (requests straight into the router): accounts, sessions, CSRF, rate
//! limits, uploads, and one participant unable to read another's code or logs.

use crate::common;

use common::router::{Answer, HOST};

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use std::time::Duration;

use server::accounts::ratelimit::RateLimiter;
use server::config::Contest;
use server::ladder::submissions::Submissions;
use server::web::{AppState, Shared, router};

const ORIGIN: &str = "http://contest.test";

struct App {
    router: Router,
    state: Shared,
    _dir: tempfile::TempDir,
}

async fn app_on(t: &common::TestDb, extra: &str) -> App {
    app_with(t, extra, None).await
}

/// `upload_burst`: replaces the in-memory upload limiter (tests that upload a lot).
async fn app_with(t: &common::TestDb, extra: &str, upload_burst: Option<u32>) -> App {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("roster.csv"),
        "name,display_name\nstu1,Student <One>\nstu2,\n",
    )
    .unwrap();
    let text = format!(
        "name = \"Test <ladder>\"\ngame = \"classic\"\nlanguages = [\"python\", \"c\"]\n\
         [storage]\ndata_dir = \"{}\"\n[uploads]\nmax_bytes = 4096\nmax_unpacked_bytes = 8192\n\
         max_files = 8\nbots_per_user = 2\n{extra}",
        dir.path().join("data").display()
    );
    let contest = Contest::parse(&text, Path::new("contest.toml"), dir.path()).unwrap();
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    let tokens = server::accounts::provision::provision(&t.db, &contest)
        .await
        .unwrap();
    if !tokens.is_empty() {
        server::accounts::provision::write_setup_tokens(&contest.data_dir, &tokens).unwrap();
    }
    let submissions = Submissions::of_contest(t.db.clone(), &contest).unwrap();
    let state = match upload_burst {
        None => AppState::new(Arc::new(contest), t.db.clone(), submissions),
        Some(burst) => AppState::with_limiters(
            Arc::new(contest),
            t.db.clone(),
            submissions,
            RateLimiter::new(10, Duration::from_secs(6)),
            RateLimiter::new(burst, Duration::from_secs(10)),
        ),
    };
    App {
        router: router(state.clone()),
        state,
        _dir: dir,
    }
}

impl App {
    async fn send(&self, request: Request<Body>) -> Answer {
        common::router::send(&self.router, request).await
    }

    async fn get(&self, uri: &str, cookie: Option<&str>) -> Answer {
        common::router::get(&self.router, uri, cookie).await
    }

    async fn api_get(&self, uri: &str, token: &str) -> Answer {
        let r = Request::get(uri)
            .header(header::HOST, HOST)
            .header(header::AUTHORIZATION, format!("Bearer {token}"));
        self.send(r.body(Body::empty()).unwrap()).await
    }

    async fn post_form(
        &self,
        uri: &str,
        form: &[(&str, &str)],
        cookie: Option<&str>,
        origin: Option<&str>,
    ) -> Answer {
        let body: String = form
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let mut r = Request::post(uri)
            .header(header::HOST, HOST)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(c) = cookie {
            r = r.header(header::COOKIE, c);
        }
        if let Some(o) = origin {
            r = r.header(header::ORIGIN, o);
        }
        self.send(r.body(Body::from(body)).unwrap()).await
    }

    async fn post_multipart(
        &self,
        uri: &str,
        fields: &[(&str, &str)],
        file: Option<(&str, &[u8])>,
        auth: Auth<'_>,
    ) -> Answer {
        let (content_type, body) = multipart(fields, file);
        let mut r = Request::post(uri)
            .header(header::HOST, HOST)
            .header(header::CONTENT_TYPE, content_type);
        match auth {
            Auth::Bearer(t) => r = r.header(header::AUTHORIZATION, format!("Bearer {t}")),
            Auth::Cookie(c) => r = r.header(header::COOKIE, c).header(header::ORIGIN, ORIGIN),
            Auth::None => {}
        }
        self.send(r.body(Body::from(body)).unwrap()).await
    }

    /// Signs up (open registration); returns the session cookie.
    async fn register(&self, name: &str) -> String {
        let a = self
            .post_form(
                "/register",
                &[
                    ("name", name),
                    ("display_name", ""),
                    ("password", "pass-word-1"),
                    ("confirm", "pass-word-1"),
                ],
                None,
                Some(ORIGIN),
            )
            .await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
        a.cookie().expect("a session cookie")
    }

    async fn api_token(&self, name: &str, password: &str) -> String {
        let body = serde_json::json!({ "name": name, "password": password, "label": "test" });
        let r = Request::post("/api/tokens")
            .header(header::HOST, HOST)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let a = self.send(r).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
        a.json()["token"].as_str().unwrap().to_string()
    }
}

enum Auth<'a> {
    Bearer(&'a str),
    Cookie(&'a str),
    None,
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn multipart(fields: &[(&str, &str)], file: Option<(&str, &[u8])>) -> (String, Vec<u8>) {
    let boundary = "XyZboundary1234";
    let mut body = Vec::new();
    for (k, v) in fields {
        write!(
            body,
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"
        )
        .unwrap();
    }
    if let Some((name, data)) = file {
        write!(
            body,
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .unwrap();
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    write!(body, "--{boundary}--\r\n").unwrap();
    (format!("multipart/form-data; boundary={boundary}"), body)
}

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in entries {
        w.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[tokio::test]
async fn sign_up_log_in_log_out_with_safe_cookies() {
    let t = common::TestDb::sqlite().await;
    let app = app_on(&t, "").await;
    assert_eq!(app.get("/register", None).await.status, StatusCode::OK);
    let a = app
        .post_form(
            "/register",
            &[
                ("name", "alice"),
                ("display_name", "Alice <A>"),
                ("password", "pass-word-1"),
                ("confirm", "pass-word-1"),
            ],
            None,
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    assert_eq!(a.location(), "/bots");
    let set = a.headers.get(header::SET_COOKIE).unwrap().to_str().unwrap();
    assert!(set.starts_with("arena_session="), "{set}");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(set.contains(attribute), "{set}");
    }
    assert!(!set.contains("Secure"), "not configured: {set}");
    let cookie = a.cookie().unwrap();
    // The database keeps only the digest of the session id.
    let id = cookie.split_once('=').unwrap().1;
    assert_eq!(id.len(), 64);
    let stored: Vec<(String,)> = sqlx::query_as("SELECT id_hash FROM sessions")
        .fetch_all(t.db.pool())
        .await
        .unwrap();
    assert_eq!(stored.len(), 1);
    assert_ne!(stored[0].0, id);
    assert_eq!(stored[0].0, server::storage::secret_digest(id));

    let page = app.get("/bots", Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("alice") && page.body.contains("Test &lt;ladder&gt;"));
    let csrf = page.csrf();

    // Taken name, bad name, short password, mismatch: refused with a message.
    for (name, pw, confirm, expect) in [
        ("alice", "pass-word-1", "pass-word-1", "taken"),
        ("Bad Name", "pass-word-1", "pass-word-1", "login name"),
        ("bob", "short", "short", "at least 8"),
        ("bob", "pass-word-1", "pass-word-2", "differ"),
    ] {
        let a = app
            .post_form(
                "/register",
                &[("name", name), ("password", pw), ("confirm", confirm)],
                None,
                Some(ORIGIN),
            )
            .await;
        assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY, "{name}");
        assert!(a.body.contains(expect), "{name}: {}", a.body);
    }

    // Log out needs the form token.
    let a = app
        .post_form(
            "/logout",
            &[("csrf", "0".repeat(64).as_str())],
            Some(&cookie),
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    assert_eq!(
        app.get("/bots", Some(&cookie)).await.status,
        StatusCode::OK,
        "still logged in"
    );
    let a = app
        .post_form("/logout", &[("csrf", &csrf)], Some(&cookie), Some(ORIGIN))
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    assert!(
        a.headers[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    let a = app.get("/bots", Some(&cookie)).await;
    assert_eq!(
        (a.status, a.location()),
        (StatusCode::SEE_OTHER, "/login"),
        "the session is gone"
    );

    // Log in again: wrong password, unknown name, then right.
    for (name, pw) in [("alice", "wrong-password"), ("nobody", "pass-word-1")] {
        let a = app
            .post_form(
                "/login",
                &[("name", name), ("password", pw)],
                None,
                Some(ORIGIN),
            )
            .await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED);
        assert!(a.body.contains("Wrong name or password"));
        assert!(a.cookie().is_none());
    }
    let a = app
        .post_form(
            "/login",
            &[("name", "alice"), ("password", "pass-word-1")],
            None,
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    assert_eq!(
        app.get("/bots", a.cookie().as_deref()).await.status,
        StatusCode::OK
    );
    t.cleanup().await;
}

#[tokio::test]
async fn secure_cookies_take_the_host_prefix() {
    let t = common::TestDb::sqlite().await;
    let app = app_on(&t, "[accounts]\nsecure_cookies = true\n").await;
    let a = app
        .post_form(
            "/register",
            &[
                ("name", "sam"),
                ("password", "pass-word-1"),
                ("confirm", "pass-word-1"),
            ],
            None,
            Some(ORIGIN),
        )
        .await;
    let set = a.headers[header::SET_COOKIE].to_str().unwrap();
    assert!(set.starts_with("__Host-arena_session="), "{set}");
    assert!(set.ends_with("; Secure"), "{set}");
    let cookie = a.cookie().unwrap();
    assert_eq!(app.get("/bots", Some(&cookie)).await.status, StatusCode::OK);
    // The plain name is not accepted in its place.
    let plain = cookie.replacen("__Host-", "", 1);
    assert_eq!(
        app.get("/bots", Some(&plain)).await.status,
        StatusCode::SEE_OTHER
    );
    t.cleanup().await;
}

#[tokio::test]
async fn cross_site_forms_are_refused() {
    let t = common::TestDb::sqlite().await;
    let app = app_on(&t, "").await;
    let cookie = app.register("alice").await;
    let csrf = app.get("/bots", Some(&cookie)).await.csrf();
    // Another site's page posting the login form, or a logged-in user's logout.
    let a = app
        .post_form(
            "/login",
            &[("name", "alice"), ("password", "pass-word-1")],
            None,
            Some("http://evil.test"),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let a = app
        .post_form(
            "/logout",
            &[("csrf", &csrf)],
            Some(&cookie),
            Some("http://evil.test"),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    // A token form with another session's token.
    let other = app.register("bob").await;
    let a = app
        .post_form(
            "/tokens",
            &[("csrf", &csrf), ("label", "x")],
            Some(&other),
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    // An upload through the page without the token.
    let a = app
        .post_multipart(
            "/bots/upload",
            &[("bot", "b1"), ("language", "python")],
            Some(("bot.py", b"x")),
            Auth::Cookie(&cookie),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.body);
    assert!(t.db.bot_by_name("b1").await.unwrap().is_none());
    // Security headers on every answer.
    let a = app.get("/", None).await;
    assert_eq!(a.headers["x-frame-options"], "DENY");
    assert_eq!(a.headers["x-content-type-options"], "nosniff");
    assert!(
        a.headers["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'")
    );
    t.cleanup().await;
}

on_both!(one_participant_cannot_read_anothers_code_or_logs, |t| {
    let app = app_on(t, "").await;
    app.register("alice").await;
    app.register("bob").await;
    let alice = app.api_token("alice", "pass-word-1").await;
    let bob = app.api_token("bob", "pass-word-1").await;

    let a = app
        .post_multipart(
            "/api/bots/Shark/versions",
            &[("language", "python")],
            Some(("bot.py", b"print('secret strategy')\n")),
            Auth::Bearer(&alice),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    let v = a.json();
    assert_eq!(v["number"], 1);
    assert_eq!(v["state"], "uploaded");
    assert_eq!(v["files"][0]["path"], "bot.py");
    // Logs, written by a (future) builder, are private too.
    sqlx::query("UPDATE bot_versions SET build_log = 'alice build secrets'")
        .execute(t.db.pool())
        .await
        .unwrap();

    let own = app.api_get("/api/bots/Shark/versions/1", &alice).await;
    assert_eq!(own.status, StatusCode::OK);
    assert_eq!(own.json()["build_log"], "alice build secrets");
    let file = app
        .api_get("/api/bots/Shark/versions/1/files/bot.py", &alice)
        .await;
    assert_eq!(
        (file.status, file.body.as_str()),
        (StatusCode::OK, "print('secret strategy')\n")
    );

    // Bob: 404, the same answer as for a bot that does not exist.
    let missing = app.api_get("/api/bots/NoSuchBot/versions/1", &bob).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    for uri in [
        "/api/bots/Shark/versions/1",
        "/api/bots/Shark/versions/1/files/bot.py",
        "/api/bots/Shark/versions/2",
    ] {
        let a = app.api_get(uri, &bob).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(a.body, missing.body, "{uri}");
        assert!(!a.body.contains("secret"));
    }
    let listed = app.api_get("/api/bots", &bob).await;
    assert_eq!(listed.json()["bots"], serde_json::json!([]));
    // Bob cannot add a version to Alice's bot.
    let a = app
        .post_multipart(
            "/api/bots/Shark/versions",
            &[("language", "python")],
            Some(("bot.py", b"x")),
            Auth::Bearer(&bob),
        )
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.body);
    // Nor through the pages, with his session.
    let bob_cookie = {
        let a = app
            .post_form(
                "/login",
                &[("name", "bob"), ("password", "pass-word-1")],
                None,
                Some(ORIGIN),
            )
            .await;
        a.cookie().unwrap()
    };
    for uri in [
        "/bots/Shark/versions/1",
        "/bots/Shark/versions/1/files/bot.py",
    ] {
        assert_eq!(
            app.get(uri, Some(&bob_cookie)).await.status,
            StatusCode::NOT_FOUND,
            "{uri}"
        );
    }
    // Paths that try to leave the version's directory find nothing.
    for uri in [
        "/api/bots/Shark/versions/1/files/..%2F..%2Fcontest.db",
        "/api/bots/Shark/versions/1/files/../1/bot.py",
    ] {
        let a = app.api_get(uri, &alice).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{uri}: {}", a.body);
    }
    // Without a token, or with a wrong one.
    let a = app
        .post_multipart(
            "/api/bots/Mine/versions",
            &[("language", "python")],
            Some(("bot.py", b"x")),
            Auth::None,
        )
        .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.get("/api/bots", None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.api_get("/api/bots", &"0".repeat(64)).await.status,
        StatusCode::UNAUTHORIZED
    );
    // A session cookie does not open the API.
    assert_eq!(
        app.get("/api/bots", Some(&bob_cookie)).await.status,
        StatusCode::UNAUTHORIZED
    );
});

on_both!(uploads_are_checked_and_versions_kept, |t| {
    let app = app_with(t, "", Some(100)).await;
    app.register("carol").await;
    let token = app.api_token("carol", "pass-word-1").await;
    let upload = |bot: &'static str, lang: &'static str, file: (&'static str, Vec<u8>)| {
        let app = &app;
        let token = token.clone();
        async move {
            app.post_multipart(
                &format!("/api/bots/{bot}/versions"),
                &[("language", lang)],
                Some((file.0, &file.1)),
                Auth::Bearer(&token),
            )
            .await
        }
    };
    // A zip, then a second version of the same bot.
    let z = zip_of(&[("src/main.c", b"int main(){}"), ("Makefile", b"all:")]);
    let a = upload("cbot", "c", ("cbot.zip", z)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    assert_eq!(a.json()["source_kind"], "zip");
    assert_eq!(a.json()["file_count"], 2);
    let a = upload("cbot", "c", ("main.c", b"int main(){return 0;}".to_vec())).await;
    assert_eq!(a.json()["number"], 2);
    let listed = app.api_get("/api/bots", &token).await.json();
    let numbers: Vec<i64> = listed["bots"][0]["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["number"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, vec![2, 1], "versions are kept");
    let f = app
        .api_get("/api/bots/cbot/versions/1/files/src/main.c", &token)
        .await;
    assert_eq!(f.body, "int main(){}");

    // Refusals, each with a reason.
    let evil = zip_of(&[("../../escape.py", b"x")]);
    /// bot, language, (file name, bytes), status, words in the error.
    type Case<'a> = (&'a str, &'a str, (&'a str, Vec<u8>), StatusCode, &'a str);
    let cases: Vec<Case> = vec![
        (
            "pbot",
            "python",
            ("evil.zip", evil),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unsafe path",
        ),
        (
            "pbot",
            "java",
            ("Bot.java", b"x".to_vec()),
            StatusCode::UNPROCESSABLE_ENTITY,
            "python, c",
        ),
        (
            "bad%21name",
            "python",
            ("b.py", b"x".to_vec()),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bot name",
        ),
        (
            "pbot",
            "python",
            ("b.py", vec![b'x'; 4097]),
            StatusCode::PAYLOAD_TOO_LARGE,
            "4096",
        ),
        (
            "pbot",
            "python",
            ("bomb.zip", zip_of(&[("z", &[0u8; 9000])])),
            StatusCode::UNPROCESSABLE_ENTITY,
            "8192",
        ),
    ];
    for (bot, lang, file, status, says) in cases {
        let name = file.0;
        let a = upload(bot, lang, file).await;
        assert_eq!(a.status, status, "{name}: {}", a.body);
        assert!(
            a.json()["error"].as_str().unwrap().contains(says),
            "{name}: {}",
            a.body
        );
    }
    assert!(!app.state.contest.data_dir.join("escape.py").exists());
    // A body far over the limit is cut at the HTTP layer.
    let a = upload("pbot", "python", ("huge.py", vec![b'x'; 200_000])).await;
    assert_eq!(a.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", a.body);
    // Refused uploads left no bot, no version, no files (not even partial ones).
    assert!(t.db.bot_by_name("pbot").await.unwrap().is_none());
    let uploads = std::fs::read_dir(app.state.contest.data_dir.join("uploads"))
        .unwrap()
        .count();
    assert_eq!(uploads, 2, "only cbot's two versions");
    // bots_per_user = 2.
    assert_eq!(
        upload("second", "python", ("b.py", b"x".to_vec()))
            .await
            .status,
        StatusCode::CREATED
    );
    let a = upload("third", "python", ("b.py", b"x".to_vec())).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.body);
});

#[tokio::test]
async fn the_upload_page_stores_a_version_and_shows_it_escaped() {
    let t = common::TestDb::sqlite().await;
    let app = app_on(&t, "").await;
    let cookie = app.register("dora").await;
    let csrf = app.get("/bots", Some(&cookie)).await.csrf();
    let a = app
        .post_multipart(
            "/bots/upload",
            &[("csrf", &csrf), ("bot", "Dbot"), ("language", "python")],
            Some(("<img src=x onerror=alert(1)>.py", b"print(1)")),
            Auth::Cookie(&cookie),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    assert_eq!(a.location(), "/bots/Dbot/versions/1");
    let page = app.get("/bots/Dbot/versions/1", Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("&lt;img src=x onerror=alert(1)&gt;.py"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("<img"));
    assert!(page.body.contains("state-uploaded"));
    // Waiting for its build, the page reloads itself; once built, it shows the logs, still.
    assert_eq!(page.headers.get(header::REFRESH).unwrap(), "3");
    let claim = app.state.db.claim_build(60_000).await.unwrap().unwrap();
    let outcome = server::ladder::versions::BuildOutcome {
        passed: true,
        build_log: "$ python3 -m py_compile <b>\nbuilt\n".into(),
        check_log: "7 passed, 0 failed\n".into(),
        artifact: None,
    };
    assert!(
        app.state
            .db
            .finish_build(claim.version.id, &claim.lease_token, &outcome)
            .await
            .unwrap()
    );
    let page = app.get("/bots/Dbot/versions/1", Some(&cookie)).await;
    assert!(page.headers.get(header::REFRESH).is_none());
    assert!(page.body.contains("py_compile &lt;b&gt;"), "{}", page.body);
    assert!(page.body.contains("7 passed, 0 failed"), "{}", page.body);
    assert!(page.body.contains("state-ready"), "{}", page.body);
    let list = app.get("/bots", Some(&cookie)).await;
    assert!(list.body.contains("/bots/Dbot/versions/1"));
    // A refused upload shows its reason on the page.
    let a = app
        .post_multipart(
            "/bots/upload",
            &[("csrf", &csrf), ("bot", "Dbot"), ("language", "cobol")],
            Some(("x.cob", b"x")),
            Auth::Cookie(&cookie),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(a.body.contains("Upload refused"), "{}", a.body);
    // API tokens from the page: shown once, then usable, then revoked.
    let a = app
        .post_form(
            "/tokens",
            &[("csrf", &csrf), ("label", "laptop")],
            Some(&cookie),
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK);
    let at = a.body.find("class=\"token\">").unwrap() + 14;
    let token = a.body[at..at + 64].to_string();
    assert_eq!(app.api_get("/api/me", &token).await.json()["name"], "dora");
    let id: (i64,) = sqlx::query_as("SELECT id FROM api_tokens")
        .fetch_one(t.db.pool())
        .await
        .unwrap();
    let a = app
        .post_form(
            &format!("/tokens/{}/revoke", id.0),
            &[("csrf", &csrf)],
            Some(&cookie),
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    assert_eq!(
        app.api_get("/api/me", &token).await.status,
        StatusCode::UNAUTHORIZED
    );
    t.cleanup().await;
}

#[tokio::test]
async fn roster_accounts_are_set_up_with_one_time_links() {
    let t = common::TestDb::sqlite().await;
    let app = app_on(
        &t,
        "[accounts]\nregistration = \"roster\"\nroster = \"roster.csv\"\nadmins = [\"teacher\"]\n",
    )
    .await;
    assert_eq!(
        app.get("/register", None).await.status,
        StatusCode::NOT_FOUND,
        "no sign-up"
    );
    let a = app
        .post_form(
            "/register",
            &[
                ("name", "x"),
                ("password", "pass-word-1"),
                ("confirm", "pass-word-1"),
            ],
            None,
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);

    let file = app.state.contest.data_dir.join("setup-tokens.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let links: Vec<(&str, &str)> = text.lines().map(|l| l.split_once(' ').unwrap()).collect();
    let names: Vec<&str> = links.iter().map(|l| l.0).collect();
    assert_eq!(names, vec!["teacher", "stu1", "stu2"]);
    let teacher = t.db.user_by_name("teacher").await.unwrap().unwrap();
    assert!(teacher.is_admin && !teacher.has_password);
    assert_eq!(
        t.db.user_by_name("stu1")
            .await
            .unwrap()
            .unwrap()
            .display_name,
        "Student <One>"
    );

    // Not set up yet: no login.
    let a = app
        .post_form(
            "/login",
            &[("name", "stu1"), ("password", "pass-word-1")],
            None,
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);

    let link = links[1].1;
    let page = app.get(link, None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Student &lt;One&gt;"));
    let token = link.trim_start_matches("/setup/");
    let a = app
        .post_form(
            "/setup",
            &[
                ("token", token),
                ("password", "pass-word-1"),
                ("confirm", "pass-word-1"),
            ],
            None,
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    assert!(a.cookie().is_some());
    // Once only.
    assert_eq!(app.get(link, None).await.status, StatusCode::NOT_FOUND);
    let a = app
        .post_form(
            "/setup",
            &[
                ("token", token),
                ("password", "other-pass-1"),
                ("confirm", "other-pass-1"),
            ],
            None,
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let a = app
        .post_form(
            "/login",
            &[("name", "stu1"), ("password", "pass-word-1")],
            None,
            Some(ORIGIN),
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);

    // A restart makes no new accounts or links, and keeps the admin flag.
    let again = server::accounts::provision::provision(&t.db, &app.state.contest)
        .await
        .unwrap();
    assert!(again.is_empty());
    t.cleanup().await;
}

#[tokio::test]
async fn uploads_are_rate_limited_in_memory_and_per_hour() {
    let t = common::TestDb::sqlite().await;
    let app = app_on(&t, "").await;
    app.register("erin").await;
    let token = app.api_token("erin", "pass-word-1").await;
    let mut statuses = Vec::new();
    for _ in 0..6 {
        let a = app
            .post_multipart(
                "/api/bots/e/versions",
                &[("language", "python")],
                Some(("b.py", b"x")),
                Auth::Bearer(&token),
            )
            .await;
        statuses.push(a.status);
        if a.status == StatusCode::TOO_MANY_REQUESTS {
            assert!(a.headers.contains_key(header::RETRY_AFTER));
        }
    }
    assert_eq!(statuses[..5], [StatusCode::CREATED; 5], "{statuses:?}");
    assert_eq!(statuses[5], StatusCode::TOO_MANY_REQUESTS);
    t.cleanup().await;

    // The hourly cap is counted in the database (it survives a restart).
    let t = common::TestDb::sqlite().await;
    let app = app_with(&t, "uploads_per_hour = 3\n", Some(100)).await;
    app.register("finn").await;
    let token = app.api_token("finn", "pass-word-1").await;
    for i in 0..4 {
        let a = app
            .post_multipart(
                "/api/bots/f/versions",
                &[("language", "python")],
                Some(("b.py", b"x")),
                Auth::Bearer(&token),
            )
            .await;
        if i < 3 {
            assert_eq!(a.status, StatusCode::CREATED);
        } else {
            assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
            assert!(a.body.contains("3 uploads per hour"), "{}", a.body);
        }
    }
    t.cleanup().await;
}

#[tokio::test]
async fn an_interrupted_upload_is_swept_at_start_and_versions_stay() {
    let t = common::TestDb::sqlite().await;
    let dir = tempfile::tempdir().unwrap();
    let uploads = dir.path().join("uploads");
    std::fs::create_dir_all(uploads.join("123.partial/src")).unwrap();
    std::fs::write(uploads.join("123.partial/src/half.py"), "pri").unwrap();
    std::fs::create_dir_all(uploads.join("456")).unwrap();
    std::fs::write(uploads.join("456/bot.py"), "print(1)").unwrap();
    let contest = Contest::parse("game = \"classic\"\n", Path::new("c.toml"), dir.path()).unwrap();
    Submissions::new(
        t.db.clone(),
        uploads.clone(),
        contest.uploads,
        contest.languages,
    )
    .unwrap();
    assert!(!uploads.join("123.partial").exists());
    assert!(uploads.join("456/bot.py").exists());
    t.cleanup().await;
}
