//! The build pipeline: uploads built in the sandbox and checked with `check-bot`, their
//! states and logs, the previous ready version retired, a dead builder's lease expiring, and
//! hostile builds stopped.

use crate::common;

use common::ladder::{kit, zip_of as zip};

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use server::config::Contest;
use server::ladder::build::Builder;
use server::ladder::submissions::Submissions;
use server::ladder::versions::VersionState;
use server::storage::{User, Version, now_ms};
use tokio::sync::Notify;

struct Site {
    db: server::storage::Db,
    submissions: Submissions,
    builder: Arc<Builder>,
    user: User,
    contest: Arc<Contest>,
    _dir: tempfile::TempDir,
}

async fn site(t: &common::TestDb, build: &str) -> Site {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "game = \"classic\"\nlanguages = [\"python\", \"javascript\", \"c\", \"java\", \"rust\"]\n\
         [storage]\ndata_dir = \"{}\"\n[uploads]\nuploads_per_hour = 100\nbots_per_user = 10\n[build]\n{build}",
        dir.path().join("data").display()
    );
    let contest = Arc::new(Contest::parse(&text, Path::new("contest.toml"), dir.path()).unwrap());
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    let submissions = Submissions::of_contest(t.db.clone(), &contest).unwrap();
    let builder =
        Arc::new(Builder::new(t.db.clone(), contest.clone(), Arc::new(Notify::new())).unwrap());
    let user =
        t.db.create_user("alice", "Alice", Some("$argon2id$fake"), None, false)
            .await
            .unwrap();
    Site {
        db: t.db.clone(),
        submissions,
        builder,
        user,
        contest,
        _dir: dir,
    }
}

impl Site {
    async fn upload(&self, bot: &str, language: &str, file: &str, bytes: Vec<u8>) -> Version {
        self.submissions
            .submit(&self.user, bot, language, file, bytes)
            .await
            .unwrap()
            .1
    }

    /// Builds until nothing waits; the versions as they are then.
    async fn build_all(&self) {
        while self.builder.build_next().await.unwrap().is_some() {}
    }

    async fn get(&self, v: &Version) -> Version {
        self.db.version_by_id(v.id).await.unwrap().unwrap()
    }
}

const CRASHING_BOT: &str = r#"import json, os, sys
print("starting in", os.getcwd(), "as", sys.argv[0], file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "crash", "version": "1", "protocol": 1}), flush=True)
    elif message["type"] == "request":
        raise RuntimeError("my strategy is not written yet")
"#;

