//! The `arena-server` binary over a real socket: it starts from a contest file, serves, keeps
//! everything across a SIGKILL and restart, and refuses a bad contest file with exit code 2.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::binaries::{request, start_server as start};

fn contest_file(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("contest.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"bin\"\ngame = \"classic\"\n[accounts]\nadmins = [\"organizer\"]\n\
             [storage]\ndata_dir = \"{}\"\n",
            dir.join("data").display()
        ),
    )
    .unwrap();
    path
}

#[test]
fn serves_and_keeps_everything_across_a_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let contest = contest_file(dir.path());
    let server = start(&contest);
    let a = &server.address;
    let origin = format!("http://{a}");

    let (status, _, body) = request(a, "GET", "/", &[], b"");
    assert_eq!(status, 200);
    assert!(body.contains("bin"));
    let links = std::fs::read_to_string(dir.path().join("data/setup-tokens.txt")).unwrap();
    assert!(links.starts_with("organizer /setup/"), "{links}");
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("data"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700, "the data directory is private");
    }

    let form = b"name=zoe&password=pass-word-1&confirm=pass-word-1";
    let (status, head, _) = request(
        a,
        "POST",
        "/register",
        &[
            ("Content-Type", "application/x-www-form-urlencoded"),
            ("Origin", &origin),
        ],
        form,
    );
    assert_eq!(status, 303, "{head}");
    let json = br#"{"name":"zoe","password":"pass-word-1"}"#;
    let (status, _, body) = request(
        a,
        "POST",
        "/api/tokens",
        &[("Content-Type", "application/json")],
        json,
    );
    assert_eq!(status, 201, "{body}");
    let token: serde_json::Value = serde_json::from_str(&body).unwrap();
    let bearer = format!("Bearer {}", token["token"].as_str().unwrap());
    let multipart = b"--b0\r\nContent-Disposition: form-data; name=\"language\"\r\n\r\npython\r\n\
        --b0\r\nContent-Disposition: form-data; name=\"file\"; filename=\"bot.py\"\r\n\r\nprint(1)\r\n--b0--\r\n";
    let (status, _, body) = request(
        a,
        "POST",
        "/api/bots/zbot/versions",
        &[
            ("Authorization", &bearer),
            ("Content-Type", "multipart/form-data; boundary=b0"),
        ],
        multipart,
    );
    assert_eq!(status, 201, "{body}");
    // The server's builder builds and checks it; the owner sees both logs in the API within
    // a minute. `print(1)` compiles, and fails the check (it never says hello).
    let started = std::time::Instant::now();
    let version = loop {
        let (status, _, body) = request(
            a,
            "GET",
            "/api/bots/zbot/versions/1",
            &[("Authorization", &bearer)],
            b"",
        );
        assert_eq!(status, 200, "{body}");
        let version: serde_json::Value = serde_json::from_str(&body).unwrap();
        if version["state"] == "failed" || version["state"] == "ready" {
            break version;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "not built within a minute: {body}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(version["state"], "failed", "{version}");
    let build_log = version["build_log"].as_str().unwrap();
    assert!(
        build_log.contains("py_compile") && build_log.ends_with("built\n"),
        "{build_log}"
    );
    assert!(
        version["check_log"].as_str().unwrap().contains("FAIL"),
        "{version}"
    );

    // SIGKILL, then a new server on the same data.
    drop(server);
    let server = start(&contest);
    let (status, _, body) = request(
        &server.address,
        "GET",
        "/api/bots/zbot/versions/1/files/bot.py",
        &[("Authorization", &bearer)],
        b"",
    );
    assert_eq!((status, body.as_str()), (200, "print(1)"));
    let (status, _, _) = request(
        &server.address,
        "POST",
        "/login",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        b"name=zoe&password=pass-word-1",
    );
    assert_eq!(status, 303);
    // No new setup link for the organizer: the account exists.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("data/setup-tokens.txt")).unwrap(),
        links
    );
}

#[test]
fn a_bad_contest_file_exits_2_naming_the_line_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.toml");
    std::fs::write(&path, "game = \"classic\"\n[uploads]\nmax_bytes = 0\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_arena-server"))
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("c.toml:3: field `uploads.max_bytes`"),
        "{stderr}"
    );
}

#[test]
fn an_organizer_can_give_an_account_a_new_setup_link() {
    let dir = tempfile::tempdir().unwrap();
    let contest = contest_file(dir.path());
    let run = |name: &str| {
        Command::new(env!("CARGO_BIN_EXE_arena-server"))
            .arg(&contest)
            .args(["--new-setup-link", name])
            .output()
            .unwrap()
    };
    // The first run makes the organizer's account (and its first link), then a second link.
    let out = run("organizer");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let links = std::fs::read_to_string(dir.path().join("data/setup-tokens.txt")).unwrap();
    let lines: Vec<&str> = links.lines().collect();
    assert_eq!(lines.len(), 2, "{links}");
    assert!(lines.iter().all(|l| l.starts_with("organizer /setup/")));
    assert_ne!(lines[0], lines[1]);
    // Only the newest link works.
    let server = start(&contest);
    let (old, _, _) = request(&server.address, "GET", &lines[0][10..], &[], b"");
    let (new, _, _) = request(&server.address, "GET", &lines[1][10..], &[], b"");
    assert_eq!((old, new), (404, 200));
    drop(server);
    let out = run("nobody");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no account named \"nobody\""));
}

