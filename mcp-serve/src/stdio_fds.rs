//! Which of the process's standard streams the runtime's I/O driver can wait for: a FIFO or a socket (epoll), not a
//! terminal or a file. Shared by [`crate::stdin`] and [`crate::stdout`].

use std::os::fd::BorrowedFd;
use std::os::unix::fs::FileTypeExt;

/// A standard stream the I/O driver can wait for: a duplicate of its descriptor, socket set non-blocking (a FIFO is
/// set non-blocking by tokio's `pipe` types).
pub(crate) enum Driven {
    /// A FIFO (a pipe).
    Fifo(std::fs::File),
    /// A socket (e.g. one end of the socket pair Node gives its children).
    Socket(std::os::unix::net::UnixStream),
}

/// `fd` as a [`Driven`] stream, or `None` when it is neither a FIFO nor a socket or cannot be duplicated.
pub(crate) fn driven(fd: BorrowedFd<'_>) -> Option<Driven> {
    let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
    let kind = file.metadata().ok()?.file_type();
    if kind.is_fifo() {
        return Some(Driven::Fifo(file));
    }
    if kind.is_socket() {
        let socket = std::os::unix::net::UnixStream::from(std::os::fd::OwnedFd::from(file));
        socket.set_nonblocking(true).ok()?;
        return Some(Driven::Socket(socket));
    }
    None
}
