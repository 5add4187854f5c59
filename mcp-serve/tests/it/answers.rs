//! How a session's answers are framed, in-process on `router()`: an event stream that is complete at once goes out
//! as one body of known length (one write, one read for the client), the same events byte for byte; a call still
//! running gets its head and priming event within moments, streamed as before.

use std::time::Duration;

use http_body_util::BodyExt;
use mcp_serve::http::HttpConfig;
use serde_json::{Value, json};

use crate::support::{self, ALICE, App, Request};

fn call(app: &App, session: &str, tool: &str) -> impl Future<Output = http::Response<axum::body::Body>> {
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": tool}});
    let app = app.clone();
    let session = session.to_string();
    async move {
        app.respond(Request {
            token: Some(ALICE),
            session: Some(&session),
            version: Some("2025-06-18"),
            body: serde_json::to_vec(&body).unwrap(),
            ..Request::default()
        })
        .await
    }
}

/// The `data:` messages of an event stream's text.
fn messages(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str(data.trim()).ok())
        .collect()
}

#[tokio::test]
async fn an_answer_complete_at_once_is_one_body_of_known_length() {
    let (auth, _dir) = support::alice_and_bob();
    let app = App::new(auth, &HttpConfig::default());
    let session = app.open(ALICE).await;
    let response = call(&app, &session, "whoami").await;
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    let mut body = response.into_body();
    // hyper sends an exact size as `Content-Length`, and a body ready at once with its head in one write.
    let length = http_body::Body::size_hint(&body).exact().expect("a known length");
    let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
    assert!(body.frame().await.is_none(), "one frame");
    assert_eq!(first.len() as u64, length);
    let text = String::from_utf8(first.to_vec()).unwrap();
    assert!(text.starts_with("data: \nid: "), "the priming event first: {text}");
    let answers = messages(&text);
    assert_eq!(answers.len(), 1, "{text}");
    assert_eq!(answers[0]["id"], json!(3));
    assert_eq!(answers[0]["result"]["content"][0]["text"], json!("alice"), "{text}");
}

#[tokio::test]
async fn a_call_still_running_gets_its_head_and_priming_event_at_once() {
    let (auth, _dir) = support::alice_and_bob();
    let app = App::new(auth, &HttpConfig::default());
    let session = app.open(ALICE).await;
    let response = tokio::time::timeout(Duration::from_secs(2), call(&app, &session, "hang"))
        .await
        .expect("the head of a call that never answers");
    assert_eq!(response.status(), 200);
    let mut body = response.into_body();
    assert_eq!(http_body::Body::size_hint(&body).exact(), None, "streamed (chunked)");
    let first = tokio::time::timeout(Duration::from_secs(2), body.frame())
        .await
        .expect("the priming event")
        .unwrap()
        .unwrap()
        .into_data()
        .unwrap();
    let text = String::from_utf8(first.to_vec()).unwrap();
    assert!(text.starts_with("data: \nid: ") && messages(&text).is_empty(), "{text}");
    assert!(
        tokio::time::timeout(Duration::from_millis(200), body.frame())
            .await
            .is_err(),
        "nothing more while the call runs"
    );
}
