//! "Known device" tokens: what a browser (or script) that once logged in to an account keeps,
//! so that its next login to that account passes the account's lockout (`login_guard.rs`).
//!
//! The token is `USER_ID.ISSUED_MS.NONCE.MAC`, the MAC an HMAC-SHA256 of the rest under the
//! server's key (`DATA_DIR/device-key`, made once, mode 0600). Signed rather than stored:
//! checking one costs no query, and a login must be checked before anything else is done.
//! It proves only that this client logged in to this account before; it is no credential (a
//! login still needs the password), so a stolen one buys a guesser no more than its own
//! slowed-down tries (each token's failures are counted on their own). Its nonce names it
//! for those counts.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::storage::{self, hex};

/// How long a device stays known after its last login (each login issues a fresh token):
/// longer than a school term's contest.
pub const LIFETIME_MS: i64 = 180 * 24 * 3600 * 1000;

/// The key file in the data directory.
pub const KEY_FILE: &str = "device-key";

/// Far longer than any token this server makes: longer values are not even split.
const MAX_TOKEN_LEN: usize = 200;

/// What a valid token says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownDevice {
    pub user_id: i64,
    /// Names this token's own failure count.
    pub nonce: String,
}

/// The server's signing key.
#[derive(Clone)]
pub struct DeviceKey([u8; 32]);

impl std::fmt::Debug for DeviceKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DeviceKey(..)")
    }
}

impl DeviceKey {
    /// A fresh key, known to this process only: devices are forgotten at its end (tests).
    pub fn random() -> storage::Result<DeviceKey> {
        let hex = storage::random_hex(32)?;
        unhex32(&hex)
            .map(DeviceKey)
            .ok_or_else(|| storage::StorageError::Random("a random key is 64 hex digits".into()))
    }

    /// The key in `dir`'s key file, made there first if there is none, so that devices stay
    /// known across restarts.
    pub fn load_or_create(dir: &Path) -> anyhow::Result<DeviceKey> {
        let path = dir.join(KEY_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => unhex32(text.trim()).map(DeviceKey).with_context(|| {
                format!(
                    "{}: not a key (64 hex digits); delete it to make a new one (every known device is then forgotten)",
                    path.display()
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => create(&path),
            Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
    }

    fn mac(&self, payload: &str) -> Hmac<Sha256> {
        // `new_from_slice` fails only for key lengths HMAC cannot take; 32 bytes it takes.
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.0)
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        mac.update(b"arena known device v1\n");
        mac.update(payload.as_bytes());
        mac
    }

    /// A new token for `user_id`, issued at `now_ms`.
    pub fn issue(&self, user_id: i64, now_ms: i64) -> storage::Result<String> {
        let nonce = storage::random_hex(16)?;
        let payload = format!("{user_id}.{now_ms}.{nonce}");
        let tag = hex(&self.mac(&payload).finalize().into_bytes());
        Ok(format!("{payload}.{tag}"))
    }

    /// What `token` says, if this key signed it and it has not expired at `now_ms`.
    pub fn verify(&self, token: &str, now_ms: i64) -> Option<KnownDevice> {
        if token.len() > MAX_TOKEN_LEN {
            return None;
        }
        let (payload, tag) = token.rsplit_once('.')?;
        let tag = unhex32(tag)?;
        self.mac(payload).verify_slice(&tag).ok()?;
        let mut parts = payload.split('.');
        let user_id: i64 = parts.next()?.parse().ok()?;
        let issued: i64 = parts.next()?.parse().ok()?;
        let nonce = parts.next()?;
        if parts.next().is_some() || issued.saturating_add(LIFETIME_MS) <= now_ms {
            return None;
        }
        Some(KnownDevice {
            user_id,
            nonce: nonce.to_string(),
        })
    }
}

/// Makes the key file (mode 0600). Of two servers racing on one directory, the second reads
/// the first's key.
fn create(path: &PathBuf) -> anyhow::Result<DeviceKey> {
    let hex = storage::random_hex(32)?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(mut file) => {
            file.write_all(format!("{hex}\n").as_bytes())
                .and_then(|()| file.sync_all())
                .with_context(|| format!("cannot write {}", path.display()))?;
            unhex32(&hex)
                .map(DeviceKey)
                .context("a random key is 64 hex digits")
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            DeviceKey::load_or_create(path.parent().unwrap_or(Path::new(".")))
        }
        Err(e) => Err(e).with_context(|| format!("cannot create {}", path.display())),
    }
}

/// 64 hex digits as 32 bytes.
fn unhex32(text: &str) -> Option<[u8; 32]> {
    let bytes = text.as_bytes();
    if bytes.len() != 64 {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; 32];
    for (i, pair) in bytes.chunks(2).enumerate() {
        out[i] = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_under_its_key_until_it_expires() {
        let key = DeviceKey::random().unwrap();
        let token = key.issue(42, 1_000).unwrap();
        let device = key.verify(&token, 2_000).unwrap();
        assert_eq!(device.user_id, 42);
        assert_eq!(device.nonce.len(), 32);
        assert_eq!(key.verify(&token, 1_000 + LIFETIME_MS), None, "expired");
        let other = DeviceKey::random().unwrap();
        assert_eq!(other.verify(&token, 2_000), None, "another server's");
        assert_ne!(
            key.issue(42, 1_000).unwrap(),
            token,
            "each login its own nonce"
        );
    }

    #[test]
    fn a_changed_or_malformed_token_is_refused() {
        let key = DeviceKey::random().unwrap();
        let token = key.issue(42, 1_000).unwrap();
        let forged = token.replacen("42.", "43.", 1);
        assert_eq!(key.verify(&forged, 2_000), None);
        for bad in [
            "",
            ".",
            "...",
            "42",
            "42.1000.abc",
            &format!("{token}.x"),
            &token[..token.len() - 1],
            &format!("{token}0"),
            &"9".repeat(10_000),
            "é.é.é.é",
        ] {
            assert_eq!(key.verify(bad, 2_000), None, "{bad:?}");
        }
    }

    #[test]
    fn the_key_file_is_made_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let key = DeviceKey::load_or_create(dir.path()).unwrap();
        let token = key.issue(7, 0).unwrap();
        let again = DeviceKey::load_or_create(dir.path()).unwrap();
        assert!(
            again.verify(&token, 1).is_some(),
            "the same key after a restart"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(dir.path().join(KEY_FILE), "not a key").unwrap();
        let err = DeviceKey::load_or_create(dir.path()).unwrap_err();
        assert!(format!("{err:#}").contains("not a key"), "{err:#}");
    }
}
