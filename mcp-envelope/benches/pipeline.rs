//! Pipeline cost on a 1.2 MB GitHub runs page (`runs-large.json`):
//! baseline parse + compact serialize vs parse -> project -> seal -> render
//! -> truncate, for JSON and TOON text, with and without a jq projection.
//!
//! Times are the bench thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), not wall time: on the shared 2-core machine
//! other processes' load would otherwise count (the pipeline runs on one thread).
//!
//! Numbers keep their literal digits end to end when serde_json's `arbitrary_precision` feature is on (the
//! workspace turns it on); the bench prints which, so that the cost of exact numbers can be measured
//! by running it once more in a copy of the workspace without that feature (see `BENCHMARKS.md`).
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcp_envelope::{OutputFormat, PageMeta, SizeBound, View, prepare};
use serde_json::Value;

const RUNS_LARGE: &str = include_str!("../../fixtures/github/runs-large.json");
const JQ: &str = ".workflow_runs | map({id, name, conclusion})";

fn pipeline(format: OutputFormat, jq: Option<&str>) -> usize {
    let body: Value = serde_json::from_str(RUNS_LARGE).unwrap();
    let prepared = prepare(
        body,
        PageMeta::new(Some(2)),
        &View::new(jq.map(str::to_owned), format),
        &SizeBound::default(),
    )
    .unwrap();
    let structured = prepared.sealed.into_envelope(|bytes| Some(bytes.len().to_string()));
    prepared.text.len() + usize::from(structured.incomplete.is_some())
}

/// Whether this build's serde_json keeps a number's literal digits (`arbitrary_precision`).
fn exact_numbers() -> bool {
    const DIGITS: &str = "123456789012345678901234567890";
    DIGITS
        .parse::<serde_json::Number>()
        .is_ok_and(|n| n.to_string() == DIGITS)
}

/// CPU time of the calling thread, shown as criterion shows wall time.
struct ThreadCpu(WallTime);

fn thread_cpu_now() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(u64::try_from(t.tv_sec).unwrap(), u32::try_from(t.tv_nsec).unwrap())
}

impl Measurement for ThreadCpu {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        thread_cpu_now()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu_now().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        self.0.formatter()
    }
}

fn bench(c: &mut Criterion<ThreadCpu>) {
    println!("exact numbers (serde_json arbitrary_precision): {}", exact_numbers());
    let mut group = c.benchmark_group("runs-large");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(RUNS_LARGE.len() as u64));
    group.bench_function("baseline parse+serialize", |b| {
        b.iter(|| {
            let v: Value = serde_json::from_str(black_box(RUNS_LARGE)).unwrap();
            serde_json::to_vec(&v).unwrap().len()
        })
    });
    for (name, format) in [("json", OutputFormat::Json), ("toon", OutputFormat::Toon)] {
        group.bench_function(format!("pipeline {name} no jq"), |b| {
            b.iter(|| pipeline(black_box(format), None))
        });
        group.bench_function(format!("pipeline {name} jq"), |b| {
            b.iter(|| pipeline(black_box(format), Some(JQ)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpu(WallTime));
    targets = bench
}
criterion_main!(benches);
