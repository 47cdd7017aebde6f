//! A value made from the database and shared by every reader (the leaderboard, a bot's page,
//! the contest's notice), made at most once per `max_age`.
//!
//! The refresh runs as a task of its own and no lock is held while it queries: one refresh
//! at a time (single flight), and only the reader who started it (or one with nothing to
//! show yet) waits for it, at most `wait`. Everyone else who arrives meanwhile gets the last
//! value at once. Readers queueing
//! behind a query were how a database that went away hung every page for sqlx's 30 s.
//!
//! When a refresh fails the last value stays and is served with its age and the reason
//! ([`Snapshot::stale`]): the pages say "as of 40 s ago; the database is unreachable". A
//! reader with nothing to show gets the error (a 503 when the database is unreachable).

use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

// The clock of `tokio::time::sleep` and `timeout`, which the waits below use.
use tokio::time::Instant;

use axum::body::Bytes;
use futures::FutureExt;
use futures::future::{BoxFuture, Shared};

use super::WebError;
use crate::storage::StorageError;

/// How long the reader who starts a refresh waits for it before serving the last value:
/// the refresh of a healthy database takes milliseconds, and a page must answer within a
/// second when the database does not.
pub const WAIT: Duration = Duration::from_millis(500);

/// Why a value could not be made.
#[derive(Clone, Debug)]
pub struct RefreshError {
    /// The database is away (refused, no connection within the wait) or did not answer within
    /// [`WAIT`]: a 503. Otherwise a 500 (logged when it happened).
    pub unavailable: bool,
    message: String,
}

impl RefreshError {
    fn of(e: &StorageError) -> RefreshError {
        RefreshError {
            unavailable: e.is_unavailable(),
            message: e.to_string(),
        }
    }

    fn slow() -> RefreshError {
        RefreshError {
            unavailable: true,
            message: "the database has not answered yet".to_string(),
        }
    }

    /// Why a value served is older than it should be, in words for the pages.
    fn reason(&self) -> &'static str {
        if self.unavailable {
            "the database is unreachable"
        } else {
            "the database answered with an error"
        }
    }
}

impl From<RefreshError> for WebError {
    /// Logged by the refresh that failed, once: not again for each reader it answers.
    fn from(e: RefreshError) -> WebError {
        if e.unavailable {
            WebError::unavailable_logged()
        } else {
            tracing::debug!("a cached page's refresh failed: {}", e.message);
            WebError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                "internal error",
            )
        }
    }
}

/// What a reader gets: the value, how old it is, and why it is older than it should be.
#[derive(Debug)]
pub struct Snapshot<V> {
    pub value: Arc<V>,
    pub age: Duration,
    /// `None` while the value is as fresh as promised; else why it is not ("the database is
    /// unreachable").
    pub stale: Option<&'static str>,
}

impl<V> Snapshot<V> {
    /// Seconds, to a tenth: the JSON's `age_seconds`.
    pub fn age_seconds(&self) -> f64 {
        (self.age.as_secs_f64() * 10.0).round() / 10.0
    }

    /// `object`, the JSON object a refresh made, with how old it is (`age_seconds`) and
    /// whether it is older than promised because the database could not be read (`stale`,
    /// `stale_reason`) put in front of its members. Per request, without serializing the
    /// object again (the board's is 1,000 rows).
    pub fn json_with_age(&self, object: &[u8]) -> Bytes {
        let head = format!(
            "{{\"age_seconds\":{},\"stale\":{},\"stale_reason\":{},",
            self.age_seconds(),
            self.stale.is_some(),
            serde_json::to_string(&self.stale).unwrap_or_else(|_| "null".to_string()),
        );
        // An object is `{`, its members and `}`; anything else (never made) reads as `{}`.
        let members = object.strip_prefix(b"{").unwrap_or(b"}");
        let mut out = Vec::with_capacity(head.len() + members.len());
        out.extend_from_slice(head.as_bytes());
        if members.trim_ascii_start().starts_with(b"}") {
            // No member follows: no comma before the closing brace.
            out.pop();
        }
        out.extend_from_slice(members);
        Bytes::from(out)
    }

    /// The line a page shows above a stale value ("" when fresh), e.g. "As of 40 s ago; the
    /// database is unreachable." (the templates' `stale` macro puts it in its paragraph).
    pub fn note(&self) -> String {
        match self.stale {
            None => String::new(),
            Some(why) => format!("As of {} ago; {why}.", ago(self.age)),
        }
    }
}

/// "40 s", "3 min", "2 h".
fn ago(age: Duration) -> String {
    let s = age.as_secs();
    match s {
        0..120 => format!("{s} s"),
        120..7200 => format!("{} min", s / 60),
        _ => format!("{} h", s / 3600),
    }
}

type Made<V> = Result<(Instant, Arc<V>), RefreshError>;

struct State<V> {
    last: Option<(Instant, Arc<V>)>,
    /// The refresh under way, which readers may wait on.
    pending: Option<Shared<BoxFuture<'static, Made<V>>>>,
    /// The last refresh's error, until one succeeds.
    failed: Option<RefreshError>,
}

