//! A ladder of `bots` bots as it would look after a while: one account, one bot and one
//! ready version per participant (plus, for every third bot, an older retired version that
//! played too), ratings, and `pairs_per_bot` rated duplicate pairs per bot on average (each a
//! pair row, two done matches, their seats, results and result seats). Written with
//! multi-row INSERTs in one transaction: seconds, not the hours the ladder took.

use server::storage::{Db, sqlite_url};
use sqlx::Executor;

/// A database for one part: SQLite in a temporary directory, or a schema of its own in the
/// PostgreSQL of `ARENA_TEST_POSTGRES_URL`, dropped by [`Database::close`].
pub struct Database {
    pub db: Db,
    _dir: Option<tempfile::TempDir>,
    admin: Option<(sqlx::AnyPool, String)>,
}

pub const POSTGRES_ENV: &str = "ARENA_TEST_POSTGRES_URL";

/// The databases to measure: SQLite, and PostgreSQL when configured.
pub fn backends() -> Vec<&'static str> {
    let mut out = vec!["sqlite"];
    if std::env::var(POSTGRES_ENV).is_ok() {
        out.push("postgres");
    }
    out
}

impl Database {
    pub async fn open(label: &'static str) -> Database {
        if label == "sqlite" {
            let dir = super::common::temp_dir("ladder-load-db-");
            let db = Db::open(&sqlite_url(&dir.path().join("contest.db")))
                .await
                .expect("SQLite");
            return Database {
                db,
                _dir: Some(dir),
                admin: None,
            };
        }
        let url = std::env::var(POSTGRES_ENV).expect("a PostgreSQL URL");
        sqlx::any::install_default_drivers();
        let admin = sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .expect("connect to ARENA_TEST_POSTGRES_URL");
        let schema = format!(
            "load_{}",
            server::storage::random_hex(8).expect("random bytes")
        );
        admin
            .execute(format!("CREATE SCHEMA {schema}").as_str())
            .await
            .expect("a schema");
        let sep = if url.contains('?') { '&' } else { '?' };
        let db = Db::open(&format!("{url}{sep}options=-c%20search_path%3D{schema}"))
            .await
            .expect("PostgreSQL");
        Database {
            db,
            _dir: None,
            admin: Some((admin, schema)),
        }
    }

    pub async fn close(self) {
        self.db.close().await;
        if let Some((admin, schema)) = self.admin {
            let _ = admin
                .execute(format!("DROP SCHEMA {schema} CASCADE").as_str())
                .await;
            admin.close().await;
        }
    }
}

/// Ids of the seeded rows (sequential here; random in the server, which changes nothing for
/// the indexes used).
pub fn user_id(i: usize) -> i64 {
    1_000_000 + i as i64
}
pub fn bot_id(i: usize) -> i64 {
    2_000_000 + i as i64
}
/// The ready version of bot `i`.
pub fn version_id(i: usize) -> i64 {
    3_000_000 + i as i64
}
/// The retired version of bot `i` (every third bot has one).
fn old_version_id(i: usize) -> i64 {
    4_000_000 + i as i64
}
pub fn bot_name(i: usize) -> String {
    format!("bot{i:04}")
}

/// A small deterministic generator (SplitMix64): the same ladder every run.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Rows of one table, flushed as multi-row INSERTs.
struct Inserts {
    head: &'static str,
    rows: Vec<String>,
    statements: Vec<String>,
}

impl Inserts {
    fn new(head: &'static str) -> Inserts {
        Inserts {
            head,
            rows: Vec::new(),
            statements: Vec::new(),
        }
    }
    fn push(&mut self, row: String) {
        self.rows.push(row);
        if self.rows.len() == 500 {
            self.flush();
        }
    }
    fn flush(&mut self) {
        if !self.rows.is_empty() {
            self.statements
                .push(format!("{} VALUES {}", self.head, self.rows.join(",")));
            self.rows.clear();
        }
    }
    fn done(mut self) -> Vec<String> {
        self.flush();
        self.statements
    }
}

/// What was seeded.
pub struct Seeded {
    pub pairs: usize,
    pub matches: usize,
}

