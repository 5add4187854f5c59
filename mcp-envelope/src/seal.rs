//! Applying the size bound to an envelope: inline or oversized, never clipped (private module: its items are re-exported at the crate root, and the concern is documented on `seal`).

use serde::Serialize;
use serde_json::Value;

use crate::bound::SizeBound;
use crate::envelope::{Envelope, Incomplete, IncompleteReason};

/// An envelope after the size bound was applied. `T` is the
/// type of `data` (any JSON value by default); the oversized form always has
/// `data: null`, so [`Oversized::finish`] gives an `Envelope<Value, M>`.
#[derive(Debug, Clone, PartialEq)]
pub enum Sealed<M, T = Value> {
    /// The compact serialization is at or under the bound: use the envelope
    /// as `structuredContent` unchanged.
    Inline(Envelope<T, M>),
    /// Over the bound: save [`Oversized::full_bytes`] as an
    /// `application/json` artifact and use [`Oversized::finish`] (or
    /// [`Oversized::into_parts`] + [`PendingIncomplete::finish`]) as
    /// `structuredContent`.
    Oversized(Oversized<M>),
}

impl<M, T> Sealed<M, T> {
    /// True for [`Sealed::Oversized`].
    pub fn is_oversized(&self) -> bool {
        matches!(self, Sealed::Oversized(_))
    }
}

impl<M> Sealed<M> {
    /// The `structuredContent` envelope, storing the full bytes with a
    /// synchronous `store` when oversized. `store` returns the artifact id,
    /// or `None` if saving failed (the result is still a success). For an async store use [`Oversized::into_parts`] instead.
    pub fn into_envelope(self, store: impl FnOnce(Vec<u8>) -> Option<String>) -> Envelope<Value, M> {
        match self {
            Sealed::Inline(envelope) => envelope,
            Sealed::Oversized(oversized) => {
                let (bytes, pending) = oversized.into_parts();
                pending.finish(store(bytes))
            }
        }
    }
}

/// A value over the bound: its full compact serialization plus what is
/// needed to build the `incomplete` form. `data` has already been dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct Oversized<M> {
    full: Vec<u8>,
    pending: PendingIncomplete<M>,
}

impl<M> Oversized<M> {
    /// The exact compact serialization (`serde_json::to_vec`) of the full
    /// envelope value, as it would have appeared in `structuredContent`.
    /// This is the artifact's content (`application/json`).
    pub fn full_bytes(&self) -> &[u8] {
        &self.full
    }

    /// Length of [`Oversized::full_bytes`] in bytes (= `incomplete.bytes`).
    pub fn full_len(&self) -> u64 {
        self.pending.bytes
    }

    /// Split into the full bytes (moved, not copied, e.g. to hand to an async
    /// artifact store) and the pending `incomplete` envelope to finish once
    /// the artifact id is known.
    pub fn into_parts(self) -> (Vec<u8>, PendingIncomplete<M>) {
        (self.full, self.pending)
    }

    /// The `incomplete` envelope (drops the full bytes); see
    /// [`PendingIncomplete::finish`].
    pub fn finish(self, artifact_id: Option<String>) -> Envelope<Value, M> {
        self.pending.finish(artifact_id)
    }
}

/// The oversized envelope waiting for its artifact id.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingIncomplete<M> {
    meta: M,
    bytes: u64,
    limit_bytes: u64,
}

impl<M> PendingIncomplete<M> {
    /// Length of the full value in bytes (`incomplete.bytes`).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The `structuredContent` envelope for an oversized value: `data: null`,
    /// tool metadata kept, `incomplete = {reason: "size", bytes: <full
    /// length>, limitBytes: <bound>, artifactId}`. Pass `None` only when
    /// saving the artifact failed.
    pub fn finish(self, artifact_id: Option<String>) -> Envelope<Value, M> {
        Envelope {
            data: Value::Null,
            meta: self.meta,
            incomplete: Some(Incomplete {
                reason: IncompleteReason::Size,
                bytes: self.bytes,
                limit_bytes: self.limit_bytes,
                artifact_id,
                mime_type: None,
            }),
        }
    }
}

