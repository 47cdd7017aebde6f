//! The organizer's freeze and final round robin: uploads refused while frozen (site and
//! API), admin routes closed to everyone else, a real round robin of three pipeline-built
//! Python bots by the arena's tournament engine, its report served at `/final/` (and nothing
//! outside it), a failed final started again, and a final interrupted by a killed server
//! resumed from its results file.

use crate::common;

use common::router::{Answer, HOST};

use common::ladder::kit;

use std::io::Write;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use server::accounts::Secret;
use server::config::Contest;
use server::ladder::build::Builder;
use server::ladder::final_round::{FinalPaths, Outcome};
use server::ladder::submissions::Submissions;
use server::ladder::versions::VersionState;
use server::storage::{Db, FinalState, User};
use server::web::{AppState, Shared, router};
use tokio::sync::Notify;

const ORIGIN: &str = "http://contest.test";

struct Site {
    db: Db,
    contest: Arc<Contest>,
    state: Shared,
    router: Router,
    dir: tempfile::TempDir,
}

/// Someone who can use the site (a session cookie and its form token) and the API.
struct Person {
    user: User,
    cookie: String,
    csrf: String,
    token: String,
}

fn with_helper(bot: &str) -> Vec<u8> {
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in [
        ("bot.py", kit(bot)),
        ("teenpatti.py", kit("python/teenpatti.py")),
    ] {
        out.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        out.write_all(&bytes).unwrap();
    }
    out.finish().unwrap().into_inner()
}

async fn site(t: &common::TestDb) -> Site {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "name = \"Final test\"\ngame = \"classic\"\nlanguages = [\"python\"]\n\
         [storage]\ndata_dir = \"{}\"\n[ladder]\nworkers = 0\n[time]\nstartup_ms = 4000\n\
         [final]\nhands_per_match = 6\njobs = 1\n[accounts]\nadmins = [\"organizer\"]\n",
        dir.path().join("data").display()
    );
    let file = dir.path().join("contest.toml");
    std::fs::write(&file, &text).unwrap();
    let contest = Arc::new(Contest::load(&file).unwrap());
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    // What a server does at start: the contest row, the admin account.
    t.db.record_contest(&contest.text, &file.to_string_lossy())
        .await
        .unwrap();
    server::accounts::provision::provision(&t.db, &contest)
        .await
        .unwrap();
    let state = state_of(&t.db, &contest);
    Site {
        db: t.db.clone(),
        router: router(state.clone()),
        state,
        contest,
        dir,
    }
}

/// A server's state over the same database and data directory (a restart makes a new one).
fn state_of(db: &Db, contest: &Arc<Contest>) -> Shared {
    let submissions = Submissions::of_contest(db.clone(), contest).unwrap();
    AppState::new(contest.clone(), db.clone(), submissions)
}

impl Site {
    async fn send(&self, request: Request<Body>) -> Answer {
        common::router::send(&self.router, request).await
    }

    async fn get(&self, uri: &str, cookie: Option<&str>) -> Answer {
        common::router::get(&self.router, uri, cookie).await
    }

