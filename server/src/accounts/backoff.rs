//! Failed logins slowed down per key ("ip:...", "login:NAME", "device:..."): the first few
//! failures cost nothing, then each further one must wait twice as long as the one before,
//! up to a ceiling. A key forgets its failures after a quiet spell.
//!
//! A token bucket (`ratelimit.rs`) bounds how often a key may try at all; this bounds how
//! many wrong passwords it gets, which is what a guesser needs and a person does not: a
//! person who mistypes five times waits seconds, a guesser's rate falls to one try per
//! ceiling. Only failures are counted, so a person who gets in is never slowed by earlier
//! successes. In memory, as the buckets: a restart forgives everyone.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Above this many keys, forgotten ones are dropped; above [`HARD_CAP`], also the ones not
/// being slowed down yet, so that a flood of addresses cannot grow the map without bound.
const PRUNE_ABOVE: usize = 10_000;
const HARD_CAP: usize = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackoffPolicy {
    /// Failures allowed before any wait.
    pub free: u32,
    /// The wait after the first failure beyond the free ones; doubled at each further one.
    pub first_wait: Duration,
    /// The longest wait.
    pub max_wait: Duration,
    /// A key with no failure for this long starts again from nothing.
    pub forget_after: Duration,
}

impl BackoffPolicy {
    /// The wait after `failures` failures.
    pub fn wait_after(&self, failures: u32) -> Duration {
        if failures < self.free {
            return Duration::ZERO;
        }
        // 2^20 first waits is far beyond any ceiling: stop doubling there (no overflow).
        let doublings = (failures - self.free).min(20);
        self.first_wait
            .saturating_mul(1 << doublings)
            .min(self.max_wait)
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    failures: u32,
    last: Instant,
}

#[derive(Debug)]
pub struct Backoff {
    policy: BackoffPolicy,
    entries: Mutex<HashMap<String, Entry>>,
}

impl Backoff {
    pub fn new(policy: BackoffPolicy) -> Backoff {
        Backoff {
            policy,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// How long `key` must still wait before its next try at `now` (`None`: it may try).
    pub fn wait_at(&self, key: &str, now: Instant) -> Option<Duration> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let entry = entries.get(key)?;
        if self.forgotten(entry, now) {
            return None;
        }
        let ready = entry.last + self.policy.wait_after(entry.failures);
        let wait = ready.saturating_duration_since(now);
        (!wait.is_zero()).then_some(wait)
    }

    /// Counts a failure of `key` at `now`.
    pub fn fail_at(&self, key: &str, now: Instant) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.len() > PRUNE_ABOVE {
            entries.retain(|_, e| !self.forgotten(e, now));
            if entries.len() > HARD_CAP {
                let free = self.policy.free;
                entries.retain(|_, e| e.failures >= free);
            }
        }
        let entry = entries.entry(key.to_string()).or_insert(Entry {
            failures: 0,
            last: now,
        });
        if self.forgotten(entry, now) {
            entry.failures = 0;
        }
        entry.failures = entry.failures.saturating_add(1);
        entry.last = now;
    }

    /// Forgets `key`'s failures (its owner got in).
    pub fn clear(&self, key: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.remove(key);
    }

    pub fn wait(&self, key: &str) -> Option<Duration> {
        self.wait_at(key, Instant::now())
    }

    pub fn fail(&self, key: &str) {
        self.fail_at(key, Instant::now())
    }

    fn forgotten(&self, entry: &Entry, now: Instant) -> bool {
        now.saturating_duration_since(entry.last) >= self.policy.forget_after
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: BackoffPolicy = BackoffPolicy {
        free: 3,
        first_wait: Duration::from_secs(2),
        max_wait: Duration::from_secs(60),
        forget_after: Duration::from_secs(3600),
    };

    #[test]
    fn free_failures_then_doubling_waits_up_to_the_ceiling() {
        let waits: Vec<u64> = (0..12).map(|f| POLICY.wait_after(f).as_secs()).collect();
        assert_eq!(waits, [0, 0, 0, 2, 4, 8, 16, 32, 60, 60, 60, 60]);
        assert_eq!(POLICY.wait_after(u32::MAX), POLICY.max_wait);
    }

    #[test]
    fn a_key_waits_after_its_free_failures_and_others_do_not() {
        let b = Backoff::new(POLICY);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(b.wait_at("ip:a", t0), None);
            b.fail_at("ip:a", t0);
        }
        assert_eq!(b.wait_at("ip:a", t0), Some(Duration::from_secs(2)));
        assert_eq!(b.wait_at("ip:b", t0), None, "keys are apart");
        let t1 = t0 + Duration::from_secs(2);
        assert_eq!(b.wait_at("ip:a", t1), None, "the wait is over");
        b.fail_at("ip:a", t1);
        assert_eq!(b.wait_at("ip:a", t1), Some(Duration::from_secs(4)));
        b.clear("ip:a");
        assert_eq!(b.wait_at("ip:a", t1), None);
    }

    #[test]
    fn failures_are_forgotten_after_a_quiet_spell() {
        let b = Backoff::new(POLICY);
        let t0 = Instant::now();
        for _ in 0..10 {
            b.fail_at("login:x", t0);
        }
        assert_eq!(b.wait_at("login:x", t0), Some(POLICY.max_wait));
        let later = t0 + POLICY.forget_after;
        assert_eq!(b.wait_at("login:x", later), None);
        // A new failure starts the count again.
        b.fail_at("login:x", later);
        assert_eq!(b.wait_at("login:x", later), None);
    }

    #[test]
    fn a_flood_of_keys_is_pruned() {
        let b = Backoff::new(POLICY);
        let t0 = Instant::now();
        for i in 0..=PRUNE_ABOVE {
            b.fail_at(&format!("ip:{i}"), t0);
        }
        b.fail_at("ip:last", t0 + POLICY.forget_after);
        assert_eq!(b.entries.lock().unwrap().len(), 1);
    }
}
