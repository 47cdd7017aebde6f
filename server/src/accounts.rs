//! Accounts apart from HTTP: password hashing, secrets (session ids, API and setup tokens),
//! the roster and admin accounts made at start, rate limits and the login lockout.

pub mod backoff;
pub mod device;
pub mod login_guard;
pub mod passwords;
pub mod provision;
pub mod ratelimit;
pub mod roster;

pub use passwords::{check_new_password, hash_password, verify_password};

use crate::storage::{self, secret_digest};

/// A fresh secret (256 random bits as hex) and the digest the database keeps of it.
#[derive(Clone, Debug)]
pub struct Secret {
    pub token: String,
    pub digest: String,
}

impl Secret {
    pub fn new() -> storage::Result<Secret> {
        let token = storage::random_hex(32)?;
        let digest = secret_digest(&token);
        Ok(Secret { token, digest })
    }
}