    async fn post_form(&self, uri: &str, who: &Person, csrf: &str) -> Answer {
        let r = Request::post(uri)
            .header(header::HOST, HOST)
            .header(header::ORIGIN, ORIGIN)
            .header(header::COOKIE, &who.cookie)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(format!("csrf={csrf}")))
            .unwrap();
        self.send(r).await
    }

    async fn api(&self, method: &str, uri: &str, who: &Person) -> Answer {
        let r = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::HOST, HOST)
            .header(header::AUTHORIZATION, format!("Bearer {}", who.token))
            .body(Body::empty())
            .unwrap();
        self.send(r).await
    }

    /// Uploads a file through the API or the page (multipart, as a browser or curl sends it).
    async fn upload(&self, who: &Person, page: bool, bot: &str, file: &[u8]) -> Answer {
        let boundary = "XyZboundary1234";
        let mut body = Vec::new();
        let mut fields = vec![("language", "python"), ("bot", bot)];
        if page {
            fields.push(("csrf", who.csrf.as_str()));
        }
        for (k, v) in fields {
            write!(
                body,
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"
            )
            .unwrap();
        }
        write!(
            body,
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bot.py\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n"
        )
        .unwrap();
        body.extend_from_slice(file);
        write!(body, "\r\n--{boundary}--\r\n").unwrap();
        let uri = if page {
            "/bots/upload".to_string()
        } else {
            format!("/api/bots/{bot}/versions")
        };
        let mut r = Request::post(uri).header(header::HOST, HOST).header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={boundary}"),
        );
        r = if page {
            r.header(header::COOKIE, &who.cookie)
                .header(header::ORIGIN, ORIGIN)
        } else {
            r.header(header::AUTHORIZATION, format!("Bearer {}", who.token))
        };
        self.send(r.body(Body::from(body)).unwrap()).await
    }

    /// A session and an API token for `name` (made if missing).
    async fn person(&self, name: &str) -> Person {
        let user = match self.db.user_by_name(name).await.unwrap() {
            Some(u) => u,
            None => self
                .db
                .create_user(name, name, Some("$argon2id$fake"), None, false)
                .await
                .unwrap(),
        };
        let session = Secret::new().unwrap();
        let csrf = server::storage::random_hex(32).unwrap();
        self.db
            .create_session(
                &session.digest,
                user.id,
                &csrf,
                server::storage::now_ms() + 3_600_000,
            )
            .await
            .unwrap();
        let token = Secret::new().unwrap();
        self.db
            .create_api_token(user.id, &token.digest, "test")
            .await
            .unwrap();
        Person {
            user,
            cookie: format!("arena_session={}", session.token),
            csrf,
            token: token.token,
        }
    }

    /// Three owners' Python kit bots, built and checked by the pipeline.
    async fn three_bots(&self) {
        let submissions = Submissions::of_contest(self.db.clone(), &self.contest).unwrap();
        let builder = Builder::new(
            self.db.clone(),
            self.contest.clone(),
            Arc::new(Notify::new()),
        )
        .unwrap();
        for (owner, bot, file) in [
            ("alice", "caller", None),
            ("bob", "strong", Some("python/strength_bot.py")),
            ("carol", "random", Some("python/random_bot.py")),
        ] {
            let user = self.person(owner).await.user;
            let (name, bytes) = match file {
                None => ("bot.py", kit("python/minimal_bot.py")),
                Some(f) => ("bot.zip", with_helper(f)),
            };
            submissions
                .submit(&user, bot, "python", name, bytes)
                .await
                .unwrap();
        }
        while let Some((_, state)) = builder.build_next().await.unwrap() {
            assert_eq!(state, VersionState::Ready);
        }
    }

    fn paths(&self) -> FinalPaths {
        FinalPaths::new(&self.contest.data_dir).unwrap()
    }
}

