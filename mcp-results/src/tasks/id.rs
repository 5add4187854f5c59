//! [`TaskId`]: an unguessable task id.

use std::fmt;

/// Digits of a task id: 128 bits as lowercase hex.
const DIGITS: usize = 32;

/// A task id: 128 bits from the thread-local CSPRNG ([`rand::random`]) as 32 lowercase hex digits, so that no
/// caller can guess or enumerate another's tasks (the extension's "task ID unguessability"). Ids only ever come from
/// [`TaskId::random`] or, for a client's text, [`TaskId::parse`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId(String);

impl TaskId {
    /// A new random id.
    pub fn random() -> Self {
        let bits: u128 = rand::random();
        TaskId(format!("{bits:032x}"))
    }

    /// `text` as an id when it has the form of one (32 lowercase hex digits), else `None` (a store answers such a
    /// text "not found" without looking).
    pub fn parse(text: &str) -> Option<Self> {
        let well_formed = text.len() == DIGITS && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        well_formed.then(|| TaskId(text.to_owned()))
    }

    /// The id as text (what `taskId` carries).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_32_hex_digits_distinct_and_parse_back() {
        let a = TaskId::random();
        let b = TaskId::random();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 32);
        assert_eq!(TaskId::parse(a.as_str()), Some(a.clone()));
        assert_eq!(a.to_string(), a.as_str());
        for bad in [
            "",
            "0",
            &"g".repeat(32),
            &"A".repeat(32),
            &"0".repeat(33),
            "../../etc/passwd",
        ] {
            assert_eq!(TaskId::parse(bad), None, "{bad:?}");
        }
    }
}
