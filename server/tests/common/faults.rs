//! The fault scenarios, shared by the fault suite (`tests/it/faults.rs`, few calls, assertions) and the
//! faults bench (`benches/faults.rs`, more calls, the BENCHMARKS.md table).
//!
//! Whole chain: rmcp streamable-HTTP clients → `mcp-devtools --http` children → the recorded upstream on 127.0.0.1,
//! with artifacts in a real S3 server (moto) and the HTTP cache in a real `redis-server`. Each scenario starts
//! **private** instances of both (its own ports and processes, from the binaries `scripts/services` installs), so
//! the `SIGSTOP` / `SIGKILL` it sends touch no other test's services.
//!
//! Scenarios (each returns [`Phase`] rows: inline-call latencies, error counts, oversized-call latencies):
//! - [`s3_faults`]: inline calls (a small `jq` projection, no artifact) while two callers keep making oversized
//!   calls (saved to S3), with S3 healthy, frozen (`SIGSTOP`), and refusing connections (`SIGKILL`).
//! - [`redis_faults`]: cached `circleci_get` calls with the cache off (a second server), with Redis healthy, frozen
//!   and killed.
//! - [`disconnect_frees_permits`]: calls holding every result pipeline (a long `jq`) abandoned by closing their
//!   connections; the time until a new call gets a pipeline.
//! - [`kill_during_writes`]: the server `SIGKILL`ed while four callers make oversized calls; every artifact id a
//!   client received, read back from a restarted server, byte for byte.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use rmcp::RoleClient;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use serde_json::{Value, json};

use crate::common::http::{HttpServer, tokens_file};

/// The bearer token (principal `alice`) every client uses.
pub const TOKEN: &str = "faults-token-alice-1";
/// The artifact save/read timeout the servers run with (`STREAMING_ARTIFACT_TIMEOUT_SECONDS`), seconds.
pub const SAVE_TIMEOUT_SECS: u64 = 1;
/// The Redis command timeout the servers run with (`HTTP_CACHE_REDIS_TIMEOUT_MS`, its default).
pub const REDIS_TIMEOUT_MS: u64 = 50;
const BUCKET: &str = "faults";
/// Concurrent inline callers in a measured phase.
const CALLERS: usize = 4;

/// A private service process (moto or redis-server) on its own port.
pub struct Service {
    child: Child,
    program: PathBuf,
    args: Vec<String>,
    /// Its port on 127.0.0.1.
    pub port: u16,
}

