//! Draining a bot's stderr into a capped log file, and optionally passing it on as it comes.
//!
//! A task always reads to EOF, so a chatty bot never blocks on a full pipe (which would look
//! like a timeout). The log keeps the first `keep` bytes, written as they arrive, and the last
//! `keep` bytes, written at EOF after a `[... N bytes dropped ...]` line. Memory and disk use
//! are bounded by about `2 * keep` whatever the bot writes.
//!
//! A [`StderrRelay`] (`arena run-bot`) passes every chunk on to a writer of its own, on a
//! thread of its own behind a short queue: a writer that falls behind (a stderr nobody reads)
//! loses chunks, counted and said in the stream, and never blocks the drain, so the bot never
//! blocks on its stderr there either.

use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::decision_stderr::DecisionStderr;

/// Bytes per read from the pipe.
const READ_CHUNK: usize = 64 * 1024;

/// Chunks (of at most [`READ_CHUNK`] bytes) a [`StderrRelay`] holds for its writer: past them
/// the chunks are dropped.
const RELAY_QUEUE: usize = 16;

/// Bytes of stderr kept in [`StderrSummary::tail`].
pub const SUMMARY_TAIL_BYTES: usize = 4 * 1024;

/// What a bot wrote to stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StderrSummary {
    /// Everything the bot wrote (as far as we read it).
    pub total_bytes: u64,
    /// Bytes that are in neither the head nor the tail of the log.
    pub dropped_bytes: u64,
    pub log_path: PathBuf,
    /// The last [`SUMMARY_TAIL_BYTES`] bytes, lossily decoded, kept whether or not the log
    /// is: [`StderrSummary::excerpt`] makes what faults, summaries and replays show of it.
    pub tail: String,
    /// Set if writing the log failed (the drain carries on regardless).
    pub log_error: Option<String>,
}

/// The running drain task.
#[derive(Debug)]
pub(crate) struct StderrDrain {
    handle: Option<JoinHandle<StderrSummary>>,
    done: Option<StderrSummary>,
    stop: CancellationToken,
    log_path: PathBuf,
}

impl StderrDrain {
    /// Spawns the drain task. Needs a tokio runtime.
    /// `decisions`: where to gather the lines for the replay, when the match keeps them.
    pub(crate) fn start<R>(
        src: R,
        log: std::fs::File,
        log_path: PathBuf,
        keep: usize,
        decisions: Option<DecisionStderr>,
        relay: Option<StderrRelay>,
    ) -> Self
    where
        R: AsyncRead + Unpin + Send + 'static,
    {
        let stop = CancellationToken::new();
        let task = drain(
            src,
            log,
            log_path.clone(),
            keep,
            stop.clone(),
            Taps { decisions, relay },
        );
        StderrDrain {
            handle: Some(tokio::spawn(task)),
            done: None,
            stop,
            log_path,
        }
    }

    /// Waits up to `patience` for EOF. True if the stream is finished.
    pub(crate) async fn wait_eof(&mut self, patience: Duration) -> bool {
        if let Some(handle) = &mut self.handle {
            match tokio::time::timeout(patience, handle).await {
                Err(_elapsed) => return false,
                Ok(joined) => {
                    self.done = Some(self.joined(joined));
                    self.handle = None;
                }
            }
        }
        true
    }

    /// Waits up to `patience` for EOF, then stops reading anyway (someone outside the group
    /// still holds the pipe). Returns the summary and whether EOF was reached.
    pub(crate) async fn finish(mut self, patience: Duration) -> (StderrSummary, bool) {
        let eof = self.wait_eof(patience).await;
        if !eof {
            self.stop.cancel();
            if let Some(handle) = self.handle.take() {
                let joined = handle.await;
                self.done = Some(self.joined(joined));
            }
        }
        let summary = self.done.take().expect("the drain task has been joined");
        (summary, eof)
    }

    fn joined(&self, joined: Result<StderrSummary, tokio::task::JoinError>) -> StderrSummary {
        joined.unwrap_or_else(|e| StderrSummary {
            total_bytes: 0,
            dropped_bytes: 0,
            log_path: self.log_path.clone(),
            tail: String::new(),
            log_error: Some(format!("stderr task failed: {e}")),
        })
    }
}

/// Where the chunks go besides the log.
struct Taps {
    decisions: Option<DecisionStderr>,
    relay: Option<StderrRelay>,
}

