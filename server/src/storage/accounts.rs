//! Users, login sessions and API tokens. Secrets (session ids, tokens) arrive here already
//! digested ([`super::secret_digest`]); password hashes arrive as PHC strings.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Db, Result, new_id, now_ms};

/// An account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub display_name: String,
    pub is_admin: bool,
    /// False for a roster or admin account whose owner has not used the setup token yet.
    pub has_password: bool,
}

const USER_COLUMNS: &str =
    "u.id, u.name, u.display_name, u.is_admin, (u.password_hash IS NOT NULL) AS has_password";
/// The same without the table alias, for RETURNING (SQLite's may not name an alias).
const USER_COLUMNS_BARE: &str =
    "id, name, display_name, is_admin, (password_hash IS NOT NULL) AS has_password";

fn user(row: &AnyRow) -> Result<User> {
    Ok(User {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        display_name: row.try_get("display_name")?,
        is_admin: flag(row, "is_admin")?,
        has_password: flag(row, "has_password")?,
    })
}

/// A flag column: BIGINT 0/1, or a boolean expression (PostgreSQL gives `IS NOT NULL` as a
/// boolean, SQLite as an integer).
fn flag(row: &AnyRow, column: &str) -> Result<bool> {
    match row.try_get::<i64, _>(column) {
        Ok(n) => Ok(n != 0),
        Err(_) => Ok(row.try_get::<bool, _>(column)?),
    }
}

/// A live session: its user and its form token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRecord {
    pub user: User,
    pub csrf_token: String,
    pub expires_at: i64,
}

/// An API token as its owner sees it listed (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiTokenInfo {
    pub id: i64,
    pub label: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

impl Db {
    /// Creates an account. [`super::StorageError::Conflict`] if the name is taken.
    pub async fn create_user(
        &self,
        name: &str,
        display_name: &str,
        password_hash: Option<&str>,
        setup_token_hash: Option<&str>,
        is_admin: bool,
    ) -> Result<User> {
        let id = new_id()?;
        sqlx::query(
            "INSERT INTO users (id, name, display_name, password_hash, setup_token_hash, is_admin, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(name)
        .bind(display_name)
        .bind(password_hash)
        .bind(setup_token_hash)
        .bind(i64::from(is_admin))
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(User {
            id,
            name: name.to_string(),
            display_name: display_name.to_string(),
            is_admin,
            has_password: password_hash.is_some(),
        })
    }

    pub async fn user_by_name(&self, name: &str) -> Result<Option<User>> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLUMNS} FROM users u WHERE u.name = $1"
        ))
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user).transpose()
    }

    /// The account and its password hash (`None`: not set up yet), for a login.
    pub async fn login_record(&self, name: &str) -> Result<Option<(User, Option<String>)>> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLUMNS}, u.password_hash FROM users u WHERE u.name = $1"
        ))
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            None => Ok(None),
            Some(row) => Ok(Some((user(&row)?, row.try_get("password_hash")?))),
        }
    }

    pub async fn set_password(&self, user_id: i64, password_hash: &str) -> Result<()> {
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn set_admin(&self, user_id: i64, is_admin: bool) -> Result<()> {
        sqlx::query("UPDATE users SET is_admin = $1 WHERE id = $2")
            .bind(i64::from(is_admin))
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Gives an account a new one-time setup token (its digest), e.g. a roster account whose
    /// owner lost theirs.
    pub async fn set_setup_token(&self, user_id: i64, token_hash: &str) -> Result<()> {
        sqlx::query("UPDATE users SET setup_token_hash = $1 WHERE id = $2")
            .bind(token_hash)
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The account a setup token belongs to, if the token is still unused.
    pub async fn user_by_setup_token(&self, token_hash: &str) -> Result<Option<User>> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLUMNS} FROM users u WHERE u.setup_token_hash = $1"
        ))
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user).transpose()
    }

    /// Spends a setup token: sets the password and clears the token in one statement, so a
    /// token works once even when two requests race.
    pub async fn use_setup_token(
        &self,
        token_hash: &str,
        password_hash: &str,
    ) -> Result<Option<User>> {
        let row = sqlx::query(&format!(
            "UPDATE users SET password_hash = $1, setup_token_hash = NULL \
             WHERE setup_token_hash = $2 RETURNING {USER_COLUMNS_BARE}"
        ))
        .bind(password_hash)
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user).transpose()
    }

    pub async fn create_session(
        &self,
        id_hash: &str,
        user_id: i64,
        csrf_token: &str,
        expires_at: i64,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id_hash)
        .bind(user_id)
        .bind(csrf_token)
        .bind(now_ms())
        .bind(expires_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The session with this id digest, if it has not expired.
    pub async fn session(&self, id_hash: &str, now: i64) -> Result<Option<SessionRecord>> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLUMNS}, s.csrf_token, s.expires_at FROM sessions s \
             JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1 AND s.expires_at > $2"
        ))
        .bind(id_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            None => Ok(None),
            Some(row) => Ok(Some(SessionRecord {
                user: user(&row)?,
                csrf_token: row.try_get("csrf_token")?,
                expires_at: row.try_get("expires_at")?,
            })),
        }
    }

    pub async fn delete_session(&self, id_hash: &str) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every session of an account (after a password change).
    pub async fn delete_sessions_of(&self, user_id: i64) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Removes expired sessions; returns how many.
    pub async fn delete_expired_sessions(&self, now: i64) -> Result<u64> {
        let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    pub async fn create_api_token(
        &self,
        user_id: i64,
        token_hash: &str,
        label: &str,
    ) -> Result<i64> {
        let id = new_id()?;
        sqlx::query(
            "INSERT INTO api_tokens (id, user_id, token_hash, label, created_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(user_id)
        .bind(token_hash)
        .bind(label)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(id)
    }

    /// The account a bearer token (its digest) belongs to; notes the use.
    pub async fn api_token_user(&self, token_hash: &str) -> Result<Option<User>> {
        let row = sqlx::query(
            "UPDATE api_tokens SET last_used_at = $1 WHERE token_hash = $2 RETURNING user_id",
        )
        .bind(now_ms())
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let user_id: i64 = row.try_get("user_id")?;
        self.user_by_id(user_id).await
    }

    pub async fn user_by_id(&self, id: i64) -> Result<Option<User>> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user).transpose()
    }

    pub async fn api_tokens_of(&self, user_id: i64) -> Result<Vec<ApiTokenInfo>> {
        let rows = sqlx::query(
            "SELECT id, label, created_at, last_used_at FROM api_tokens WHERE user_id = $1 \
             ORDER BY created_at, id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ApiTokenInfo {
                    id: row.try_get("id")?,
                    label: row.try_get("label")?,
                    created_at: row.try_get("created_at")?,
                    last_used_at: row.try_get("last_used_at")?,
                })
            })
            .collect()
    }

    /// Revokes one of the account's tokens; false if it has no such token.
    pub async fn delete_api_token(&self, user_id: i64, token_id: i64) -> Result<bool> {
        let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND user_id = $2")
            .bind(token_id)
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
