//! A ladder replay page stays small: a 60-hand match between a bot that writes to its
//! stderr at every decision (kept for its owner) and the Python kit's strength bot is
//! served under 100 KB, to its owner and to the public, and still holds every record of the
//! stored replay for the viewer, which the page links from `/assets/` and which is served.

use crate::common;

use common::ladder::{Entry, ladder_with_hands};
use server::ladder::worker::Played;
use server::storage::{Finish, secret_digest};

const LEAKY: &str = include_str!("../bots/leaky.py");
const SECRET: &str = "leaky-secret-plan";
const HANDS: u64 = 60;
const PAGE_BOUND: usize = 100 * 1024;

#[tokio::test]
async fn a_sixty_hand_replay_page_is_under_100_kb_and_whole() {
    let t = common::TestDb::sqlite().await;
    let l = ladder_with_hands(
        &t,
        60,
        HANDS,
        &[
            Entry::single("alice", "leaky", LEAKY.as_bytes().to_vec()),
            Entry::kit_bot("bob", "strong", "python/strength_bot.py"),
        ],
    )
    .await;
    let worker = l.worker("w");
    worker.schedule().await.unwrap();
    let Played::Match(id, Finish::Recorded { .. }) = worker.play_next().await.unwrap() else {
        panic!("the worker did not record a match");
    };
    let gz = l.db.replay_gz(id).await.unwrap().unwrap();
    let mut stored = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut stored).unwrap();
    let records = arena::replay::parse(&stored, "stored").unwrap();
    let hands: std::collections::BTreeSet<u64> = records
        .iter()
        .filter_map(|r| match r {
            arena::replay::Record::Event { hand, .. } => Some(*hand),
            _ => None,
        })
        .collect();
    assert_eq!(hands.len() as u64, HANDS, "a whole match was played");
    // What the page used to be: the records inline, with the viewer.
    let inline = arena::html::replay_page(&records, &Default::default())
        .unwrap()
        .len();

    // Alice, the leaky bot's owner, sees its lines; the public does not.
    let alice = l.db.user_by_name("alice").await.unwrap().unwrap();
    let session = server::storage::random_hex(32).unwrap();
    l.db.create_session(
        &secret_digest(&session),
        alice.id,
        "csrf",
        server::storage::now_ms() + 3_600_000,
    )
    .await
    .unwrap();
    let cookie = format!("arena_session={session}");
    let uri = format!("/matches/{id}/replay");
    for (who, cookie, sees) in [
        ("alice", Some(cookie.as_str()), true),
        ("public", None, false),
    ] {
        let a = common::router::get(&l.router(), &uri, cookie).await;
        assert_eq!(a.status, 200, "{who}");
        let size = a.body.len();
        eprintln!(
            "{HANDS}-hand replay page ({who}): {size} bytes (records inline: {inline} bytes; \
             stored replay {} bytes, {} gzipped)",
            stored.len(),
            gz.len()
        );
        assert!(size < PAGE_BOUND, "{who}: {size} bytes");
        // The viewer is linked, not inline, and the page names it where the site serves it.
        assert!(
            a.body
                .contains(r#"<script src="/assets/viewer.js"></script>"#),
            "{who}"
        );
        assert!(!a.body.contains("function buildMatch"), "{who}");
        let embedded = common::replay_page::replay_text(&a.body);
        let lines: Vec<&str> = embedded.lines().collect();
        assert_eq!(lines.len(), records.len(), "{who}: every record");
        assert_eq!(embedded.contains(SECRET), sees, "{who}");
        assert!(
            lines.last().unwrap().contains("\"type\":\"result\""),
            "{who}"
        );
    }

    // The viewer the pages link, with its styles.
    for (path, kind, marker) in [
        (
            "/assets/viewer.js",
            "text/javascript",
            "function buildMatch",
        ),
        ("/assets/viewer.css", "text/css", ".felt {"),
    ] {
        let a = common::router::get(&l.router(), path, None).await;
        assert_eq!(a.status, 200, "{path}");
        assert!(
            a.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with(kind),
            "{path}"
        );
        assert!(a.body.contains(marker), "{path}");
    }
    t.cleanup().await;
}