/// Serializing the envelope failed (only possible with a custom `M` whose
/// `Serialize` impl fails; never for this crate's metadata types).
#[derive(Debug, thiserror::Error)]
#[error("could not serialize the structured result: {0}; this is a server defect, please report it")]
pub struct SealError(#[from] pub serde_json::Error);

/// Apply the bound: measure the compact serialization (`serde_json::to_vec`)
/// of the whole envelope; at or under `bound` bytes it is
/// [`Sealed::Inline`], over it [`Sealed::Oversized`] holding those exact bytes
///. The value is never clipped.
///
/// # Errors
/// [`SealError`] if the envelope cannot be serialized (see there).
///
/// Applying the size bound to an envelope: inline or oversized, never clipped
///.
///
/// ```
/// use mcp_envelope::{seal, Envelope, PageMeta, Sealed, SizeBound};
/// use serde_json::json;
///
/// let envelope = Envelope::new(json!({"big": "x".repeat(20_000)}), PageMeta::new(Some(2)));
/// let bound = SizeBound::new(16_384).0;
/// match seal(envelope, &bound)? {
///     Sealed::Inline(envelope) => unreachable!("{envelope:?}"),
///     Sealed::Oversized(oversized) => {
///         // Take the full bytes (no copy) and hand them to an artifact store...
///         let (full, pending) = oversized.into_parts();
///         let artifact_id = Some(format!("id-for-{}-bytes", full.len()));
///         // ...then finish the envelope with the id (None if saving failed).
///         let structured = pending.finish(artifact_id);
///         assert!(structured.data.is_null());
///         assert_eq!(structured.meta.next_page, Some(2));
///         assert_eq!(structured.incomplete.map(|i| i.bytes), Some(full.len() as u64));
///     }
/// }
/// # Ok::<(), mcp_envelope::SealError>(())
/// ```
pub fn seal<T: Serialize, M: Serialize>(
    envelope: Envelope<T, M>,
    bound: &SizeBound,
) -> Result<Sealed<M, T>, SealError> {
    let full = serde_json::to_vec(&envelope)?;
    Ok(seal_measured(envelope, full, bound))
}

/// [`seal`] with the bytes already computed (they must be
/// `serde_json::to_vec(&envelope)`).
pub(crate) fn seal_measured<T, M>(envelope: Envelope<T, M>, full: Vec<u8>, bound: &SizeBound) -> Sealed<M, T> {
    if full.len() <= bound.bytes() {
        return Sealed::Inline(envelope);
    }
    let bytes = u64::try_from(full.len()).unwrap_or(u64::MAX);
    let limit_bytes = u64::try_from(bound.bytes()).unwrap_or(u64::MAX);
    Sealed::Oversized(Oversized {
        full,
        pending: PendingIncomplete {
            meta: envelope.meta,
            bytes,
            limit_bytes,
        },
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::envelope::{NoMeta, PageMeta};
    use serde_json::json;

    #[test]
    fn at_bound_is_inline_one_over_is_oversized() {
        let env = Envelope::new(json!("x"), NoMeta {});
        let len = serde_json::to_vec(&env).unwrap().len();
        let at = SizeBound::unclamped_for_tests(len);
        assert!(matches!(seal(env.clone(), &at).unwrap(), Sealed::Inline(_)));
        let under = SizeBound::unclamped_for_tests(len - 1);
        let Sealed::Oversized(o) = seal(env.clone(), &under).unwrap() else {
            panic!("expected oversized");
        };
        assert_eq!(o.full_bytes(), serde_json::to_vec(&env).unwrap().as_slice());
        assert_eq!(o.full_len(), len as u64);
        let done = o.finish(None);
        assert_eq!(
            serde_json::to_value(&done).unwrap(),
            json!({"data": null, "incomplete": {"reason": "size", "bytes": len, "limitBytes": len - 1, "artifactId": null}})
        );
    }

    #[test]
    fn oversized_keeps_meta_and_full_bytes_parse_back() {
        let env = Envelope::new(json!({"a": "y".repeat(100)}), PageMeta::new(Some(3)));
        let sealed = seal(env.clone(), &SizeBound::unclamped_for_tests(10)).unwrap();
        assert!(sealed.is_oversized());
        let mut stored = Vec::new();
        let out = sealed.into_envelope(|bytes| {
            stored = bytes;
            Some("art-1".into())
        });
        let back: Envelope<Value, PageMeta> = serde_json::from_slice(&stored).unwrap();
        assert_eq!(back, env);
        assert_eq!(out.meta.next_page, Some(3));
        assert_eq!(out.incomplete.unwrap().artifact_id.as_deref(), Some("art-1"));
    }

    #[test]
    fn typed_data_seals_like_its_value() {
        let typed = Envelope::new(vec!["z".repeat(50); 3], PageMeta::new(None));
        let untyped = Envelope::new(serde_json::to_value(&typed.data).unwrap(), PageMeta::new(None));
        let bound = SizeBound::unclamped_for_tests(100);
        let (Sealed::Oversized(a), Sealed::Oversized(b)) =
            (seal(typed, &bound).unwrap(), seal(untyped, &bound).unwrap())
        else {
            panic!("expected oversized");
        };
        assert_eq!(a.full_bytes(), b.full_bytes());
        assert_eq!(a.finish(None), b.finish(None));
        let small = seal(Envelope::new(vec![1_u8], NoMeta {}), &bound).unwrap();
        assert!(matches!(small, Sealed::Inline(Envelope { data, .. }) if data == vec![1_u8]));
    }
}
