//! Standard input read so that a shutdown never waits for it: by the runtime's I/O driver when stdin is a pipe or a
//! socket ([`stdin`]), else on an OS thread of its own ([`on_thread`]).
//!
//! tokio's `stdin()` reads on the runtime's blocking pool, and such a read cannot be cancelled: a runtime shut down
//! while stdin stays open waits for it until the client writes or closes (tokio's documentation of `stdin()`).
//! rmcp's `stdio_pipes` avoids that for FIFOs only; Node (libuv) spawns its children with stdin one end of a
//! socket pair (Claude Desktop, VS Code, `@ai-sdk/mcp`), a terminal is a tty, and both fell back to the blocking
//! pool: the server logged `serve finished` on SIGTERM, then hung until SIGKILL. A pipe or a socket is read
//! non-blocking through the I/O driver (epoll): no thread and no hand-off between threads per message (issue 46).
//! A terminal or a file (which epoll cannot wait for) is read by a detached thread, not part of any runtime, that
//! hands the bytes over a channel; the process exits when `main` returns, whatever the thread is waiting for.

use std::io::Read;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::mpsc;

/// Bytes read by one `read` call on the thread, at most.
const CHUNK_BYTES: usize = 64 * 1024;

/// The process's standard input as an [`AsyncRead`] that never holds a shutdown: a FIFO or a socket through the
/// runtime's I/O driver (a duplicate of descriptor 0, set non-blocking), anything else (a terminal, a file) on a
/// thread of its own ([`on_thread`]). Must be called inside a tokio runtime with I/O enabled.
pub fn stdin() -> Stdin {
    #[cfg(unix)]
    if let Some(driven) = driven() {
        return driven;
    }
    Stdin::Thread(on_thread(std::io::stdin()))
}

/// Standard input, read by the I/O driver ([`Stdin::Pipe`], [`Stdin::Socket`]) or by a thread ([`Stdin::Thread`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum Stdin {
    /// A FIFO, read non-blocking.
    #[cfg(unix)]
    Pipe(tokio::net::unix::pipe::Receiver),
    /// A socket (e.g. one end of the socket pair Node gives its children), read non-blocking.
    #[cfg(unix)]
    Socket(tokio::net::UnixStream),
    /// Anything else, read on a thread.
    Thread(ThreadReader),
}

/// Standard input through the I/O driver when it is a FIFO or a socket; `None` otherwise, or when it cannot be set up.
#[cfg(unix)]
fn driven() -> Option<Stdin> {
    use std::os::fd::AsFd;
    match crate::stdio_fds::driven(std::io::stdin().as_fd())? {
        crate::stdio_fds::Driven::Fifo(file) => tokio::net::unix::pipe::Receiver::from_file(file).ok().map(Stdin::Pipe),
        crate::stdio_fds::Driven::Socket(socket) => tokio::net::UnixStream::from_std(socket).ok().map(Stdin::Socket),
    }
}

impl AsyncRead for Stdin {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            #[cfg(unix)]
            Stdin::Pipe(pipe) => Pin::new(pipe).poll_read(cx, buf),
            #[cfg(unix)]
            Stdin::Socket(socket) => Pin::new(socket).poll_read(cx, buf),
            Stdin::Thread(thread) => Pin::new(thread).poll_read(cx, buf),
        }
    }
}

/// An [`AsyncRead`] over a blocking reader driven by a thread of its own ([`on_thread`]). End of input when the
/// reader ends; a read error is returned once, then end of input.
#[derive(Debug)]
pub struct ThreadReader {
    chunks: mpsc::Receiver<std::io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
}

/// Reads `reader` (e.g. `std::io::stdin()`) on a new detached thread named `mcp-stdin`. The thread ends at end of
/// input, on a read error, or on its next read after the [`ThreadReader`] is dropped; until then it blocks in
/// `read`, which keeps no runtime and no `main` from ending.
pub fn on_thread<R: Read + Send + 'static>(mut reader: R) -> ThreadReader {
    let (send, chunks) = mpsc::channel(4);
    let failed = send.clone();
    let spawned = std::thread::Builder::new().name("mcp-stdin".to_owned()).spawn(move || {
        let mut buf = vec![0; CHUNK_BYTES];
        loop {
            let chunk = match reader.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => Ok(buf[..n].to_vec()),
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(err) => Err(err),
            };
            let last = chunk.is_err();
            if send.blocking_send(chunk).is_err() || last {
                return;
            }
        }
    });
    if let Err(err) = spawned {
        // The channel has room: the reader sees the error, then end of input.
        let _ = failed.try_send(Err(err));
    }
    ThreadReader {
        chunks,
        chunk: Vec::new(),
        at: 0,
    }
}

impl AsyncRead for ThreadReader {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        while this.at == this.chunk.len() {
            match this.chunks.poll_recv(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(Ok(())),
                Poll::Ready(Some(Err(err))) => return Poll::Ready(Err(err)),
                Poll::Ready(Some(Ok(chunk))) => {
                    this.chunk = chunk;
                    this.at = 0;
                }
            }
        }
        let n = buf.remaining().min(this.chunk.len() - this.at);
        buf.put_slice(&this.chunk[this.at..this.at + n]);
        this.at += n;
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn reads_everything_then_ends() {
        let text: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let mut reader = on_thread(std::io::Cursor::new(text.clone()));
        let mut got = Vec::new();
        reader.read_to_end(&mut got).await.unwrap();
        assert_eq!(got, text);
    }

    /// A runtime with a read pending on a socket whose other end stays open still shuts down at once (tokio's
    /// blocking-pool stdin would wait for the read).
    #[cfg(unix)]
    #[test]
    fn a_pending_read_does_not_hold_the_runtime() {
        let (ours, _held_open) = std::os::unix::net::UnixStream::pair().unwrap();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut reader = on_thread(ours);
            let mut byte = [0u8; 1];
            let pending = tokio::time::timeout(std::time::Duration::from_millis(50), reader.read(&mut byte)).await;
            assert!(pending.is_err(), "nothing to read yet");
            tokio::spawn(async move { reader.read(&mut byte).await });
        });
        let started = std::time::Instant::now();
        drop(runtime);
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }
}
