//! A real HTTP proxy for the upstream-proxy tests: proxy.py (PyPI `proxy.py`, pinned in `services/requirements.txt`,
//! installed into `services/.venv` by `scripts/services install`; `MCP_DEVTOOLS_TEST_PROXY_PY` names another
//! executable), one private instance per test on 127.0.0.1 (its own port and log file), optionally asking for Basic
//! credentials. Its access log says which requests went through it: `GET 127.0.0.1:PORT/path` for a forwarded
//! request, `CONNECT 127.0.0.1:PORT` for a tunnel.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A proxy.py process (and its workers, in their own process group); stopped when dropped.
pub struct ProxyPy {
    child: Child,
    port: u16,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl ProxyPy {
    /// Starts proxy.py on 127.0.0.1 (a free port), asking for `basic_auth` (`user:password`) when given; `None`
    /// when proxy.py is not installed.
    pub async fn start(basic_auth: Option<&str>) -> Option<ProxyPy> {
        let program = std::env::var_os("MCP_DEVTOOLS_TEST_PROXY_PY")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../services/.venv/bin/proxy")));
        if !program.exists() {
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let port_file = dir.path().join("port");
        let log = dir.path().join("proxy.log");
        let mut command = Command::new(&program);
        command
            .args([
                "--hostname",
                "127.0.0.1",
                "--port",
                "0",
                "--num-workers",
                "1",
                "--num-acceptors",
                "1",
            ])
            .arg("--port-file")
            .arg(&port_file)
            .arg("--log-file")
            .arg(&log)
            .args(["--log-level", "INFO"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(credentials) = basic_auth {
            command.args(["--basic-auth", credentials]);
        }
        // Its own process group: proxy.py forks acceptor and worker processes, stopped with it.
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let child = command.spawn().expect("spawn proxy.py");
        let started = Instant::now();
        let port = loop {
            let written = std::fs::read_to_string(&port_file).ok();
            if let Some(port) = written.and_then(|text| text.trim().parse::<u16>().ok()) {
                break port;
            }
            assert!(started.elapsed() < Duration::from_secs(20), "proxy.py did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "proxy.py does not accept connections"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Some(ProxyPy {
            child,
            port,
            log,
            _dir: dir,
        })
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// `http://USER:PASSWORD@127.0.0.1:PORT`.
    pub fn url_with(&self, user: &str, password: &str) -> String {
        format!("http://{user}:{password}@127.0.0.1:{}", self.port)
    }

    /// `host:port`.
    pub fn authority(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// The access log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The access log once it holds every one of `lines` (proxy.py writes a request's line when its connection
    /// closes), or as it is after 10 s.
    pub async fn log_with(&self, lines: &[&str]) -> String {
        let started = Instant::now();
        loop {
            let log = self.log();
            if lines.iter().all(|line| log.contains(line)) || started.elapsed() > Duration::from_secs(10) {
                return log;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for ProxyPy {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.wait();
    }
}

/// A test that needs proxy.py passes without it (saying why), unless `MCP_DEVTOOLS_REQUIRE_SERVICES=1`.
pub fn missing() {
    assert!(
        std::env::var("MCP_DEVTOOLS_REQUIRE_SERVICES").as_deref() != Ok("1"),
        "MCP_DEVTOOLS_REQUIRE_SERVICES=1 but proxy.py is not installed (scripts/services install installs it)"
    );
    eprintln!("SKIPPED: proxy.py is not installed (run scripts/services install)");
}
