//! Standard output written without a thread hand-off when the I/O driver can: a FIFO or a socket non-blocking through
//! the driver (epoll), anything else (a terminal, a file) through tokio's `stdout()` on the blocking pool.
//!
//! rmcp's `stdio_pipes` writes non-blocking only when stdin and stdout are both FIFOs; Node (libuv) gives its
//! children socket pairs (Claude Desktop, VS Code, the TypeScript SDK's stdio client), whose answers then each took a
//! trip to the blocking pool and back (issue 46).

use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::AsyncWrite;

/// The process's standard output as an [`AsyncWrite`] (see the module doc). Must be called inside a tokio runtime
/// with I/O enabled.
pub fn stdout() -> Stdout {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let driven = match crate::stdio_fds::driven(std::io::stdout().as_fd()) {
            Some(crate::stdio_fds::Driven::Fifo(file)) => {
                tokio::net::unix::pipe::Sender::from_file(file).ok().map(Stdout::Pipe)
            }
            Some(crate::stdio_fds::Driven::Socket(socket)) => {
                tokio::net::UnixStream::from_std(socket).ok().map(Stdout::Socket)
            }
            None => None,
        };
        if let Some(driven) = driven {
            return driven;
        }
    }
    Stdout::Blocking(tokio::io::stdout())
}

/// Standard output, written by the I/O driver ([`Stdout::Pipe`], [`Stdout::Socket`]) or on the blocking pool
/// ([`Stdout::Blocking`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum Stdout {
    /// A FIFO, written non-blocking.
    #[cfg(unix)]
    Pipe(tokio::net::unix::pipe::Sender),
    /// A socket, written non-blocking.
    #[cfg(unix)]
    Socket(tokio::net::UnixStream),
    /// Anything else: tokio's `stdout()`.
    Blocking(tokio::io::Stdout),
}

impl AsyncWrite for Stdout {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            #[cfg(unix)]
            Stdout::Pipe(pipe) => Pin::new(pipe).poll_write(cx, buf),
            #[cfg(unix)]
            Stdout::Socket(socket) => Pin::new(socket).poll_write(cx, buf),
            Stdout::Blocking(stdout) => Pin::new(stdout).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            #[cfg(unix)]
            Stdout::Pipe(pipe) => Pin::new(pipe).poll_flush(cx),
            #[cfg(unix)]
            Stdout::Socket(socket) => Pin::new(socket).poll_flush(cx),
            Stdout::Blocking(stdout) => Pin::new(stdout).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            #[cfg(unix)]
            Stdout::Pipe(pipe) => Pin::new(pipe).poll_shutdown(cx),
            // Shutting a socket's write side down would end the client's input: only flush.
            #[cfg(unix)]
            Stdout::Socket(socket) => Pin::new(socket).poll_flush(cx),
            Stdout::Blocking(stdout) => Pin::new(stdout).poll_shutdown(cx),
        }
    }
}
