//! The live feeds: each watched match's replay lines, broadcast to the viewers connected.
//!
//! A feed keeps no copy of the match: a viewer who joins reads the replay file (which the
//! referee writes anyway) up to a point the referee names, then gets every later line live.
//! The referee checks one atomic flag per line, so with no viewer a watched match costs what
//! an unwatched one does (BENCHMARKS.md measures it). When a viewer asks to join, the
//! referee, between two lines, flushes its replay file and hands the viewer the file's length
//! and a receiver for the lines that follow: no line is missed or sent twice.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{broadcast, oneshot};

/// Lines a slow viewer may fall behind before its stream restarts from the beginning.
const LAG_LINES: usize = 4096;

/// Finished matches still listed (and viewable) after they end.
const FINISHED_KEPT: usize = 16;

/// One match's feed.
pub struct LiveMatch {
    pub id: u64,
    pub label: String,
    /// The replay file the referee writes: a joining viewer reads the match so far from it.
    pub replay: PathBuf,
    /// Someone watches or waits to: the referee only then does anything per line.
    active: AtomicBool,
    /// `--pace`: the least time between two events of this match, watched or not yet.
    pace: Option<Duration>,
    state: Mutex<FeedState>,
}

struct FeedState {
    /// `None` once the match is over: every receiver is then closed.
    sender: Option<broadcast::Sender<Arc<str>>>,
    /// Viewers waiting for the referee's next line to join.
    joins: Vec<oneshot::Sender<Joined>>,
}

/// What a joining viewer gets.
pub struct Joined {
    /// Bytes of the replay file that hold the match so far (`None`: the whole file, the match
    /// is over).
    pub replay_bytes: Option<u64>,
    /// Every line written after those.
    pub live: broadcast::Receiver<Arc<str>>,
}

