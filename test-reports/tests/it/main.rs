//! The crate's integration tests (one binary): the dorny/test-reporter oracle, the deliberate differences from
//! it, bad input, and the model's shape.

mod oracle;
mod snapshot;
