//! `POST` bodies, in-process on `router()`: faulty bodies get JSON-RPC errors worded as on stdio (with the id when
//! it can be read), an oversized one `413`, and batches are answered per the session's protocol revision.

use mcp_serve::http::HttpConfig;
use serde_json::{Value, json};

use crate::support::{self, ALICE, App, Request, ping};

fn app(config: &HttpConfig) -> (App, tempfile::TempDir) {
    let (auth, dir) = support::alice_and_bob();
    (App::new(auth, config), dir)
}

#[tokio::test]
async fn faulty_bodies_get_json_rpc_errors_worded_as_on_stdio() {
    let (app, _dir) = app(&HttpConfig::default().with_max_request_bytes(1024 * 1024));
    let session = app.open(ALICE).await;
    let raw = |body: Vec<u8>| {
        app.send(Request {
            token: Some(ALICE),
            session: Some(&session),
            version: Some("2025-06-18"),
            body,
            ..Request::default()
        })
    };

    let truncated = raw(br#"{"jsonrpc":"2.0","id":5,"#.to_vec()).await;
    assert_eq!(truncated.status, 400);
    assert_eq!(truncated.body["error"]["code"], json!(-32700), "{}", truncated.body);
    assert_eq!(truncated.body["id"], json!(5), "the id before the fault is read");
    let no_id = raw(br#"{"jsonrpc":"2.0","method":"ping","#.to_vec()).await;
    assert_eq!((no_id.status, no_id.body["id"].clone()), (400, Value::Null));

    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":6,"method":"ping","params":{{"x":{}{}}}}}"#,
        "[".repeat(130),
        "]".repeat(130)
    );
    let deep = raw(deep.into_bytes()).await;
    assert_eq!(deep.status, 400);
    assert_eq!(deep.body["id"], json!(6), "{}", deep.body);
    let deeper = format!(
        r#"{{"jsonrpc":"2.0","id":"deep-1","method":"tools/call","params":{{"name":"whoami","arguments":{{"owner":{}1{}}}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let deeper = raw(deeper.into_bytes()).await;
    assert_eq!((deeper.status, deeper.body["id"].clone()), (400, json!("deep-1")));
    assert_eq!(deeper.body["error"]["code"], json!(-32600));
    assert!(
        deep.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("deeper than 128 levels")
    );

    let mut big = br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":""#.to_vec();
    big.extend(std::iter::repeat_n(b'x', 2 * 1024 * 1024));
    big.extend_from_slice(b"\"}}");
    let big = raw(big).await;
    assert_eq!(big.status, 413);
    assert_eq!(
        big.body["error"]["message"],
        json!(
            "Invalid Request: the message is larger than 1048576 bytes (the server's request-size limit); send a smaller request"
        )
    );

    let unreadable = raw(br#"{"jsonrpc":"2.0","id":8,"method":7}"#.to_vec()).await;
    assert_eq!((unreadable.status, unreadable.body["id"].clone()), (400, json!(8)));
    assert_eq!(unreadable.body["error"]["code"], json!(-32600));
    // rmcp reads these itself and refuses them with `415` and serde's text; the answer is ours, quoting nothing.
    let quoting =
        raw(br#"{"jsonrpc":"2.0","id":"q","method":"tools/call","params":"ghp_not_to_be_quoted"}"#.to_vec()).await;
    assert_eq!(
        (quoting.status, quoting.body["id"].clone()),
        (400, json!("q")),
        "{}",
        quoting.body
    );
    assert!(!quoting.body.to_string().contains("ghp_"), "{}", quoting.body);
    let notification = raw(br#"{"jsonrpc":"2.0","method":7}"#.to_vec()).await;
    assert_eq!(
        (notification.status, notification.body["id"].clone()),
        (400, Value::Null)
    );
    assert_eq!(notification.body["error"]["code"], json!(-32600));

    assert_eq!(app.post(ALICE, Some(&session), ping(9)).await.status, 200);
}

#[tokio::test]
async fn without_sessions_an_unreadable_message_gets_the_same_error() {
    let (app, _dir) = app(&HttpConfig::default().with_stateless(true));
    let unreadable = app
        .send(Request {
            token: Some(ALICE),
            version: Some("2025-06-18"),
            body: br#"{"jsonrpc":"2.0","id":8,"method":7}"#.to_vec(),
            ..Request::default()
        })
        .await;
    assert_eq!(
        (unreadable.status, unreadable.body["id"].clone()),
        (400, json!(8)),
        "{}",
        unreadable.body
    );
    assert_eq!(unreadable.body["error"]["code"], json!(-32600));
    let readable = app.post(ALICE, None, ping(9)).await;
    assert_eq!(
        (readable.status, readable.body["id"].clone()),
        (200, json!(9)),
        "{}",
        readable.body
    );
}

#[tokio::test]
async fn batches_are_answered_per_the_session_revision() {
    let (app, _dir) = app(&HttpConfig::default());
    let old = app.open_at(ALICE, "2025-03-26").await.session.unwrap();
    let batch = json!([ping(1), {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, "junk"]);
    let old_request = |body: &Value| Request {
        token: Some(ALICE),
        session: Some(&old),
        body: serde_json::to_vec(body).unwrap(),
        ..Request::default()
    };
    let answer = app.send(old_request(&batch)).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let items = answer
        .body
        .as_array()
        .unwrap_or_else(|| panic!("an array: {}", answer.body));
    assert_eq!(items.len(), 3, "{}", answer.body);
    assert_eq!(items[0], json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    assert_eq!(items[1]["id"], json!(2));
    assert_eq!(items[1]["result"]["tools"].as_array().unwrap().len(), 2);
    assert_eq!(items[2]["error"]["code"], json!(-32600));
    let notifications = json!([{"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": 1, "progress": 1}}]);
    assert_eq!(app.send(old_request(&notifications)).await.status, 202);

    let new = app.open(ALICE).await;
    let refused = app.post(ALICE, Some(&new), batch).await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("batches are not supported at protocol revision 2025-06-18"),
        "{}",
        refused.body
    );
}