/// One shared value and its refreshes.
pub struct Cached<V> {
    max_age: Duration,
    wait: Duration,
    state: Arc<Mutex<State<V>>>,
}

impl<V> std::fmt::Debug for Cached<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cached")
            .field("max_age", &self.max_age)
            .finish_non_exhaustive()
    }
}

/// The state, even if a thread panicked holding it: it is always consistent (each change is
/// one assignment).
fn lock<V>(state: &Mutex<State<V>>) -> MutexGuard<'_, State<V>> {
    state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Clears the pending refresh when its task ends, even by a panic: otherwise no refresh
/// would ever start again.
struct ClearPending<V>(Arc<Mutex<State<V>>>);

impl<V> Drop for ClearPending<V> {
    fn drop(&mut self) {
        lock(&self.0).pending = None;
    }
}

impl<V: Send + Sync + 'static> Cached<V> {
    /// A value kept `max_age`, whose refresher waits at most `wait` for a new one.
    pub fn new(max_age: Duration, wait: Duration) -> Cached<V> {
        Cached {
            max_age,
            wait,
            state: Arc::new(Mutex::new(State {
                last: None,
                pending: None,
                failed: None,
            })),
        }
    }

    /// When the value served now was made (`None` before the first).
    pub fn made_at(&self) -> Option<Instant> {
        lock(&self.state).last.as_ref().map(|(made, _)| *made)
    }

    /// The value, made afresh by `make` if the last one is older than `max_age` (see the
    /// module's comment for who waits and who is served the last value).
    pub async fn get<F, Fut>(&self, make: F) -> Result<Snapshot<V>, RefreshError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<V, StorageError>> + Send + 'static,
    {
        let (pending, last, failed, mine) = {
            let mut state = lock(&self.state);
            if let Some((made, value)) = &state.last
                && made.elapsed() < self.max_age
            {
                return Ok(Snapshot {
                    value: value.clone(),
                    age: made.elapsed(),
                    stale: None,
                });
            }
            let mine = state.pending.is_none();
            let pending = match &state.pending {
                Some(p) => p.clone(),
                None => {
                    let p = self.start(make());
                    state.pending = Some(p.clone());
                    p
                }
            };
            (pending, state.last.clone(), state.failed.clone(), mine)
        };
        // Who waits: the reader who started a refresh of a database that was answering (it
        // takes milliseconds), and readers with nothing else to show, unless the database is
        // known to be failing and someone else is already trying it again.
        let wait = match (&last, &failed) {
            (Some(_), None) if mine => self.wait,
            (Some(_), _) => Duration::ZERO,
            (None, Some(_)) if !mine => Duration::ZERO,
            (None, _) => self.wait,
        };
        let outcome = if wait.is_zero() {
            pending.now_or_never()
        } else {
            tokio::time::timeout(wait, pending).await.ok()
        };
        let error = match outcome {
            Some(Ok((made, value))) => {
                return Ok(Snapshot {
                    value,
                    age: made.elapsed(),
                    stale: None,
                });
            }
            Some(Err(e)) => Some(e),
            None => failed,
        };
        let Some((made, value)) = last else {
            return Err(error.unwrap_or_else(RefreshError::slow));
        };
        let age = made.elapsed();
        // Served while another refresh runs, it is a refresh's time past `max_age`: not stale
        // unless that refresh is failing or taking far longer than a healthy one.
        let stale = match error {
            Some(e) => Some(e.reason()),
            None if age > self.max_age + self.wait => Some("the database is slow to answer"),
            None => None,
        };
        Ok(Snapshot { value, age, stale })
    }

    /// Starts a refresh on a task of its own: it completes and records its value even if every
    /// reader waiting for it has given up or gone.
    fn start<Fut>(&self, make: Fut) -> Shared<BoxFuture<'static, Made<V>>>
    where
        Fut: Future<Output = Result<V, StorageError>> + Send + 'static,
    {
        let state = self.state.clone();
        let task = tokio::spawn(async move {
            let _clear = ClearPending(state.clone());
            let made = match make.await {
                Ok(value) => Ok((Instant::now(), Arc::new(value))),
                Err(e) => {
                    if e.is_unavailable() {
                        tracing::warn!("cannot refresh a cached page: {e}");
                    } else {
                        tracing::error!("cannot refresh a cached page: {e}");
                    }
                    Err(RefreshError::of(&e))
                }
            };
            let mut s = lock(&state);
            match &made {
                Ok(value) => {
                    s.last = Some(value.clone());
                    s.failed = None;
                }
                Err(e) => s.failed = Some(e.clone()),
            }
            made
        });
        task.map(|joined| {
            joined.unwrap_or_else(|e| {
                Err(RefreshError {
                    unavailable: false,
                    message: format!("the refresh ended abnormally: {e}"),
                })
            })
        })
        .boxed()
        .shared()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn down() -> StorageError {
        StorageError::Sql(sqlx::Error::PoolTimedOut)
    }

    #[tokio::test]
    async fn a_fresh_value_is_shared_and_made_once() {
        let cache = Cached::new(Duration::from_secs(60), WAIT);
        let runs = Arc::new(AtomicUsize::new(0));
        for _ in 0..5 {
            let runs = runs.clone();
            let got = cache
                .get(|| async move {
                    runs.fetch_add(1, Ordering::SeqCst);
                    Ok(7)
                })
                .await
                .unwrap();
            assert_eq!(*got.value, 7);
            assert!(got.stale.is_none());
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_failed_refresh_keeps_the_last_value_with_its_age_and_reason() {
        let max_age = Duration::from_millis(50);
        let cache = Cached::new(max_age, WAIT);
        cache.get(|| async { Ok(1) }).await.unwrap();
        tokio::time::sleep(max_age).await;
        let got = cache.get(|| async { Err(down()) }).await.unwrap();
        assert_eq!(*got.value, 1);
        assert_eq!(got.stale, Some("the database is unreachable"));
        assert!(
            got.note().contains("the database is unreachable"),
            "{}",
            got.note()
        );
        // Back: the first reader still gets the last value at once (the database was failing:
        // nobody waits for it) while the refresh runs; the next one the new value.
        let got = cache.get(|| async { Ok(2) }).await.unwrap();
        assert_eq!(
            (*got.value, got.stale),
            (1, Some("the database is unreachable"))
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
        let got = cache.get(|| async { Ok(3) }).await.unwrap();
        assert_eq!((*got.value, got.stale), (2, None));
    }

    #[tokio::test]
    async fn nothing_to_show_is_the_error_and_says_unavailable() {
        let cache: Cached<i32> = Cached::new(Duration::ZERO, WAIT);
        let e = cache.get(|| async { Err(down()) }).await.unwrap_err();
        assert!(e.unavailable);
        let e = cache
            .get(|| async { Err(StorageError::Corrupt("x".into())) })
            .await
            .unwrap_err();
        assert!(!e.unavailable);
    }

    #[tokio::test]
    async fn readers_do_not_queue_behind_a_hanging_refresh() {
        let wait = Duration::from_millis(200);
        let cache = Arc::new(Cached::new(Duration::ZERO, wait));
        cache.get(|| async { Ok(1) }).await.unwrap();
        // A refresh that hangs (a database that takes connections but never answers).
        let hang = || async {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            Ok(2)
        };
        let started = Instant::now();
        // Its starter waits `wait`, then gets the last value.
        let first = cache.get(hang).await.unwrap();
        let waited = started.elapsed();
        assert!(waited >= wait && waited < wait * 3, "{waited:?}");
        assert_eq!(*first.value, 1);
        // Everyone after: at once, the same value, no second refresh started.
        let started = Instant::now();
        let runs = Arc::new(AtomicUsize::new(0));
        for _ in 0..10 {
            let runs = runs.clone();
            let got = cache
                .get(|| async move {
                    runs.fetch_add(1, Ordering::SeqCst);
                    Ok(3)
                })
                .await
                .unwrap();
            assert_eq!(*got.value, 1);
        }
        assert!(started.elapsed() < wait / 4, "{:?}", started.elapsed());
        assert_eq!(runs.load(Ordering::SeqCst), 0, "single flight");
        // Past the promised age and the wait, it says so.
        tokio::time::sleep(wait).await;
        let got = cache.get(hang).await.unwrap();
        assert_eq!(got.stale, Some("the database is slow to answer"));
        assert!(got.note().contains("As of 0 s ago"), "{}", got.note());
    }

    #[tokio::test]
    async fn a_panicking_refresh_does_not_stop_later_ones() {
        let cache: Cached<i32> = Cached::new(Duration::ZERO, WAIT);
        let e = cache
            .get(|| async { Ok(i32::try_from(u64::MAX).expect("a bug in a refresh")) })
            .await
            .unwrap_err();
        assert!(!e.unavailable);
        let got = cache.get(|| async { Ok(5) }).await.unwrap();
        assert_eq!(*got.value, 5);
    }

    #[test]
    fn the_age_goes_in_front_of_an_objects_members() {
        let snapshot = |stale| Snapshot {
            value: Arc::new(()),
            age: Duration::from_millis(1250),
            stale,
        };
        let read = |s: &Snapshot<()>, object: &[u8]| -> serde_json::Value {
            serde_json::from_slice(&s.json_with_age(object)).unwrap()
        };
        assert_eq!(
            read(&snapshot(None), b"{\"a\":[1]}"),
            serde_json::json!({"age_seconds": 1.3, "stale": false, "stale_reason": null, "a": [1]})
        );
        assert_eq!(
            read(&snapshot(Some("the database is unreachable")), b"{}"),
            serde_json::json!({"age_seconds": 1.3, "stale": true,
                "stale_reason": "the database is unreachable"})
        );
    }

    #[test]
    fn ages_read_as_people_say_them() {
        assert_eq!(ago(Duration::from_secs(40)), "40 s");
        assert_eq!(ago(Duration::from_secs(600)), "10 min");
        assert_eq!(ago(Duration::from_secs(3 * 3600)), "3 h");
    }
}
