//! `Origin` validation (MCP "Streamable HTTP" security warning: servers must validate `Origin` against DNS
//! rebinding), in-process on `router()` of an open loopback server: the loopback origins and the configured ones
//! pass, as does a request without `Origin`; any other gets `403` and no session.

use mcp_serve::Principal;
use mcp_serve::http::{Auth, HttpConfig};

use crate::support::{ADDR, App, Request, initialize};

#[tokio::test]
async fn origins_outside_the_allowed_set_get_403() {
    let auth = Auth::open(ADDR.parse().unwrap(), Principal::local_user()).unwrap();
    let config = HttpConfig::default().with_allowed_origins(vec![
        "https://app.example.com".to_string(),
        "http://tools.example:8443".to_string(),
    ]);
    let app = App::new(auth, &config);
    let cases: [(Option<&str>, u16); 9] = [
        (Some("http://evil.example"), 403),
        (Some("https://evil.example:443"), 403),
        (Some("null"), 403),
        (Some("http://tools.example:9999"), 403),
        (None, 200),
        (Some("http://localhost:5173"), 200),
        (Some("http://127.0.0.1:6274"), 200),
        (Some("https://app.example.com"), 200),
        (Some("http://tools.example:8443"), 200),
    ];
    for (origin, status) in cases {
        let answer = app
            .send(Request {
                origin,
                body: serde_json::to_vec(&initialize("2025-06-18")).unwrap(),
                ..Request::default()
            })
            .await;
        assert_eq!(answer.status, status, "Origin {origin:?}");
        assert_eq!(
            answer.session.is_some(),
            status == 200,
            "Origin {origin:?}: a session id only when accepted"
        );
    }
}
