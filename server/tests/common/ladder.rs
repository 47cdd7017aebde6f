//! A ladder for the tests: owners with ready Python bots built and checked through the real
//! pipeline (upload, build, check-bot), a contest of short classic matches, and the worker
//! that plays them.

use std::path::Path;
use std::sync::Arc;

use server::config::Contest;
use server::ladder::build::Builder;
use server::ladder::cache::BuildCache;
use server::ladder::submissions::Submissions;
use server::ladder::versions::VersionState;
use server::ladder::worker::Worker;
use tokio::sync::Notify;

const KITS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../sample-bots");

pub struct Ladder {
    pub db: server::storage::Db,
    pub contest: Arc<Contest>,
    _dir: tempfile::TempDir,
}

/// A file of the sample bots' kits.
pub fn kit(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(KITS).join(path)).unwrap()
}

/// One owner's bot: one file is uploaded as `bot.py`, several as a zip of them.
pub struct Entry {
    pub owner: &'static str,
    pub bot: &'static str,
    pub files: Vec<(&'static str, Vec<u8>)>,
}

impl Entry {
    /// A bot of the Python kit, with the kit's helper module.
    pub fn kit_bot(owner: &'static str, bot: &'static str, file: &str) -> Entry {
        Entry {
            owner,
            bot,
            files: vec![
                ("bot.py", kit(file)),
                ("teenpatti.py", kit("python/teenpatti.py")),
            ],
        }
    }

    /// A bot of one Python file.
    pub fn single(owner: &'static str, bot: &'static str, source: Vec<u8>) -> Entry {
        Entry {
            owner,
            bot,
            files: vec![("bot.py", source)],
        }
    }

    /// The upload: its file name and bytes.
    fn upload(&self) -> (&'static str, Vec<u8>) {
        if let [(name, bytes)] = self.files.as_slice() {
            return (name, bytes.clone());
        }
        ("bot.zip", zip_of(&self.files))
    }
}

/// A zip archive of `files` (name, bytes), as a participant uploads several files.
pub fn zip_of(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in files {
        out.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut out, bytes).unwrap();
    }
    out.finish().unwrap().into_inner()
}

/// Three owners, each with a ready Python bot (built and checked by the pipeline).
pub async fn ladder(t: &super::TestDb, lease_seconds: u64) -> Ladder {
    let bots = vec![
        Entry::single("alice", "caller", kit("python/minimal_bot.py")),
        Entry::kit_bot("bob", "strong", "python/strength_bot.py"),
        Entry::kit_bot("carol", "random", "python/random_bot.py"),
    ];
    ladder_of(t, lease_seconds, &bots).await
}

/// A ladder of `bots`, every one built and ready; matches of 6 hands.
pub async fn ladder_of(t: &super::TestDb, lease_seconds: u64, bots: &[Entry]) -> Ladder {
    ladder_with_hands(t, lease_seconds, 6, bots).await
}

/// A ladder of `bots`, every one built and ready; matches of `hands` hands.
pub async fn ladder_with_hands(
    t: &super::TestDb,
    lease_seconds: u64,
    hands: u64,
    bots: &[Entry],
) -> Ladder {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "game = \"classic\"\nlanguages = [\"python\"]\n[storage]\ndata_dir = \"{}\"\n\
         [ladder]\nhands_per_match = {hands}\nlease_seconds = {lease_seconds}\nworkers = 1\n\
         [time]\nstartup_ms = 4000\n",
        dir.path().join("data").display()
    );
    let contest = Arc::new(Contest::parse(&text, Path::new("contest.toml"), dir.path()).unwrap());
    std::fs::create_dir_all(&contest.data_dir).unwrap();
    let l = Ladder {
        db: t.db.clone(),
        contest,
        _dir: dir,
    };
    let submissions = l.submissions();
    let builder = Builder::new(t.db.clone(), l.contest.clone(), Arc::new(Notify::new())).unwrap();
    for entry in bots {
        let user =
            t.db.create_user(
                entry.owner,
                entry.owner,
                Some("$argon2id$fake"),
                None,
                false,
            )
            .await
            .unwrap();
        let (name, bytes) = entry.upload();
        submissions
            .submit(&user, entry.bot, "python", name, bytes)
            .await
            .unwrap();
    }
    while let Some((_, state)) = builder.build_next().await.unwrap() {
        assert_eq!(state, VersionState::Ready);
    }
    l
}

impl Ladder {
    /// The one place the tests make a worker.
    pub fn worker(&self, name: &str) -> Worker {
        let cache = BuildCache::new(self.contest.data_dir.join("cache")).unwrap();
        Worker::new(
            self.db.clone(),
            self.contest.clone(),
            name.to_string(),
            Arc::new(cache),
        )
        .unwrap()
    }

    /// Uploads a version of `entry`'s bot for its (existing) owner and builds it: ready.
    pub async fn upload_ready(&self, entry: &Entry) {
        let user = self.db.user_by_name(entry.owner).await.unwrap().unwrap();
        let (name, bytes) = entry.upload();
        self.submissions()
            .submit(&user, entry.bot, "python", name, bytes)
            .await
            .unwrap();
        let builder = Builder::new(
            self.db.clone(),
            self.contest.clone(),
            Arc::new(Notify::new()),
        )
        .unwrap();
        while let Some((_, state)) = builder.build_next().await.unwrap() {
            assert_eq!(state, VersionState::Ready);
        }
    }

    pub fn submissions(&self) -> Submissions {
        Submissions::of_contest(self.db.clone(), &self.contest).unwrap()
    }

    /// The whole site, as the server serves it.
    pub fn router(&self) -> axum::Router {
        let state =
            server::web::AppState::new(self.contest.clone(), self.db.clone(), self.submissions());
        server::web::router(state)
    }

    /// The site's answer to a GET without a session: status and body.
    pub async fn get(&self, uri: &str) -> (u16, String) {
        use http_body_util::BodyExt;
        use tower::ServiceExt;
        let response = self
            .router()
            .oneshot(
                axum::http::Request::get(uri)
                    .body(axum::body::Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        let status = response.status().as_u16();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }
}
