//! A small in-memory rate limiter: a token bucket per key ("ip:..." or "user:...").
//!
//! Written here rather than taken from tower_governor because the keys that matter are known
//! only inside the handlers (the account a login form names, the account behind an upload's
//! token), not in a layer in front of them; and because the client address must be the
//! socket's, never an `X-Forwarded-For` header a client can write. Buckets live in memory: a
//! restart forgives everyone, which is acceptable for login attempts (the hourly upload cap
//! is counted in the database instead).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Above this many keys, full buckets are forgotten (they are the same as absent ones), so a
/// flood of addresses cannot grow the map without bound.
const PRUNE_ABOVE: usize = 10_000;

#[derive(Debug)]
pub struct RateLimiter {
    burst: f64,
    per_second: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl RateLimiter {
    /// `burst` requests at once, then one every `interval`.
    pub fn new(burst: u32, interval: Duration) -> RateLimiter {
        RateLimiter {
            burst: f64::from(burst.max(1)),
            per_second: 1.0 / interval.as_secs_f64().max(1e-9),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request for `key` at `now`: `Err(wait)` if the key has none left.
    pub fn check_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > PRUNE_ABOVE {
            let (burst, rate) = (self.burst, self.per_second);
            buckets.retain(|_, (tokens, at)| {
                *tokens + now.saturating_duration_since(*at).as_secs_f64() * rate < burst
            });
        }
        let (tokens, at) = buckets.entry(key.to_string()).or_insert((self.burst, now));
        let refilled = (*tokens
            + now.saturating_duration_since(*at).as_secs_f64() * self.per_second)
            .min(self.burst);
        *at = now;
        if refilled >= 1.0 {
            *tokens = refilled - 1.0;
            Ok(())
        } else {
            *tokens = refilled;
            Err(Duration::from_secs_f64((1.0 - refilled) / self.per_second))
        }
    }

    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.check_at(key, Instant::now())
    }

    /// Takes one request from every key, or from none if any has none left.
    pub fn check_all(&self, keys: &[&str]) -> Result<(), Duration> {
        let now = Instant::now();
        let mut worst = None;
        for key in keys {
            if let Err(wait) = self.peek(key, now) {
                worst = Some(worst.map_or(wait, |w: Duration| w.max(wait)));
            }
        }
        if let Some(wait) = worst {
            return Err(wait);
        }
        for key in keys {
            let _ = self.check_at(key, now);
        }
        Ok(())
    }

    fn peek(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let Some((tokens, at)) = buckets.get(key) else {
            return Ok(());
        };
        let refilled = (*tokens
            + now.saturating_duration_since(*at).as_secs_f64() * self.per_second)
            .min(self.burst);
        if refilled >= 1.0 {
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - refilled) / self.per_second))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_per_interval_per_key() {
        let limiter = RateLimiter::new(3, Duration::from_secs(10));
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check_at("ip:a", t0).is_ok());
        }
        let wait = limiter.check_at("ip:a", t0).unwrap_err();
        assert!(
            wait > Duration::from_secs(9) && wait <= Duration::from_secs(10),
            "{wait:?}"
        );
        assert!(limiter.check_at("ip:b", t0).is_ok(), "keys are apart");
        assert!(
            limiter
                .check_at("ip:a", t0 + Duration::from_secs(5))
                .is_err()
        );
        assert!(
            limiter
                .check_at("ip:a", t0 + Duration::from_secs(11))
                .is_ok()
        );
        assert!(
            limiter
                .check_at("ip:a", t0 + Duration::from_secs(11))
                .is_err()
        );
        // Never more than the burst, however long the key was idle.
        let later = t0 + Duration::from_secs(10_000);
        for _ in 0..3 {
            assert!(limiter.check_at("ip:a", later).is_ok());
        }
        assert!(limiter.check_at("ip:a", later).is_err());
    }

    #[test]
    fn check_all_takes_from_all_or_none() {
        let limiter = RateLimiter::new(1, Duration::from_secs(60));
        assert!(limiter.check_all(&["ip:x", "user:a"]).is_ok());
        // The account is spent: a new address does not get a try, and is not charged.
        assert!(limiter.check_all(&["ip:y", "user:a"]).is_err());
        assert!(limiter.check("ip:y").is_ok());
    }

    #[test]
    fn many_keys_are_pruned() {
        let limiter = RateLimiter::new(2, Duration::from_millis(1));
        let t0 = Instant::now();
        for i in 0..=PRUNE_ABOVE + 1 {
            let _ = limiter.check_at(&format!("ip:{i}"), t0);
        }
        let _ = limiter.check_at("ip:last", t0 + Duration::from_secs(1));
        assert!(limiter.buckets.lock().unwrap().len() < 10);
    }
}
