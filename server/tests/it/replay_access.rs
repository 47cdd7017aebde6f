//! Who sees what of a ladder replay: the moves are public (unless the contest keeps replays
//! to the bots' owners), a bot's stderr is its owner's alone, admins see everything.

use crate::common;

use std::sync::Arc;

use common::ladder::{Entry, Ladder, kit, ladder_of};
use server::ladder::worker::Played;
use server::storage::{Finish, secret_digest};

const LEAKY: &str = include_str!("../bots/leaky.py");
const SECRET: &str = "leaky-secret-plan";

/// A session for `user` (as a login makes one); the cookie to send.
async fn login(l: &Ladder, user: &str) -> String {
    let user = l.db.user_by_name(user).await.unwrap().unwrap();
    let id = server::storage::random_hex(32).unwrap();
    l.db.create_session(
        &secret_digest(&id),
        user.id,
        "csrf",
        server::storage::now_ms() + 3_600_000,
    )
    .await
    .unwrap();
    format!("arena_session={id}")
}

/// GET `uri` from `router` with an optional cookie: status, Cache-Control, and the body: a
/// replay page's embedded replay (its JSON lines, decompressed), whatever else otherwise.
async fn get(router: axum::Router, uri: &str, cookie: Option<&str>) -> (u16, String, String) {
    let a = common::router::get(&router, uri, cookie).await;
    let cache = a
        .headers
        .get("cache-control")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    if a.status != 200 {
        return (a.status.as_u16(), cache, a.body);
    }
    // Nothing but the compressed data may carry a line of the replay.
    assert!(
        !a.body.contains(SECRET),
        "stderr outside the compressed data"
    );
    let replay = common::replay_page::replay_text(&a.body);
    assert!(replay.contains("\"type\":\"result\""), "{replay}");
    (a.status.as_u16(), cache, replay)
}

on_both!(a_bots_stderr_is_shown_to_its_owner_only, |t| {
    let l = ladder_of(
        t,
        60,
        &[
            Entry::single("alice", "leaky", LEAKY.as_bytes().to_vec()),
            Entry::kit_bot("bob", "strong", "python/strength_bot.py"),
            Entry::single("carol", "caller", kit("python/minimal_bot.py")),
        ],
    )
    .await;
    let organizer =
        l.db.create_user("org", "org", Some("$argon2id$fake"), None, true)
            .await
            .unwrap();
    assert!(organizer.is_admin);
    // Play until a match of alice's against bob is stored.
    let worker = l.worker("w");
    let id = loop {
        worker.schedule().await.unwrap();
        let Played::Match(id, Finish::Recorded { .. }) = worker.play_next().await.unwrap() else {
            panic!("the worker did not record a match");
        };
        let owners = l.db.match_seat_owners(id).await.unwrap();
        let names: Vec<String> = futures::future::join_all(
            owners
                .iter()
                .map(|(_, o)| async { l.db.user_by_id(*o).await.unwrap().unwrap().name }),
        )
        .await;
        if names.contains(&"alice".to_string()) && names.contains(&"bob".to_string()) {
            break id;
        }
    };
    // The stored replay holds alice's bot's lines (fault tail and decisions).
    let gz = l.db.replay_gz(id).await.unwrap().unwrap();
    let mut stored = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut stored).unwrap();
    assert!(stored.contains(SECRET) && stored.contains("stderr_lines"));
    // Its lines name the upload's file, as does the command in the header, not the worker's
    // copy of the build.
    assert!(stored.contains(" in bot.py\""), "{stored}");
    assert!(
        stored.contains(r#""command":["python3","bot.py"]"#),
        "{stored}"
    );
    let data = l.contest.data_dir.to_string_lossy();
    assert!(!stored.contains(data.as_ref()), "{data} in {stored}");

    let uri = format!("/matches/{id}/replay");
    let (alice, bob, carol, org) = (
        login(&l, "alice").await,
        login(&l, "bob").await,
        login(&l, "carol").await,
        login(&l, "org").await,
    );
    let (status, cache, page) = get(l.router(), &uri, None).await;
    assert_eq!(status, 200);
    assert!(!page.contains(SECRET), "the public sees no stderr");
    assert!(!cache.contains("private"), "{cache}");
    for (who, cookie, sees) in [
        ("alice", &alice, true),
        ("bob", &bob, false),
        ("carol", &carol, false),
        ("org", &org, true),
    ] {
        let (status, cache, page) = get(l.router(), &uri, Some(cookie)).await;
        assert_eq!(status, 200, "{who}");
        assert_eq!(page.contains(SECRET), sees, "{who}");
        if sees {
            assert_eq!(cache, "private, no-store", "{who}");
        }
    }

    // A contest that keeps replays to the bots' owners (and admins).
    let mut private = (*l.contest).clone();
    private.ladder.public_replays = false;
    let router = || {
        server::web::router(server::web::AppState::new(
            Arc::new(private.clone()),
            l.db.clone(),
            l.submissions(),
        ))
    };
    for (who, cookie, status) in [
        ("nobody", None, 404),
        ("carol", Some(&carol), 404),
        ("bob", Some(&bob), 200),
        ("alice", Some(&alice), 200),
        ("org", Some(&org), 200),
    ] {
        let (got, _, page) = get(router(), &uri, cookie.map(String::as_str)).await;
        assert_eq!(got, status, "{who}");
        if who == "bob" {
            assert!(
                !page.contains(SECRET),
                "bob sees the game, not alice's stderr"
            );
        }
    }
});
