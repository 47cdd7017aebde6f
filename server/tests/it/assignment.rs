//! A class's assignment on the real server, over HTTP: a teacher, five students, two reference
//! bots (passive, mark 0; random, mark 0), and a deadline that passes during the test.
//!
//! - ann uploads a copy of the passive reference: it mirrors passive exactly (edge 0: fails
//!   a mark of 0) and beats random (passes); the copy check names the reference.
//! - ben uploads the random bot (the reference random's own code): fails both, named a copy
//!   of the random reference by source and by play.
//! - cat uploads the strength bot: passes both.
//! - dan uploads cat's bot with variables renamed, comments added and lines reflowed: the
//!   same verdicts, and flagged as a copy of cat's, by source and by play.
//! - eve uploads after the deadline: refused, and her CSV row says she has no upload.
//!
//! The CSV holds those grades, the flags are exactly those pairs (independent bots are not
//! flagged), and a student reads neither a reference bot, nor another's grades, nor another's
//! games.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::binaries::{request, start_server, upload_body};
use common::ladder::{kit, zip_of};
use server::storage::{BlockMatch, Db, sqlite_url};

/// A request, again after the site's `Retry-After` while it answers 429 (a class signing up
/// from one address meets the login rate limit, as it would in a classroom).
fn patient(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String, String) {
    loop {
        let answer = request(address, method, path, headers, body);
        if answer.0 != 429 {
            return answer;
        }
        let wait = answer
            .1
            .lines()
            .find_map(|l| l.strip_prefix("retry-after: "))
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(1);
        std::thread::sleep(Duration::from_secs(wait));
    }
}

/// A signed-up account's bearer token.
fn sign_up(address: &str, name: &str) -> String {
    let form = format!("name={name}&password=pass-word-1&confirm=pass-word-1");
    let form_type = [("Content-Type", "application/x-www-form-urlencoded")];
    let (status, head, _) = patient(address, "POST", "/register", &form_type, form.as_bytes());
    assert_eq!(status, 303, "{head}");
    token(address, name)
}

