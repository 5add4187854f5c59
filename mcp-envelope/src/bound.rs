//! The structured-content size bound: a number of bytes, clamped into its range.

use std::fmt;

/// Default bound in bytes (256 KiB).
pub const DEFAULT_MAX_BYTES: usize = 262_144;
/// Smallest accepted bound in bytes (16 KiB); smaller settings are clamped up.
pub const MIN_MAX_BYTES: usize = 16_384;
/// Largest accepted bound in bytes (15 MiB, 15,728,640); larger settings are
/// clamped down. rmcp-based clients refuse a JSON-RPC line over
/// [`CLIENT_MAX_MESSAGE_BYTES`] (16 MiB); one result carries the structured
/// value (at most this bound), the text (at most
/// [`crate::TEXT_LIMIT_BYTES`] plus a short note, at most 6 bytes per byte
/// once JSON-escaped) and the JSON-RPC envelope, so 1 MiB is left for the
/// text and envelope and every result fits in one line a client accepts.
pub const MAX_MAX_BYTES: usize = 15 * 1024 * 1024;
/// The largest JSON-RPC message rmcp-based clients accept, in bytes (16 MiB).
/// [`MAX_MAX_BYTES`] leaves room below it for the rest of a result.
pub const CLIENT_MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// Bound, in bytes, on the compact serialization of one `structuredContent`
/// value. Always within
/// [`MIN_MAX_BYTES`]`..=`[`MAX_MAX_BYTES`]; [`Default`] is [`DEFAULT_MAX_BYTES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SizeBound(usize);

impl SizeBound {
    /// A bound of `bytes`, clamped to `16384..=15728640`. The warning is
    /// `Some` when the value had to be clamped; log it once.
    pub fn new(bytes: u64) -> (SizeBound, Option<BoundWarning>) {
        let used = usize::try_from(bytes)
            .unwrap_or(MAX_MAX_BYTES)
            .clamp(MIN_MAX_BYTES, MAX_MAX_BYTES);
        let warning = (u64::try_from(used).ok() != Some(bytes)).then(|| BoundWarning {
            given: bytes.to_string(),
            used,
        });
        (SizeBound(used), warning)
    }

    /// The bound in bytes.
    pub fn bytes(&self) -> usize {
        self.0
    }

    /// A bound outside the clamped range, for tests of the oversized path
    /// with small values. Not for production use: the contract clamps to
    /// `16384..=15728640`.
    #[doc(hidden)]
    pub fn unclamped_for_tests(bytes: usize) -> SizeBound {
        SizeBound(bytes)
    }
}

impl Default for SizeBound {
    fn default() -> Self {
        SizeBound(DEFAULT_MAX_BYTES)
    }
}

/// A bound outside the accepted range, resolved by clamping. Its `Display` is one log line naming the
/// setting, the value given and the value used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundWarning {
    given: String,
    used: usize,
}

impl BoundWarning {
    /// The value as given in the setting.
    pub fn given(&self) -> &str {
        &self.given
    }

    /// The bound used instead, in bytes.
    pub fn used(&self) -> usize {
        self.used
    }
}

impl fmt::Display for BoundWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a structured-content bound of {} bytes is outside {MIN_MAX_BYTES}..={MAX_MAX_BYTES}; using {} bytes",
            self.given, self.used
        )
    }
}

impl std::error::Error for BoundWarning {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_and_in_range_values() {
        assert_eq!(SizeBound::default().bytes(), 262_144);
        for v in [16_384u64, 100_000, 15_728_640] {
            let (b, w) = SizeBound::new(v);
            assert_eq!(b.bytes() as u64, v);
            assert!(w.is_none());
        }
    }

    #[test]
    fn out_of_range_values_are_clamped_with_a_warning() {
        let (b, w) = SizeBound::new(10);
        assert_eq!(b.bytes(), MIN_MAX_BYTES);
        let w = w.map(|w| w.to_string()).unwrap_or_default();
        assert!(w.contains("bound of 10 bytes") && w.contains("using 16384"), "{w}");
        let (b, w) = SizeBound::new(u64::MAX);
        assert_eq!(b.bytes(), MAX_MAX_BYTES);
        assert!(w.is_some());
    }
}
