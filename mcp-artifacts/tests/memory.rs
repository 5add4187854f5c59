//! The conformance suite against `MemoryStore`.

mod conformance;

use std::sync::Arc;

use conformance::Fixture;
use mcp_artifacts::{ManualClock, MemoryStore, StoreConfig};

async fn memory_fixture() -> Fixture<MemoryStore> {
    let clock = Arc::new(ManualClock::starting_now());
    let config = StoreConfig::default();
    Fixture {
        store: MemoryStore::with_clock(config, clock.clone()),
        clock,
        config,
        _guard: None,
    }
}

conformance::conformance_suite!(memory_fixture);