async fn drain<R>(
    mut src: R,
    log: std::fs::File,
    log_path: PathBuf,
    keep: usize,
    stop: CancellationToken,
    taps: Taps,
) -> StderrSummary
where
    R: AsyncRead + Unpin,
{
    let Taps { decisions, relay } = taps;
    let mut log = LogFile {
        file: tokio::fs::File::from_std(log),
        error: None,
    };
    let mut buf = vec![0u8; READ_CHUNK];
    let mut total: u64 = 0;
    let mut head_len: usize = 0;
    let mut tail = Tail::new(keep);
    let mut last = Tail::new(SUMMARY_TAIL_BYTES);
    loop {
        let n = tokio::select! {
            read = src.read(&mut buf) => match read {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    tracing::debug!("reading stderr: {e}");
                    break;
                }
            },
            () = stop.cancelled() => break,
        };
        let chunk = &buf[..n];
        total += n as u64;
        last.push(chunk);
        if let Some(decisions) = &decisions {
            decisions.push(chunk);
        }
        if let Some(relay) = &relay {
            relay.push(chunk);
        }
        let to_head = (keep - head_len).min(n);
        if to_head > 0 {
            head_len += to_head;
            log.write(&chunk[..to_head]).await;
        }
        tail.push(&chunk[to_head..]);
    }
    if let Some(decisions) = &decisions {
        decisions.end_of_stream();
    }
    let dropped = total - head_len as u64 - tail.len() as u64;
    if dropped > 0 {
        log.write(format!("\n[... {dropped} bytes dropped ...]\n").as_bytes())
            .await;
    }
    let (a, b) = tail.buf.as_slices();
    log.write(a).await;
    log.write(b).await;
    log.flush().await;
    StderrSummary {
        total_bytes: total,
        dropped_bytes: dropped,
        log_path,
        tail: String::from_utf8_lossy(last.buf.make_contiguous()).into_owned(),
        log_error: log.error,
    }
}

/// Passes a bot's stderr on as it is read (`BotProcess::spawn_relaying`), to a writer on a
/// thread of its own. The queue between the drain and that thread is short: when the writer
/// cannot keep up (nobody reads what it writes to), chunks are dropped rather than waited
/// for, and the writer says how many bytes before the next chunk it writes, so memory stays
/// bounded and the bot never blocks on its stderr. Dropping every clone ends the thread once
/// it has written what it holds.
#[derive(Clone, Debug)]
pub struct StderrRelay {
    queue: SyncSender<Vec<u8>>,
    dropped: Arc<AtomicU64>,
}

/// The writing end of a [`StderrRelay`]: tells when everything queued was written.
#[derive(Debug)]
pub struct StderrRelayWriter {
    done: tokio::sync::oneshot::Receiver<()>,
}

impl StderrRelay {
    /// Starts the thread that writes to `sink` (each chunk written whole, then flushed).
    pub fn start(
        sink: impl Write + Send + 'static,
    ) -> std::io::Result<(StderrRelay, StderrRelayWriter)> {
        let (queue, chunks) = sync_channel(RELAY_QUEUE);
        let dropped = Arc::new(AtomicU64::new(0));
        let (done_tx, done) = tokio::sync::oneshot::channel();
        let counted = dropped.clone();
        std::thread::Builder::new()
            .name("stderr-relay".into())
            .spawn(move || {
                relay_chunks(chunks, sink, &counted);
                let _ = done_tx.send(());
            })?;
        Ok((StderrRelay { queue, dropped }, StderrRelayWriter { done }))
    }

    fn push(&self, chunk: &[u8]) {
        match self.queue.try_send(chunk.to_vec()) {
            Ok(()) => {}
            Err(TrySendError::Full(chunk) | TrySendError::Disconnected(chunk)) => {
                self.dropped
                    .fetch_add(chunk.len() as u64, Ordering::Relaxed);
            }
        }
    }
}

impl StderrRelayWriter {
    /// Waits up to `patience` for the writer to have written everything queued (every
    /// [`StderrRelay`] clone must be gone: the bot's drain ends with the bot). False if it is
    /// still writing (its reader does not read): it is then left to the end of the process.
    pub async fn finish(self, patience: Duration) -> bool {
        matches!(tokio::time::timeout(patience, self.done).await, Ok(Ok(())))
    }
}

/// The relay thread: writes every chunk, each after the note of what was dropped before it;
/// stops at the first write error (nobody reads any more: the rest is dropped by the sender).
fn relay_chunks(chunks: Receiver<Vec<u8>>, mut sink: impl Write, dropped: &AtomicU64) {
    while let Ok(chunk) = chunks.recv() {
        let lost = dropped.swap(0, Ordering::Relaxed);
        if lost > 0 && sink.write_all(dropped_note(lost).as_bytes()).is_err() {
            return;
        }
        if sink.write_all(&chunk).and_then(|()| sink.flush()).is_err() {
            return;
        }
    }
    let lost = dropped.swap(0, Ordering::Relaxed);
    if lost > 0 {
        let _ = sink.write_all(dropped_note(lost).as_bytes());
    }
}

fn dropped_note(lost: u64) -> String {
    format!("\n[arena: {lost} bytes of the bot's stderr dropped: not read fast enough]\n")
}

/// The log file; the first error stops further writes and is remembered.
struct LogFile {
    file: tokio::fs::File,
    error: Option<String>,
}

