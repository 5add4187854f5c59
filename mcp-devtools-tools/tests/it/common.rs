//! Shared helpers: the tools in this process (`DevtoolsServer` from a typed [`ToolsConfig`]), reached by an rmcp
//! client over an in-memory pipe ([`connect`]) or by [`DevtoolsServer::call_tool_as`] ([`server`]), against
//! `recorded-upstream` (a wiremock server serving `fixtures/`).
//!
//! The configurations are those the bundled server builds from its settings, written here as typed values: the
//! setting names its texts use (`GITHUB_TOKEN`, `MCP_TOOLSETS`, ...), artifacts in memory unless a test says
//! otherwise, and `jq` in worker processes of the `tools_jq_worker` example.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use adapters_atlassian::AtlassianConfig;
use adapters_circleci::CircleciConfig;
use adapters_github::GithubConfig;
use adapters_http::HttpOptions;
use adapters_http::{Secret, SettingNames};
use mcp_devtools_tools::toolsets::SelectionNames;
use mcp_devtools_tools::{App, ArtifactBackend, DevtoolsServer, Principal, ToolsConfig};
use mcp_projection::WorkerProgram;
use recorded_upstream::RecordedUpstream;
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

pub use recorded_upstream::check::{assert_valid, fixture_json, is_rfc3339_millis_utc, repo_args, structured, text};

/// An rmcp client session with the tools.
pub type Client = RunningService<RoleClient, ()>;

/// The GitHub token of [`github_config`] (placeholder: the recorded upstream checks none but `bad-token`).
pub const GITHUB_TOKEN: &str = "test-token";

/// Buffer of the in-memory pipe between client and server, each way, bytes.
const PIPE_BYTES: usize = 64 * 1024;

/// The bundled server's name of the upstream body cap, in the adapters' errors.
const MAX_BODY_SETTING: &str = "HTTP_MAX_BODY_BYTES";

/// The caller of an in-memory session: what the stdio server calls its local user `tester`.
pub fn principal() -> Principal {
    Principal::named("local:tester")
}

/// The `tools_jq_worker` example (`cargo test` builds a package's examples with its tests), beside this test program:
/// `target/<profile>/deps/it-<hash>` → `target/<profile>/examples/tools_jq_worker`.
pub fn jq_worker() -> PathBuf {
    static WORKER: OnceLock<PathBuf> = OnceLock::new();
    WORKER
        .get_or_init(|| {
            let exe = std::env::current_exe().expect("the test program's path");
            let profile = exe.parent().and_then(Path::parent).expect("target/<profile>/deps");
            let worker = profile
                .join("examples")
                .join(format!("tools_jq_worker{}", std::env::consts::EXE_SUFFIX));
            assert!(
                worker.exists(),
                "{} is missing: `cargo test -p mcp-devtools-tools` (or nextest) builds it; with a target filter such \
                 as `--test it`, build it first with `cargo build -p mcp-devtools-tools --example tools_jq_worker`",
                worker.display()
            );
            worker
        })
        .clone()
}

fn names(base: &'static str, credential: &'static str) -> SettingNames {
    SettingNames::default()
        .with_base(base)
        .with_credential(credential)
        .with_max_body(MAX_BODY_SETTING)
}

/// The Atlassian setting names of the bundled server.
pub fn atlassian_names() -> adapters_atlassian::SettingNames {
    adapters_atlassian::SettingNames::default()
        .with_site_name("ATLASSIAN_SITE_NAME")
        .with_jira_base_url("JIRA_BASE_URL")
        .with_confluence_base_url("CONFLUENCE_BASE_URL")
        .with_bitbucket_base_url("BITBUCKET_BASE_URL")
        .with_user_email("ATLASSIAN_USER_EMAIL")
        .with_api_token("ATLASSIAN_API_TOKEN")
        .with_bitbucket_username("ATLASSIAN_BITBUCKET_USERNAME")
        .with_bitbucket_app_password("ATLASSIAN_BITBUCKET_APP_PASSWORD")
        .with_jira_deployment("JIRA_DEPLOYMENT")
        .with_confluence_deployment("CONFLUENCE_DEPLOYMENT")
        .with_bitbucket_deployment("BITBUCKET_DEPLOYMENT")
        .with_jira_personal_token("JIRA_PERSONAL_TOKEN")
        .with_confluence_personal_token("CONFLUENCE_PERSONAL_TOKEN")
        .with_bitbucket_access_token("BITBUCKET_ACCESS_TOKEN")
        .with_max_body_bytes(MAX_BODY_SETTING)
}

