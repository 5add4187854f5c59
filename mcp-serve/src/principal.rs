//! Who is calling: the subject a host program uses for artifact ownership, cache partitions and policy. The type and
//! [`principal_of`] live in `mcp-policy` (beside the policy that decides over principals, so the tools share them
//! without depending on this transport crate); they are re-exported here, at the crate root, unchanged.

pub use mcp_policy::{Principal, principal_of};
