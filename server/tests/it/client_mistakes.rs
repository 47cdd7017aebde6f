//! Every client mistake is a 4xx with a message, never a 5xx: every route of the site (read
//! from `src/web.rs` itself, so that a new route is covered the day it is added) gets bad
//! ids, bad query strings, bad cookies and tokens, wrong methods, and truncated, malformed
//! and oversized bodies (forms, JSON, multipart), as nobody, as a participant and as an
//! organizer, over a real socket through the server's own connection handling; so do a few
//! requests hyper itself refuses.

use crate::common;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use server::accounts::ratelimit::RateLimiter;
use server::config::Contest;
use server::ladder::submissions::Submissions;
use server::listen::{self, Limits};
use server::web::{AppState, router};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;

const HOST: &str = "contest.test";
const ORIGIN: &str = "http://contest.test";
const BOUNDARY: &str = "b0undary";

/// One answer as the client read it.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn cookie(&self) -> String {
        let line = self
            .head
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
            .unwrap_or_else(|| panic!("no cookie in {}", self.head));
        line[11..].trim().split(';').next().unwrap().to_string()
    }

    fn csrf(&self) -> String {
        let at = self
            .body
            .find("name=\"csrf\" value=\"")
            .expect("a csrf field")
            + 19;
        self.body[at..at + 64].to_string()
    }

    /// Answered by the site's router (its security headers), not by hyper's parser.
    fn answered_by_router(&self) -> bool {
        self.head
            .to_ascii_lowercase()
            .contains("x-content-type-options: nosniff")
    }
}

/// A request as bytes on the wire.
struct Raw {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// `Content-Length` to announce (default: the body's length).
    announce: Option<usize>,
    /// Close our side after sending (the body ends where it was cut).
    cut: bool,
}

impl Raw {
    fn new(method: &str, path: &str) -> Raw {
        Raw {
            method: method.to_string(),
            path: path.to_string(),
            headers: Vec::new(),
            body: Vec::new(),
            announce: None,
            cut: false,
        }
    }

    fn header(mut self, name: &str, value: &str) -> Raw {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    fn body(mut self, content_type: Option<&str>, body: &[u8]) -> Raw {
        if let Some(t) = content_type {
            self = self.header("Content-Type", t);
        }
        self.body = body.to_vec();
        self
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{} {} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.method,
            self.path,
            self.announce.unwrap_or(self.body.len())
        )
        .into_bytes();
        for (k, v) in &self.headers {
            out.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.body);
        out
    }
}

/// Sends `bytes`, (half-)closes if asked, and reads the whole answer.
async fn exchange(at: SocketAddr, bytes: &[u8], cut: bool) -> Answer {
    let mut stream = TcpStream::connect(at).await.unwrap();
    // The server may answer (413) and close before reading all of a large body.
    let _ = stream.write_all(bytes).await;
    if cut {
        let _ = stream.shutdown().await;
    }
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), async {
        let mut buf = [0u8; 16384];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "no end of answer within 30 s");
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    Answer {
        status: head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0),
        head: head.to_string(),
        body: body.to_string(),
    }
}

async fn send(at: SocketAddr, raw: &Raw) -> Answer {
    exchange(at, &raw.bytes(), raw.cut).await
}

/// A route of the router: its path pattern and methods.
#[derive(Debug)]
struct Route {
    path: String,
    methods: Vec<&'static str>,
}

/// The routes of `src/web.rs`, from its `.route("PATH", get(...).post(...))` calls.
fn routes() -> Vec<Route> {
    let source = include_str!("../../src/web.rs");
    let mut routes = Vec::new();
    for chunk in source.split(".route(").skip(1) {
        let path = chunk.split('"').nth(1).expect("a route's path");
        // Its handlers: up to the next route or the end of the statement.
        let rest = &chunk[chunk.find(path).unwrap() + path.len()..];
        let rest = &rest[..rest.find(';').unwrap_or(rest.len())];
        let mut methods = Vec::new();
        for (word, method) in [("get(", "GET"), ("post(", "POST")] {
            if rest
                .match_indices(word)
                .any(|(i, _)| i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric())
            {
                methods.push(method);
            }
        }
        assert!(!methods.is_empty(), "no method found for {path}: {rest}");
        routes.push(Route {
            path: path.to_string(),
            methods,
        });
    }
    routes
}

