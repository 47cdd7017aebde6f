//! Who may try a password now, and what a wrong one costs: the lockout, built so that an
//! attacker cannot turn it against the account's owner.
//!
//! A single per-account limit lets anyone lock an owner out: twenty wrong passwords from
//! twenty addresses and the owner's right one was refused too. So a try is judged by who
//! makes it:
//!
//! - A **known client**: one holding a known-device token of this account (`device.rs`, set
//!   at its last login) or, for the API's token request, one of the account's API tokens. Its
//!   wrong passwords are counted on that device (or token) alone, and its tries at all against
//!   a bucket of the account's known clients (never charged by anyone else). Strangers'
//!   failures never stop it, whatever address they come from, so the owner's browser gets in
//!   during an attack.
//! - **Anyone else** (a new browser, cleared cookies, a guesser): its tries are limited per
//!   address (a token bucket for every try, and doubling waits after a few wrong passwords),
//!   and its wrong passwords are counted per account, shared by every such client: after ten,
//!   each further one waits twice as long, up to 15 minutes. A guesser with many addresses
//!   gets a few tries an hour per account; the price is that an owner on a new device waits
//!   out the same lockout while it lasts (and a guesser who keeps trying keeps it going). The
//!   owner then uses a known device, an API token, or a new setup link from the organizer.
//!
//! Before verifying a password, every limit of the try is looked at, and the try is refused
//! (429 with the wait) without verifying when one says wait: a refused try tells nothing
//! about the password, so a locked account is no oracle.

use std::time::Duration;

use super::backoff::{Backoff, BackoffPolicy};
use super::device::DeviceKey;
use super::ratelimit::RateLimiter;

/// Wrong passwords from one address: five free (a person mistyping), then 2 s, 4 s, ... up to
/// 5 minutes.
pub const ADDRESS_POLICY: BackoffPolicy = BackoffPolicy {
    free: 5,
    first_wait: Duration::from_secs(2),
    max_wait: Duration::from_secs(300),
    forget_after: Duration::from_secs(3600),
};

/// Wrong passwords against one account from clients it does not know: ten free, then 2 s,
/// 4 s, ... up to 15 minutes; forgotten after an hour without one.
pub const ACCOUNT_POLICY: BackoffPolicy = BackoffPolicy {
    free: 10,
    first_wait: Duration::from_secs(2),
    max_wait: Duration::from_secs(900),
    forget_after: Duration::from_secs(3600),
};

/// Wrong passwords from one known device or API token: as an address, up to 15 minutes (a
/// stolen device token buys a guesser nothing more).
pub const DEVICE_POLICY: BackoffPolicy = BackoffPolicy {
    free: 5,
    first_wait: Duration::from_secs(2),
    max_wait: Duration::from_secs(900),
    forget_after: Duration::from_secs(3600),
};

/// Who is trying, as far as the lockout cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Client {
    /// Holds a known-device token or an API token of the account it names.
    Known {
        user_id: i64,
        /// The device's (or token's) own key for its failures, e.g. `device:NONCE`.
        credential: String,
    },
    /// Anyone else, by address (an IPv6 client by its /64).
    Unknown { address: String },
}

#[derive(Debug)]
pub struct LoginGuard {
    /// Signs and checks known-device tokens.
    pub key: DeviceKey,
    addresses: Backoff,
    accounts: Backoff,
    devices: Backoff,
}

impl LoginGuard {
    pub fn new(key: DeviceKey) -> LoginGuard {
        LoginGuard {
            key,
            addresses: Backoff::new(ADDRESS_POLICY),
            accounts: Backoff::new(ACCOUNT_POLICY),
            devices: Backoff::new(DEVICE_POLICY),
        }
    }

    /// Takes a try of `client` at the account `account_key` names (`login:NAME`) from
    /// `tries` (the bucket of every try), or says how long to wait. A refused try is charged
    /// nothing.
    pub fn admit(
        &self,
        tries: &RateLimiter,
        client: &Client,
        account_key: &str,
    ) -> Result<(), Duration> {
        let waits = match client {
            Client::Known { credential, .. } => vec![self.devices.wait(credential)],
            Client::Unknown { address } => vec![
                self.addresses.wait(&address_key(address)),
                self.accounts.wait(account_key),
            ],
        };
        if let Some(wait) = waits.into_iter().flatten().max() {
            return Err(wait);
        }
        tries.check(&bucket_key(client))
    }