on_both!(
    uploads_are_built_checked_and_the_previous_version_retires,
    |t| {
        let site = site(t, "").await;
        let started = Instant::now();
        let v1 = site
            .upload(
                "pybot",
                "python",
                "minimal_bot.py",
                kit("python/minimal_bot.py"),
            )
            .await;
        let broken = site
            .upload(
                "cbot",
                "c",
                "bot.c",
                b"int main(void) { return 0 }\n".to_vec(),
            )
            .await;
        let crashing = site
            .upload(
                "crash",
                "python",
                "crashy.py",
                CRASHING_BOT.as_bytes().to_vec(),
            )
            .await;
        site.build_all().await;

        let v1 = site.get(&v1).await;
        assert_eq!(v1.state, VersionState::Ready, "{v1:?}");
        assert!(v1.build_log.contains("py_compile"), "{}", v1.build_log);
        assert!(v1.check_log.contains(" 0 failed"), "{}", v1.check_log);

        let broken = site.get(&broken).await;
        assert_eq!(broken.state, VersionState::Failed);
        assert!(
            broken.build_log.contains("$ gcc -O2"),
            "{}",
            broken.build_log
        );
        assert!(broken.build_log.contains("error:"), "{}", broken.build_log);
        assert!(
            broken.build_log.contains("exit status 1"),
            "{}",
            broken.build_log
        );
        assert_eq!(broken.check_log, "", "not checked");
        assert!(
            !site.builder.build_dir(broken.id).exists(),
            "a failed build is not kept"
        );

        let crashing = site.get(&crashing).await;
        assert_eq!(crashing.state, VersionState::Failed);
        assert!(
            crashing.build_log.ends_with("built\n"),
            "{}",
            crashing.build_log
        );
        assert!(
            crashing.check_log.contains("FAIL"),
            "{}",
            crashing.check_log
        );
        assert!(
            crashing.check_log.contains("Traceback"),
            "{}",
            crashing.check_log
        );
        assert!(
            crashing
                .check_log
                .contains("my strategy is not written yet"),
            "{}",
            crashing.check_log
        );
        // The owner's logs name the upload's files as uploaded, and none of the server's
        // directories (the traceback's file, the bot's argv[0] and its working directory).
        assert!(
            crashing.check_log.contains("File \"crashy.py\", line 8"),
            "{}",
            crashing.check_log
        );
        assert!(
            crashing.check_log.contains(" as crashy.py"),
            "{}",
            crashing.check_log
        );
        assert!(
            crashing.check_log.contains("starting in <scratch>/"),
            "{}",
            crashing.check_log
        );
        let data = site.contest.data_dir.to_string_lossy().into_owned();
        let tmp = site._dir.path().to_string_lossy().into_owned();
        for log in [&crashing.check_log, &crashing.build_log, &broken.build_log] {
            for leak in [data.as_str(), tmp.as_str(), "builds/", "/work/"] {
                assert!(!log.contains(leak), "{leak} in {log}");
            }
        }
        // "Within a minute", on a loaded machine.
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{:?}",
            started.elapsed()
        );

        // A multi-file bot (the starter kit's bot and its helper module) as a zip: it passes,
        // becomes the bot's ready version, and the first one retires (kept, with its logs).
        let v2 = site
            .upload(
                "pybot",
                "python",
                "bot.zip",
                zip(&[
                    ("bot.py", kit("python/random_bot.py")),
                    ("teenpatti.py", kit("python/teenpatti.py")),
                ]),
            )
            .await;
        site.build_all().await;
        let v2 = site.get(&v2).await;
        assert_eq!(
            v2.state,
            VersionState::Ready,
            "{}\n{}",
            v2.build_log,
            v2.check_log
        );
        let v1 = site.get(&v1).await;
        assert_eq!(v1.state, VersionState::Retired);
        assert!(v1.check_log.contains(" 0 failed"), "logs are kept");
        assert!(
            site.builder
                .build_dir(v1.id)
                .join("minimal_bot.py")
                .exists()
        );

        // A failing third version leaves the ready one alone.
        let v3 = site
            .upload("pybot", "python", "bot.py", b"def broken(:\n".to_vec())
            .await;
        site.build_all().await;
        let v3 = site.get(&v3).await;
        assert_eq!(v3.state, VersionState::Failed);
        assert!(v3.build_log.contains("SyntaxError"), "{}", v3.build_log);
        assert_eq!(site.get(&v2).await.state, VersionState::Ready);
    }
);

on_both!(
    a_dead_builders_lease_expires_and_the_version_is_built_again,
    |t| {
        let site = site(t, "").await;
        let v = site
            .upload("pybot", "python", "bot.py", kit("python/minimal_bot.py"))
            .await;
        // A builder claims it and dies (the server killed mid-build): nobody finishes it.
        let dead = site.db.claim_build(60_000).await.unwrap().unwrap();
        assert_eq!(dead.version.id, v.id);
        assert_eq!(site.builder.build_next().await.unwrap(), None, "leased");
        // Its lease runs out; the next builder's pass puts it back and builds it.
        let later = now_ms() + 61_000;
        assert_eq!(site.db.expire_builds(later, 3).await.unwrap(), 1);
        assert_eq!(
            site.builder.build_next().await.unwrap(),
            Some((v.id, VersionState::Ready))
        );
        let v = site.get(&v).await;
        assert_eq!((v.state, v.build_attempt), (VersionState::Ready, 2));
        // The dead builder's late result is dropped.
        let late = server::ladder::versions::BuildOutcome {
            passed: false,
            build_log: "late".into(),
            check_log: String::new(),
            artifact: None,
        };
        assert!(
            !site
                .db
                .finish_build(v.id, &dead.lease_token, &late)
                .await
                .unwrap()
        );
        assert_eq!(site.get(&v).await.state, VersionState::Ready);
    }
);

