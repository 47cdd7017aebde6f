//! The live feeds: each watched match's replay lines, kept for viewers who join late and
//! broadcast to those already watching.
//!
//! The referee only calls [`LiveMatch::publish`] with a line it formats for the replay
//! anyway; with no viewer connected that is one small allocation and a vector push per line,
//! and without `--watch` there is no feed at all (the writer's `Option` is `None`).

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;
use tokio::sync::broadcast;

/// Lines a slow viewer may fall behind before its stream restarts from the beginning.
const LAG_LINES: usize = 4096;

/// Finished matches still listed (and replayable) after they end; older ones are dropped so
/// that a long tournament's memory stays bounded by the matches in play plus these.
const FINISHED_KEPT: usize = 16;

/// One match's feed.
pub struct LiveMatch {
    pub id: u64,
    pub label: String,
    state: Mutex<FeedState>,
    done: AtomicBool,
}

struct FeedState {
    lines: Vec<Arc<str>>,
    sender: broadcast::Sender<Arc<str>>,
}

impl std::fmt::Debug for LiveMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveMatch")
            .field("id", &self.id)
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

/// What a new viewer gets: every line so far, then the live ones.
pub struct Subscription {
    pub history: Vec<Arc<str>>,
    pub live: broadcast::Receiver<Arc<str>>,
}

impl LiveMatch {
    fn new(id: u64, label: String) -> LiveMatch {
        LiveMatch {
            id,
            label,
            state: Mutex::new(FeedState {
                lines: Vec::new(),
                sender: broadcast::channel(LAG_LINES).0,
            }),
            done: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, FeedState> {
        // A viewer task that panicked cannot leave the lines half-written: keep serving.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds one replay line (without its newline). Lines that are not UTF-8 cannot occur
    /// (the writer writes JSON) and are skipped rather than trusted.
    pub fn publish(&self, line: &[u8]) {
        let Ok(text) = std::str::from_utf8(line) else {
            return;
        };
        let line: Arc<str> = Arc::from(text.trim_end_matches('\n'));
        let mut state = self.lock();
        state.lines.push(line.clone());
        if state.sender.receiver_count() > 0 {
            // Sent under the lock, so a subscriber sees each line exactly once: in its
            // history or on its receiver.
            let _ = state.sender.send(line);
        }
    }

    /// Marks the match over: its viewers' streams end after the last line.
    pub fn finish(&self) {
        self.done.store(true, Ordering::Release);
        // Dropping the sender would close every receiver at once; replacing it does that
        // while keeping the type simple for later subscribers (who get history only).
        let mut state = self.lock();
        state.sender = broadcast::channel(1).0;
    }

    pub fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    pub fn subscribe(&self) -> Subscription {
        let state = self.lock();
        Subscription {
            history: state.lines.clone(),
            live: state.sender.subscribe(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.lock().lines.len()
    }
}

impl std::fmt::Debug for LiveHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveHub").finish_non_exhaustive()
    }
}

/// Every match being watched in this run (one for `arena match`, the matches in play and the
/// last few finished for a tournament).
pub struct LiveHub {
    state: Mutex<HubState>,
}

#[derive(Default)]
struct HubState {
    next_id: u64,
    matches: BTreeMap<u64, Arc<LiveMatch>>,
    finished: VecDeque<u64>,
}

/// One line of `/matches`.
#[derive(Serialize)]
pub struct MatchEntry {
    pub id: u64,
    pub label: String,
    pub live: bool,
    pub lines: usize,
}

impl LiveHub {
    pub fn new() -> Arc<LiveHub> {
        Arc::new(LiveHub {
            state: Mutex::new(HubState::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HubState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new feed for a match about to start.
    pub fn open(&self, label: impl Into<String>) -> Arc<LiveMatch> {
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        let feed = Arc::new(LiveMatch::new(id, label.into()));
        state.matches.insert(id, feed.clone());
        feed
    }

    /// Ends a match's feed and forgets the oldest finished ones beyond [`FINISHED_KEPT`].
    pub fn close(&self, feed: &LiveMatch) {
        feed.finish();
        let mut state = self.lock();
        state.finished.push_back(feed.id);
        while state.finished.len() > FINISHED_KEPT {
            if let Some(old) = state.finished.pop_front() {
                state.matches.remove(&old);
            }
        }
    }

    pub fn get(&self, id: u64) -> Option<Arc<LiveMatch>> {
        self.lock().matches.get(&id).cloned()
    }

    /// The matches a viewer can open, newest first.
    pub fn list(&self) -> Vec<MatchEntry> {
        let feeds: Vec<_> = self.lock().matches.values().rev().cloned().collect();
        feeds
            .iter()
            .map(|m| MatchEntry {
                id: m.id,
                label: m.label.clone(),
                live: !m.is_done(),
                lines: m.line_count(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_subscriber_gets_the_history_then_each_new_line_once() {
        let hub = LiveHub::new();
        let feed = hub.open("a vs b");
        feed.publish(b"{\"type\":\"header\"}\n");
        let mut sub = feed.subscribe();
        feed.publish(b"{\"type\":\"event\"}");
        assert_eq!(sub.history.len(), 1);
        assert_eq!(&*sub.history[0], "{\"type\":\"header\"}");
        assert_eq!(&*sub.live.try_recv().unwrap(), "{\"type\":\"event\"}");
        assert!(sub.live.try_recv().is_err());
    }

    #[test]
    fn finishing_closes_live_streams_and_old_matches_are_forgotten() {
        let hub = LiveHub::new();
        let first = hub.open("first");
        let mut sub = first.subscribe();
        hub.close(&first);
        assert!(matches!(
            sub.live.try_recv(),
            Err(broadcast::error::TryRecvError::Closed)
        ));
        for i in 0..FINISHED_KEPT {
            let feed = hub.open(format!("m{i}"));
            hub.close(&feed);
        }
        assert!(
            hub.get(first.id).is_none(),
            "the oldest finished match is dropped"
        );
        assert_eq!(hub.list().len(), FINISHED_KEPT);
        assert!(hub.list().iter().all(|m| !m.live));
    }
}