impl Service {
    /// A moto S3 server with the bucket the scenarios use, or `None` when moto is not installed.
    pub async fn moto() -> Option<Service> {
        let program = std::env::var_os("MCP_DEVTOOLS_TEST_MOTO_SERVER")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../services/.venv/bin/moto_server"
                ))
            });
        if !program.exists() {
            return None;
        }
        let port = free_port();
        let args = vec!["-H".into(), "127.0.0.1".into(), "-p".into(), port.to_string()];
        let service = Service::spawn(program, args, port);
        let url = format!("http://127.0.0.1:{port}");
        let client = reqwest::Client::new();
        let ready = wait_until(Duration::from_secs(30), || {
            let client = client.clone();
            let url = format!("{url}/moto-api/");
            async move { client.get(url).send().await.is_ok() }
        })
        .await;
        assert!(ready, "moto did not start on port {port}");
        let created = client.put(format!("{url}/{BUCKET}")).send().await.unwrap();
        assert!(created.status().is_success(), "create the bucket: {}", created.status());
        Some(service)
    }

    /// A redis-server without persistence, or `None` when it is not installed.
    pub async fn redis() -> Option<Service> {
        let found = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            return None;
        }
        let port = free_port();
        let args = [
            "--bind",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        .map(String::from)
        .to_vec();
        let service = Service::spawn(PathBuf::from("redis-server"), args, port);
        service.wait_redis().await;
        Some(service)
    }

    fn spawn(program: PathBuf, args: Vec<String>, port: u16) -> Service {
        let child = Command::new(&program)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the service");
        Service {
            child,
            program,
            args,
            port,
        }
    }

    async fn wait_redis(&self) {
        let port = self.port;
        let ready = wait_until(Duration::from_secs(10), || async move { redis_ping(port).await }).await;
        assert!(ready, "redis-server did not start on port {port}");
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "kill {signal}");
    }

    /// `SIGSTOP`: the process freezes, its port still accepts connections (the kernel's backlog).
    pub fn freeze(&self) {
        self.signal("-STOP");
    }

    /// `SIGCONT` after [`Service::freeze`].
    pub fn thaw(&self) {
        self.signal("-CONT");
    }

    /// `SIGKILL`, then waits for the process: its port refuses connections.
    pub fn kill(&mut self) {
        self.signal("-KILL");
        let _ = self.child.wait();
    }

    /// Starts it again on the same port (after [`Service::kill`]); Redis only.
    pub async fn restart_redis(&mut self) {
        *self = Service::spawn(self.program.clone(), self.args.clone(), self.port);
        self.wait_redis().await;
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-CONT", &self.child.id().to_string()])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

async fn wait_until<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let started = Instant::now();
    while started.elapsed() < limit {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

async fn redis_ping(port: u16) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let attempt = async {
        let mut socket = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.ok()?;
        socket.write_all(b"PING\r\n").await.ok()?;
        let mut buf = [0u8; 7];
        socket.read_exact(&mut buf).await.ok()?;
        Some(&buf == b"+PONG\r\n")
    };
    tokio::time::timeout(Duration::from_millis(500), attempt)
        .await
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// One measured phase.
#[derive(Debug, Clone)]
pub struct Phase {
    /// What was going on, e.g. "S3 frozen (SIGSTOP)".
    pub name: String,
    /// Latency of each inline call.
    pub inline: Vec<Duration>,
    /// Inline calls that failed (`isError`), with the first text.
    pub inline_errors: usize,
    pub first_error: Option<String>,
    /// Inline calls whose error said the server is busy.
    pub busy: usize,
    /// Latency of each oversized call made meanwhile, and how many got `artifactId: null`.
    pub oversized: Vec<Duration>,
    pub oversized_null: usize,
    /// Cache hits among the inline calls (`structuredContent.cache.hit`).
    pub hits: usize,
}

impl Phase {
    /// The `q` quantile (0..=1) of the inline latencies.
    pub fn inline_q(&self, q: f64) -> Duration {
        quantile(&self.inline, q)
    }

    /// The slowest oversized call.
    pub fn oversized_max(&self) -> Duration {
        self.oversized.iter().copied().max().unwrap_or_default()
    }
}

/// The `q` quantile of `samples` (nearest rank).
pub fn quantile(samples: &[Duration], q: f64) -> Duration {
    if samples.is_empty() {
        return Duration::ZERO;
    }
    let mut sorted = samples.to_vec();
    sorted.sort();
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// `d` in milliseconds with two decimals.
pub fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

/// Calls `tool` with `args`: the latency and the result as JSON.
async fn timed(client: &RunningService<RoleClient, ()>, tool: &str, args: &Value) -> (Duration, Value) {
    let request = CallToolRequestParams::new(tool.to_string()).with_arguments(args.as_object().cloned().unwrap());
    let started = Instant::now();
    let result = client.call_tool(request).await.expect("tools/call");
    (started.elapsed(), serde_json::to_value(result).unwrap())
}

fn result_text(result: &Value) -> String {
    result["content"][0]["text"].as_str().unwrap_or_default().to_owned()
}

/// `calls` inline calls spread over the clients (each calling back to back), recorded into a new [`Phase`].
async fn inline_phase(
    name: &str,
    clients: &[Arc<RunningService<RoleClient, ()>>],
    tool: &str,
    args: &Value,
    calls: usize,
) -> Phase {
    let per_client = calls.div_ceil(clients.len());
    let tasks: Vec<_> = clients
        .iter()
        .map(|client| {
            let (client, tool, args) = (client.clone(), tool.to_owned(), args.clone());
            tokio::spawn(async move {
                let mut out = Vec::with_capacity(per_client);
                for _ in 0..per_client {
                    out.push(timed(&client, &tool, &args).await);
                }
                out
            })
        })
        .collect();
    let mut phase = Phase {
        name: name.to_owned(),
        inline: Vec::new(),
        inline_errors: 0,
        first_error: None,
        busy: 0,
        oversized: Vec::new(),
        oversized_null: 0,
        hits: 0,
    };
    for task in tasks {
        for (latency, result) in task.await.unwrap() {
            phase.inline.push(latency);
            if result["isError"] == true {
                let text = result_text(&result);
                phase.inline_errors += 1;
                if text.contains("busy") {
                    phase.busy += 1;
                }
                phase.first_error.get_or_insert(text);
            }
            if result["structuredContent"]["cache"]["hit"] == true {
                phase.hits += 1;
            }
        }
    }
    phase
}

/// Oversized callers running in the background until stopped: their latencies and `artifactId: null` counts.
struct Background {
    stop: Arc<AtomicBool>,
    tasks: Vec<tokio::task::JoinHandle<Vec<(Duration, bool)>>>,
}

impl Background {
    fn start(clients: &[Arc<RunningService<RoleClient, ()>>], args: &Value) -> Background {
        let stop = Arc::new(AtomicBool::new(false));
        let tasks = clients
            .iter()
            .map(|client| {
                let (client, args, stop) = (client.clone(), args.clone(), stop.clone());
                tokio::spawn(async move {
                    let mut out = Vec::new();
                    while !stop.load(Ordering::SeqCst) {
                        let (latency, result) = timed(&client, "github_list_workflow_runs", &args).await;
                        assert_eq!(result["isError"], false, "oversized call: {result}");
                        let incomplete = &result["structuredContent"]["incomplete"];
                        assert_eq!(incomplete["reason"], "size", "{result}");
                        out.push((latency, incomplete["artifactId"].is_null()));
                    }
                    out
                })
            })
            .collect();
        Background { stop, tasks }
    }

    async fn finish(self, phase: &mut Phase) {
        self.stop.store(true, Ordering::SeqCst);
        for task in self.tasks {
            for (latency, null) in task.await.unwrap() {
                phase.oversized.push(latency);
                phase.oversized_null += usize::from(null);
            }
        }
    }
}

/// The recorded GitHub upstream, with CircleCI's `/me` (cacheable for 300 s) beside it.
async fn upstream() -> RecordedUpstream {
    let upstream = RecordedUpstream::github().await.unwrap();
    let me = recorded_upstream::fixture("circleci/me").unwrap();
    Mock::given(method("GET"))
        .and(path("/api/v2/me"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("cache-control", "max-age=300")
                .set_body_raw(me.body, "application/json"),
        )
        .mount(upstream.server())
        .await;
    upstream
}

/// An HTTP server (stateful sessions) on `upstream` with `extra` settings.
async fn server(upstream: &RecordedUpstream, extra: &[(&str, &str)]) -> HttpServer {
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(&dir, &[(TOKEN, "alice")]);
    let base = upstream.uri();
    let circleci = format!("{base}/api/v2");
    let timeout = SAVE_TIMEOUT_SECS.to_string();
    let mut settings = vec![
        ("MCP_STRUCTURED_OUTPUT", "true"),
        ("MCP_STRUCTURED_MAX_BYTES", "16384"),
        ("CIRCLECI_TOKEN", "circle-secret-token"),
        ("CIRCLECI_API_BASE", circleci.as_str()),
        ("STREAMING_ARTIFACT_TIMEOUT_SECONDS", timeout.as_str()),
        ("RUST_LOG", "warn"),
    ];
    settings.extend_from_slice(extra);
    let env = crate::common::server_env(&base, &settings);
    HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], dir).await
}

/// The S3 settings for a store under `prefix` of the private moto at `endpoint`.
fn s3_settings(endpoint: &str, prefix: &str) -> Vec<(String, String)> {
    [
        ("STREAMING_ARTIFACT_STORE", "s3".to_owned()),
        ("STREAMING_ARTIFACT_S3_URL", format!("s3://{BUCKET}/{prefix}")),
        ("AWS_ENDPOINT_URL", endpoint.to_owned()),
        ("AWS_REGION", "us-east-1".to_owned()),
        ("AWS_ACCESS_KEY_ID", "test".to_owned()),
        ("AWS_SECRET_ACCESS_KEY", "test-secret".to_owned()),
        ("AWS_ALLOW_HTTP", "true".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

fn borrowed(settings: &[(String, String)]) -> Vec<(&str, &str)> {
    settings.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

async fn clients(server: &HttpServer, n: usize) -> Vec<Arc<RunningService<RoleClient, ()>>> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(Arc::new(server.client(TOKEN).await));
    }
    out
}

fn runs_args() -> Value {
    json!({"owner": "octo-org", "repo": "octo-repo"})
}

/// Inline calls: the same list with a `jq` that keeps one number (a projection, no artifact).
fn inline_args() -> Value {
    json!({"owner": "octo-org", "repo": "octo-repo", "jq": "length", "outputFormat": "json"})
}

/// S3 healthy, frozen, refusing: `calls` inline calls per phase while two callers make oversized calls.
pub async fn s3_faults(moto: &mut Service, calls: usize) -> Vec<Phase> {
    let upstream = upstream().await;
    let s3 = s3_settings(&moto.url(), &format!("faults-s3-{}", std::process::id()));
    let server = server(&upstream, &borrowed(&s3)).await;
    let inline = clients(&server, CALLERS).await;
    let oversized = clients(&server, 2).await;
    // Warm-up: connections, the jq workers, the upstream.
    inline_phase(
        "warm-up",
        &inline,
        "github_list_workflow_runs",
        &inline_args(),
        CALLERS * 2,
    )
    .await;
    let mut phases = Vec::new();
    for fault in ["none", "S3 frozen (SIGSTOP)", "S3 down (SIGKILL, connection refused)"] {
        match fault {
            "none" => {}
            "S3 frozen (SIGSTOP)" => moto.freeze(),
            _ => {
                moto.thaw();
                moto.kill();
            }
        }
        let background = Background::start(&oversized, &runs_args());
        // Let the oversized callers reach the store before measuring.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let mut phase = inline_phase(fault, &inline, "github_list_workflow_runs", &inline_args(), calls).await;
        background.finish(&mut phase).await;
        phases.push(phase);
    }
    phases
}

/// The cache off (a second server), then Redis healthy, frozen, killed: `calls` cached `circleci_get` calls per
/// phase. Also checks that the cache comes back (hits again) after each fault, within a few reconnect intervals.
pub async fn redis_faults(redis: &mut Service, calls: usize) -> Vec<Phase> {
    let upstream = upstream().await;
    let me = json!({"path": "/me"});
    let off = server(&upstream, &[("HTTP_CACHE_ENABLED", "false")]).await;
    let off_clients = clients(&off, CALLERS).await;
    inline_phase("warm-up", &off_clients, "circleci_get", &me, CALLERS * 2).await;
    let mut phases = vec![inline_phase("cache off (no Redis)", &off_clients, "circleci_get", &me, calls).await];
    drop(off_clients);
    drop(off);
    let url = format!("redis://127.0.0.1:{}/0", redis.port);
    let on = server(&upstream, &[("HTTP_CACHE_REDIS_URL", url.as_str())]).await;
    let on_clients = clients(&on, CALLERS).await;
    inline_phase("warm-up", &on_clients, "circleci_get", &me, CALLERS * 2).await;
    phases.push(inline_phase("Redis healthy (hits)", &on_clients, "circleci_get", &me, calls).await);
    redis.freeze();
    phases.push(inline_phase("Redis frozen (SIGSTOP)", &on_clients, "circleci_get", &me, calls).await);
    redis.thaw();
    assert!(
        cache_returns(&on_clients[0]).await,
        "the cache hits again after Redis thaws"
    );
    redis.kill();
    phases.push(inline_phase("Redis down (SIGKILL)", &on_clients, "circleci_get", &me, calls).await);
    redis.restart_redis().await;
    assert!(
        cache_returns(&on_clients[0]).await,
        "the cache hits again after Redis restarts"
    );
    phases
}

/// Whether `circleci_get /me` is a cache hit again within 5 s.
async fn cache_returns(client: &RunningService<RoleClient, ()>) -> bool {
    let me = json!({"path": "/me"});
    wait_until(Duration::from_secs(5), || async {
        let (_, result) = timed(client, "circleci_get", &me).await;
        result["structuredContent"]["cache"]["hit"] == true
    })
    .await
}

/// Raw JSON-RPC over HTTP: one POST in the session `session` (none for `initialize`).
async fn post(http: &reqwest::Client, url: &str, session: Option<&str>, body: Value) -> reqwest::Response {
    let mut request = http
        .post(url)
        .bearer_auth(TOKEN)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .json(&body);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.send().await.unwrap()
}

/// Opens as many calls as there are result pipelines, each running a `jq` that does not end for minutes, closes
/// their connections after `hold`, and returns how long after the closing a small call with `jq` took to answer,
/// with its result.
pub async fn disconnect_frees_permits(hold: Duration) -> (Duration, Value) {
    let upstream = upstream().await;
    let server = server(&upstream, &[("MCP_JQ_TIMEOUT_SECONDS", "60")]).await;
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let init = post(
        &http,
        &server.url,
        None,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "faults", "version": "1"}}}),
    )
    .await;
    let session = init.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let _ = init.text().await;
    post(
        &http,
        &server.url,
        Some(&session),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    // The server's default: one pipeline per CPU, at least two (same machine, same count).
    let pipelines = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
    let mut abandoned = Vec::new();
    for id in 1..=pipelines {
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "github_list_workflow_runs",
            "arguments": {"owner": "octo-org", "repo": "octo-repo", "jq": "last(range(1e15))"}}});
        abandoned.push(post(&http, &server.url, Some(&session), call).await);
    }
    tokio::time::sleep(hold).await;
    drop(abandoned);
    let closed = Instant::now();
    let client = server.client(TOKEN).await;
    let (_, result) = timed(&client, "github_list_workflow_runs", &inline_args()).await;
    (closed.elapsed(), result)
}

