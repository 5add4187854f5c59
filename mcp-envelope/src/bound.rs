//! The structured-content size bound, `MCP_STRUCTURED_MAX_BYTES` (CONTRACT §1).

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
/// Name of the setting, as it appears in warnings.
pub const MAX_BYTES_SETTING: &str = "MCP_STRUCTURED_MAX_BYTES";

/// Bound, in bytes, on the compact serialization of one `structuredContent`
/// value (CONTRACT §1, §5). Always within
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
            kind: WarningKind::Clamped,
        });
        (SizeBound(used), warning)
    }

    /// The bound from the raw setting text (`None` when unset).
    ///
    /// - `None` or blank: the default, no warning.
    /// - a non-negative integer (surrounding whitespace ignored): clamped as
    ///   in [`SizeBound::new`].
    /// - anything else (`"abc"`, `"-5"`, `"1.5"`, `"256k"`): the default plus
    ///   a warning naming the value given and the value used (CONTRACT §1:
    ///   "a non-number falls back to the default and logs one warning").
    pub fn from_setting(raw: Option<&str>) -> (SizeBound, Option<BoundWarning>) {
        let Some(raw) = raw else {
            return (SizeBound::default(), None);
        };
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return (SizeBound::default(), None);
        }
        match trimmed.parse::<u64>() {
            Ok(bytes) => Self::new(bytes),
            // All digits but too large for u64: clamp like any large value.
            Err(_) if trimmed.bytes().all(|b| b.is_ascii_digit()) => {
                let (bound, _) = Self::new(u64::MAX);
                let warning = BoundWarning {
                    given: trimmed.to_owned(),
                    used: bound.0,
                    kind: WarningKind::Clamped,
                };
                (bound, Some(warning))
            }
            Err(_) => (
                SizeBound::default(),
                Some(BoundWarning {
                    given: raw.to_owned(),
                    used: DEFAULT_MAX_BYTES,
                    kind: WarningKind::NotANumber,
                }),
            ),
        }
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WarningKind {
    Clamped,
    NotANumber,
}

/// A problem with the `MCP_STRUCTURED_MAX_BYTES` setting that was resolved by
/// clamping or by using the default. Its `Display` is one log line naming the
/// setting, the value given and the value used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundWarning {
    given: String,
    used: usize,
    kind: WarningKind,
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
        match self.kind {
            WarningKind::Clamped => write!(
                f,
                "{MAX_BYTES_SETTING}={} is outside {MIN_MAX_BYTES}..={MAX_MAX_BYTES}; using {} bytes",
                self.given, self.used
            ),
            WarningKind::NotANumber => write!(
                f,
                "{MAX_BYTES_SETTING}={:?} is not a whole number of bytes; using the default {} bytes",
                self.given, self.used
            ),
        }
    }
}

impl std::error::Error for BoundWarning {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_and_unset() {
        assert_eq!(SizeBound::default().bytes(), 262_144);
        assert_eq!(SizeBound::from_setting(None), (SizeBound::default(), None));
        assert_eq!(SizeBound::from_setting(Some("  ")), (SizeBound::default(), None));
    }

    #[test]
    fn in_range_values_are_kept() {
        for v in [16_384u64, 100_000, 15_728_640] {
            let (b, w) = SizeBound::new(v);
            assert_eq!(b.bytes() as u64, v);
            assert!(w.is_none());
        }
        let (b, w) = SizeBound::from_setting(Some(" 20000 "));
        assert_eq!((b.bytes(), w), (20_000, None));
    }

    #[test]
    fn out_of_range_values_are_clamped_with_a_warning() {
        let (b, w) = SizeBound::new(10);
        assert_eq!(b.bytes(), MIN_MAX_BYTES);
        let w = w.map(|w| w.to_string()).unwrap_or_default();
        assert!(w.contains("MCP_STRUCTURED_MAX_BYTES=10"), "{w}");
        assert!(w.contains("16384"), "{w}");
        let (b, w) = SizeBound::new(u64::MAX);
        assert_eq!(b.bytes(), MAX_MAX_BYTES);
        assert!(w.is_some());
        let (b, w) = SizeBound::from_setting(Some("99999999999999999999999"));
        assert_eq!(b.bytes(), MAX_MAX_BYTES);
        assert!(w.is_some_and(|w| w.to_string().contains("99999999999999999999999")));
    }

    #[test]
    fn non_numbers_fall_back_to_default_with_one_warning() {
        for raw in ["abc", "-5", "1.5", "256k", "0x10"] {
            let (b, w) = SizeBound::from_setting(Some(raw));
            assert_eq!(b, SizeBound::default(), "{raw}");
            let line = w.map(|w| w.to_string()).unwrap_or_default();
            assert!(line.contains("MCP_STRUCTURED_MAX_BYTES"), "{line}");
            assert!(line.contains(raw), "{line}");
            assert!(line.contains("262144"), "{line}");
            assert!(!line.contains('\n'));
        }
    }
}
