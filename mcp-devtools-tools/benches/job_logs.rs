//! Tail and grep over a generated 100 MB GitHub job log, streamed through [`Scanner`] as the tool streams a
//! download (64 KiB pieces), side by side in one run with ripgrep (`rg`) on the same file; peak RSS of each. The
//! `redacted` row runs each piece through the client's `adapters_http::RedactStream` first (a token and the signed-URL rules),
//! as every download is read.
//!
//! Run: `cargo bench -p mcp-devtools-tools --bench job_logs` (needs `rg` on PATH: Debian's `ripgrep`, or
//! `cargo install ripgrep`; `LOG_BENCH_MB` sets the size, default 100; `LOG_BENCH_RUNS` the runs per row, default 5,
//! the median is shown). The log is written to the target directory at bench time and removed afterwards.
//!
//! Peak RSS: ours is `VmHWM` of this process, reset before each row (`/proc/self/clear_refs`), so it counts the read
//! buffer, the kept lines and the scanner; rg's is `/usr/bin/time -f %M` of its process.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use adapters_http::Redactor;
use mcp_devtools_tools::logs::{Grep, JobPlan, Options};

/// The grep of the comparison: what a triage asks for.
const PATTERN: &str = "error|FAILED";
/// Read size: what a network download hands over at a time, at most.
const PIECE: usize = 64 * 1024;

