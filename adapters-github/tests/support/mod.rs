//! Loads the recorded GitHub fixtures (`tests/fixtures/github/<name>.json` + `<name>.headers`)
//! into wiremock responses. The `.headers` file is the status line, then `Name: value` lines.

#![allow(dead_code)]

use std::path::PathBuf;

use wiremock::ResponseTemplate;

/// Directory of the GitHub fixtures in the workspace's own `tests/fixtures`.
pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/github")
}

/// A fixture: status, headers in file order, body bytes.
pub struct Fixture {
    /// HTTP status from the status line.
    pub status: u16,
    /// Headers in file order.
    pub headers: Vec<(String, String)>,
    /// Body bytes as stored.
    pub body: Vec<u8>,
}

impl Fixture {
    /// Loads `<name>.json` and `<name>.headers`.
    pub fn load(name: &str) -> Self {
        let dir = fixture_dir();
        let body = std::fs::read(dir.join(format!("{name}.json"))).unwrap_or_else(|e| panic!("read {name}.json: {e}"));
        let head = std::fs::read_to_string(dir.join(format!("{name}.headers")))
            .unwrap_or_else(|e| panic!("read {name}.headers: {e}"));
        let mut lines = head.lines();
        let status_line = lines.next().expect("status line");
        let status = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
        let headers = lines
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let (name, value) = l.split_once(':').unwrap_or_else(|| panic!("bad header line {l:?}"));
                (name.trim().to_owned(), value.trim().to_owned())
            })
            .collect();
        Self { status, headers, body }
    }

    /// The value of the first header called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("fixture JSON")
    }

    /// A wiremock response with this status, these headers and this body.
    pub fn response(&self) -> ResponseTemplate {
        let mut template = ResponseTemplate::new(self.status).set_body_bytes(self.body.clone());
        for (name, value) in &self.headers {
            template = template.append_header(name.as_str(), value.as_str());
        }
        template
    }
}

/// Shorthand for `Fixture::load(name).response()`.
pub fn response(name: &str) -> ResponseTemplate {
    Fixture::load(name).response()
}
