//! From a starter kit to a ready bot, as a participant does it: `arena pack` on each of the
//! five kits (the real `arena` binary), the zip uploaded over HTTP to a real `arena-server`,
//! built in its sandbox and checked with check-bot: every kit must end `ready`. And a zip
//! holding `bot.py` twice, which the zip crate alone would have read as one file, is
//! refused with a 422 naming it.
//!
//! Needs the `arena` binary next to this test's (`cargo build -p arena --bins`). A language
//! whose toolchain is missing here (node, gcc, javac) is skipped on a developer machine and
//! fails under CI, where `.ci/run` installs them.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::binaries::{Server, new_account_bearer, request, start_server_with, upload_body};

/// The `arena` binary built beside this test (target/debug/arena).
fn arena() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().parent().unwrap().join("arena");
    assert!(
        path.is_file(),
        "{} is missing: build it first (`cargo build -p arena --bins`)",
        path.display()
    );
    path
}

fn kits() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sample-bots")
}

/// Whether `program args` runs (its toolchain is installed and works).
fn works(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|out| out.status.success())
}

fn skip(what: &str, why: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    if ci {
        panic!("{what} cannot run in CI: {why} (.ci/run should have installed it)");
    }
    eprintln!("SKIPPED {what}: {why}");
}

/// `arena pack KIT ARGS -o OUT`, which must succeed; the zip's bytes.
fn pack(kit: &str, args: &[&str], out: &Path) -> Vec<u8> {
    let done = Command::new(arena())
        .arg("pack")
        .arg(kits().join(kit))
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        done.status.success(),
        "arena pack {kit}: {}",
        String::from_utf8_lossy(&done.stderr)
    );
    std::fs::read(out).unwrap()
}

/// POSTs an upload; the status and the answer's body.
fn upload(server: &Server, bearer: &str, bot: &str, language: &str, zip: &[u8]) -> (u16, String) {
    let (status, _, body) = request(
        &server.address,
        "POST",
        &format!("/api/bots/{bot}/versions"),
        &[
            ("Authorization", bearer),
            ("Content-Type", "multipart/form-data; boundary=b0"),
        ],
        &upload_body(language, "bot.zip", zip),
    );
    (status, body)
}

/// The bot's first version once built (ready or failed).
fn built(server: &Server, bearer: &str, bot: &str) -> serde_json::Value {
    let started = Instant::now();
    loop {
        let (status, _, body) = request(
            &server.address,
            "GET",
            &format!("/api/bots/{bot}/versions/1"),
            &[("Authorization", bearer)],
            b"",
        );
        assert_eq!(status, 200, "{body}");
        let version: serde_json::Value = serde_json::from_str(&body).unwrap();
        if version["state"] == "failed" || version["state"] == "ready" {
            return version;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "{bot} not built within five minutes: {body}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// A contest of the five languages in `dir`, served by a real `arena-server`.
fn serve(dir: &Path) -> Server {
    let contest = dir.join("contest.toml");
    std::fs::write(
        &contest,
        format!(
            "name = \"pack\"\ngame = \"classic\"\n\
             languages = [\"python\", \"javascript\", \"c\", \"java\", \"rust\"]\n\
             [build]\nbuilders = 2\n[ladder]\nworkers = 0\n\
             [uploads]\nuploads_per_hour = 100\nbots_per_user = 10\n\
             [storage]\ndata_dir = \"{}\"\n",
            dir.join("data").display()
        ),
    )
    .unwrap();
    start_server_with(&contest, &[])
}

#[test]
fn every_starter_kit_packed_by_arena_pack_builds_on_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(dir.path());
    let bearer = new_account_bearer(&server.address, "alice");

    // (kit, arena pack's options, language, the toolchain that must be here)
    type Kit<'a> = (
        &'a str,
        &'a [&'a str],
        &'a str,
        Option<(&'a str, &'a [&'a str])>,
    );
    let kits: [Kit; 5] = [
        (
            "python",
            &["--main", "strength_bot.py"],
            "python",
            Some(("python3", &["--version"])),
        ),
        (
            "javascript",
            &[],
            "javascript",
            Some(("node", &["--version"])),
        ),
        ("c", &[], "c", Some(("gcc", &["--version"]))),
        ("java", &[], "java", Some(("javac", &["-version"]))),
        // rustc is here: it built this test.
        (
            "rust",
            &["--main", "src/bin/standalone-bot.rs"],
            "rust",
            None,
        ),
    ];
    let mut uploaded = Vec::new();
    for (kit, args, language, tool) in kits {
        if let Some((program, version)) = tool
            && !works(program, version)
        {
            skip(
                &format!("the {kit} kit"),
                &format!("`{program}` is not installed"),
            );
            continue;
        }
        let zip = pack(kit, args, &dir.path().join(format!("{kit}.zip")));
        let bot = format!("{kit}-kit");
        let (status, body) = upload(&server, &bearer, &bot, language, &zip);
        assert_eq!(status, 201, "{kit}: {body}");
        uploaded.push(bot);
    }
    for bot in &uploaded {
        let v = built(&server, &bearer, bot);
        assert_eq!(
            v["state"],
            "ready",
            "{bot}:\n{}\n{}",
            v["build_log"].as_str().unwrap_or(""),
            v["check_log"].as_str().unwrap_or("")
        );
        assert!(
            v["check_log"].as_str().unwrap_or("").contains(" 0 failed"),
            "{bot}: {}",
            v["check_log"]
        );
    }
}

#[test]
fn a_zip_holding_bot_py_twice_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(dir.path());
    let bearer = new_account_bearer(&server.address, "bob");
    // bot.py twice. Written with another name, then renamed in place
    // (the zip crate's writer refuses a duplicate).
    let mut zip = common::ladder::zip_of(&[
        ("bot.py", b"print('first')\n".to_vec()),
        ("bot.pz", b"print('second')\n".to_vec()),
    ]);
    let mut at = 0;
    while let Some(i) = zip[at..].windows(6).position(|w| w == b"bot.pz") {
        zip[at + i..at + i + 6].copy_from_slice(b"bot.py");
        at += i + 6;
    }
    let (status, body) = upload(&server, &bearer, "twice", "python", &zip);
    assert_eq!(status, 422, "{body}");
    assert!(body.contains(r#"holds \"bot.py\" twice"#), "{body}");
    // Refused before anything was kept: no bot of that name.
    let (status, _, _) = request(
        &server.address,
        "GET",
        "/api/bots/twice/versions/1",
        &[("Authorization", &bearer)],
        b"",
    );
    assert_eq!(status, 404);
}