    /// Records how a try admitted by [`LoginGuard::admit`] ended.
    pub fn record(&self, client: &Client, account_key: &str, right_password: bool) {
        match (client, right_password) {
            (Client::Known { credential, .. }, true) => self.devices.clear(credential),
            (Client::Known { credential, .. }, false) => self.devices.fail(credential),
            // The account's count is not cleared by a success: the guesses made so far were
            // still made, and clearing would give a guesser ten free ones again each time the
            // owner logs in from a new device.
            (Client::Unknown { address }, true) => self.addresses.clear(&address_key(address)),
            (Client::Unknown { address }, false) => {
                self.addresses.fail(&address_key(address));
                self.accounts.fail(account_key);
            }
        }
    }
}

fn address_key(address: &str) -> String {
    format!("ip:{address}")
}

/// The token bucket a try is charged to: its address, or all the account's known clients
/// together (each login issues a new device token; a bucket per token would let a client
/// mint buckets, each a fresh allowance of password hashes for the server to compute).
fn bucket_key(client: &Client) -> String {
    match client {
        Client::Known { user_id, .. } => format!("known:{user_id}"),
        Client::Unknown { address } => address_key(address),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard() -> LoginGuard {
        LoginGuard::new(DeviceKey::random().unwrap())
    }

    fn tries() -> RateLimiter {
        RateLimiter::new(1000, Duration::from_millis(1))
    }

    fn stranger(i: usize) -> Client {
        Client::Unknown {
            address: format!("203.0.113.{i}"),
        }
    }

    #[test]
    fn strangers_lock_the_account_for_strangers_only() {
        let (g, t) = (guard(), tries());
        for i in 0..20 {
            if g.admit(&t, &stranger(i), "login:alice").is_ok() {
                g.record(&stranger(i), "login:alice", false);
            }
        }
        let wait = g.admit(&t, &stranger(99), "login:alice").unwrap_err();
        assert!(wait > Duration::from_secs(1), "{wait:?}");
        assert!(
            g.admit(&t, &stranger(99), "login:bob").is_ok(),
            "other accounts"
        );
        let owner = Client::Known {
            user_id: 1,
            credential: "device:abc".into(),
        };
        assert!(g.admit(&t, &owner, "login:alice").is_ok());
    }

    #[test]
    fn one_address_is_slowed_after_five_failures_across_accounts() {
        let (g, t) = (guard(), tries());
        let guesser = stranger(1);
        for i in 0..5 {
            let account = format!("login:user{i}");
            assert!(g.admit(&t, &guesser, &account).is_ok());
            g.record(&guesser, &account, false);
        }
        let wait = g.admit(&t, &guesser, "login:user9").unwrap_err();
        assert_eq!(wait.as_secs_f64().ceil() as u64, 2, "{wait:?}");
        assert!(g.admit(&t, &stranger(2), "login:user9").is_ok());
    }

    #[test]
    fn a_known_device_pays_for_its_own_failures() {
        let (g, t) = (guard(), tries());
        let stolen = Client::Known {
            user_id: 1,
            credential: "device:stolen".into(),
        };
        for _ in 0..5 {
            assert!(g.admit(&t, &stolen, "login:alice").is_ok());
            g.record(&stolen, "login:alice", false);
        }
        assert!(g.admit(&t, &stolen, "login:alice").is_err());
        let other = Client::Known {
            user_id: 1,
            credential: "device:owner".into(),
        };
        assert!(g.admit(&t, &other, "login:alice").is_ok());
        assert!(
            g.admit(&t, &stranger(1), "login:alice").is_ok(),
            "nor do strangers pay for a device's failures"
        );
    }

    #[test]
    fn known_clients_of_an_account_share_one_bucket_of_tries() {
        let g = guard();
        let t = RateLimiter::new(2, Duration::from_secs(60));
        for nonce in ["a", "b"] {
            let device = Client::Known {
                user_id: 1,
                credential: format!("device:{nonce}"),
            };
            assert!(g.admit(&t, &device, "login:alice").is_ok());
        }
        let third = Client::Known {
            user_id: 1,
            credential: "device:c".into(),
        };
        assert!(g.admit(&t, &third, "login:alice").is_err());
    }
}
