//! [`TaskStoreError`]: why a task store could not answer.

/// Why a [`super::TaskStore`] could not answer. The texts never hold a password.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskStoreError {
    /// The backend did not answer, failed, or took longer than its timeout.
    #[error("the task store is unreachable: {reason}")]
    Unreachable {
        /// What failed, e.g. `no answer within 1000 ms`.
        reason: String,
    },
    /// A stored task does not decode (written by an incompatible version, or damaged).
    #[error("the stored task {id} does not decode: {reason}")]
    Corrupt {
        /// The task's id.
        id: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl TaskStoreError {
    /// [`TaskStoreError::Unreachable`] for `reason`.
    pub fn unreachable(reason: impl Into<String>) -> Self {
        TaskStoreError::Unreachable { reason: reason.into() }
    }
}