impl LogFile {
    async fn write(&mut self, bytes: &[u8]) {
        if self.error.is_none()
            && !bytes.is_empty()
            && let Err(e) = self.file.write_all(bytes).await
        {
            self.error = Some(e.to_string());
        }
    }

    async fn flush(&mut self) {
        if self.error.is_none()
            && let Err(e) = self.file.flush().await
        {
            self.error = Some(e.to_string());
        }
    }
}

/// The last `cap` bytes pushed.
struct Tail {
    buf: VecDeque<u8>,
    cap: usize,
}

impl Tail {
    fn new(cap: usize) -> Tail {
        Tail {
            buf: VecDeque::with_capacity(cap),
            cap,
        }
    }

    fn len(&self) -> usize {
        self.buf.len()
    }

    fn push(&mut self, data: &[u8]) {
        if data.len() >= self.cap {
            self.buf.clear();
            self.buf.extend(&data[data.len() - self.cap..]);
        } else {
            let excess = (self.buf.len() + data.len()).saturating_sub(self.cap);
            self.buf.drain(..excess);
            self.buf.extend(data);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_last_bytes() {
        let mut t = Tail::new(4);
        t.push(b"ab");
        t.push(b"cde");
        assert_eq!(t.buf.make_contiguous(), b"bcde");
        t.push(b"0123456");
        assert_eq!(t.buf.make_contiguous(), b"3456");
        t.push(b"");
        assert_eq!(t.len(), 4);
        let mut zero = Tail::new(0);
        zero.push(b"abc");
        assert_eq!(zero.len(), 0);
    }

    async fn run(input: &[u8], keep: usize) -> (StderrSummary, String) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("err.log");
        let file = std::fs::File::create(&path).unwrap();
        let src = std::io::Cursor::new(input.to_vec());
        let drain = StderrDrain::start(src, file, path.clone(), keep, None, None);
        let (summary, eof) = drain.finish(Duration::from_secs(5)).await;
        assert!(eof);
        (summary, std::fs::read_to_string(&path).unwrap())
    }

    #[tokio::test]
    async fn short_output_is_kept_whole() {
        let (summary, log) = run(b"hello\nworld\n", 8).await;
        assert_eq!(log, "hello\nworld\n");
        assert_eq!((summary.total_bytes, summary.dropped_bytes), (12, 0));
        assert_eq!(summary.tail, "hello\nworld\n");
    }

    /// A sink that keeps what it is given, and can be held still.
    #[derive(Clone, Default)]
    struct Sink {
        written: Arc<std::sync::Mutex<Vec<u8>>>,
        hold: Arc<std::sync::Mutex<()>>,
    }

    impl Write for Sink {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            let _held = self.hold.lock().unwrap();
            self.written.lock().unwrap().extend_from_slice(data);
            Ok(data.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_relay_passes_every_chunk_on_in_order() {
        let sink = Sink::default();
        let (relay, writer) = StderrRelay::start(sink.clone()).unwrap();
        let input: Vec<u8> = (0..200_000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("err.log");
        let file = std::fs::File::create(&path).unwrap();
        let src = std::io::Cursor::new(input.clone());
        let drain = StderrDrain::start(src, file, path, 0, None, Some(relay));
        let (summary, _) = drain.finish(Duration::from_secs(5)).await;
        assert_eq!(summary.total_bytes, input.len() as u64);
        assert!(writer.finish(Duration::from_secs(5)).await);
        assert_eq!(*sink.written.lock().unwrap(), input);
    }

    #[tokio::test]
    async fn a_relay_whose_writer_is_stuck_drops_and_says_so() {
        let sink = Sink::default();
        let (relay, writer) = StderrRelay::start(sink.clone()).unwrap();
        let hold = sink.hold.lock().unwrap();
        // The thread takes one chunk and waits in `write`; the queue fills; the rest is
        // dropped without waiting.
        for _ in 0..RELAY_QUEUE + 10 {
            relay.push(b"0123456789");
        }
        drop(relay);
        drop(hold);
        assert!(writer.finish(Duration::from_secs(5)).await);
        let written = String::from_utf8(sink.written.lock().unwrap().clone()).unwrap();
        assert!(
            written.contains("bytes of the bot's stderr dropped: not read fast enough"),
            "{written}"
        );
        let kept = written.matches("0123456789").count();
        assert!((RELAY_QUEUE..=RELAY_QUEUE + 1).contains(&kept), "{written}");
    }

    #[tokio::test]
    async fn long_output_keeps_head_and_tail() {
        let input: Vec<u8> = (0..1000u32).map(|i| b'a' + (i % 26) as u8).collect();
        let (summary, log) = run(&input, 10).await;
        assert_eq!(summary.total_bytes, 1000);
        assert_eq!(summary.dropped_bytes, 980);
        let head = std::str::from_utf8(&input[..10]).unwrap();
        let tail = std::str::from_utf8(&input[990..]).unwrap();
        assert_eq!(log, format!("{head}\n[... 980 bytes dropped ...]\n{tail}"));
    }
}
