//! The crate's integration tests (one binary): the dorny/test-reporter oracle, the deliberate differences from
//! it, bad input, and the model's shape.

mod bad_input;
mod differences;
mod model;
mod oracle;
mod snapshot;
