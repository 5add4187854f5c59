//! The envelope's integration tests, one test binary: one module per area. The jq 1.8.1 suites keep their own
//! binary (`--test jq_suite`): scripts/package-check runs them alone, from the package too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod jq_builtins;
mod jq_differential;
mod list_writer;
mod pipeline;
mod seal_props;
mod toon_oracle;