/// `pattern` with every `{param}` and `{*param}` replaced by `value(param)`.
fn fill(pattern: &str, value: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').unwrap() + open;
        out.push_str(&value(rest[open + 1..close].trim_start_matches('*')));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A value that names something that exists, per parameter.
fn existing(param: &str) -> String {
    match param {
        "bot" | "name" => "mybot".into(),
        "number" | "id" => "1".into(),
        "index" => "0".into(),
        "path" => "bot.py".into(),
        "token" => "0".repeat(64),
        other => panic!("a new route parameter {other:?}: give it a value here"),
    }
}

/// Path segments a client may send in place of any parameter (as on the wire).
fn bad_segments() -> Vec<String> {
    [
        "0",
        "-1",
        "99999999999999999999999",
        "1.5",
        "abc",
        "%FF%FE",
        "%00",
        "%ZZ",
        "%E2%80%AE",
        "a%20b",
        "..",
        "..%2F..%2Fetc%2Fpasswd",
        "%2e%2e",
        "%3Cscript%3E",
    ]
    .into_iter()
    .map(String::from)
    .chain([
        "x".repeat(3000),
        "../../etc/passwd".into(),
        ".git/config".into(),
    ])
    .collect()
}

/// Who sends a request.
#[derive(Clone, Copy, Debug)]
enum Who {
    Nobody,
    /// Cookies and a bearer token that mean nothing (malformed or unknown).
    Forger,
    Alice,
    Boss,
}

struct Site {
    at: SocketAddr,
    alice_cookie: String,
    alice_csrf: String,
    alice_token: String,
    boss_cookie: String,
    boss_csrf: String,
    boss_token: String,
}

impl Site {
    fn as_who(&self, mut raw: Raw, who: Who) -> Raw {
        raw = raw.header("Origin", ORIGIN);
        match who {
            Who::Nobody => raw,
            Who::Forger => raw
                .header("Cookie", "session=%%%; __Host-session=zz; session=")
                .header("Authorization", &format!("Bearer {}", "f".repeat(64))),
            Who::Alice => raw
                .header("Cookie", &self.alice_cookie)
                .header("Authorization", &format!("Bearer {}", self.alice_token)),
            Who::Boss => raw
                .header("Cookie", &self.boss_cookie)
                .header("Authorization", &format!("Bearer {}", self.boss_token)),
        }
    }

    fn csrf(&self, who: Who) -> &str {
        match who {
            Who::Alice => &self.alice_csrf,
            Who::Boss => &self.boss_csrf,
            _ => "",
        }
    }
}

fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, file, data) in parts {
        let file = file
            .map(|f| format!("; filename=\"{f}\""))
            .unwrap_or_default();
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"{file}\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// The bodies a POST is tried with: (what, request).
fn bad_bodies(method: &str, path: &str, csrf: &str) -> Vec<(&'static str, Raw)> {
    let form = "application/x-www-form-urlencoded";
    let json = "application/json";
    let multi = format!("multipart/form-data; boundary={BOUNDARY}");
    let post = || Raw::new(method, path);
    let upload = multipart(&[
        ("csrf", None, csrf.as_bytes()),
        ("language", None, b"python"),
        ("file", Some("bot.py"), &b"print('hi')\n".repeat(100)),
    ]);
    let mut truncated = post().body(Some(&multi), &upload[..upload.len() / 2]);
    truncated.announce = Some(upload.len());
    truncated.cut = true;
    let mut cut_form = post().body(Some(form), format!("csrf={csrf}&na").as_bytes());
    cut_form.announce = Some(500);
    cut_form.cut = true;
    let mut chunked = post().body(Some(form), b"zz\r\nname=a\r\n0\r\n\r\n");
    chunked.announce = Some(0);
    let chunked = chunked.header("Transfer-Encoding", "chunked");
    vec![
        ("no body", post()),
        (
            "garbage fields with the right form token",
            post().body(
                Some(form),
                format!(
                    "csrf={csrf}&name=%FF%FE&password=&confirm=x&label=%00&token=zz&display_name=%3Cb%3E&language=cobol"
                )
                .as_bytes(),
            ),
        ),
        (
            "a wrong form token",
            post().body(
                Some(form),
                format!("csrf={}&name=alice&password=x", "0".repeat(64)).as_bytes(),
            ),
        ),
        ("malformed urlencoding", post().body(Some(form), b"%%%&&==&csrf")),
        ("not UTF-8", post().body(Some(form), b"csrf=\xff\xfe&name=\xc0")),
        (
            "an oversized form",
            post().body(Some(form), format!("csrf={}", "a".repeat(80_000)).as_bytes()),
        ),
        ("truncated JSON", post().body(Some(json), br#"{"name":"#)),
        (
            "JSON of the wrong types",
            post().body(Some(json), br#"{"name":1,"password":[],"label":{}}"#),
        ),
        ("a JSON array", post().body(Some(json), b"[]")),
        (
            "multipart with another boundary",
            post().body(Some("multipart/form-data; boundary=other"), &upload),
        ),
        ("multipart without a boundary", post().body(Some("multipart/form-data"), &upload)),
        ("multipart cut mid-file", truncated),
        (
            "multipart with two files",
            post().body(
                Some(&multi),
                &multipart(&[
                    ("csrf", None, csrf.as_bytes()),
                    ("file", Some("a.py"), b"1"),
                    ("file", Some("b.py"), b"2"),
                ]),
            ),
        ),
        (
            "multipart with a long field",
            post().body(
                Some(&multi),
                &multipart(&[
                    ("csrf", None, csrf.as_bytes()),
                    ("language", None, &[b'p'; 5000]),
                    ("file", Some("bot.py"), b"x"),
                ]),
            ),
        ),
        (
            "multipart with no file",
            post().body(
                Some(&multi),
                &multipart(&[("csrf", None, csrf.as_bytes()), ("language", None, b"python")]),
            ),
        ),
        (
            "a file over the upload limit",
            post().body(
                Some(&multi),
                &multipart(&[
                    ("csrf", None, csrf.as_bytes()),
                    ("language", None, b"python"),
                    ("file", Some("bot.py"), &[b'#'; 5000]),
                ]),
            ),
        ),
        ("binary as text", post().body(Some("text/plain"), b"\x00\x01\xff")),
        ("a form cut short", cut_form),
        ("a broken chunked body", chunked),
    ]
}

async fn start() -> (
    Site,
    CancellationToken,
    tokio::task::JoinHandle<()>,
    common::TestDb,
    tempfile::TempDir,
) {
    let t = common::TestDb::sqlite().await;
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "name = \"Mistakes\"\ngame = \"classic\"\nlanguages = [\"python\"]\n\
         [accounts]\nadmins = [\"boss\"]\n[storage]\ndata_dir = \"{}\"\n\
         [uploads]\nmax_bytes = 4096\nmax_unpacked_bytes = 8192\nuploads_per_hour = 10000\n\
         [http]\nheader_seconds = 2\nbody_seconds = 2\n",
        dir.path().join("data").display()
    );
    let contest = Contest::parse(&text, Path::new("contest.toml"), dir.path()).unwrap();
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    // As `serve::prepare` does: the organizer's pages show it.
    t.db.record_contest(&contest.text, "contest.toml")
        .await
        .unwrap();
    let tokens = server::accounts::provision::provision(&t.db, &contest)
        .await
        .unwrap();
    let limits = Limits::fitted(&contest.http, None);
    let submissions = Submissions::of_contest(t.db.clone(), &contest).unwrap();
    // Limits no request of this test reaches: a 429 would hide what the handler does.
    let state = AppState::with_limiters(
        Arc::new(contest),
        t.db.clone(),
        submissions,
        RateLimiter::new(1_000_000, Duration::from_millis(1)),
        RateLimiter::new(1_000_000, Duration::from_millis(1)),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let at = listener.local_addr().unwrap();
    let stop = CancellationToken::new();
    let task = tokio::spawn(listen::serve(listener, router(state), limits, stop.clone()));

    let form = "application/x-www-form-urlencoded";
    let a = send(
        at,
        &Raw::new("POST", "/register").header("Origin", ORIGIN).body(
            Some(form),
            b"name=alice&password=pass-word-1&confirm=pass-word-1",
        ),
    )
    .await;
    assert_eq!(a.status, 303, "{}", a.body);
    let alice_cookie = a.cookie();
    let a = send(
        at,
        &Raw::new("POST", "/setup").header("Origin", ORIGIN).body(
            Some(form),
            format!(
                "token={}&password=pass-word-2&confirm=pass-word-2",
                tokens[0].token
            )
            .as_bytes(),
        ),
    )
    .await;
    assert_eq!(a.status, 303, "{}", a.body);
    let boss_cookie = a.cookie();
    let csrf_of = |cookie: String| async move {
        send(at, &Raw::new("GET", "/bots").header("Cookie", &cookie))
            .await
            .csrf()
    };
    let alice_csrf = csrf_of(alice_cookie.clone()).await;
    let boss_csrf = csrf_of(boss_cookie.clone()).await;
    let token_of = |name: &str, password: &str| {
        let body = format!(r#"{{"name":"{name}","password":"{password}","label":"t"}}"#);
        async move {
            let a = send(
                at,
                &Raw::new("POST", "/api/tokens").body(Some("application/json"), body.as_bytes()),
            )
            .await;
            assert_eq!(a.status, 201, "{}", a.body);
            let json: serde_json::Value = serde_json::from_str(&a.body).unwrap();
            json["token"].as_str().unwrap().to_string()
        }
    };
    let alice_token = token_of("alice", "pass-word-1").await;
    let boss_token = token_of("boss", "pass-word-2").await;
    // A version that exists, for the routes that name one.
    let a = send(
        at,
        &Raw::new("POST", "/api/bots/mybot/versions")
            .header("Authorization", &format!("Bearer {alice_token}"))
            .body(
                Some(&format!("multipart/form-data; boundary={BOUNDARY}")),
                &multipart(&[
                    ("language", None, b"python"),
                    ("file", Some("bot.py"), b"print('hi')\n"),
                ]),
            ),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let site = Site {
        at,
        alice_cookie,
        alice_csrf,
        alice_token,
        boss_cookie,
        boss_csrf,
        boss_token,
    };
    (site, stop, task, t, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_client_mistake_is_a_server_error() {
    let (site, stop, task, t, _dir) = start().await;
    let mut routes = routes();
    assert!(
        routes.len() >= 35 && routes.iter().any(|r| r.path == "/bots/upload"),
        "the routes were not read from web.rs: {routes:?}"
    );
    // Last: what ends the sessions and tokens the other requests use.
    routes.sort_by_key(|r| r.path == "/logout" || r.path.contains("revoke"));

    let mut failures = Vec::new();
    let mut sent = 0;
    // `may_close`: hyper may close a connection it refuses without a word (once it has read
    // too much of a head, the answer it writes is lost to the reset).
    let mut check = |what: String, answer: Answer, may_close: bool| {
        sent += 1;
        let silent =
            answer.status >= 400 && answer.answered_by_router() && answer.body.trim().is_empty();
        if (answer.status == 0 && !may_close) || answer.status >= 500 || silent {
            failures.push(format!(
                "{what}: {} {}",
                answer.head.lines().next().unwrap_or("no answer"),
                answer.body.chars().take(200).collect::<String>()
            ));
        }
    };
    let everyone = [Who::Nobody, Who::Forger, Who::Alice, Who::Boss];

    for route in &routes {
        let good = fill(&route.path, existing);
        let mut paths: Vec<String> = bad_segments()
            .iter()
            .map(|bad| fill(&route.path, |_| bad.clone()))
            .collect();
        paths.push(good.clone());
        paths.push(format!("{good}?page=-1&x=%ZZ&&=&a[]=1&sort=%00"));
        paths.dedup();
        for method in &route.methods {
            for path in &paths {
                for who in everyone {
                    let raw = site.as_who(Raw::new(method, path), who);
                    check(
                        format!("{method} {path} as {who:?}"),
                        send(site.at, &raw).await,
                        false,
                    );
                }
            }
            if *method == "POST" {
                for who in everyone {
                    for (what, raw) in bad_bodies(method, &good, site.csrf(who)) {
                        let raw = site.as_who(raw, who);
                        check(
                            format!("POST {good} as {who:?} with {what}"),
                            send(site.at, &raw).await,
                            false,
                        );
                    }
                }
            }
        }
        for method in ["PUT", "DELETE", "PATCH", "GET", "POST"] {
            if !route.methods.contains(&method) {
                let raw = site.as_who(Raw::new(method, &good), Who::Alice);
                check(format!("{method} {good}"), send(site.at, &raw).await, false);
            }
        }
    }

    // What hyper refuses before the router sees it, and what no route matches.
    let malformed: &[&[u8]] = &[
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
        b"GET /%%%% HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /bots HTTP/1.1\r\nHost: x\r\nCookie: session=\xff\xfe\r\n\r\n",
        b"GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer\r\n\r\n",
        b"GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Basic YTpi\r\n\r\n",
        b"GET /no/such/page HTTP/1.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX: \x01\x02\r\n\r\n",
        b"GARBAGE\r\n\r\n",
    ];
    for raw in malformed {
        let answer = exchange(site.at, raw, true).await;
        check(format!("{:?}", String::from_utf8_lossy(raw)), answer, false);
    }
    let huge_header = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(500_000)
    );
    check(
        "a 500 KB header".into(),
        exchange(site.at, huge_header.as_bytes(), true).await,
        true,
    );
    let long_uri = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a/".repeat(30_000));
    check(
        "a 60 KB path".into(),
        exchange(site.at, long_uri.as_bytes(), true).await,
        false,
    );

    eprintln!("{sent} requests, {} routes", routes.len());
    assert!(
        failures.is_empty(),
        "{} of {sent} answers were server errors or said nothing:\n{}",
        failures.len(),
        failures.join("\n")
    );
    stop.cancel();
    task.await.unwrap();
    t.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_cut_off_late_or_too_large_say_what_went_wrong() {
    let (site, stop, task, t, _dir) = start().await;
    let multi = format!("multipart/form-data; boundary={BOUNDARY}");
    let upload = multipart(&[
        ("language", None, b"python"),
        ("file", Some("bot.py"), &b"print('hi')\n".repeat(100)),
    ]);
    let bearer = format!("Bearer {}", site.alice_token);
    let api = || {
        Raw::new("POST", "/api/bots/mybot/versions")
            .header("Authorization", &bearer)
            .body(Some(&multi), &upload[..upload.len() / 2])
    };

    // The connection cut mid-file: the client's doing, a 400.
    let mut cut = api();
    cut.announce = Some(upload.len());
    cut.cut = true;
    let a = send(site.at, &cut).await;
    assert_eq!(a.status, 400, "{}", a.body);
    assert_eq!(
        a.body,
        r#"{"error":"the form cannot be read: failed to read stream"}"#
    );

    // Half the file, then nothing: a 408 at the body deadline (2 s here).
    let mut stalled = api();
    stalled.announce = Some(upload.len());
    let started = std::time::Instant::now();
    let a = send(site.at, &stalled).await;
    assert_eq!(a.status, 408, "{}", a.body);
    assert_eq!(
        a.body,
        r#"{"error":"the request body did not arrive within 2 s"}"#
    );
    assert!(started.elapsed() >= Duration::from_millis(1500));

    // 100 GB announced: refused before a byte is read, naming the limit.
    let mut huge = api();
    huge.announce = Some(100_000_000_000);
    let a = send(site.at, &huge).await;
    assert_eq!(a.status, 413, "{}", a.body);
    assert!(
        a.body
            .contains("the request body is 100000000000 bytes; this page accepts at most"),
        "{}",
        a.body
    );

    // A wrong method: a message, and the methods that work.
    let a = send(site.at, &Raw::new("GET", "/api/bots/mybot/versions")).await;
    assert_eq!(a.status, 405);
    assert!(
        a.head.to_ascii_lowercase().contains("allow: post"),
        "{}",
        a.head
    );
    assert_eq!(
        a.body,
        r#"{"error":"this address does not take that method"}"#
    );

    stop.cancel();
    task.await.unwrap();
    t.cleanup().await;
}