/// `arena-worker --drop-page-cache` empties the machine's page cache after every match, which
/// only protects the halves of a pair when nothing else plays on the machine meanwhile: more
/// than one job is refused before anything starts.
#[test]
fn a_worker_that_drops_the_page_cache_plays_one_match_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_arena-worker"))
        .args(["--drop-page-cache", "--jobs", "2", "--data"])
        .arg(dir.path().join("data"))
        .arg("--db")
        .arg(format!(
            "sqlite://{}",
            dir.path().join("db.sqlite").display()
        ))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--drop-page-cache") && stderr.contains("--jobs 1"),
        "{stderr}"
    );
    assert!(!dir.path().join("data").exists(), "refused before starting");
}

/// A log read by people from a file or a pipe: what the binary wrote to `log` until it said
/// `ready` (and logged at least one line through `tracing`, which colours on a terminal),
/// then it is killed.
fn log_until(mut child: std::process::Child, log: &Path, ready: &str) -> String {
    let started = std::time::Instant::now();
    let text = loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        if text.contains(ready) && text.contains("DEBUG") {
            break text;
        }
        if started.elapsed() > Duration::from_secs(60) || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no {ready:?} and DEBUG line within a minute:\n{text}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let _ = child.kill();
    let _ = child.wait();
    text
}

/// Both binaries' logs to a file carry no ANSI escape codes (colour is for terminals).
#[test]
fn logs_written_to_a_file_are_plain_text() {
    let dir = tempfile::tempdir().unwrap();
    let contest = contest_file(dir.path());
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();

    let log = dir.path().join("server.log");
    let server = Command::new(env!("CARGO_BIN_EXE_arena-server"))
        .arg(&contest)
        .args(["--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "debug")
        .env("TMPDIR", &tmp)
        .env_remove("NO_COLOR")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let text = log_until(server, &log, "open http://");
    assert!(
        !text.contains('\u{1b}'),
        "an escape code in the server's log:\n{text}"
    );

    let log = dir.path().join("worker.log");
    let worker = Command::new(env!("CARGO_BIN_EXE_arena-worker"))
        .arg("--data")
        .arg(dir.path().join("worker"))
        .env(
            "ARENA_DB_URL",
            format!("sqlite://{}", dir.path().join("data/contest.db").display()),
        )
        .env("RUST_LOG", "debug")
        .env("TMPDIR", &tmp)
        .env_remove("NO_COLOR")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let text = log_until(worker, &log, "job(s) for");
    assert!(
        !text.contains('\u{1b}'),
        "an escape code in the worker's log:\n{text}"
    );
}

/// Both binaries' `--help` describe them as they are: every option they list is in this
/// package's README, and nothing is promised for "later" (the server's help once said
/// "(later) the ladder" long after the ladder came).
#[test]
fn the_help_texts_are_current_and_documented() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for (binary, does) in [
        (
            env!("CARGO_BIN_EXE_arena-server"),
            "accounts, bot uploads, the ladder and the final round robin",
        ),
        (env!("CARGO_BIN_EXE_arena-worker"), "Plays ladder matches"),
    ] {
        let out = Command::new(binary).arg("--help").output().unwrap();
        assert!(out.status.success(), "{binary}");
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(help.contains(does), "{binary}: {help}");
        assert!(!help.to_lowercase().contains("later"), "{binary}: {help}");
        let options: Vec<&str> = help
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|w| w.starts_with("--") && w.len() > 2)
            .filter(|w| !["--help", "--version"].contains(w))
            .collect();
        assert!(options.len() >= 3, "{binary}: {options:?}");
        for option in options {
            // The whole option, not the start of a longer one.
            let named = readme.match_indices(option).any(|(at, _)| {
                readme[at + option.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-'))
            });
            assert!(named, "{binary}: {option} is not in server/README.md");
        }
    }
}

/// `arena-worker` started while its database is unreachable (nothing listens at the URL's
/// port) waits for it, saying so, rather than exiting: a worker machine may come up before
/// the database, or during its restart.
#[test]
fn a_worker_waits_for_an_unreachable_database() {
    let dir = tempfile::tempdir().unwrap();
    // A port nothing listens on: bound, noted, released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let log = dir.path().join("worker.log");
    let mut worker = Command::new(env!("CARGO_BIN_EXE_arena-worker"))
        .arg("--data")
        .arg(dir.path().join("worker"))
        .env(
            "ARENA_DB_URL",
            format!("postgres://arena:arena@127.0.0.1:{port}/arena"),
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    // Two connection waits (2 s each) and more: still there.
    std::thread::sleep(Duration::from_secs(5));
    let running = worker.try_wait().unwrap().is_none();
    let _ = worker.kill();
    let _ = worker.wait();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(running, "the worker exited:\n{text}");
    assert!(
        text.contains("waiting for the database") && text.contains(&format!("127.0.0.1:{port}")),
        "{text}"
    );
    assert_eq!(
        text.matches("waiting for the database").count(),
        1,
        "{text}"
    );
}