on_both!(
    freezing_refuses_uploads_and_only_admins_hold_the_keys,
    |t| {
        let s = site(t).await;
        let admin = s.person("organizer").await;
        let alice = s.person("alice").await;
        assert!(admin.user.is_admin && !alice.user.is_admin);

        // Everyone else: 404 on the page and its forms, 403 from the API; nothing changes.
        assert_eq!(s.get("/admin", Some(&alice.cookie)).await.status, 404);
        assert_eq!(s.get("/admin", None).await.status, StatusCode::SEE_OTHER);
        for form in ["/admin/freeze", "/admin/final"] {
            let a = s.post_form(form, &alice, &alice.csrf).await;
            assert_eq!(a.status, 404, "{form}: {}", a.body);
        }
        for call in [
            "/api/admin/freeze",
            "/api/admin/final",
            "/api/admin/unfreeze",
        ] {
            let a = s.api("POST", call, &alice).await;
            assert_eq!(a.status, 403, "{call}: {}", a.body);
            assert!(a.json()["error"].as_str().unwrap().contains("admin"));
        }
        assert_eq!(s.api("GET", "/api/admin/contest", &alice).await.status, 403);
        assert_eq!(s.db.frozen_at().await.unwrap(), None);
        // An admin's form without the session's token is refused too.
        assert_eq!(s.post_form("/admin/freeze", &admin, "0").await.status, 403);
        assert_eq!(s.db.frozen_at().await.unwrap(), None);
        // The final needs the freeze.
        let a = s.api("POST", "/api/admin/final", &admin).await;
        assert_eq!(a.status, 409, "{}", a.body);
        assert!(
            a.json()["error"].as_str().unwrap().contains("freeze"),
            "{}",
            a.body
        );

        // Uploads work, then the admin freezes them from the page.
        let bot = kit("python/minimal_bot.py");
        assert_eq!(s.upload(&alice, false, "mine", &bot).await.status, 201);
        let page = s.get("/admin", Some(&admin.cookie)).await;
        assert_eq!(page.status, 200);
        assert!(page.body.contains("Freeze uploads"), "{}", page.body);
        let a = s.post_form("/admin/freeze", &admin, &admin.csrf).await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
        assert!(s.db.frozen_at().await.unwrap().is_some());

        // Refused with 409 and a clear message, through the API and on the page.
        let a = s.upload(&alice, false, "mine", &bot).await;
        assert_eq!(a.status, 409, "{}", a.body);
        assert!(
            a.json()["error"].as_str().unwrap().contains("frozen"),
            "{}",
            a.body
        );
        let a = s.upload(&alice, true, "other", &bot).await;
        assert_eq!(a.status, 409, "{}", a.body);
        assert!(
            a.body.contains("Upload refused: uploads are frozen"),
            "{}",
            a.body
        );
        assert_eq!(
            s.db.bots_of(alice.user.id).await.unwrap().len(),
            1,
            "no bot made"
        );
        // The pages say so, and the upload form is gone.
        let bots = s.get("/bots", Some(&alice.cookie)).await;
        assert!(bots.body.contains("Uploads are frozen"), "{}", bots.body);
        assert!(
            !bots.body.contains("action=\"/bots/upload\""),
            "{}",
            bots.body
        );
        for page in ["/", "/leaderboard", "/final/"] {
            let a = s.get(page, None).await;
            assert_eq!(a.status, 200, "{page}");
            assert!(a.body.contains("frozen"), "{page}: {}", a.body);
        }
        let a = s.get("/api/final", None).await;
        assert_eq!(a.json()["frozen"], true);
        assert_eq!(a.json()["final"]["state"], "none");

        // The admin API: status, and unfreeze (uploads work again).
        let a = s.api("GET", "/api/admin/contest", &admin).await;
        assert_eq!(a.status, 200, "{}", a.body);
        let status = a.json();
        assert_eq!(status["frozen"], true);
        assert_eq!(status["final"]["state"], "none");
        assert_eq!(
            status["pending_builds"], 1,
            "alice's upload is not built here"
        );
        // One bot, and it is not even built: the final cannot start.
        let a = s.api("POST", "/api/admin/final", &admin).await;
        assert_eq!(a.status, 409, "{}", a.body);
        assert!(
            a.json()["error"].as_str().unwrap().contains("built"),
            "{}",
            a.body
        );
        let a = s.api("POST", "/api/admin/unfreeze", &admin).await;
        assert_eq!(a.status, 200, "{}", a.body);
        assert_eq!(a.json()["frozen"], false);
        assert_eq!(s.upload(&alice, false, "mine", &bot).await.status, 201);
        let a = s.api("POST", "/api/admin/freeze", &admin).await;
        assert_eq!(
            (a.status.as_u16(), a.json()["frozen"].clone()),
            (200, true.into())
        );
    }
);

/// Waits for the background final and checks how it ended.
async fn finished(state: &Shared) -> Outcome {
    tokio::time::timeout(
        std::time::Duration::from_secs(120),
        state.final_round.wait(),
    )
    .await
    .expect("the final ends within two minutes")
    .expect("a final was started")
}