/// GitHub at `base` with `token` (`None`: not set).
pub fn github(base: &str, token: Option<&str>) -> GithubConfig {
    GithubConfig::default().with_http(
        HttpOptions::new(base)
            .with_credential(token.map(Secret::new))
            .with_setting_names(names("GITHUB_API_BASE", "GITHUB_TOKEN")),
    )
}

/// CircleCI at `base` (e.g. `<uri>/api/v2`) with `token` (`None`: not set).
pub fn circleci(base: &str, token: Option<&str>) -> CircleciConfig {
    CircleciConfig::default().with_http(
        HttpOptions::new(base)
            .with_credential(token.map(Secret::new))
            .with_setting_names(names("CIRCLECI_API_BASE", "CIRCLECI_TOKEN")),
    )
}

/// Jira and Bitbucket at `uri`, Confluence at `<uri>/wiki`, with the API token `token` of `email`.
pub fn atlassian(uri: &str, email: &str, token: &str) -> AtlassianConfig {
    AtlassianConfig::default()
        .with_jira_base_url(Some(uri.to_owned()))
        .with_confluence_base_url(Some(format!("{uri}/wiki")))
        .with_bitbucket_base_url(uri)
        .with_user_email(Some(email.to_owned()))
        .with_api_token(Some(Secret::new(token)))
        .with_setting_names(atlassian_names())
}

/// The tools with nothing configured but the host's names: no credential (each vendor answers "set ..."), every
/// toolset, structured output off, artifacts in memory, `jq` in [`jq_worker`] processes.
pub fn unconfigured() -> ToolsConfig {
    let mut config = ToolsConfig::default()
        .with_artifact_backend(ArtifactBackend::Memory)
        .with_selection_names(SelectionNames {
            toolsets: "MCP_TOOLSETS",
            read_only: "MCP_READ_ONLY",
        });
    config.github.http.setting_names = names("GITHUB_API_BASE", "GITHUB_TOKEN");
    config.circleci.http.setting_names = names("CIRCLECI_API_BASE", "CIRCLECI_TOKEN");
    config.circleci.artifact_hosts_setting = "CIRCLECI_ARTIFACT_HOSTS";
    config.atlassian = config.atlassian.with_setting_names(atlassian_names());
    config.jq = config.jq.with_program(WorkerProgram::Path(jq_worker()));
    config
}

/// GitHub only, at `base` with [`GITHUB_TOKEN`]; structured output off.
pub fn github_config(base: &str) -> ToolsConfig {
    unconfigured().with_github(github(base, Some(GITHUB_TOKEN)))
}

/// Every vendor of `upstream` as [`RecordedUpstream::env`] names them (base URLs and placeholder credentials), with
/// `structuredContent` on.
pub fn all_config(upstream: &RecordedUpstream) -> ToolsConfig {
    let mut config = unconfigured().with_structured_output(true);
    for (name, value) in upstream.env() {
        match name {
            "GITHUB_API_BASE" => config.github.http.api_base = value,
            "GITHUB_TOKEN" => config.github.http.credential = Some(Secret::new(value)),
            "CIRCLECI_API_BASE" => config.circleci.http.api_base = value,
            "CIRCLECI_TOKEN" => config.circleci.http.credential = Some(Secret::new(value)),
            "JIRA_BASE_URL" => config.atlassian = config.atlassian.with_jira_base_url(Some(value)),
            "CONFLUENCE_BASE_URL" => config.atlassian = config.atlassian.with_confluence_base_url(Some(value)),
            "BITBUCKET_BASE_URL" => config.atlassian = config.atlassian.with_bitbucket_base_url(value),
            "ATLASSIAN_USER_EMAIL" => config.atlassian = config.atlassian.with_user_email(Some(value)),
            "ATLASSIAN_API_TOKEN" => config.atlassian = config.atlassian.with_api_token(Some(Secret::new(value))),
            other => panic!("recorded-upstream names a setting these tests do not know: {other}"),
        }
    }
    config
}

/// `config` with every vendor's upstream body cap at `bytes` (the bundled server's `HTTP_MAX_BODY_BYTES`).
pub fn with_max_body(mut config: ToolsConfig, bytes: u64) -> ToolsConfig {
    config.github.http.client.max_body_bytes = bytes;
    config.circleci.http.client.max_body_bytes = bytes;
    config.atlassian.client.max_body_bytes = bytes;
    config
}