/// Seeds `bots` participants and about `pairs_per_bot` rated pairs per bot.
pub async fn seed(db: &Db, bots: usize, pairs_per_bot: usize) -> Seeded {
    let now = server::storage::now_ms();
    let mut rng = Mix(2026);
    let mut users = Inserts::new(
        "INSERT INTO users (id, name, display_name, password_hash, is_admin, created_at)",
    );
    let mut bot_rows = Inserts::new("INSERT INTO bots (id, owner_id, name, created_at)");
    let mut versions = Inserts::new(
        "INSERT INTO bot_versions (id, bot_id, number, language, state, source_kind, \
         source_name, source_bytes, unpacked_bytes, file_count, source_sha256, created_at, \
         updated_at)",
    );
    let day = 86_400_000i64;
    for i in 0..bots {
        users.push(format!(
            "({}, 'user{i:04}', 'User {i}', '$argon2id$not-a-real-hash', 0, {})",
            user_id(i),
            now - 30 * day
        ));
        bot_rows.push(format!(
            "({}, {}, '{}', {})",
            bot_id(i),
            user_id(i),
            bot_name(i),
            now - 30 * day
        ));
        let has_old = i.is_multiple_of(3);
        if has_old {
            versions.push(format!(
                "({}, {}, 1, 'python', 'retired', 'zip', 'bot.zip', 4000, 30000, 2, 'x', {}, {})",
                old_version_id(i),
                bot_id(i),
                now - 20 * day,
                now - 10 * day
            ));
        }
        versions.push(format!(
            "({}, {}, {}, 'python', 'ready', 'zip', 'bot.zip', 4000, 30000, 2, 'x', {}, {})",
            version_id(i),
            bot_id(i),
            if has_old { 2 } else { 1 },
            now - 10 * day,
            now - 10 * day
        ));
    }
    // Pairs: each between two bots of different owners (every bot has its own owner here),
    // the first bot cycling so that every bot plays about as often; a fifth of them by the
    // retired versions (bots that have one), earlier.
    let total_pairs = bots * pairs_per_bot / 2;
    let mut pairs =
        Inserts::new("INSERT INTO match_pairs (id, version_a, version_b, created_at, rated_at)");
    let mut matches = Inserts::new(
        "INSERT INTO matches (id, state, seed, hands, duplicate, created_at, not_before, \
         attempt, max_attempts, started_at, finished_at, pair_id)",
    );
    let mut seats = Inserts::new("INSERT INTO match_seats (match_id, seat, version_id)");
    let mut results =
        Inserts::new("INSERT INTO match_results (match_id, worker, replay_gz, recorded_at)");
    let mut result_seats =
        Inserts::new("INSERT INTO match_result_seats (match_id, seat, chips, faults)");
    let mut games = vec![0i64; bots];
    for p in 0..total_pairs {
        let a = p % bots;
        let b = (a + 1 + rng.below(bots - 1)) % bots;
        let old = a.is_multiple_of(3) && rng.below(5) == 0;
        let (va, vb) = (
            if old {
                old_version_id(a)
            } else {
                version_id(a)
            },
            version_id(b),
        );
        if !old {
            games[a] += 1;
            games[b] += 1;
        }
        // Spread over the last ten days, in order.
        let at = now - 10 * day + (p as i64 * 10 * day) / total_pairs.max(1) as i64;
        let pair_id = 10_000_000 + p as i64;
        pairs.push(format!("({pair_id}, {va}, {vb}, {at}, {})", at + 2000));
        let chips = rng.below(400) as i64 - 200;
        for (m, order) in [[va, vb], [vb, va]].iter().enumerate() {
            let id = 20_000_000 + 2 * p as i64 + m as i64;
            let seed = rng.next() as i64;
            matches.push(format!(
                "({id}, 'done', {seed}, 100, 1, {at}, {at}, 1, 3, {}, {}, {pair_id})",
                at + m as i64 * 1000,
                at + m as i64 * 1000 + 900
            ));
            for (seat, v) in order.iter().enumerate() {
                seats.push(format!("({id}, {seat}, {v})"));
            }
            results.push(format!(
                "({id}, 'bench', NULL, {})",
                at + m as i64 * 1000 + 900
            ));
            let first = if m == 0 { chips } else { -chips };
            result_seats.push(format!("({id}, 0, {first}, 0)"));
            result_seats.push(format!("({id}, 1, {}, 0)", -first));
        }
    }
    let mut ratings = Inserts::new(
        "INSERT INTO ratings (version_id, rating, deviation, volatility, games, last_played_at)",
    );
    for (i, &g) in games.iter().enumerate() {
        let rating = 1200.0 + rng.below(600) as f64 + 0.5;
        let deviation = (350.0 / (1.0 + g as f64 / 8.0)).max(45.0);
        ratings.push(format!(
            "({}, {rating}, {deviation}, 0.06, {g}, {})",
            version_id(i),
            now - rng.below(day as usize) as i64
        ));
    }
    let mut tx = db.pool().begin().await.expect("a transaction");
    for table in [
        users,
        bot_rows,
        versions,
        pairs,
        matches,
        seats,
        results,
        result_seats,
        ratings,
    ] {
        for statement in table.done() {
            (&mut *tx)
                .execute(statement.as_str())
                .await
                .expect("a seed INSERT");
        }
    }
    tx.commit().await.expect("commit");
    // PostgreSQL's autovacuum would have analysed tables this size by now; SQLite has no
    // statistics unless the server asks for them (it does not), so it is left as it is.
    if db.backend() == server::storage::Backend::Postgres {
        db.pool().execute("ANALYZE").await.expect("ANALYZE");
    }
    Seeded {
        pairs: total_pairs,
        matches: 2 * total_pairs,
    }
}
