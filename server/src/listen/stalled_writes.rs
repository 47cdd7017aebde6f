//! A connection whose client stops reading: an answer it does not take (a replay page is
//! hundreds of kilobytes, more than the socket buffers) would hold the connection forever,
//! so a write that can make no progress for the limit fails and the connection is closed.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// `inner`, whose writes fail with `TimedOut` after waiting `limit` without progress.
pub struct StalledWrites<T> {
    inner: T,
    limit: Duration,
    /// Running while a write waits; gone once one goes through.
    waiting: Option<Pin<Box<Sleep>>>,
}

impl<T> StalledWrites<T> {
    pub fn new(inner: T, limit: Duration) -> StalledWrites<T> {
        StalledWrites {
            inner,
            limit,
            waiting: None,
        }
    }

    /// What a write that returned `result` means, given how long writes have waited.
    fn watch<R>(
        &mut self,
        cx: &mut Context<'_>,
        result: Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>> {
        if result.is_ready() {
            self.waiting = None;
            return result;
        }
        let limit = self.limit;
        let timer = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client took nothing for {} s", limit.as_secs()),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for StalledWrites<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for StalledWrites<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch(cx, result)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.watch(cx, result)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch(cx, result)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_reader_that_stops_reading_fails_the_write_at_the_limit() {
        let (near, mut far) = tokio::io::duplex(1024);
        let mut near = StalledWrites::new(near, Duration::from_millis(1200));
        // Read a little, then nothing.
        let mut first = [0u8; 100];
        let started = std::time::Instant::now();
        let (written, read) =
            tokio::join!(near.write_all(&[7u8; 1 << 20]), far.read_exact(&mut first));
        read.unwrap();
        let waited = started.elapsed();
        assert_eq!(written.unwrap_err().kind(), io::ErrorKind::TimedOut);
        assert!(
            waited >= Duration::from_millis(1200) && waited < Duration::from_secs(10),
            "{waited:?}"
        );
    }

    #[tokio::test]
    async fn a_slow_reader_that_keeps_reading_is_never_cut_off() {
        let (near, mut far) = tokio::io::duplex(1024);
        let mut near = StalledWrites::new(near, Duration::from_millis(300));
        let reader = tokio::spawn(async move {
            let mut buf = [0u8; 512];
            let mut total = 0;
            // 16 KB in steps of at most 512 bytes, 50 ms apart: 1.6 s in all, far more than
            // the limit, but never 300 ms without taking something.
            while total < 16 * 1024 {
                total += far.read(&mut buf).await.unwrap();
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        });
        near.write_all(&[7u8; 16 * 1024]).await.unwrap();
        reader.await.unwrap();
    }
}
