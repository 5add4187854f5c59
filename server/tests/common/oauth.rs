//! The real authorization server of the OAuth tests: `clients/oauth/server.mjs` (oidc-provider, three
//! instances on 127.0.0.1 random ports; see that file), run with node, and its token endpoint.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Child;

/// The running authorization servers (killed on drop).
pub struct AuthServer {
    child: Child,
    /// The issuer the MCP server trusts.
    pub issuer: String,
    /// Another issuer signing with the same keys.
    pub other: String,
    /// Claims `issuer` but signs with keys `issuer` does not publish.
    pub rogue: String,
}

/// The directory of the authorization server's node program.
pub fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients/oauth")
}

/// `value` percent-encoded for a form body.
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

impl AuthServer {
    /// Starts the program (its node_modules must be installed: scripts/test runs npm ci there). A start that
    /// prints nothing within 30 s is killed and tried once more: a fresh-clone CI run once saw node stop between
    /// its second and third provider for the full minute a single attempt then had (2026-12-06), which no
    /// run by hand reproduced.
    pub async fn start() -> AuthServer {
        let dir = dir();
        assert!(
            dir.join("node_modules/oidc-provider").exists(),
            "run scripts/test first: it runs npm ci in {}",
            dir.display()
        );
        let mut failures = Vec::new();
        for _ in 0..2 {
            match Self::spawn(&dir).await {
                Ok(server) => return server,
                Err(failure) => failures.push(failure),
            }
        }
        panic!("the authorization server did not start:\n{}", failures.join("\n"));
    }

    /// One start: the running servers, or what went wrong and what node said.
    async fn spawn(dir: &Path) -> Result<AuthServer, String> {
        let mut child = tokio::process::Command::new("node")
            .arg(dir.join("server.mjs"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("run node");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let started = tokio::time::timeout(Duration::from_secs(30), lines.next_line()).await;
        let Ok(Ok(Some(line))) = started else {
            // What node said, for the failure's message (it prints nothing there when it starts).
            let _ = child.start_kill();
            let mut said = String::new();
            if let Some(mut stderr) = child.stderr.take() {
                use tokio::io::AsyncReadExt;
                let _ = tokio::time::timeout(Duration::from_secs(5), stderr.read_to_string(&mut said)).await;
            }
            return Err(format!(
                "no issuers printed within 30 s ({started:?}); node said: {said}"
            ));
        };
        // Its later errors (`server_error`) go to the test's output, so the pipe never fills.
        if let Some(stderr) = child.stderr.take() {
            tokio::spawn(async move {
                let mut lines = BufReader::new(stderr).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    eprintln!("authorization server: {line}");
                }
            });
        }
        let issuers: Value = serde_json::from_str(&line).unwrap();
        let text = |name: &str| issuers[name].as_str().unwrap().to_string();
        Ok(AuthServer {
            issuer: text("issuer"),
            other: text("other"),
            rogue: text("rogue"),
            child,
        })
    }

    /// A `client_credentials` access token from the authorization server at `issuer` for `client` (secret
    /// `<client>-secret`), with `scope`, for `resource`.
    pub async fn token(&self, issuer: &str, client: &str, scope: &str, resource: &str) -> String {
        let body = format!(
            "grant_type=client_credentials&scope={}&resource={}",
            encode(scope),
            encode(resource)
        );
        let response = reqwest::Client::new()
            .post(format!("{issuer}/token"))
            .basic_auth(client, Some(format!("{client}-secret")))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = response.status();
        let doc: Value = response.json().await.unwrap();
        assert_eq!(status, 200, "token request for {client}: {doc}");
        doc["access_token"].as_str().unwrap().to_string()
    }

    /// Stops the authorization servers (a test of an unreachable issuer).
    pub fn kill(&mut self) {
        let _ = self.child.start_kill();
    }
}