on_both!(
    the_final_plays_a_round_robin_and_publishes_its_report,
    |t| {
        let s = site(t).await;
        s.three_bots().await;
        let admin = s.person("organizer").await;
        let alice = s.person("alice").await;
        assert_eq!(s.api("POST", "/api/admin/freeze", &admin).await.status, 200);
        let a = s.get("/final/", None).await;
        assert!(a.body.contains("has not been played"), "{}", a.body);
        assert_eq!(s.get("/final/index.html", None).await.status, 404);

        // Started from the admin page's form; a second start is refused.
        let a = s.post_form("/admin/final", &admin, &admin.csrf).await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
        let a = s.api("POST", "/api/admin/final", &admin).await;
        assert_eq!(a.status, 409, "{}", a.body);
        assert!(
            a.json()["error"].as_str().unwrap().contains("running"),
            "{}",
            a.body
        );
        // Uploads stay frozen while it runs.
        let a = s.api("POST", "/api/admin/unfreeze", &admin).await;
        assert_eq!(a.status, 409, "{}", a.body);

        // Three bots, every pair in both seat orders: six matches, all played now.
        assert_eq!(
            finished(&s.state).await,
            Outcome::Done {
                played: 6,
                already_done: 0
            }
        );
        assert_eq!(s.db.final_state().await.unwrap(), FinalState::Done);
        let paths = s.paths();
        let file = std::fs::read_to_string(&paths.file).unwrap();
        assert!(
            file.contains("format = \"round-robin\"") && file.contains("hands = 6"),
            "{file}"
        );
        let results =
            arena::tournament::read_results(&paths.tournament.join("results.jsonl")).unwrap();
        assert_eq!(results.len(), 6);
        for r in results.values() {
            assert_eq!(r.hands, 6);
            assert_eq!(r.net.iter().sum::<i64>(), 0, "{r:?}");
        }
        let a = s.api("GET", "/api/admin/contest", &admin).await;
        let status = a.json();
        assert_eq!(status["final"]["state"], "done", "{status}");
        assert_eq!(
            (
                status["final"]["played"].clone(),
                status["final"]["total"].clone()
            ),
            (6.into(), 6.into())
        );
        assert_eq!(status["final"]["report"], "/final/");

        // The report, public, with its scripts allowed and nothing else.
        let report = s.get("/final/", None).await;
        assert_eq!(report.status, 200);
        for name in [
            "caller",
            "strong",
            "random",
            "report-data",
            "index_replays/match-000005.html",
        ] {
            assert!(report.body.contains(name), "{name}");
        }
        let csp = report.headers[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap();
        assert!(csp.contains("script-src 'self' 'unsafe-inline'"), "{csp}");
        assert!(
            csp.contains("default-src 'none'") && csp.contains("frame-ancestors 'none'"),
            "{csp}"
        );
        assert_eq!(
            s.get("/final", None).await.status,
            StatusCode::PERMANENT_REDIRECT
        );
        assert_eq!(s.get("/final/index.html", None).await.status, 200);
        let replay = s.get("/final/index_replays/match-000000.html", None).await;
        assert_eq!(replay.status, 200);
        assert!(replay.body.contains("viewer.js"));
        let viewer = s.get("/final/index_replays/viewer.js", None).await;
        assert_eq!(viewer.status, 200);
        assert_eq!(
            viewer.headers[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8"
        );
        // The leaderboard and the home page link to it.
        for page in ["/leaderboard", "/"] {
            assert!(
                s.get(page, None).await.body.contains("href=\"/final/\""),
                "{page}"
            );
        }

        // Nothing outside the report: traversal, encoded or not, symlinks, other kinds.
        std::os::unix::fs::symlink(
            s.contest.data_dir.join("final/final.toml"),
            paths.report.join("plan.html"),
        )
        .unwrap();
        std::fs::write(paths.report.join("notes.txt"), "x").unwrap();
        for bad in [
            "/final/../contest.toml",
            "/final/%2e%2e/final.toml",
            "/final/index_replays/..%2F..%2Ffinal.toml",
            "/final/..%2f..%2fcontest.toml",
            "/final/%2Fetc%2Fpasswd",
            "/final/plan.html",
            "/final/notes.txt",
            "/final/index_replays/",
            "/final/.%2E/tournament/results.jsonl",
        ] {
            let a = s.get(bad, None).await;
            assert!(
                a.status == 404 || a.status == 400,
                "{bad}: {} {}",
                a.status,
                a.body
            );
            assert!(!a.body.contains("round-robin"), "{bad}");
        }

        // Published replays carry no bot's stderr (the private replay keeps it): a fault with a
        // traceback put into a replay, published again.
        let private = paths.tournament.join("replays/match-000000.jsonl");
        let text = std::fs::read_to_string(&private).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        let data = s.contest.data_dir.to_string_lossy().into_owned();
        let fault = format!(
            r#"{{"type":"fault","hand":0,"seat":1,"fault":"crashed","detail":"the bot exited","stderr":"Traceback: SECRET-PLAN in {data}/builds/123/bot.py"}}"#
        );
        lines.insert(lines.len() - 1, &fault);
        std::fs::write(&private, lines.join("\n") + "\n").unwrap();
        server::ladder::final_round::publish(&paths).unwrap();
        let page = s.get("/final/index_replays/match-000000.html", None).await;
        let published = common::replay_page::replay_text(&page.body);
        assert!(published.contains("\"fault\":\"crashed\""), "{published}");
        assert!(!published.contains("SECRET-PLAN"), "{published}");
        assert_eq!(published.lines().count(), lines.len());
        // Nor the server's paths: the bots' commands name their uploads' files.
        assert!(!published.contains(&data), "{published}");
        assert!(
            published.contains(r#""command":["python3","bot.py"]"#),
            "{published}"
        );
        // The owner of that seat's bot sees its stderr on their own page of the final; the
        // other seat's owner sees the match without it; whoever did not play it gets 404.
        let owner_of = |bot: &str| match bot {
            "caller" => "alice",
            "strong" => "bob",
            _ => "carol",
        };
        let seats = &results[&0].seats;
        let (faulty, other) = (owner_of(&seats[1]), owner_of(&seats[0]));
        let outsider = ["alice", "bob", "carol"]
            .into_iter()
            .find(|p| *p != faulty && *p != other)
            .unwrap();
        let faulty = s.person(faulty).await;
        let own = s.get("/final-logs/0", Some(&faulty.cookie)).await;
        assert_eq!(own.status, 200, "{}", own.body);
        let own_replay = common::replay_page::replay_text(&own.body);
        assert!(own_replay.contains("SECRET-PLAN in bot.py"), "{own_replay}");
        assert!(!own_replay.contains(&data), "{own_replay}");
        assert!(!own.body.contains(&data), "{}", own.body);
        assert_eq!(own.headers[header::CACHE_CONTROL], "private, no-store");
        let listed = s.get("/final-logs", Some(&faulty.cookie)).await;
        assert_eq!(listed.status, 200);
        assert_eq!(
            listed.body.matches("href=\"/final-logs/").count(),
            4,
            "{}",
            listed.body
        );
        let other = s.person(other).await;
        let theirs = s.get("/final-logs/0", Some(&other.cookie)).await;
        assert_eq!(theirs.status, 200);
        let their_replay = common::replay_page::replay_text(&theirs.body);
        assert!(
            their_replay.contains("\"type\":\"result\""),
            "{their_replay}"
        );
        assert!(!their_replay.contains("SECRET-PLAN"), "{their_replay}");
        let outsider = s.person(outsider).await;
        assert_eq!(
            s.get("/final-logs/0", Some(&outsider.cookie)).await.status,
            404
        );
        assert_eq!(
            s.get("/final-logs/99", Some(&faulty.cookie)).await.status,
            404
        );
        assert!(
            common::replay_page::replay_text(
                &s.get("/final-logs/0", Some(&admin.cookie)).await.body
            )
            .contains("SECRET-PLAN")
        );
        assert_eq!(
            s.get("/final-logs/0", None).await.status,
            StatusCode::SEE_OTHER
        );
        // A participant's page view is the public one; the admin page links the report.
        assert!(
            s.get("/admin", Some(&admin.cookie))
                .await
                .body
                .contains("href=\"/final/\"")
        );
        assert_eq!(s.get("/final/", Some(&alice.cookie)).await.status, 200);
    }
);

on_both!(a_failed_final_starts_again_and_a_killed_one_resumes, |t| {
    let s = site(t).await;
    s.three_bots().await;
    let admin = s.person("organizer").await;
    assert_eq!(s.api("POST", "/api/admin/freeze", &admin).await.status, 200);

    // A bot's build directory gone: the final fails, and says why to the admins only.
    let builds = s.contest.data_dir.join("builds");
    let victim = std::fs::read_dir(&builds)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let aside = s.dir.path().join("aside");
    std::fs::rename(&victim, &aside).unwrap();
    assert_eq!(s.api("POST", "/api/admin/final", &admin).await.status, 202);
    assert_eq!(finished(&s.state).await, Outcome::Failed);
    assert_eq!(s.db.final_state().await.unwrap(), FinalState::Failed);
    let status = s.api("GET", "/api/admin/contest", &admin).await.json();
    let error = status["final"]["error"].as_str().unwrap().to_string();
    assert!(error.contains("has no build directory"), "{error}");
    assert!(
        s.get("/admin", Some(&admin.cookie))
            .await
            .body
            .contains("has no build directory")
    );
    let public = s.get("/api/final", None).await.json();
    assert_eq!(public["final"]["state"], "failed");
    assert!(public["final"].get("error").is_none(), "{public}");
    assert!(
        !s.get("/final/", None)
            .await
            .body
            .contains("build directory")
    );

    // Put back, started again: played to the end.
    std::fs::rename(&aside, &victim).unwrap();
    assert_eq!(s.api("POST", "/api/admin/final", &admin).await.status, 202);
    assert_eq!(
        finished(&s.state).await,
        Outcome::Done {
            played: 6,
            already_done: 0
        }
    );
    let paths = s.paths();
    let results_file = paths.tournament.join("results.jsonl");
    let all = std::fs::read_to_string(&results_file).unwrap();
    let lines: Vec<&str> = all.lines().collect();
    assert_eq!(lines.len(), 6);
    let plan = arena::tournament::read_plan(&paths.tournament)
        .unwrap()
        .tournament;

    // What a server killed after two matches leaves: the row `running`, two results and a
    // torn third line, no report. A restarted server (a new state on the same database and
    // directory) resumes: the two matches are kept, the four others played.
    std::fs::write(
        &results_file,
        format!(
            "{}\n{}\n{}",
            lines[0],
            lines[1],
            &lines[2][..lines[2].len() / 2]
        ),
    )
    .unwrap();
    std::fs::remove_dir_all(&paths.report).unwrap();
    sqlx::query(
        "UPDATE contest SET final_state = 'running', final_finished_at = NULL WHERE id = 1",
    )
    .execute(s.db.pool())
    .await
    .unwrap();
    assert!(s.get("/final/", None).await.body.contains("2 of 6 matches"));
    let restarted = state_of(&s.db, &s.contest);
    assert!(restarted.final_round.resume_if_running().await.unwrap());
    assert_eq!(
        finished(&restarted).await,
        Outcome::Done {
            played: 4,
            already_done: 2
        }
    );
    assert_eq!(s.db.final_state().await.unwrap(), FinalState::Done);
    let resumed = std::fs::read_to_string(&results_file).unwrap();
    assert!(
        resumed.starts_with(&format!("{}\n{}\n", lines[0], lines[1])),
        "kept as they were"
    );
    let records = arena::tournament::read_results(&results_file).unwrap();
    assert_eq!(
        records.keys().copied().collect::<Vec<_>>(),
        (0..6).collect::<Vec<_>>()
    );
    let again = arena::tournament::read_plan(&paths.tournament)
        .unwrap()
        .tournament;
    assert_eq!(again.seed, plan.seed, "the same deals");
    assert_eq!(s.get("/final/", None).await.status, 200);
    assert!(
        s.get("/final/index_replays/match-000003.html", None)
            .await
            .status
            == 200
    );
    // Nothing more to resume, and a played final is not started again.
    assert!(
        !state_of(&s.db, &s.contest)
            .final_round
            .resume_if_running()
            .await
            .unwrap()
    );
    let a = s.api("POST", "/api/admin/final", &admin).await;
    assert_eq!(a.status, 409, "{}", a.body);
});

/// The real binary, SIGKILLed mid-final and started again: the final goes on from its
/// results file and ends, every match played once.
mod killed_server {
    use std::path::Path;
    use std::time::{Duration, Instant};

    use super::common::binaries::{request, start_server as start};

    fn token(address: &str, name: &str) -> String {
        let body = format!(r#"{{"name":"{name}","password":"pass-word-1"}}"#);
        let (status, _, body) = request(
            address,
            "POST",
            "/api/tokens",
            &[("Content-Type", "application/json")],
            body.as_bytes(),
        );
        assert_eq!(status, 201, "{body}");
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        format!("Bearer {}", json["token"].as_str().unwrap())
    }

    fn json(address: &str, path: &str, bearer: &str) -> serde_json::Value {
        let (status, _, body) = request(address, "GET", path, &[("Authorization", bearer)], b"");
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
        let started = Instant::now();
        while !done() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{what}: not within a minute"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    #[test]
    fn a_final_resumes_after_the_server_is_killed() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let contest = dir.path().join("contest.toml");
        std::fs::write(
            &contest,
            format!(
                "name = \"bin\"\ngame = \"classic\"\nlanguages = [\"python\"]\n\
                 [accounts]\nadmins = [\"organizer\"]\n[ladder]\nworkers = 0\n\
                 [table]\nmax_turns = 12\n[final]\nhands_per_match = 10\n\
                 [storage]\ndata_dir = \"{}\"\n",
                data.display()
            ),
        )
        .unwrap();
        let server = start(&contest);
        let a = server.address.clone();
        // The organizer's account through its setup link, three participants signed up.
        let links = std::fs::read_to_string(data.join("setup-tokens.txt")).unwrap();
        let setup = links
            .lines()
            .next()
            .unwrap()
            .split("/setup/")
            .nth(1)
            .unwrap();
        let form = format!("token={setup}&password=pass-word-1&confirm=pass-word-1");
        let form_type = [("Content-Type", "application/x-www-form-urlencoded")];
        assert_eq!(
            request(&a, "POST", "/setup", &form_type, form.as_bytes()).0,
            303
        );
        let admin = token(&a, "organizer");
        // A bot slow enough (10 ms a decision; hands of at most 12 turns, a `[table]` rule the
        // final's tournament file copies) that the kill lands mid-final.
        let bot = String::from_utf8(super::kit("python/minimal_bot.py"))
            .unwrap()
            .replace("import sys\n", "import sys\nimport time\n")
            .replace(
                "    elif kind == \"request\":\n",
                "    elif kind == \"request\":\n        time.sleep(0.01)\n",
            );
        assert!(bot.contains("time.sleep"));
        for name in ["ann", "ben", "cat"] {
            let form = format!("name={name}&password=pass-word-1&confirm=pass-word-1");
            assert_eq!(
                request(&a, "POST", "/register", &form_type, form.as_bytes()).0,
                303
            );
            let bearer = token(&a, name);
            let mut body =
                b"--b0\r\nContent-Disposition: form-data; name=\"language\"\r\n\r\npython\r\n\
                --b0\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bot.py\"\r\n\r\n"
                    .to_vec();
            body.extend_from_slice(bot.as_bytes());
            body.extend_from_slice(b"\r\n--b0--\r\n");
            let path = format!("/api/bots/{name}-bot/versions");
            let headers = [
                ("Authorization", bearer.as_str()),
                ("Content-Type", "multipart/form-data; boundary=b0"),
            ];
            let (status, _, answer) = request(&a, "POST", &path, &headers, &body);
            assert_eq!(status, 201, "{answer}");
        }
        wait_for("three ready bots", || {
            let status = json(&a, "/api/admin/contest", &admin);
            assert_ne!(status["pending_builds"], serde_json::Value::Null);
            status["pending_builds"] == 0 && status["entrants"].as_array().unwrap().len() == 3
        });
        let auth = [("Authorization", admin.as_str())];
        assert_eq!(request(&a, "POST", "/api/admin/freeze", &auth, b"").0, 200);
        let (status, _, body) = request(&a, "POST", "/api/admin/final", &auth, b"");
        assert_eq!(status, 202, "{body}");

        // SIGKILL once the first match is stored, while the others play.
        let results = data.join("final/tournament/results.jsonl");
        let lines = |path: &Path| {
            std::fs::read_to_string(path)
                .map(|t| t.lines().map(str::to_string).collect::<Vec<_>>())
                .unwrap_or_default()
        };
        wait_for("a first result", || !lines(&results).is_empty());
        drop(server);
        let before = lines(&results);
        assert!(
            !before.is_empty() && before.len() < 6,
            "killed mid-final: {} results",
            before.len()
        );

        // Started again: the final goes on by itself and ends.
        let server = start(&contest);
        let a = server.address.clone();
        let (status, _, body) = request(&a, "GET", "/final/", &[], b"");
        assert_eq!(status, 200);
        assert!(
            body.contains("being played") || body.contains("report-data"),
            "{body}"
        );
        wait_for("the resumed final", || {
            json(&a, "/api/final", "")["final"]["state"] == "done"
        });
        let after = lines(&results);
        assert_eq!(after.len(), 6, "every match once: {after:?}");
        assert_eq!(after[..before.len()], before[..], "the stored ones kept");
        let (status, _, body) = request(&a, "GET", "/final/", &[], b"");
        assert_eq!(status, 200);
        assert!(body.contains("ann-bot") && body.contains("report-data"));
    }
}
