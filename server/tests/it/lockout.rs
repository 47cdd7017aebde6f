//! The login lockout over HTTP (requests straight into the router, each from the address a
//! test gives it, as the listener hands the socket's address to the handlers): guessers from
//! many addresses cannot lock the owner's known device out, one address guessing is slowed
//! down with `Retry-After`, and an owner on a device the server does not know waits with the
//! strangers (the documented price).

use crate::common;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use common::router::{Answer, HOST};

use server::config::Contest;
use server::ladder::submissions::Submissions;
use server::web::{AppState, router};

const ORIGIN: &str = "http://contest.test";
const PASSWORD: &str = "pass-word-1";

struct App {
    router: Router,
    _dir: tempfile::TempDir,
}

async fn app(t: &common::TestDb) -> App {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "name = \"Lockout\"\ngame = \"classic\"\n[storage]\ndata_dir = \"{}\"\n",
        dir.path().join("data").display()
    );
    let contest = Contest::parse(&text, Path::new("contest.toml"), dir.path()).unwrap();
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    let submissions = Submissions::of_contest(t.db.clone(), &contest).unwrap();
    let state = AppState::new(Arc::new(contest), t.db.clone(), submissions);
    App {
        router: router(state),
        _dir: dir,
    }
}

fn addr(i: u32) -> SocketAddr {
    SocketAddr::from(([198, 51, (i >> 8) as u8, i as u8], 40_000))
}

fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// The value (`name=value`) of the cookie an answer sets under a name ending in `suffix`.
fn set_cookie(a: &Answer, suffix: &str) -> Option<String> {
    a.headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .find(|pair| pair.split('=').next().is_some_and(|n| n.ends_with(suffix)))
        .map(str::to_string)
}

impl App {
    async fn send(&self, from: SocketAddr, mut request: Request<Body>) -> Answer {
        // What the listener does with the socket's address.
        request.extensions_mut().insert(ConnectInfo(from));
        common::router::send(&self.router, request).await
    }

    async fn post_form(
        &self,
        from: SocketAddr,
        uri: &str,
        pairs: &[(&str, &str)],
        cookie: Option<&str>,
    ) -> Answer {
        let mut r = Request::post(uri)
            .header(header::HOST, HOST)
            .header(header::ORIGIN, ORIGIN)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(c) = cookie {
            r = r.header(header::COOKIE, c);
        }
        self.send(from, r.body(Body::from(form(pairs))).unwrap())
            .await
    }

    async fn login(
        &self,
        from: SocketAddr,
        name: &str,
        password: &str,
        device: Option<&str>,
    ) -> Answer {
        self.post_form(
            from,
            "/login",
            &[("name", name), ("password", password)],
            device,
        )
        .await
    }

