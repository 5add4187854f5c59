//! The shared HTTP client's integration tests, one test binary: one module per area.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod client;
mod handoff;
mod redact_props;
mod redis_cache;
mod retry;

/// Log lines written by a `tracing` fmt subscriber, for tests that check what is (never) logged.
#[derive(Clone, Default)]
pub struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Captured {
    /// Sets a fmt subscriber up to `level`, writing here, as this thread's default while the guard lives (a
    /// `current_thread` test sees everything its client logs).
    pub fn install(level: tracing::Level) -> (Self, tracing::subscriber::DefaultGuard) {
        let logs = Self::default();
        let writer = logs.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_max_level(level)
            .with_ansi(false)
            .finish();
        (logs, tracing::subscriber::set_default(subscriber))
    }

    /// Everything logged so far.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