/// Four callers make oversized calls for `write_for`, then the server is `SIGKILL`ed; a new server on the same
/// store reads back every artifact a caller received. Returns (ids received, ids read back exact).
pub async fn kill_during_writes(store: &[(String, String)], write_for: Duration) -> (usize, usize) {
    let upstream = upstream().await;
    let mut first = server(&upstream, &borrowed(store)).await;
    let callers = clients(&first, CALLERS).await;
    let stop = Arc::new(AtomicBool::new(false));
    let tasks: Vec<_> = callers
        .iter()
        .map(|client| {
            let (client, stop) = (client.clone(), stop.clone());
            tokio::spawn(async move {
                let mut received = Vec::new();
                while !stop.load(Ordering::SeqCst) {
                    let args = runs_args().as_object().cloned().unwrap();
                    let request = CallToolRequestParams::new("github_list_workflow_runs").with_arguments(args);
                    // The kill ends calls in flight with a transport error: only answers count.
                    let answered = tokio::time::timeout(Duration::from_secs(10), client.call_tool(request)).await;
                    let Ok(Ok(result)) = answered else {
                        break;
                    };
                    let result = serde_json::to_value(result).unwrap();
                    let incomplete = &result["structuredContent"]["incomplete"];
                    if let Some(id) = incomplete["artifactId"].as_str() {
                        received.push((id.to_owned(), incomplete["bytes"].as_u64().unwrap()));
                    }
                }
                received
            })
        })
        .collect();
    tokio::time::sleep(write_for).await;
    first.child.start_kill().unwrap();
    let _ = first.child.wait().await;
    stop.store(true, Ordering::SeqCst);
    let mut received = Vec::new();
    for task in tasks {
        received.extend(task.await.unwrap());
    }
    drop(callers);
    let second = server(&upstream, &borrowed(store)).await;
    let reader = second.client(TOKEN).await;
    let mut reference: Option<Vec<u8>> = None;
    let mut exact = 0;
    for (id, bytes) in &received {
        let data = read_artifact(&reader, id).await;
        let Some(data) = data else { continue };
        // Every artifact is the same value (the same upstream body): equal to the first, and as long as announced.
        let same = reference.get_or_insert_with(|| data.clone()) == &data;
        if same && data.len() as u64 == *bytes && serde_json::from_slice::<Value>(&data).is_ok() {
            exact += 1;
        }
    }
    (received.len(), exact)
}

