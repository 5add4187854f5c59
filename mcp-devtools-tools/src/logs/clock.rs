//! Which step a GitHub log line belongs to (private module: its items are re-exported by `logs`, and the concern is documented on `StepClock`).

/// How long an ISO timestamp prefix `YYYY-MM-DDTHH:MM:SS` is.
pub const SECOND_PREFIX: usize = 19;

/// Lines that open a step.
const STEP_OPENERS: [&[u8]; 3] = [b"##[group]Run ", b"Post job cleanup.", b"Cleaning up orphan processes"];

/// The step boundaries of one job, walked forward as lines arrive in order.
///
/// Which step a GitHub log line belongs to: the job log is one text, and the jobs API gives each step's start
/// time (whole seconds). A line moves the log to the next step when its timestamp is a second or more past that
/// step's start, or when it is at or past the start and opens the step (`##[group]Run …`, the runner's header of a step, `Post job cleanup.`,
/// `Cleaning up orphan processes`), since steps often start within the same second.
#[derive(Debug, Clone)]
pub struct StepClock {
    /// (step index, start second, start second + 1) of each step that ran, in order.
    starts: Vec<(usize, [u8; SECOND_PREFIX], [u8; SECOND_PREFIX])>,
    /// Position in `starts` of the current step.
    at: usize,
}

impl StepClock {
    /// The clock of steps started at `started` (by step index; `None` for a step that did not run).
    pub fn new(started: &[Option<jiff::Timestamp>]) -> Self {
        // The jobs API's seconds are rounded: a step may seem to start before the one listed before it (`Complete
        // job` before the `Post …` steps). Steps run in order, so each starts no earlier than the one before.
        let mut latest: Option<jiff::Timestamp> = None;
        let starts = started
            .iter()
            .enumerate()
            .filter_map(|(index, start)| {
                let start = (*start)?.max(latest.unwrap_or((*start)?));
                latest = Some(start);
                let lo = second_prefix(start)?;
                let hi = second_prefix(start.checked_add(jiff::SignedDuration::from_secs(1)).ok()?)?;
                Some((index, lo, hi))
            })
            .collect();
        Self { starts, at: 0 }
    }

    /// The index of the current step (the first step that ran, before any line).
    pub fn current(&self) -> Option<usize> {
        self.starts.get(self.at).map(|(index, _, _)| *index)
    }

    /// Whether a line stamped `time` (or any earlier line) may belong to a later step.
    pub fn may_move(&self, time: &[u8]) -> bool {
        match (self.starts.get(self.at + 1), time.get(..SECOND_PREFIX)) {
            (Some((_, lo, _)), Some(second)) => second >= &lo[..],
            _ => false,
        }
    }

    /// Moves to the step that the line stamped `time` with `text` belongs to; true when the step changed.
    pub fn advance(&mut self, time: &[u8], text: &[u8]) -> bool {
        let Some(second) = time.get(..SECOND_PREFIX) else {
            return false;
        };
        let before = self.at;
        while let Some((_, _, hi)) = self.starts.get(self.at + 1)
            && second >= &hi[..]
        {
            self.at += 1;
        }
        if let Some((_, lo, _)) = self.starts.get(self.at + 1)
            && second >= &lo[..]
            && STEP_OPENERS.iter().any(|opener| text.starts_with(opener))
        {
            self.at += 1;
        }
        self.at != before
    }
}

/// `YYYY-MM-DDTHH:MM:SS` of `t` in UTC.
fn second_prefix(t: jiff::Timestamp) -> Option<[u8; SECOND_PREFIX]> {
    let text = t.strftime("%Y-%m-%dT%H:%M:%S").to_string();
    text.as_bytes().try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Option<jiff::Timestamp> {
        s.parse().ok()
    }

    #[test]
    fn steps_move_on_openers_and_after_a_second() {
        let mut clock = StepClock::new(&[
            at("2023-01-10T08:24:27Z"),
            None,
            at("2023-01-10T08:24:29.000Z"),
            at("2023-01-10T09:24:29.000+01:00"),
        ]);
        assert_eq!(clock.current(), Some(0));
        assert!(!clock.may_move(b"2023-01-10T08:24:28.9999999Z"));
        assert!(!clock.advance(b"2023-01-10T08:24:29.1000000Z", b"still set up"));
        assert!(clock.advance(b"2023-01-10T08:24:29.2000000Z", b"##[group]Run actions/checkout@v2"));
        assert_eq!(clock.current(), Some(2));
        assert!(clock.advance(b"2023-01-10T08:24:29.3000000Z", b"Post job cleanup."));
        assert_eq!(clock.current(), Some(3));
        assert!(!clock.advance(b"2023-01-10T08:30:00.0000000Z", b"##[group]late"));
        let mut jump = StepClock::new(&[
            at("2023-01-10T08:00:00Z"),
            at("2023-01-10T08:01:00Z"),
            at("2023-01-10T08:02:00Z"),
        ]);
        assert!(jump.advance(b"2023-01-10T08:02:01.0000000Z", b"x"));
        assert_eq!(jump.current(), Some(2));
    }
}
