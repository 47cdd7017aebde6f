//! Databases for the server's tests: SQLite in a temporary directory always, and PostgreSQL
//! when `ARENA_TEST_POSTGRES_URL` names one (e.g. postgres://arena:arena@127.0.0.1/arena_test),
//! each test in a schema of its own, dropped at the end.

#![allow(dead_code)]

pub mod binaries;
pub mod ladder;
pub mod private_postgres;
pub mod replay_page;
pub mod router;

use server::storage::{Db, sqlite_url};
use sqlx::Executor;

pub const POSTGRES_ENV: &str = "ARENA_TEST_POSTGRES_URL";

/// A database for one test, removed when dropped (the SQLite directory) or by
/// [`TestDb::cleanup`] (the PostgreSQL schema).
pub struct TestDb {
    pub db: Db,
    /// What a process of its own (a worker) connects with.
    pub url: String,
    pub label: &'static str,
    dir: Option<tempfile::TempDir>,
    admin: Option<(sqlx::AnyPool, String)>,
}

impl TestDb {
    pub async fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().unwrap();
        let url = sqlite_url(&dir.path().join("sub/contest.db"));
        let db = Db::open(&url).await.unwrap();
        TestDb {
            db,
            url,
            label: "sqlite",
            dir: Some(dir),
            admin: None,
        }
    }

    /// `None` (after saying so) when no PostgreSQL is configured.
    pub async fn postgres(test: &str) -> Option<TestDb> {
        let Ok(url) = std::env::var(POSTGRES_ENV) else {
            eprintln!("{test}: PostgreSQL skipped: set {POSTGRES_ENV} to run it there too");
            return None;
        };
        sqlx::any::install_default_drivers();
        let admin = sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .expect("connect to ARENA_TEST_POSTGRES_URL");
        let schema = format!("t_{}", server::storage::random_hex(8).unwrap());
        admin
            .execute(format!("CREATE SCHEMA {schema}").as_str())
            .await
            .unwrap();
        let sep = if url.contains('?') { '&' } else { '?' };
        let url = format!("{url}{sep}options=-c%20search_path%3D{schema}");
        let db = Db::open(&url).await.unwrap();
        Some(TestDb {
            db,
            url,
            label: "postgres",
            dir: None,
            admin: Some((admin, schema)),
        })
    }

    /// The database at `url` as it is (a test's private server): nothing to drop after.
    pub async fn at(url: &str, label: &'static str) -> TestDb {
        TestDb {
            db: Db::open(url).await.unwrap(),
            url: url.to_string(),
            label,
            dir: None,
            admin: None,
        }
    }

    pub fn dir(&self) -> Option<&std::path::Path> {
        self.dir.as_ref().map(|d| d.path())
    }

    pub async fn cleanup(self) {
        self.db.close().await;
        if let Some((admin, schema)) = self.admin {
            admin
                .execute(format!("DROP SCHEMA {schema} CASCADE").as_str())
                .await
                .unwrap();
            admin.close().await;
        }
    }
}

/// A test that runs its body on SQLite, then on PostgreSQL if configured:
/// `on_both!(name, |t| { ... })` with `t: &TestDb`.
#[macro_export]
macro_rules! on_both {
    ($name:ident, |$t:ident| $body:block) => {
        #[tokio::test]
        async fn $name() {
            async fn body($t: &common::TestDb) $body
            let t = common::TestDb::sqlite().await;
            body(&t).await;
            t.cleanup().await;
            if let Some(t) = common::TestDb::postgres(stringify!($name)).await {
                body(&t).await;
                t.cleanup().await;
            }
        }
    };
}
