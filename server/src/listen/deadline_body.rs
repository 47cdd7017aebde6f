//! A request body that must arrive whole by a deadline: a client announcing a body and
//! sending it a byte at a time (or never) would otherwise hold its connection, and the
//! handler reading it, for as long as it likes.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// The error a late body ends with; handlers find it in their rejection's sources
/// ([`BodyTimeout::in_chain`]) and answer 408.
#[derive(Debug)]
pub struct BodyTimeout {
    pub seconds: u64,
}

impl std::fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the request body did not arrive within {} s",
            self.seconds
        )
    }
}

impl std::error::Error for BodyTimeout {}

impl BodyTimeout {
    /// The timeout somewhere in `error`'s chain of sources, if that is why it failed.
    pub fn in_chain<'a>(
        mut error: &'a (dyn std::error::Error + 'static),
    ) -> Option<&'a BodyTimeout> {
        loop {
            if let Some(t) = error.downcast_ref::<BodyTimeout>() {
                return Some(t);
            }
            error = error.source()?;
        }
    }
}

/// `inner`, failing with [`BodyTimeout`] once `limit` has passed since it was made (when the
/// request's head was read).
pub struct DeadlineBody<B> {
    inner: B,
    deadline: Pin<Box<Sleep>>,
    limit: Duration,
}

impl<B> DeadlineBody<B> {
    pub fn new(inner: B, limit: Duration) -> DeadlineBody<B> {
        DeadlineBody {
            inner,
            deadline: Box::pin(tokio::time::sleep_until(Instant::now() + limit)),
            limit,
        }
    }
}

impl<B> Body for DeadlineBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|r| r.map_err(Into::into)));
        }
        match this.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout {
                seconds: this.limit.as_secs(),
            })))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    /// A body that sends one chunk, then nothing ever.
    struct Stalls(bool);

    impl Body for Stalls {
        type Data = Bytes;
        type Error = std::convert::Infallible;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            if std::mem::replace(&mut self.0, true) {
                Poll::Pending
            } else {
                Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(b"0123456789")))))
            }
        }
    }

    #[tokio::test]
    async fn a_stalled_body_fails_at_the_deadline() {
        let started = Instant::now();
        let body = DeadlineBody::new(Stalls(false), Duration::from_millis(1500));
        let error = body.collect().await.unwrap_err();
        let waited = started.elapsed();
        assert!(
            waited >= Duration::from_millis(1500) && waited < Duration::from_secs(10),
            "{waited:?}"
        );
        let timeout = BodyTimeout::in_chain(&*error).expect("a BodyTimeout");
        assert_eq!(timeout.seconds, 1);
        assert_eq!(
            error.to_string(),
            "the request body did not arrive within 1 s"
        );
    }

    #[tokio::test]
    async fn a_body_in_time_is_passed_through() {
        let body = DeadlineBody::new(
            http_body_util::Full::new(Bytes::from_static(b"name=a")),
            Duration::from_secs(1),
        );
        let bytes = body.collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], b"name=a");
    }
}
