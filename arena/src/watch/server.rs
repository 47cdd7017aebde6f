//! The live view's HTTP server: the viewer page, the list of matches, and each match as a
//! stream of server-sent events (one replay line per event).
//!
//! It binds to 127.0.0.1 unless told otherwise, and every request must carry the run's
//! token (`?token=`), a random 128-bit value printed on the arena's terminal only. The
//! stream shows every seat's cards while the hand is played, so the token is what keeps a
//! bot from watching its opponents' cards: under the default sandbox a bot has no network at
//! all, but at the `limits` and `none` levels it can reach 127.0.0.1.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use futures::{Stream, StreamExt};
use serde::Deserialize;
use tokio::net::TcpListener;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use super::error::WatchError;
use super::feed::{LiveHub, LiveMatch};

/// A running live view.
pub struct WatchServer {
    pub addr: SocketAddr,
    pub token: String,
    stop: CancellationToken,
    /// Event streams being sent.
    streams: Arc<AtomicUsize>,
}

impl WatchServer {
    /// The address to open in a browser.
    pub fn url(&self) -> String {
        format!("http://{}/?token={}", self.addr, self.token)
    }

    /// Waits (at most `patience`) for the streams still open to send their last lines and
    /// their `end`, then stops: call it when every match is over, so that a viewer sees the end.
    pub async fn finish(self, patience: std::time::Duration) {
        let deadline = tokio::time::Instant::now() + patience;
        while self.streams.load(Ordering::Acquire) > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
}

/// Counts an event stream while it exists.
struct Counted(Arc<AtomicUsize>);

impl Counted {
    fn new(counter: &Arc<AtomicUsize>) -> Counted {
        counter.fetch_add(1, Ordering::AcqRel);
        Counted(counter.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Drop for WatchServer {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

#[derive(Clone)]
struct AppState {
    hub: Arc<LiveHub>,
    token: Arc<str>,
    streams: Arc<AtomicUsize>,
}

#[derive(Deserialize)]
struct Access {
    token: Option<String>,
    #[serde(rename = "match")]
    match_id: Option<u64>,
}

/// Starts serving `hub` on `addr` (port 0: any free port). The server stops when the returned
/// handle is dropped; the streams of matches still in play end with it.
pub async fn start(addr: SocketAddr, hub: Arc<LiveHub>) -> Result<WatchServer, WatchError> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|reason| WatchError::Listen { addr, reason })?;
    let addr = listener.local_addr().map_err(WatchError::LocalAddress)?;
    let token = new_token()?;
    let streams = Arc::new(AtomicUsize::new(0));
    let state = AppState {
        hub,
        token: Arc::from(token.as_str()),
        streams: streams.clone(),
    };
    let app = Router::new()
        .route("/", get(page))
        .route("/matches", get(matches))
        .route("/events", get(events))
        .with_state(state);
    let stop = CancellationToken::new();
    let stopped = stop.clone();
    tokio::spawn(async move {
        let server = axum::serve(listener, app).with_graceful_shutdown(stopped.cancelled_owned());
        if let Err(e) = server.await {
            tracing::warn!("the live view stopped: {e}");
        }
    });
    Ok(WatchServer {
        addr,
        token,
        stop,
        streams,
    })
}

fn new_token() -> Result<String, WatchError> {
    use rand_core::TryRngCore;
    let mut bytes = [0u8; 16];
    rand_core::OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(WatchError::Token)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn allowed(state: &AppState, access: &Access) -> bool {
    let given = access.token.as_deref().unwrap_or("").as_bytes();
    let want = state.token.as_bytes();
    // Compared in time independent of where they differ.
    given.len() == want.len()
        && given
            .iter()
            .zip(want)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

fn forbidden() -> Response {
    (
        StatusCode::FORBIDDEN,
        "this live view needs the token printed by the arena (?token=...)\n",
    )
        .into_response()
}

async fn page(State(state): State<AppState>, Query(access): Query<Access>) -> Response {
    if !allowed(&state, &access) {
        return forbidden();
    }
    match crate::html::live_page() {
        Ok(page) => ([(header::CACHE_CONTROL, "no-store")], Html(page)).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

async fn matches(State(state): State<AppState>, Query(access): Query<Access>) -> Response {
    if !allowed(&state, &access) {
        return forbidden();
    }
    axum::Json(state.hub.list()).into_response()
}

async fn events(State(state): State<AppState>, Query(access): Query<Access>) -> Response {
    if !allowed(&state, &access) {
        return forbidden();
    }
    let feed = match access.match_id {
        Some(id) => state.hub.get(id),
        None => state.hub.list().first().and_then(|m| state.hub.get(m.id)),
    };
    let Some(feed) = feed else {
        return (
            StatusCode::NOT_FOUND,
            "no such match (it may have been dropped)\n",
        )
            .into_response();
    };
    let joined = feed.join().await;
    let so_far = match read_so_far(&feed.replay, joined.replay_bytes, KEEP_BYTES).await {
        Ok(so_far) => so_far,
        Err(e) => {
            let message = format!("cannot read {}: {e}\n", feed.replay.display());
            return (StatusCode::INTERNAL_SERVER_ERROR, message).into_response();
        }
    };
    let counted = Counted::new(&state.streams);
    let finished = joined.replay_bytes.is_none();
    let events = stream(&feed, so_far, finished, joined.live).map(move |event| {
        let _ = &counted;
        event
    });
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// The match so far, from its replay file: every line, or for a very long match its first
/// lines (header, bots) and its last hands within [`KEEP_BYTES`].
struct SoFar {
    lines: Vec<String>,
    /// Hands left out between the first lines and the kept ones.
    dropped_hands: u64,
}

/// What a viewer joining late is sent at most (about 5,000 hands of the classic game at two
/// seats): the viewer's page holds it all.
pub const KEEP_BYTES: usize = 24 << 20;

async fn read_so_far(
    path: &std::path::Path,
    bytes: Option<u64>,
    keep: usize,
) -> std::io::Result<SoFar> {
    let mut text = tokio::fs::read(path).await?;
    if let Some(bytes) = bytes {
        text.truncate(bytes as usize);
    }
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text.lines().collect();
    let hand_of = |line: &str| {
        #[derive(Deserialize)]
        struct Hand {
            hand: Option<u64>,
        }
        serde_json::from_str::<Hand>(line).ok().and_then(|h| h.hand)
    };
    let preamble = lines.iter().take_while(|l| hand_of(l).is_none()).count();
    let mut kept = lines.len();
    if text.len() > keep {
        // Walk back from the end until the budget is spent, then forward to a hand's start.
        let mut budget = keep;
        while kept > preamble && budget > lines[kept - 1].len() {
            budget -= lines[kept - 1].len() + 1;
            kept -= 1;
        }
        let cut_hand = lines.get(kept).and_then(|l| hand_of(l));
        while kept < lines.len() && kept > preamble && hand_of(lines[kept]) == cut_hand {
            kept += 1;
        }
    } else {
        kept = preamble;
    }
    let first_hand = lines.get(preamble).and_then(|l| hand_of(l));
    let dropped_hands = match (first_hand, lines.get(kept).and_then(|l| hand_of(l))) {
        (Some(first), Some(resumed)) if kept > preamble => resumed.saturating_sub(first),
        _ => 0,
    };
    let lines = lines[..preamble]
        .iter()
        .chain(&lines[kept.max(preamble)..])
        .map(|l| l.to_string())
        .collect();
    Ok(SoFar {
        lines,
        dropped_hands,
    })
}

/// `line` with what the viewer shows beyond the replay (a Lallan Kallan deal's wild card, the
/// values at a sideshow), as the report's replay pages have it (`crate::replay::annotate_line`).
fn annotated(settings: Option<&protocol::Settings>, line: String) -> String {
    let Some(settings) = settings else {
        return line;
    };
    match crate::replay::annotate_line(settings, &line) {
        Ok(Some(annotated)) => annotated,
        _ => line,
    }
}

/// (An event's data is never empty: browsers drop events without data.)
///
/// `reset` (the match's id and label, whether it was over when the viewer joined, and how
/// many early hands a long match leaves out), every line so far, the live lines, then `end`
/// once the match is over. A viewer that falls
/// too far behind gets `lagged` and the stream closes: the browser's EventSource reconnects
/// and starts again from `reset`.
fn stream(
    feed: &LiveMatch,
    so_far: SoFar,
    finished: bool,
    live: broadcast::Receiver<Arc<str>>,
) -> impl Stream<Item = Result<Event, Infallible>> + use<> {
    let reset = serde_json::json!({
        "id": feed.id,
        "label": feed.label,
        // The viewer opens a match already over at its first hand, not at its end.
        "finished": finished,
        "dropped_hands": so_far.dropped_hands,
    })
    .to_string();
    let settings = so_far.lines.first().and_then(|line| {
        match serde_json::from_str::<crate::replay::Record>(line) {
            Ok(crate::replay::Record::Header(header)) => Some(header.settings),
            _ => None,
        }
    });
    let before_live = std::iter::once(Event::default().event("reset").data(reset))
        .chain(
            so_far
                .lines
                .into_iter()
                .map(move |line| Event::default().data(annotated(settings.as_ref(), line))),
        )
        .map(Ok);
    let live = futures::stream::unfold(Some(live), move |live| async move {
        let mut live = live?;
        match live.recv().await {
            Ok(line) => {
                let line = annotated(settings.as_ref(), line.to_string());
                Some((Event::default().data(line), Some(live)))
            }
            Err(RecvError::Closed) => Some((Event::default().event("end").data("end"), None)),
            Err(RecvError::Lagged(_)) => {
                Some((Event::default().event("lagged").data("lagged"), None))
            }
        }
    })
    .map(Ok);
    futures::stream::iter(before_live).chain(live)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(hands: u64) -> String {
        let mut text = String::from("{\"type\":\"header\"}\n{\"type\":\"bot\",\"seat\":0}\n");
        for hand in 0..hands {
            for step in 0..3 {
                text.push_str(&format!(
                    "{{\"type\":\"event\",\"hand\":{hand},\"n\":{step}}}\n"
                ));
            }
        }
        text + "{\"type\":\"result\"}\n"
    }

    #[tokio::test]
    async fn a_joining_viewer_reads_the_file_up_to_the_named_length() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let text = replay(4);
        std::fs::write(&path, &text).unwrap();
        let upto = text.find("\"hand\":2").unwrap() - "{\"type\":\"event\",".len();
        let so_far = read_so_far(&path, Some(upto as u64), 1 << 20)
            .await
            .unwrap();
        assert_eq!(so_far.lines.len(), 2 + 2 * 3, "{:?}", so_far.lines);
        assert_eq!(so_far.dropped_hands, 0);
        let whole = read_so_far(&path, None, 1 << 20).await.unwrap();
        assert_eq!(whole.lines.len(), text.lines().count());
    }

    #[tokio::test]
    async fn a_long_match_is_sent_as_its_first_lines_and_its_last_whole_hands() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, replay(1000)).unwrap();
        let so_far = read_so_far(&path, None, 2000).await.unwrap();
        assert_eq!(so_far.lines[0], "{\"type\":\"header\"}");
        assert_eq!(so_far.lines[1], "{\"type\":\"bot\",\"seat\":0}");
        assert!(
            so_far.lines[2].ends_with("\"n\":0}"),
            "starts at a hand's start: {}",
            so_far.lines[2]
        );
        assert_eq!(so_far.lines.last().unwrap(), "{\"type\":\"result\"}");
        let kept_hands = (so_far.lines.len() as u64 - 3) / 3;
        assert_eq!(so_far.dropped_hands + kept_hands, 1000);
        let bytes: usize = so_far.lines[2..].iter().map(|l| l.len() + 1).sum();
        assert!(bytes <= 2000, "{bytes}");
    }
}
