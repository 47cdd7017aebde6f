//! Passwords: Argon2id (RustCrypto's `argon2`) with OWASP's minimum parameters, m = 19 MiB,
//! t = 2, p = 1, stored as PHC strings (algorithm, parameters and salt travel with the hash,
//! so raising the parameters later still verifies old hashes).

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand_core::{OsRng, TryRngCore};

/// Shortest and longest passwords accepted. The upper bound keeps a request from making the
/// server hash megabytes.
pub const MIN_PASSWORD_CHARS: usize = 8;
pub const MAX_PASSWORD_BYTES: usize = 256;

fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("OWASP's parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Why a new password is refused, in words for the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordRefused {
    #[error("a password has at least {MIN_PASSWORD_CHARS} characters")]
    TooShort,
    #[error("a password has at most {MAX_PASSWORD_BYTES} bytes")]
    TooLong,
}

/// Checks a new password's length.
pub fn check_new_password(password: &str) -> Result<(), PasswordRefused> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(PasswordRefused::TooShort);
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(PasswordRefused::TooLong);
    }
    Ok(())
}

/// Why a password could not be hashed (never the user's doing).
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    #[error("cannot draw a salt: {0}")]
    Salt(String),
    /// argon2's own error (its type implements no `std::error::Error` here).
    #[error("cannot hash the password: {0}")]
    Argon2(String),
    /// The hashing thread or its queue went away.
    #[error("cannot hash the password: {0}")]
    Task(String),
}

/// The PHC string of a password. CPU- and memory-heavy: call it off the async threads.
pub fn hash_password(password: &str) -> Result<String, HashError> {
    let mut salt = [0u8; 16];
    OsRng
        .try_fill_bytes(&mut salt)
        .map_err(|e| HashError::Salt(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| HashError::Argon2(e.to_string()))?;
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| HashError::Argon2(e.to_string()))
}

/// Whether `password` matches the PHC string. A malformed string matches nothing.
pub fn verify_password(password: &str, phc: &str) -> bool {
    if password.len() > MAX_PASSWORD_BYTES {
        return false;
    }
    match PasswordHash::new(phc) {
        Ok(hash) => argon2().verify_password(password.as_bytes(), &hash).is_ok(),
        Err(_) => false,
    }
}

/// At most this many hashes at once: each takes 19 MiB and a core for tens of milliseconds,
/// so a flood of logins from many addresses (which the per-address limits let through) queues
/// here instead of exhausting memory.
static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(4);

/// [`hash_password`] on a blocking thread, at most [`HASHING`] at once.
pub async fn hash_password_async(password: &str) -> Result<String, HashError> {
    let _permit = HASHING
        .acquire()
        .await
        .map_err(|e| HashError::Task(e.to_string()))?;
    let password = password.to_string();
    tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .map_err(|e| HashError::Task(e.to_string()))?
}

/// [`verify_password`] on a blocking thread, at most [`HASHING`] at once.
pub async fn verify_password_async(password: &str, phc: &str) -> bool {
    let Ok(_permit) = HASHING.acquire().await else {
        return false;
    };
    let (password, phc) = (password.to_string(), phc.to_string());
    tokio::task::spawn_blocking(move || verify_password(&password, &phc))
        .await
        .unwrap_or(false)
}

/// A hash of no one's password, verified against when a login names an unknown account, so
/// that the answer takes as long as for a known one (no enumeration of names by timing).
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password("no account has this password").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_with_owasp_parameters_and_salted() {
        let a = hash_password("correct horse").unwrap();
        let b = hash_password("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "a fresh salt each time");
        assert!(verify_password("correct horse", &a));
        assert!(!verify_password("correct horsf", &a));
        assert!(!verify_password("correct horse", "not a phc string"));
        assert!(!verify_password("correct horse", ""));
    }

    #[test]
    fn new_passwords_are_checked() {
        assert!(check_new_password("1234567").is_err());
        assert!(check_new_password("12345678").is_ok());
        assert!(
            check_new_password("ééééééé").is_err(),
            "characters, not bytes"
        );
        assert!(check_new_password(&"x".repeat(257)).is_err());
    }
}