impl LiveMatch {
    fn new(id: u64, label: String, replay: PathBuf, pace: Option<Duration>) -> LiveMatch {
        LiveMatch {
            id,
            label,
            replay,
            active: AtomicBool::new(false),
            pace,
            state: Mutex::new(FeedState {
                sender: Some(broadcast::channel(LAG_LINES).0),
                joins: Vec::new(),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, FeedState> {
        // A viewer task that panicked cannot leave the state half-changed: keep serving.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The least time the referee leaves between two events (`--pace`), if any.
    pub fn pace(&self) -> Option<Duration> {
        self.pace
    }

    /// Whether the referee must call [`LiveMatch::publish`] for its next line: one atomic load.
    pub fn is_watched(&self) -> bool {
        self.active.load(Ordering::Acquire)
    }

    /// Called by the referee after writing `line` to its replay (when [`is_watched`]): sends it
    /// to the viewers, then lets the waiting ones join, flushing the replay file with `flush`,
    /// which returns the file's length.
    ///
    /// [`is_watched`]: LiveMatch::is_watched
    pub fn publish(&self, line: &[u8], flush: impl FnOnce() -> io::Result<u64>) -> io::Result<()> {
        let mut state = self.lock();
        let Some(sender) = state.sender.clone() else {
            return Ok(());
        };
        if sender.receiver_count() > 0 {
            let text = String::from_utf8_lossy(line);
            let _ = sender.send(Arc::from(text.trim_end_matches('\n')));
        }
        if !state.joins.is_empty() {
            let length = flush()?;
            for join in state.joins.drain(..) {
                // A viewer that left meanwhile drops its receiver with the failed send.
                let _ = join.send(Joined {
                    replay_bytes: Some(length),
                    live: sender.subscribe(),
                });
            }
        }
        if sender.receiver_count() == 0 {
            self.active.store(false, Ordering::Release);
        }
        Ok(())
    }

    /// Marks the match over (its replay complete): streams end after their last line, and a
    /// viewer joining from now on reads the whole file.
    fn finish(&self) {
        let mut state = self.lock();
        state.sender = None;
        for join in state.joins.drain(..) {
            let _ = join.send(Joined {
                replay_bytes: None,
                live: broadcast::channel(1).1,
            });
        }
        self.active.store(false, Ordering::Release);
    }

    pub fn is_done(&self) -> bool {
        self.lock().sender.is_none()
    }

    /// Waits for the referee's next line to join (at once if the match is over). A viewer of
    /// a match whose bot is thinking waits for that decision.
    pub async fn join(&self) -> Joined {
        let waiting = {
            let mut state = self.lock();
            if state.sender.is_none() {
                None
            } else {
                let (sender, receiver) = oneshot::channel();
                state.joins.push(sender);
                self.active.store(true, Ordering::Release);
                Some(receiver)
            }
        };
        let over = || Joined {
            replay_bytes: None,
            live: broadcast::channel(1).1,
        };
        match waiting {
            None => over(),
            // The match ended (or its referee stopped) before the next line: read it all.
            Some(receiver) => receiver.await.unwrap_or_else(|_| over()),
        }
    }
}

impl std::fmt::Debug for LiveMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveMatch")
            .field("id", &self.id)
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

/// Every match being watched in this run (one for `arena match`, the matches in play and the
/// last few finished for a tournament).
pub struct LiveHub {
    /// `--pace`, for every match opened here.
    pace: Option<Duration>,
    state: Mutex<HubState>,
}

impl std::fmt::Debug for LiveHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveHub").finish_non_exhaustive()
    }
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
}

impl LiveHub {
    pub fn new() -> Arc<LiveHub> {
        LiveHub::paced(None)
    }

    /// A hub whose matches leave at least `pace` between two events (`None`, zero: full speed).
    pub fn paced(pace: Option<Duration>) -> Arc<LiveHub> {
        Arc::new(LiveHub {
            pace: pace.filter(|p| !p.is_zero()),
            state: Mutex::new(HubState::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HubState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new feed for a match about to start, whose replay goes to `replay`.
    pub fn open(&self, label: impl Into<String>, replay: &Path) -> Arc<LiveMatch> {
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        let feed = Arc::new(LiveMatch::new(
            id,
            label.into(),
            replay.to_path_buf(),
            self.pace,
        ));
        state.matches.insert(id, feed.clone());
        feed
    }

    /// Ends a match's feed (call it once the replay is complete) and forgets the oldest
    /// finished ones beyond [`FINISHED_KEPT`].
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
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_viewer_joins_between_two_lines_and_misses_none() {
        let hub = LiveHub::new();
        let feed = hub.open("a vs b", Path::new("unused.jsonl"));
        assert!(
            !feed.is_watched(),
            "nobody watches yet: the referee does nothing per line"
        );
        let joining = {
            let feed = feed.clone();
            tokio::spawn(async move { feed.join().await })
        };
        while !feed.is_watched() {
            tokio::task::yield_now().await;
        }
        let mut flushed = false;
        feed.publish(b"line 1\n", || {
            flushed = true;
            Ok(123)
        })
        .unwrap();
        assert!(flushed, "the replay is flushed for the joining viewer");
        let mut joined = joining.await.unwrap();
        assert_eq!(joined.replay_bytes, Some(123), "line 1 is in the file part");
        feed.publish(b"line 2\n", || unreachable!("nobody is waiting"))
            .unwrap();
        assert_eq!(&*joined.live.try_recv().unwrap(), "line 2");
        assert!(joined.live.try_recv().is_err());
        drop(joined);
        feed.publish(b"line 3\n", || unreachable!()).unwrap();
        assert!(!feed.is_watched(), "the last viewer left");
    }

    #[tokio::test]
    async fn finishing_closes_streams_and_later_viewers_read_the_whole_file() {
        let hub = LiveHub::new();
        let first = hub.open("first", Path::new("first.jsonl"));
        let waiting = {
            let first = first.clone();
            tokio::spawn(async move { first.join().await })
        };
        while !first.is_watched() {
            tokio::task::yield_now().await;
        }
        hub.close(&first);
        let joined = waiting.await.unwrap();
        assert_eq!(joined.replay_bytes, None, "a match over is read whole");
        let mut later = first.join().await;
        assert_eq!(later.replay_bytes, None);
        assert!(matches!(
            later.live.try_recv(),
            Err(broadcast::error::TryRecvError::Closed)
        ));
        for i in 0..FINISHED_KEPT {
            let feed = hub.open(format!("m{i}"), Path::new("m.jsonl"));
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
