//! `--pace MS`: a watched match played slowly enough for people to follow. Unpaced, a match
//! of sample bots plays a hundred hands in about a second; paced, the referee waits before
//! each event so that every step the live view shows stays on screen at least that long.
//!
//! The wait comes between events, when no bot has a request to answer: a bot's clock and
//! time bank never run during it. Once the run is cancelled (Ctrl-C) nothing waits any more,
//! so the hand in play ends as fast as its bots answer.

use std::time::Duration;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// The largest pace accepted: a minute per event is already slower than any class.
pub const MAX_PACE_MS: u64 = 60_000;

/// Keeps events at least `gap` apart.
#[derive(Debug)]
pub struct Pace {
    gap: Duration,
    last: Option<Instant>,
    /// The run's cancellation: it ends every wait.
    cancel: CancellationToken,
}

impl Pace {
    pub fn new(gap: Duration, cancel: CancellationToken) -> Pace {
        Pace {
            gap,
            last: None,
            cancel,
        }
    }

    /// Waits until `gap` has passed since the previous call returned (at once the first time),
    /// so the time a bot took to decide counts towards the gap.
    pub async fn wait(&mut self) {
        if let Some(last) = self.last {
            tokio::select! {
                _ = tokio::time::sleep_until(last + self.gap) => {}
                _ = self.cancel.cancelled() => {}
            }
        }
        self.last = Some(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn events_are_kept_a_gap_apart_and_a_slow_decision_counts_towards_it() {
        let gap = Duration::from_millis(300);
        let mut pace = Pace::new(gap, CancellationToken::new());
        let start = Instant::now();
        pace.wait().await;
        assert!(start.elapsed() < gap, "the first event waits for nothing");
        pace.wait().await;
        let second = start.elapsed();
        assert!(second >= gap, "{second:?}");
        // A bot thought for most of the gap: the next event waits only what is left of it.
        tokio::time::sleep(gap * 3 / 4).await;
        pace.wait().await;
        let third = start.elapsed();
        assert!(third >= second + gap, "{third:?} after {second:?}");
        assert!(
            third < second + gap * 7 / 4,
            "the thinking counted: {third:?}"
        );
        // A bot thought longer than the gap: no wait at all.
        tokio::time::sleep(gap * 2).await;
        let before = Instant::now();
        pace.wait().await;
        assert!(before.elapsed() < gap / 2, "{:?}", before.elapsed());
    }

    #[tokio::test]
    async fn a_cancelled_run_waits_no_more() {
        let cancel = CancellationToken::new();
        let mut pace = Pace::new(Duration::from_secs(3600), cancel.clone());
        pace.wait().await;
        let waiting = tokio::spawn(async move {
            pace.wait().await;
            pace.wait().await;
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "an hour's pace waits");
        cancel.cancel();
        tokio::time::timeout(Duration::from_secs(10), waiting)
            .await
            .expect("the waits end with the cancellation")
            .unwrap();
    }
}