fn main() {
    let megabytes: u64 = std::env::var("LOG_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let runs: usize = std::env::var("LOG_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/bench-logs");
    std::fs::create_dir_all(&dir).expect("bench dir");
    let path = dir.join("job-100mb.log");
    let (plan, lines) = generate(&path, megabytes * 1_000_000);
    let bytes = std::fs::metadata(&path).expect("log").len();
    println!(
        "log: {} bytes, {lines} lines, {} steps (generated at bench time: {})",
        bytes,
        plan.steps.len(),
        path.display()
    );
    let all = vec![true; plan.steps.len()];
    let mut failed = vec![false; plan.steps.len()];
    failed[3] = true;

    let rows: Vec<(&str, Box<Row>)> = vec![
        (
            "ours: tail 200 lines of the failed step",
            Box::new(|| ours(&path, &plan, options(Some(200), None), &failed, false)),
        ),
        (
            "ours: tail 200 lines of every step",
            Box::new(|| ours(&path, &plan, options(Some(200), None), &all, false)),
        ),
        (
            "ours: grep error|FAILED, every step",
            Box::new(|| ours(&path, &plan, options(None, Some(PATTERN)), &all, false)),
        ),
        (
            "ours: grep error|FAILED, every step, redacted as read (the tool's path)",
            Box::new(|| ours(&path, &plan, options(None, Some(PATTERN)), &all, true)),
        ),
        (
            "rg: error|FAILED (lines to /dev/null)",
            Box::new(|| rg(&path, &[PATTERN])),
        ),
        (
            "rg: --count error|FAILED",
            Box::new(|| rg(&path, &["--count", PATTERN])),
        ),
    ];
    println!();
    println!("| what | median of {runs} | MB/s | kept / matching lines | peak RSS |");
    println!("|---|---:|---:|---:|---:|");
    let mut medians = Vec::new();
    for (name, run) in &rows {
        let mut times = Vec::new();
        let mut result = (0, 0);
        for _ in 0..runs {
            let start = Instant::now();
            result = run();
            times.push(start.elapsed());
        }
        times.sort();
        let median = times[times.len() / 2];
        medians.push(median);
        let (kept, rss_kib) = result;
        println!(
            "| {name} | {:.1} ms | {:.0} | {kept} | {:.1} MiB |",
            median.as_secs_f64() * 1e3,
            bytes as f64 / 1e6 / median.as_secs_f64(),
            rss_kib as f64 / 1024.0
        );
    }
    let ratio = |ours: Duration, theirs: Duration| theirs.as_secs_f64() / ours.as_secs_f64();
    println!();
    println!(
        "our grep throughput / rg's: {:.2}x (target >= 0.5x)",
        ratio(medians[2], medians[4])
    );
    println!(
        "our grep redacted as read / rg's: {:.2}x (target >= 0.5x)",
        ratio(medians[3], medians[4])
    );
    println!(
        "our tail (every step) throughput / rg's grep: {:.2}x",
        ratio(medians[1], medians[4])
    );
    std::fs::remove_file(&path).ok();
}

/// One measured pass: (kept or matching lines, peak RSS in KiB).
type Row<'a> = dyn Fn() -> (usize, u64) + 'a;

fn options(tail: Option<usize>, grep: Option<&str>) -> Options {
    Options::new(usize::MAX)
        .with_tail(tail)
        .with_grep(grep.map(|g| Grep::new(g).expect("pattern")))
}

/// One streamed pass of our scanner over the file, each piece redacted first when `redact`: (kept lines, peak
/// RSS in KiB during the pass).
fn ours(path: &Path, plan: &JobPlan, options: Options, selected: &[bool], redact: bool) -> (usize, u64) {
    reset_peak_rss();
    let mut file = File::open(path).expect("open");
    let mut scanner = plan.scanner(options, selected, true);
    let mut redactor = redact.then(|| {
        Redactor::builder()
            .basic("GITHUB_TOKEN", "x-access-token", "ghp_benchTokenNotInTheLog0123456789")
            .signed_urls()
            .build()
            .stream()
    });
    let mut piece = vec![0u8; PIECE];
    loop {
        let n = file.read(&mut piece).expect("read");
        if n == 0 {
            break;
        }
        match &mut redactor {
            Some(stream) => scanner.feed(&stream.push(&piece[..n])),
            None => scanner.feed(&piece[..n]),
        }
    }
    if let Some(stream) = &mut redactor {
        scanner.feed(&stream.finish());
    }
    let scanned = scanner.finish();
    let kept = scanned.steps.iter().map(|s| s.lines.len()).sum();
    std::hint::black_box(&scanned);
    (kept, peak_rss_kib())
}

/// rg over the file with `args` (its output to /dev/null, or counted): (matching lines, its peak RSS in KiB).
fn rg(path: &Path, args: &[&str]) -> (usize, u64) {
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M", "rg", "--no-config"])
        .args(args)
        .arg(path)
        .stdout(if args.contains(&"--count") {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stderr(Stdio::piped())
        .output()
        .expect("run /usr/bin/time rg (install ripgrep)");
    let rss = String::from_utf8_lossy(&output.stderr)
        .trim()
        .lines()
        .last()
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    let count = String::from_utf8_lossy(&output.stdout).trim().parse().unwrap_or(0);
    (count, rss)
}

fn reset_peak_rss() {
    // "5" resets the peak resident set size (VmHWM) to the current RSS (Linux >= 4.0).
    std::fs::write("/proc/self/clear_refs", "5").ok();
}

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Writes a GitHub-format log of about `target` bytes: six steps, each opened by `##[group]Run …`, lines stamped
/// 1 ms apart, a third of them with ANSI colours, one line in 500 a test failure or an error. Returns the job's plan
/// (its steps' start times) and the number of lines.
fn generate(path: &Path, target: u64) -> (JobPlan, u64) {
    let steps = [
        "Set up job",
        "Run actions/checkout@v4",
        "Install dependencies",
        "Run tests",
        "Upload results",
        "Complete job",
    ];
    let bodies = [
        "Collecting requests>=2.31 (from -r requirements.txt (line 4))",
        "\u{1b}[32mPASSED\u{1b}[0m tests/test_store.py::test_put_get \u{1b}[32m[ 42%]\u{1b}[0m",
        "  Downloading urllib3-2.2.1-py3-none-any.whl.metadata (6.4 kB)",
        "\u{1b}[1m\u{1b}[34m==>\u{1b}[0m building wheel for pyyaml (pyproject.toml) ... done",
        "tests/test_api.py::test_list_runs_paged PASSED                           [ 17%]",
        "\u{1b}[36m[2024-05-14 09:15:12]\u{1b}[0m INFO worker-3 processed batch 8812 in 41 ms",
    ];
    let start: jiff::Timestamp = "2024-05-14T09:00:00Z".parse().expect("start");
    let per_step = target / steps.len() as u64;
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).expect("create log"));
    let mut written = 0u64;
    let mut lines = 0u64;
    let mut ms = 0i64;
    let mut starts = Vec::new();
    for (index, name) in steps.iter().enumerate() {
        ms += 1000;
        starts.push(start.as_millisecond() + ms);
        written += write_line(&mut out, start, ms, &format!("##[group]Run {name}"));
        lines += 1;
        let step_end = per_step * (index as u64 + 1);
        let mut i = 0usize;
        while written < step_end {
            ms += 1;
            i += 1;
            lines += 1;
            if i.is_multiple_of(500) {
                let failure = if i.is_multiple_of(1000) {
                    format!("FAILED tests/test_retry.py::test_case_{i} - AssertionError: assert 12 == 120")
                } else {
                    format!(
                        "E   requests.exceptions.ConnectionError: error connecting to 10.0.0.{}:5432",
                        i % 250
                    )
                };
                written += write_line(&mut out, start, ms, &failure);
            } else {
                written += write_line(&mut out, start, ms, bodies[i % bodies.len()]);
            }
        }
    }
    out.flush().expect("flush");
    let steps_json: Vec<serde_json::Value> = steps
        .iter()
        .zip(&starts)
        .enumerate()
        .map(|(i, (name, at))| {
            let at = jiff::Timestamp::from_millisecond(*at).expect("time");
            serde_json::json!({"number": i + 1, "name": name, "conclusion": if i == 3 { "failure" } else { "success" },
                               "started_at": at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()})
        })
        .collect();
    let job = serde_json::json!({"id": 1, "name": "bench", "conclusion": "failure", "steps": steps_json});
    (JobPlan::github(&job).expect("plan"), lines)
}

/// Writes one log line stamped `ms` after `start`; returns its length.
fn write_line(out: &mut impl Write, start: jiff::Timestamp, ms: i64, text: &str) -> u64 {
    let t = jiff::Timestamp::from_millisecond(start.as_millisecond() + ms).expect("time");
    let line = format!(
        "{}.{:03}0000Z {text}\n",
        t.strftime("%Y-%m-%dT%H:%M:%S"),
        ms.rem_euclid(1000)
    );
    out.write_all(line.as_bytes()).expect("write");
    line.len() as u64
}