fn token(address: &str, name: &str) -> String {
    let body = format!(r#"{{"name":"{name}","password":"pass-word-1"}}"#);
    let (status, _, body) = patient(
        address,
        "POST",
        "/api/tokens",
        &[("Content-Type", "application/json")],
        body.as_bytes(),
    );
    assert_eq!(status, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    format!("Bearer {}", v["token"].as_str().unwrap())
}

fn json(address: &str, path: &str, bearer: &str) -> serde_json::Value {
    let (status, _, body) = request(address, "GET", path, &[("Authorization", bearer)], b"");
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

fn upload(address: &str, bearer: &str, bot: &str, file: &str, bytes: &[u8]) -> (u16, String) {
    let (status, _, body) = request(
        address,
        "POST",
        &format!("/api/bots/{bot}/versions"),
        &[
            ("Authorization", bearer),
            ("Content-Type", "multipart/form-data; boundary=b0"),
        ],
        &upload_body("python", file, bytes),
    );
    (status, body)
}

/// The strength bot with its variables renamed, comments added and blank lines: what a
/// student hiding a copy does.
fn disguised_strength() -> Vec<u8> {
    let text = String::from_utf8(kit("python/strength_bot.py")).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let mut line = line.to_string();
        for (from, to) in [
            ("price", "share_i_pay"),
            ("my_cards", "holding"),
            ("decide_bet", "choose_wager"),
            ("seed_override", "forced_seed"),
        ] {
            line = replace_word(&line, from, to);
        }
        out.push_str(&line);
        out.push('\n');
        if line.starts_with("def ") {
            out.push_str("    # my own work\n\n");
        }
    }
    assert!(out.contains("choose_wager") && out.contains("share_i_pay"));
    out.into_bytes()
}

/// `text` with the whole word `from` replaced.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        let before = rest[..i].chars().last();
        let after = rest[i + from.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        out.push_str(if word(before) || word(after) {
            from
        } else {
            to
        });
        rest = &rest[i + from.len()..];
    }
    out.push_str(rest);
    out
}

/// The server's database, read beside it (no page lists the copy probes or the seeds).
struct ServerDb {
    runtime: tokio::runtime::Runtime,
    db: Db,
}

impl ServerDb {
    fn open(data: &Path) -> ServerDb {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let db = runtime
            .block_on(Db::open(&sqlite_url(&data.join("contest.db"))))
            .unwrap();
        ServerDb { runtime, db }
    }

    /// Every upload's played copy-probe matches (`probes`) or grading-block matches, with
    /// the upload's student.
    fn matches(&self, probes: bool) -> Vec<(String, BlockMatch)> {
        self.runtime.block_on(async {
            let mut out = Vec::new();
            for s in self.db.submissions(i64::MAX).await.unwrap() {
                let matches = if probes {
                    self.db.probe_matches(s.version_id).await.unwrap()
                } else {
                    self.db.block_matches(s.version_id).await.unwrap()
                };
                for m in matches.into_iter().filter(|m| m.state == "done") {
                    out.push((s.owner.clone(), m));
                }
            }
            out
        })
    }
}

fn write_references(dir: &Path) {
    std::fs::create_dir_all(dir.join("passive")).unwrap();
    std::fs::write(dir.join("passive/bot.py"), kit("python/minimal_bot.py")).unwrap();
    std::fs::create_dir_all(dir.join("random")).unwrap();
    std::fs::write(dir.join("random/bot.py"), kit("python/random_bot.py")).unwrap();
    std::fs::write(dir.join("random/teenpatti.py"), kit("python/teenpatti.py")).unwrap();
}

#[test]
fn a_class_is_graded_copies_are_found_and_the_deadline_holds() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    write_references(&dir.path().join("references"));
    let now_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    // Time to start, sign up (the login rate limit lets ten tries through at once, then one
    // every 6 s) and upload on a busy machine; grading runs on past it meanwhile.
    let deadline_ms = now_ms + 45_000;
    let contest = dir.path().join("class.toml");
    std::fs::write(
        &contest,
        format!(
            "name = \"class\"\ngame = \"closest-555\"\nlanguages = [\"python\"]\n\
             [accounts]\nadmins = [\"teacher\"]\n[ladder]\nworkers = 2\n\
             [storage]\ndata_dir = \"{}\"\n\
             [assignment]\ndeadline = {}\nhands = 50\nmin_blocks = 4\nmax_blocks = 16\ncopy_blocks = 1\n\
             [[assignment.reference]]\nname = \"passive\"\nsource = \"references/passive\"\n\
             language = \"python\"\nmark = 0.0\nwhy = \"beats the passive bot\"\n\
             [[assignment.reference]]\nname = \"random\"\nsource = \"references/random\"\n\
             language = \"python\"\nmark = 0.0\nwhy = \"beats the random bot\"\n",
            data.display(),
            server::clock::rfc3339(deadline_ms)
        ),
    )
    .unwrap();
    let server = start_server(&contest);
    let a = server.address.clone();

    // The teacher through the setup link; the students sign up.
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
    let teacher = token(&a, "teacher");
    let students: Vec<(&str, String)> = ["ann", "ben", "cat", "dan", "eve"]
        .into_iter()
        .map(|name| (name, sign_up(&a, name)))
        .collect();
    let bearer = |name: &str| students.iter().find(|(n, _)| *n == name).unwrap().1.clone();

    let helper = kit("python/teenpatti.py");
    let uploads: [(&str, &str, Vec<u8>); 4] = [
        ("ann", "bot.py", kit("python/minimal_bot.py")),
        (
            "ben",
            "bot.zip",
            zip_of(&[
                ("bot.py", kit("python/random_bot.py")),
                ("teenpatti.py", helper.clone()),
            ]),
        ),
        (
            "cat",
            "bot.zip",
            zip_of(&[
                ("bot.py", kit("python/strength_bot.py")),
                ("teenpatti.py", helper.clone()),
            ]),
        ),
        (
            "dan",
            "mine.zip",
            zip_of(&[
                ("main.py", disguised_strength()),
                ("teenpatti.py", helper.clone()),
            ]),
        ),
    ];
    for (name, file, bytes) in &uploads {
        let (status, body) = upload(&a, &bearer(name), &format!("{name}-bot"), file, bytes);
        assert_eq!(status, 201, "{name}: {body}");
    }

    // The deadline passes (grading goes on); eve is too late.
    while SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
        <= deadline_ms
    {
        std::thread::sleep(Duration::from_millis(200));
    }
    let (status, body) = upload(
        &a,
        &bearer("eve"),
        "eve-bot",
        "bot.py",
        &kit("python/minimal_bot.py"),
    );
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("closed"), "{body}");

    // Every student's grade comes out.
    let started = Instant::now();
    let book = loop {
        let book = json(&a, "/api/admin/gradebook", &teacher);
        let students = book["students"].as_array().unwrap();
        if students.iter().all(|s| !s["grade"].is_null()) {
            break book;
        }
        assert!(
            started.elapsed() < Duration::from_secs(400),
            "grading did not finish: {book:#}"
        );
        std::thread::sleep(Duration::from_secs(2));
    };
    let verdicts = |name: &str| -> Vec<(String, String)> {
        let s = book["students"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap();
        let i = s["counted"].as_u64().unwrap() as usize;
        s["uploads"][i]["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["reference"].as_str().unwrap().to_string(),
                    v["state"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let pair = |p: &str, r: &str| {
        vec![
            ("passive".to_string(), p.to_string()),
            ("random".to_string(), r.to_string()),
        ]
    };
    assert_eq!(verdicts("ann"), pair("fail", "pass"), "{book:#}");
    assert_eq!(verdicts("ben"), pair("fail", "fail"), "{book:#}");
    assert_eq!(verdicts("cat"), pair("pass", "pass"), "{book:#}");
    assert_eq!(verdicts("dan"), pair("pass", "pass"), "{book:#}");

    // The CSV a learning-management system imports.
    let (status, _, csv) = request(
        &a,
        "GET",
        "/api/admin/gradebook.csv",
        &[("Authorization", &teacher)],
        b"",
    );
    assert_eq!(status, 200, "{csv}");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "name,id,grade,comment");
    let row = |name: &str| {
        rows.iter()
            .find(|r| r.starts_with(&format!("{name},{name},")))
            .unwrap_or_else(|| panic!("no row for {name}: {csv}"))
            .to_string()
    };
    assert!(row("ann").starts_with("ann,ann,50.0,"), "{csv}");
    assert!(row("ben").starts_with("ben,ben,0.0,"), "{csv}");
    assert!(row("cat").starts_with("cat,cat,100.0,"), "{csv}");
    assert!(row("dan").starts_with("dan,dan,100.0,"), "{csv}");
    assert_eq!(row("eve"), "eve,eve,0.0,no upload");
    assert_eq!(rows.len(), 6, "the teacher is not a student: {csv}");

    // Copies: dan of cat (source and play), ann of passive, ben of random; nothing else.
    // Two students are compared by play on the copy probes, played once their grades are
    // out: the list is complete when the grading queue is empty again.
    let flags_of = |book: &serde_json::Value| {
        let mut flags: Vec<(String, String, String)> = book["copies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let (x, y) = (c["a"].as_str().unwrap(), c["b"].as_str().unwrap());
                let (x, y) = if x < y { (x, y) } else { (y, x) };
                (
                    x.to_string(),
                    y.to_string(),
                    c["kind"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        flags.sort();
        flags.dedup();
        flags
    };
    let expected: Vec<(String, String, String)> = [
        ("ann", "reference passive", "play"),
        ("ann", "reference passive", "source"),
        ("ben", "reference random", "play"),
        ("ben", "reference random", "source"),
        ("cat", "dan", "play"),
        ("cat", "dan", "source"),
    ]
    .iter()
    .map(|(x, y, k)| (x.to_string(), y.to_string(), k.to_string()))
    .collect();
    let server_db = ServerDb::open(&data);
    let started = Instant::now();
    let book = loop {
        let book = json(&a, "/api/admin/gradebook", &teacher);
        let probes_played = server_db.matches(true).len();
        // Four students' uploads, two references, one probe of two matches each.
        if probes_played == 4 * 2 * 2 && book["queue"]["queued"] == 0 {
            break book;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the copy probes were not played ({probes_played} matches): {book:#}"
        );
        std::thread::sleep(Duration::from_secs(2));
    };
    assert_eq!(flags_of(&book), expected, "{book:#}");

    // What a student may not see.
    let ann = bearer("ann");
    let mine = json(&a, "/api/grades", &ann);
    assert_eq!(mine["name"], "ann");
    assert!(mine["matches"].as_array().unwrap().len() >= 8, "{mine:#}");
    let (status, _, _) = request(
        &a,
        "GET",
        "/api/admin/gradebook",
        &[("Authorization", &ann)],
        b"",
    );
    assert_eq!(status, 403);
    let (status, _, _) = request(
        &a,
        "GET",
        "/api/admin/gradebook.csv",
        &[("Authorization", &ann)],
        b"",
    );
    assert_eq!(status, 403);
    for path in [
        "/api/bots/passive/versions/1",
        "/api/bots/passive/versions/1/files/bot.py",
        "/api/leaderboard",
        "/leaderboard/cat-bot",
    ] {
        let (status, _, body) = request(&a, "GET", path, &[("Authorization", &ann)], b"");
        assert_eq!(status, 404, "{path}: {body}");
    }
    let cat_games = json(&a, "/api/grades", &bearer("cat"));
    let cat_match = cat_games["matches"][0]["match_id"].as_i64().unwrap();
    let (status, _, _) = request(&a, "GET", &format!("/matches/{cat_match}/replay"), &[], b"");
    assert_eq!(status, 404, "an assignment's games are not public");
    let login = "name=ann&password=pass-word-1";
    let (status, head, _) = patient(&a, "POST", "/login", &form_type, login.as_bytes());
    assert_eq!(status, 303, "{head}");
    let cookie = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .starts_with("set-cookie:")
                .then(|| l[11..].trim().split(';').next().unwrap().to_string())
        })
        .unwrap();
    let (status, _, _) = request(
        &a,
        "GET",
        &format!("/matches/{cat_match}/replay"),
        &[("Cookie", &cookie)],
        b"",
    );
    assert_eq!(status, 404, "another student's games");
    let ann_match = mine["matches"][0]["match_id"].as_i64().unwrap();
    let (status, _, page) = request(
        &a,
        "GET",
        &format!("/matches/{ann_match}/replay"),
        &[("Cookie", &cookie)],
        b"",
    );
    assert_eq!(status, 200, "her own games");
    assert!(!page.is_empty());
    // ... but not the copy check's: its deals are every upload's, kept from all of them.
    let probes = server_db.matches(true);
    let (_, ann_probe) = probes.iter().find(|(owner, _)| owner == "ann").unwrap();
    let listed = mine["matches"].as_array().unwrap();
    assert!(
        listed.iter().all(|m| m["match_id"] != ann_probe.match_id),
        "{mine:#}"
    );
    let (status, _, _) = request(
        &a,
        "GET",
        &format!("/matches/{}/replay", ann_probe.match_id),
        &[("Cookie", &cookie)],
        b"",
    );
    assert_eq!(status, 404, "a copy probe of hers");
    // Her graded deals are her own: no other upload met any of them.
    let blocks = server_db.matches(false);
    let deals = |owner: &str| -> std::collections::HashSet<i64> {
        blocks
            .iter()
            .filter(|(o, _)| o == owner)
            .map(|(_, m)| m.seed)
            .collect()
    };
    let ann_deals = deals("ann");
    assert!(!ann_deals.is_empty());
    for other in ["ben", "cat", "dan"] {
        assert!(
            ann_deals.is_disjoint(&deals(other)),
            "{other} met ann's deals"
        );
    }
    let (status, _, page) = request(&a, "GET", "/grades", &[("Cookie", &cookie)], b"");
    assert_eq!(status, 200);
    assert!(
        page.contains("My grades") && page.contains("Your grade"),
        "{page}"
    );
    assert!(
        !page.contains("cat-bot"),
        "another student's bot on ann's page"
    );
}