/// A build that never ends (the C preprocessor asked for 2^40 tokens) is stopped at the
/// contest's time limit and fails, with the reason in its log.
#[tokio::test]
async fn a_build_that_runs_forever_is_stopped() {
    let t = common::TestDb::sqlite().await;
    let site = site(&t, "time_seconds = 3\n").await;
    let mut bomb = String::from("#define A0 x\n");
    for i in 1..=40 {
        bomb.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    bomb.push_str("A40\nint main(void) { return 0; }\n");
    let v = site.upload("bomb", "c", "bot.c", bomb.into_bytes()).await;
    let started = Instant::now();
    site.build_all().await;
    let v = site.get(&v).await;
    assert_eq!(v.state, VersionState::Failed);
    assert!(
        v.build_log.contains("took longer than the contest's 3 s")
            || v.build_log.contains("killed by signal")
            || v.build_log.contains("exit status"),
        "{}",
        v.build_log
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(v.build_log.len() <= site.contest.build.log_bytes as usize + 100);
    t.cleanup().await;
}

/// Each language's starter kit as a participant would upload it builds in the sandbox with
/// the documented command and passes check-bot; Rust (no kit of a single file) is compiled
/// from a `main.rs` that is not a bot, so it builds and then fails the check.
#[tokio::test]
async fn every_language_builds_in_the_sandbox() {
    let t = common::TestDb::sqlite().await;
    let site = site(&t, "builders = 2\n").await;
    let js = site
        .upload(
            "jsbot",
            "javascript",
            "bot.tar.gz",
            tar_gz(&[
                ("jsbot/bot.js", kit("javascript/bot.js")),
                ("jsbot/teenpatti.js", kit("javascript/teenpatti.js")),
            ]),
        )
        .await;
    let c = site
        .upload(
            "ckit",
            "c",
            "bot.zip",
            zip(&[
                ("bot.c", kit("c/bot.c")),
                ("json.c", kit("c/json.c")),
                ("json.h", kit("c/json.h")),
                ("teenpatti.c", kit("c/teenpatti.c")),
                ("teenpatti.h", kit("c/teenpatti.h")),
            ]),
        )
        .await;
    let java_files: Vec<(String, Vec<u8>)> = ["Bot", "ExampleBot", "Json", "TeenPatti"]
        .iter()
        .map(|c| (format!("{c}.java"), kit(&format!("java/src/{c}.java"))))
        .collect();
    let java_refs: Vec<(&str, Vec<u8>)> = java_files
        .iter()
        .map(|(n, b)| (n.as_str(), b.clone()))
        .collect();
    let java = site
        .upload("jbot", "java", "bot.zip", zip(&java_refs))
        .await;
    let rust = site
        .upload(
            "rbot",
            "rust",
            "main.rs",
            b"fn main() { println!(\"not a bot\"); }\n".to_vec(),
        )
        .await;
    // Two builders at once, as `[build] builders = 2` runs them.
    let (b1, b2) = (site.builder.clone(), site.builder.clone());
    let one = tokio::spawn(async move { while b1.build_next().await.unwrap().is_some() {} });
    let two = tokio::spawn(async move { while b2.build_next().await.unwrap().is_some() {} });
    one.await.unwrap();
    two.await.unwrap();
    for v in [&js, &c, &java] {
        let v = site.get(v).await;
        assert_eq!(
            v.state,
            VersionState::Ready,
            "{}: {}\n{}",
            v.language,
            v.build_log,
            v.check_log
        );
    }
    let java = site.get(&java).await;
    assert!(
        java.check_log.starts_with("check-bot: java -cp . Bot\n"),
        "{}",
        java.check_log
    );
    let rust = site.get(&rust).await;
    assert_eq!(rust.state, VersionState::Failed, "{}", rust.build_log);
    assert!(rust.build_log.ends_with("built\n"), "{}", rust.build_log);
    // The toolchain's real compiler runs, the log says `rustc` (no server path).
    assert!(
        rust.build_log.starts_with("$ rustc -O "),
        "{}",
        rust.build_log
    );
    assert!(!rust.build_log.contains(".rustup"), "{}", rust.build_log);
    assert!(rust.check_log.contains("FAIL"), "{}", rust.check_log);
    t.cleanup().await;
}

fn tar_gz(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    for (name, bytes) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tar.append_data(&mut h, name, bytes.as_slice()).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}
