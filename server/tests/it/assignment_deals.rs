//! Which deals an assignment's uploads meet, on SQLite and PostgreSQL. A student's replays
//! show whole deals (the opponent's cards too), so every upload's graded blocks are dealt
//! its own cards: a resubmission, or a classmate reading those replays, never meets them
//! again. The copy check's probes are the one set of deals every upload meets; they are
//! played once the grades are out, never graded, never listed to the student, and two
//! students who decide alike on them are flagged. Matches of 20 hands, one look at 2 blocks.

use crate::common;

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use common::ladder::kit;
use server::assignment::{gradebook, references};
use server::config::Contest;
use server::ladder::build::Builder;
use server::ladder::cache::BuildCache;
use server::ladder::submissions::Submissions;
use server::ladder::worker::{Played, Worker};
use server::storage::NewPair;
use tokio::sync::Notify;

on_both!(every_upload_meets_its_own_deals, |t| {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("steady.py"), kit("python/minimal_bot.py")).unwrap();
    let text = format!(
        "game = \"closest-555\"\nlanguages = [\"python\"]\n[storage]\ndata_dir = \"{}\"\n\
         [time]\nstartup_ms = 4000\n\
         [assignment]\ndeadline = 2099-01-01T00:00:00Z\ncounted = \"best\"\nhands = 20\n\
         min_blocks = 2\nmax_blocks = 2\ncopy_blocks = 2\n\
         [[assignment.reference]]\nname = \"steady\"\nsource = \"steady.py\"\nlanguage = \"python\"\nmark = 0.0\n",
        dir.path().join("data").display()
    );
    let contest = Arc::new(Contest::parse(&text, Path::new("class.toml"), dir.path()).unwrap());
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    let policy = contest.assignment.clone().unwrap();
    let submissions = Submissions::of_contest(t.db.clone(), &contest).unwrap();
    references::provision(&t.db, &policy, submissions.uploads_dir())
        .await
        .unwrap();
    // ann uploads twice (both count: the best does), ben once; all three play like the
    // reference (the passive bot).
    let passive = kit("python/minimal_bot.py");
    for owner in ["ann", "ben"] {
        let user =
            t.db.create_user(owner, owner, Some("$argon2id$fake"), None, false)
                .await
                .unwrap();
        let times = if owner == "ann" { 2 } else { 1 };
        for _ in 0..times {
            submissions
                .submit(
                    &user,
                    &format!("{owner}-bot"),
                    "python",
                    "bot.py",
                    passive.clone(),
                )
                .await
                .unwrap();
        }
    }
    let builder = Builder::new(t.db.clone(), contest.clone(), Arc::new(Notify::new())).unwrap();
    while builder.build_next().await.unwrap().is_some() {}
    let cache = Arc::new(BuildCache::new(contest.data_dir.join("cache")).unwrap());
    let worker = Worker::new(t.db.clone(), contest.clone(), "w".into(), cache).unwrap();
    loop {
        worker.schedule().await.unwrap();
        if worker.play_next().await.unwrap() == Played::Idle {
            worker.schedule().await.unwrap();
            if worker.play_next().await.unwrap() == Played::Idle {
                break;
            }
        }
    }

    let uploads = t.db.submissions(i64::MAX).await.unwrap();
    assert_eq!(uploads.len(), 3);
    let mut block_seeds: Vec<HashSet<i64>> = Vec::new();
    let mut probe_seeds: Vec<Vec<(i64, i64)>> = Vec::new();
    for upload in &uploads {
        let blocks = t.db.block_matches(upload.version_id).await.unwrap();
        let probes = t.db.probe_matches(upload.version_id).await.unwrap();
        // Two blocks and two probes, both seat orders of each, all played.
        assert_eq!(
            (blocks.len(), probes.len()),
            (4, 4),
            "{blocks:?} {probes:?}"
        );
        assert!(
            blocks.iter().chain(&probes).all(|m| m.state == "done"),
            "{blocks:?} {probes:?}"
        );
        for set in [&blocks, &probes] {
            for pair in set.chunks(2) {
                assert_eq!(pair[0].block, pair[1].block);
                assert_eq!(pair[0].seed, pair[1].seed, "both seat orders of one deal");
                assert_ne!(pair[0].seat, pair[1].seat);
            }
        }
        block_seeds.push(blocks.iter().map(|m| m.seed).collect());
        let mut probe: Vec<(i64, i64)> = probes.iter().map(|m| (m.block, m.seed)).collect();
        probe.dedup();
        probe_seeds.push(probe);
        // The grade is the blocks' alone: the passive bot mirrors the reference, edge 0.
        let grade = &t.db.grades(Some(upload.version_id)).await.unwrap()[0];
        assert_eq!(
            (grade.state.as_str(), grade.blocks, grade.edge),
            ("fail", 2, Some(0.0)),
            "{grade:?}"
        );
    }
    // Each upload its own deals: ann's second upload meets none of her first's, nor ben's.
    for (i, a) in block_seeds.iter().enumerate() {
        assert_eq!(a.len(), 2, "two blocks, two deals");
        for b in &block_seeds[i + 1..] {
            assert!(a.is_disjoint(b), "{block_seeds:?}");
        }
    }
    // The probes: the same two deals for everyone, none of them a graded one.
    assert_eq!(probe_seeds[0].len(), 2);
    assert!(
        probe_seeds.iter().all(|p| *p == probe_seeds[0]),
        "{probe_seeds:?}"
    );
    for (_, seed) in &probe_seeds[0] {
        assert!(block_seeds.iter().all(|b| !b.contains(seed)));
    }

    // The copy check compares the students on the probes: ann and ben decide alike.
    let participants = t.db.participants().await.unwrap();
    let grades = t.db.grades(None).await.unwrap();
    let students = gradebook::build(&policy, &participants, &uploads, &grades);
    let flags = gradebook::copies(&t.db, &policy, &submissions, &students)
        .await
        .unwrap();
    let play: Vec<(&str, &str, u64)> = flags
        .iter()
        .filter(|f| f.kind == "play")
        .map(|f| (f.a.as_str(), f.b.as_str(), f.compared))
        .collect();
    assert!(
        play.iter()
            .any(|(a, b, n)| (*a, *b) == ("ann", "ben") && *n >= gradebook::MIN_DECISIONS),
        "{flags:?}"
    );

    // A replaced upload's probes still waiting are cancelled, and nothing else is.
    let first = uploads[0].version_id;
    let reference = t.db.block_matches(first).await.unwrap()[0].reference_version_id;
    let pair = NewPair {
        version_a: first,
        version_b: reference,
        seeds: [7, 7],
        hands: 20,
        max_attempts: 3,
    };
    t.db.schedule_copy_probe(&pair, 99).await.unwrap();
    t.db.schedule_grading_block(&pair, 99).await.unwrap();
    assert_eq!(t.db.cancel_probes_of(&[first]).await.unwrap(), 2);
    let waiting = |ms: Vec<server::storage::BlockMatch>| {
        ms.iter()
            .filter(|m| m.block == 99)
            .map(|m| m.state.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        waiting(t.db.probe_matches(first).await.unwrap()),
        ["cancelled", "cancelled"]
    );
    assert_eq!(
        waiting(t.db.block_matches(first).await.unwrap()),
        ["queued", "queued"]
    );
    assert_eq!(t.db.cancel_probes_of(&[]).await.unwrap(), 0);
});
