//! The migrations, compiled into the binary (a deployed server needs no source tree) and
//! applied at start by sqlx's migrator, which records them in `_sqlx_migrations` and refuses a
//! database whose applied migrations were edited since.

use std::borrow::Cow;

use futures::future::BoxFuture;
use sqlx::AnyPool;
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};

/// (version, description, SQL): append new files here, never edit an applied one.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "accounts bots matches",
        include_str!("../../migrations/0001_accounts_bots_matches.sql"),
    ),
    (
        2,
        "ladder pairs ratings",
        include_str!("../../migrations/0002_ladder_pairs_ratings.sql"),
    ),
    (
        3,
        "workers final",
        include_str!("../../migrations/0003_workers_final.sql"),
    ),
    (
        4,
        "ladder indexes",
        include_str!("../../migrations/0004_ladder_indexes.sql"),
    ),
    (
        5,
        "assignment",
        include_str!("../../migrations/0005_assignment.sql"),
    ),
    (
        6,
        "copy probes",
        include_str!("../../migrations/0006_copy_probes.sql"),
    ),
];

#[derive(Debug)]
struct Embedded;

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

pub async fn run(pool: &AnyPool) -> Result<(), sqlx::migrate::MigrateError> {
    Migrator::new(Embedded).await?.run(pool).await
}
