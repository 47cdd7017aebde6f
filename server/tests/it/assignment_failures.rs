//! When grading goes wrong, on SQLite and PostgreSQL: a student's bot that crashes fails its
//! grade with its own error and the match it happened in; a reference bot that crashes
//! pauses the grade (never the student's fail) and tells the teacher, a re-grade plays the
//! block again, and once the teacher fixes the reference (a new source, a restart) the grade
//! is judged against the fixed bot. A worker lost mid-match costs a replay of that match,
//! never a block counted twice. Matches of 12 hands, one look at 2 blocks.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use common::ladder::kit;
use server::assignment::{grader, references};
use server::config::Contest;
use server::ladder::build::Builder;
use server::ladder::cache::BuildCache;
use server::ladder::submissions::Submissions;
use server::ladder::worker::{Played, Worker};
use server::storage::{Db, Grade};
use tokio::sync::Notify;

/// The passive bot, crashing (exit 3) from hand `from` on: after `arena check-bot`'s hands,
/// within a grading match's.
fn crashing_from(from: u64) -> String {
    String::from_utf8(kit("python/minimal_bot.py"))
        .unwrap()
        .replace(
            "    elif kind == \"request\":\n",
            &format!(
                "    elif kind == \"request\":\n        if message[\"hand\"] >= {from}:\n            sys.exit(3)\n"
            ),
        )
}

async fn build_all(db: &Db, contest: &Arc<Contest>) {
    let builder = Builder::new(db.clone(), contest.clone(), Arc::new(Notify::new())).unwrap();
    while builder.build_next().await.unwrap().is_some() {}
}

/// Runs the grader and plays its matches until nothing is left to play.
async fn grade_all(worker: &Worker) {
    loop {
        worker.schedule().await.unwrap();
        if worker.play_next().await.unwrap() == Played::Idle {
            worker.schedule().await.unwrap();
            if worker.play_next().await.unwrap() == Played::Idle {
                return;
            }
        }
    }
}

async fn grade(db: &Db, owner: &str, reference: &str) -> Grade {
    let subs = db.submissions(i64::MAX).await.unwrap();
    let sub = subs.iter().find(|s| s.owner == owner).unwrap();
    db.grades(Some(sub.version_id))
        .await
        .unwrap()
        .into_iter()
        .find(|g| g.reference == reference)
        .unwrap_or_else(|| panic!("no grade of {owner} against {reference}"))
}

on_both!(crashes_fail_students_and_pause_on_references, |t| {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("steady.py"), kit("python/minimal_bot.py")).unwrap();
    std::fs::write(dir.path().join("flaky.py"), crashing_from(5)).unwrap();
    let text = format!(
        "game = \"closest-555\"\nlanguages = [\"python\"]\n[storage]\ndata_dir = \"{}\"\n\
         [time]\nstartup_ms = 4000\n\
         [assignment]\ndeadline = 2099-01-01T00:00:00Z\nhands = 12\nmin_blocks = 2\nmax_blocks = 2\ncopy_blocks = 0\n\
         [[assignment.reference]]\nname = \"steady\"\nsource = \"steady.py\"\nlanguage = \"python\"\nmark = 0.0\n\
         [[assignment.reference]]\nname = \"flaky\"\nsource = \"flaky.py\"\nlanguage = \"python\"\nmark = 0.0\n",
        dir.path().join("data").display()
    );
    let contest = Arc::new(Contest::parse(&text, Path::new("class.toml"), dir.path()).unwrap());
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    let policy = contest.assignment.clone().unwrap();
    let submissions = Submissions::of_contest(t.db.clone(), &contest).unwrap();
    let added = references::provision(&t.db, &policy, submissions.uploads_dir())
        .await
        .unwrap();
    assert_eq!(added, ["steady", "flaky"]);
    for (owner, source) in [
        ("ann", crashing_from(10)),
        (
            "ben",
            String::from_utf8(kit("python/minimal_bot.py")).unwrap(),
        ),
    ] {
        let user =
            t.db.create_user(owner, owner, Some("$argon2id$fake"), None, false)
                .await
                .unwrap();
        submissions
            .submit(
                &user,
                &format!("{owner}-bot"),
                "python",
                "bot.py",
                source.into_bytes(),
            )
            .await
            .unwrap();
    }
    build_all(&t.db, &contest).await;
    let cache = Arc::new(BuildCache::new(contest.data_dir.join("cache")).unwrap());
    let worker = Worker::new(t.db.clone(), contest.clone(), "w".into(), cache).unwrap();
    // A worker claims a grading match and is lost: its lease runs out, the match goes back
    // to the queue and is played again; its block is counted once.
    assert!(worker.schedule().await.unwrap() > 0);
    let lost = t.db.claim_match("lost", 1).await.unwrap().unwrap();
    assert!(lost.grading);
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    assert_eq!(
        t.db.expire_matches(server::storage::now_ms())
            .await
            .unwrap(),
        1
    );
    grade_all(&worker).await;
    assert_eq!(
        t.db.match_state(lost.id).await.unwrap(),
        Some(("done".into(), 2))
    );
    assert_eq!(t.db.results_count(lost.id).await.unwrap(), 1);

    // ann's own crash fails her, with the match and her bot's error.
    let g = grade(&t.db, "ann", "steady").await;
    assert_eq!(g.state, "fail", "{g:?}");
    assert!(g.why.starts_with("your bot's fault in match"), "{}", g.why);
    assert!(
        g.why.contains("(hand 11)") && g.why.contains("crashed"),
        "{}",
        g.why
    );
    assert!(g.match_id.is_some());
    // The reference crashing (from hand 6) pauses both students' grades against it.
    for owner in ["ann", "ben"] {
        let g = grade(&t.db, owner, "flaky").await;
        assert_eq!(g.state, "paused", "{owner}: {g:?}");
        assert!(
            g.why.contains("the reference bot flaky faulted"),
            "{}",
            g.why
        );
    }
    // ben mirrors steady exactly: edge 0, not above a mark of 0.
    let g = grade(&t.db, "ben", "steady").await;
    assert_eq!(
        (g.state.as_str(), g.edge, g.blocks),
        ("fail", Some(0.0), 2),
        "{g:?}"
    );

    // A re-grade plays the paused blocks again: the reference still crashes, still paused.
    grader::regrade(&t.db).await.unwrap();
    grade_all(&worker).await;
    assert_eq!(grade(&t.db, "ben", "flaky").await.state, "paused");
    assert_eq!(grade(&t.db, "ann", "steady").await.state, "fail");

    // The teacher fixes the reference and restarts: a new version; re-graded against it.
    std::fs::write(dir.path().join("flaky.py"), kit("python/minimal_bot.py")).unwrap();
    let added = references::provision(&t.db, &policy, submissions.uploads_dir())
        .await
        .unwrap();
    assert_eq!(added, ["flaky"]);
    build_all(&t.db, &contest).await;
    grader::regrade(&t.db).await.unwrap();
    grade_all(&worker).await;
    let g = grade(&t.db, "ben", "flaky").await;
    assert_eq!((g.state.as_str(), g.edge), ("fail", Some(0.0)), "{g:?}");
    let g = grade(&t.db, "ann", "flaky").await;
    assert_eq!(g.state, "fail", "her own crash now: {g:?}");
    assert!(g.why.starts_with("your bot's fault"), "{}", g.why);
    // Nothing was counted twice: two blocks of two matches each per grade.
    let (queued, running) = t.db.grading_queue().await.unwrap();
    assert_eq!((queued, running), (0, 0));
});