/// `config` with the structured bound at `bytes` (the bundled server's `MCP_STRUCTURED_MAX_BYTES`).
pub fn with_max_bytes(config: ToolsConfig, bytes: u64) -> ToolsConfig {
    config.with_max_bytes(mcp_envelope::SizeBound::new(bytes).0)
}

/// `config` with the artifact quota of one principal at `bytes` (`STREAMING_ARTIFACT_MAX_PRINCIPAL_BYTES`).
pub fn with_max_principal_bytes(mut config: ToolsConfig, bytes: u64) -> ToolsConfig {
    config.artifact_store.quota.max_principal_bytes = bytes;
    config
}

/// `config` with the artifact quota of the whole store at `bytes` (`STREAMING_ARTIFACT_MAX_STORE_BYTES`).
pub fn with_max_store_bytes(mut config: ToolsConfig, bytes: u64) -> ToolsConfig {
    config.artifact_store.quota.max_store_bytes = bytes;
    config
}

/// The tools built from `config`, answering calls without a principal of their own as [`principal`].
pub async fn server(config: ToolsConfig) -> DevtoolsServer {
    DevtoolsServer::new(Arc::new(App::new(config).await.expect("the tools build"))).with_principal(principal())
}

/// An rmcp client connected to the tools built from `config`, over an in-memory pipe.
pub async fn connect(config: ToolsConfig) -> Client {
    connect_to(server(config).await).await
}

/// An rmcp client connected to `server` over an in-memory pipe (the server runs on a task of this runtime).
pub async fn connect_to(server: DevtoolsServer) -> Client {
    let (client_end, server_end) = tokio::io::duplex(PIPE_BYTES);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_end).await.expect("MCP handshake")
}

/// A client of every vendor of `upstream` with `structuredContent` on ([`all_config`]).
pub async fn connect_to_all(upstream: &RecordedUpstream) -> Client {
    connect(all_config(upstream)).await
}

/// Calls `tool` with `args` (a JSON object).
pub async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let args = args.as_object().cloned().expect("arguments are an object");
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .expect("tools/call")
}

/// An artifact read whole with `artifact_read`, 1 MiB at a time, through `call` (a client's call, or the server's
/// own in-process): its bytes and its MIME type.
pub async fn read_artifact_with<F, Fut>(mut call: F, id: &str) -> (Vec<u8>, String)
where
    F: FnMut(Value) -> Fut,
    Fut: std::future::Future<Output = CallToolResult>,
{
    use base64::Engine as _;
    let mut bytes = Vec::new();
    let mut offset = 0u64;
    loop {
        let chunk = call(serde_json::json!({"artifactId": id, "offset": offset, "maxBytes": 1_048_576})).await;
        let chunk = chunk.structured_content.expect("a chunk");
        bytes.extend(
            base64::engine::general_purpose::STANDARD
                .decode(chunk["data"].as_str().unwrap())
                .unwrap(),
        );
        offset = chunk["nextOffset"].as_u64().unwrap();
        if chunk["eof"] == true {
            return (bytes, chunk["mimeType"].as_str().unwrap().to_owned());
        }
    }
}

/// [`read_artifact_with`] through `client`.
pub async fn read_artifact(client: &Client, id: &str) -> (Vec<u8>, String) {
    read_artifact_with(|args| call(client, "artifact_read", args), id).await
}

/// `tools/list`'s entry for `name` (its schemas), from every page.
pub async fn listed_tool(client: &Client, name: &str) -> Tool {
    client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("{name} is listed"))
}

/// Every log line of this process, as the bundled server would write it to stderr at `trace` (every crate, no
/// colours): [`log`] installs the subscriber once and returns the lines so far.
#[derive(Clone)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn log_buffer() -> &'static Arc<Mutex<Vec<u8>>> {
    static LOG: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOG.get_or_init(|| {
        let log = Arc::new(Mutex::new(Vec::new()));
        let writer = Log(log.clone());
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .init();
        log
    })
}

/// Starts capturing every log line of this process at `trace` (once per process; a test that reads the log calls it
/// before building the tools).
pub fn capture_log() {
    log_buffer();
}

/// The log lines captured so far ([`capture_log`]).
pub fn log() -> String {
    String::from_utf8_lossy(&log_buffer().lock().unwrap()).into_owned()
}
