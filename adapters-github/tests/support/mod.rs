//! The recorded GitHub fixtures as wiremock responses, from `recorded-upstream` (which embeds
//! `fixtures/github/<name>.json` + `<name>.headers`); `name` is the file name without `github/`.

#![allow(dead_code)]

use wiremock::ResponseTemplate;

/// A recorded fixture of `fixtures/github/`.
pub struct Fixture(recorded_upstream::Fixture);

impl Fixture {
    /// Loads `github/<name>`.
    pub fn load(name: &str) -> Self {
        Fixture(recorded_upstream::fixture(&format!("github/{name}")).unwrap_or_else(|e| panic!("{e}")))
    }

    /// The body parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(self.0.body).expect("fixture JSON")
    }
}

/// The wiremock response (recorded status, headers and body) of `github/<name>`.
pub fn response(name: &str) -> ResponseTemplate {
    Fixture::load(name).0.response()
}