    async fn token_request(
        &self,
        from: SocketAddr,
        name: &str,
        password: &str,
        bearer: Option<&str>,
    ) -> Answer {
        let body = serde_json::json!({ "name": name, "password": password, "label": "t" });
        let mut r = Request::post("/api/tokens")
            .header(header::HOST, HOST)
            .header(header::CONTENT_TYPE, "application/json");
        if let Some(t) = bearer {
            r = r.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        self.send(from, r.body(Body::from(body.to_string())).unwrap())
            .await
    }

    /// Signs `name` up from `from`; the known-device cookie it gets.
    async fn register(&self, from: SocketAddr, name: &str) -> String {
        let a = self
            .post_form(
                from,
                "/register",
                &[
                    ("name", name),
                    ("display_name", ""),
                    ("password", PASSWORD),
                    ("confirm", PASSWORD),
                ],
                None,
            )
            .await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
        set_cookie(&a, "arena_device").expect("a known-device cookie")
    }

    /// Twenty wrong passwords for `name`, each from an address of its own (none the owner's).
    async fn attack_from_twenty_addresses(&self, name: &str) {
        for i in 0..20 {
            let a = self.login(addr(1000 + i), name, "wrong-guess", None).await;
            assert!(
                [StatusCode::UNAUTHORIZED, StatusCode::TOO_MANY_REQUESTS].contains(&a.status),
                "{}: {}",
                a.status,
                a.body
            );
        }
    }
}

fn retry_after(a: &Answer) -> u64 {
    a.headers
        .get(header::RETRY_AFTER)
        .expect("a Retry-After header")
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

on_both!(
    guessers_from_twenty_addresses_do_not_lock_out_a_known_device,
    |t| {
        let app = app(t).await;
        let owner_at = addr(1);
        let device = app.register(owner_at, "alice").await;
        app.attack_from_twenty_addresses("alice").await;

        // The owner's browser, known from signing up, logs in with the right password.
        let a = app.login(owner_at, "alice", PASSWORD, Some(&device)).await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
        assert_eq!(a.location(), "/bots");
        let fresh = set_cookie(&a, "arena_device").expect("a fresh device cookie");
        // Also from another address (a phone moving to another network), with the new
        // cookie.
        let a = app.login(addr(2), "alice", PASSWORD, Some(&fresh)).await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);

        // The documented price: a device the server does not know waits out the lockout,
        // right password or not, and is told how long.
        let a = app.login(addr(3), "alice", PASSWORD, None).await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
        assert!(retry_after(&a) >= 1);
        // Another account's device cookie, or a forged one, is a stranger's too.
        let bob = app.register(addr(4), "bob").await;
        let a = app.login(addr(4), "alice", PASSWORD, Some(&bob)).await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
        let forged = format!("{}0", device.trim_end_matches(|c: char| c != '.'));
        let a = app.login(addr(3), "alice", PASSWORD, Some(&forged)).await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);

        // Scripts: a token request carrying one of the account's API tokens passes too.
        let a = app.token_request(addr(5), "alice", PASSWORD, None).await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
        let a = app
            .post_form(
                owner_at,
                "/login",
                &[("name", "alice"), ("password", PASSWORD)],
                Some(&fresh),
            )
            .await;
        let session = a.cookie().unwrap();
        let page = common::router::get(&app.router, "/bots", Some(&session)).await;
        let created = app
            .post_form(
                owner_at,
                "/tokens",
                &[("csrf", &page.csrf()), ("label", "script")],
                Some(&format!("{session}; {fresh}")),
            )
            .await;
        let token = created
            .body
            .split("<code class=\"token\">")
            .nth(1)
            .and_then(|rest| rest.split("</code>").next())
            .unwrap_or_else(|| panic!("a token on the page: {}", created.body))
            .to_string();
        let a = app
            .token_request(addr(5), "alice", PASSWORD, Some(&token))
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
        // Bob's token does not open Alice's lockout.
        let a = app.token_request(addr(6), "bob", PASSWORD, None).await;
        let bobs = a.json()["token"].as_str().unwrap().to_string();
        let a = app
            .token_request(addr(6), "alice", PASSWORD, Some(&bobs))
            .await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
    }
);

#[tokio::test]
async fn a_brute_force_from_one_address_is_slowed_down_with_retry_after() {
    let t = common::TestDb::sqlite().await;
    let app = app(&t).await;
    let device = app.register(addr(1), "carol").await;
    let guesser = addr(66);
    let mut statuses = Vec::new();
    for _ in 0..8 {
        let a = app.login(guesser, "carol", "wrong-guess", None).await;
        if a.status == StatusCode::TOO_MANY_REQUESTS {
            assert!(retry_after(&a) >= 1, "{:?}", a.headers);
            assert!(a.body.contains("try again in"), "{}", a.body);
        }
        statuses.push(a.status);
    }
    // Five wrong passwords, then it waits (the tries are refused without being checked).
    assert!(
        statuses[..5].iter().all(|s| *s == StatusCode::UNAUTHORIZED),
        "{statuses:?}"
    );
    assert!(
        statuses[5..]
            .iter()
            .all(|s| *s == StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
    // Guessing other accounts from there waits too.
    let a = app.login(guesser, "dave", "wrong-guess", None).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    // Everyone else is untouched: a stranger's login and the owner's device.
    let a = app.login(addr(2), "carol", PASSWORD, None).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    let a = app.login(addr(1), "carol", PASSWORD, Some(&device)).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    t.cleanup().await;
}

#[tokio::test]
async fn a_known_device_guessing_is_slowed_on_its_own() {
    let t = common::TestDb::sqlite().await;
    let app = app(&t).await;
    let device = app.register(addr(1), "erin").await;
    // Someone with the device (a stolen cookie) guesses, from many addresses.
    let mut statuses = Vec::new();
    for i in 0..7 {
        let a = app
            .login(addr(200 + i), "erin", "wrong-guess", Some(&device))
            .await;
        statuses.push(a.status);
    }
    assert_eq!(statuses[..5], [StatusCode::UNAUTHORIZED; 5], "{statuses:?}");
    assert_eq!(
        statuses[5..],
        [StatusCode::TOO_MANY_REQUESTS; 2],
        "{statuses:?}"
    );
    // The owner elsewhere is not locked out by it.
    let a = app.login(addr(2), "erin", PASSWORD, None).await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    t.cleanup().await;
}
