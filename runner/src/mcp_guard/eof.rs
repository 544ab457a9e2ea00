//! Notice when the client closes our stdin.
//!
//! rmcp's service loop waits up to 5 s for handlers still running when its
//! input ends, and the `hang` policy's handler never finishes; so the reader
//! is wrapped to cancel a token at end of input, and [`super::serve`] stops
//! shortly after.

use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};
use tokio_util::sync::CancellationToken;

/// An [`AsyncRead`] that cancels `closed` when the inner reader reaches end
/// of input (or fails).
#[derive(Debug)]
pub struct EofWatch<R> {
    inner: R,
    closed: CancellationToken,
}

impl<R> EofWatch<R> {
    /// Wrap `inner`; `closed` is cancelled at its end.
    pub fn new(inner: R, closed: CancellationToken) -> EofWatch<R> {
        EofWatch { inner, closed }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for EofWatch<R> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let wanted = buf.remaining() > 0;
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        match &polled {
            Poll::Ready(Ok(())) if wanted && buf.filled().len() == before => self.closed.cancel(),
            Poll::Ready(Err(_)) => self.closed.cancel(),
            _ => {}
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn the_token_is_cancelled_at_end_of_input_only() {
        let (mut tx, rx) = tokio::io::duplex(64);
        let closed = CancellationToken::new();
        let mut r = EofWatch::new(rx, closed.clone());
        tx.write_all(b"abc").await.unwrap();
        let mut buf = [0u8; 8];
        assert_eq!(r.read(&mut buf).await.unwrap(), 3);
        assert!(!closed.is_cancelled());
        drop(tx);
        assert_eq!(r.read(&mut buf).await.unwrap(), 0);
        assert!(closed.is_cancelled());
    }
}