/// The whole artifact `id` through `artifact_read` (1 MiB chunks), or `None` when a chunk read failed.
pub async fn read_artifact(client: &RunningService<RoleClient, ()>, id: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut offset = 0u64;
    loop {
        let args = json!({"artifactId": id, "offset": offset, "maxBytes": 1_048_576});
        let (_, result) = timed(client, "artifact_read", &args).await;
        if result["isError"] == true {
            eprintln!("artifact {id} at {offset}: {}", result_text(&result));
            return None;
        }
        let chunk = &result["structuredContent"];
        out.extend(STANDARD.decode(chunk["data"].as_str()?).ok()?);
        if chunk["eof"] == true {
            return Some(out);
        }
        offset = chunk["nextOffset"].as_u64()?;
    }
}

/// The S3 settings of a fresh prefix on `moto` (for [`kill_during_writes`]).
pub fn s3_store(moto: &Service, name: &str) -> Vec<(String, String)> {
    s3_settings(&moto.url(), &format!("{name}-{}", std::process::id()))
}

/// The fs settings of a store in `dir`.
pub fn fs_store(dir: &std::path::Path) -> Vec<(String, String)> {
    vec![
        ("STREAMING_ARTIFACT_STORE".to_owned(), "fs".to_owned()),
        ("STREAMING_ARTIFACT_DIR".to_owned(), dir.display().to_string()),
    ]
}

/// A stdio server with a call in flight that holds a result pipeline (a `jq` that does not end for minutes):
/// closes stdin after `hold` and returns how long the server took to exit (its calls cancelled, its `jq` worker
/// killed).
pub async fn stdin_close_exits(hold: Duration) -> Duration {
    use tokio::io::AsyncWriteExt;
    let upstream = upstream().await;
    let env = crate::common::server_env(&upstream.uri(), &[("MCP_JQ_TIMEOUT_SECONDS", "60")]);
    let mut child = tokio::process::Command::new(crate::common::BIN)
        .env_clear()
        .envs(env)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn the server");
    let mut stdin = child.stdin.take().expect("stdin");
    for message in [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "faults", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "github_list_workflow_runs",
            "arguments": {"owner": "octo-org", "repo": "octo-repo", "jq": "last(range(1e15))"}}}),
    ] {
        stdin.write_all(format!("{message}\n").as_bytes()).await.unwrap();
    }
    stdin.flush().await.unwrap();
    tokio::time::sleep(hold).await;
    drop(stdin);
    let closed = Instant::now();
    tokio::time::timeout(Duration::from_secs(30), child.wait())
        .await
        .expect("the server exits once stdin is closed")
        .unwrap();
    closed.elapsed()
}
