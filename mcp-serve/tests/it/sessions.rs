//! Streamable-HTTP sessions, in-process on `router()`: a session belongs to the principal that opened them (any
//! other gets `404`, as for an unknown session, `DELETE` included), an idle session expires with `404`, past a cap
//! the caller's least recently used idle session is closed and `503` + `Retry-After` comes only when none is idle,
//! other principals are unaffected, a deleted session no longer counts, and concurrent `initialize` requests cannot
//! overshoot a cap.

use std::time::Duration;

use mcp_serve::http::{HttpConfig, SessionLimits};
use serde_json::json;

use crate::support::{self, ALICE, App, BOB, Request, initialize, ping};

fn app(limits: SessionLimits) -> (App, tempfile::TempDir) {
    let (auth, dir) = support::alice_and_bob();
    (App::new(auth, &HttpConfig::default().with_sessions(limits)), dir)
}

fn delete<'a>(token: &'a str, session: &'a str) -> Request<'a> {
    Request {
        method: Some(http::Method::DELETE),
        token: Some(token),
        session: Some(session),
        version: Some("2025-06-18"),
        ..Request::default()
    }
}

#[tokio::test]
async fn a_session_belongs_to_the_principal_that_opened_it() {
    let (app, _dir) = app(SessionLimits::default());
    let alice = app.open(ALICE).await;
    assert_eq!(app.post(ALICE, Some(&alice), ping(1)).await.status, 200);

    // Bob with Alice's session id: 404 as for an unknown session, on every method and on DELETE.
    assert_eq!(app.post(BOB, Some(&alice), ping(2)).await.status, 404);
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "whoami"}});
    assert_eq!(app.post(BOB, Some(&alice), call.clone()).await.status, 404);
    assert_eq!(app.send(delete(BOB, &alice)).await.status, 404);

    // Alice's session is untouched, and her calls run as her.
    let alive = app.post(ALICE, Some(&alice), ping(4)).await;
    assert_eq!((alive.status, alive.body["result"].clone()), (200, json!({})));
    let whoami = app.post(ALICE, Some(&alice), call).await;
    assert_eq!(
        whoami.body["result"]["content"][0]["text"],
        json!("alice"),
        "{}",
        whoami.body
    );

    // Bob's own session works; DELETE of an unknown or already deleted session is 404.
    let bob = app.open(BOB).await;
    assert_eq!(app.post(BOB, Some(&bob), ping(5)).await.status, 200);
    assert_eq!(app.send(delete(ALICE, "no-such-session")).await.status, 404);
    let deleted = app.send(delete(ALICE, &alice)).await;
    assert!((200..300).contains(&deleted.status), "{}", deleted.status);
    assert_eq!(app.send(delete(ALICE, &alice)).await.status, 404);
    assert_eq!(app.post(ALICE, Some(&alice), ping(6)).await.status, 404);
}

#[tokio::test]
async fn an_idle_session_expires_and_gets_404() {
    let limits = SessionLimits::default()
        .with_idle(Duration::from_secs(1))
        .with_max_per_principal(1);
    let (app, _dir) = app(limits);
    let session = app.open(ALICE).await;
    assert_eq!(app.post(ALICE, Some(&session), ping(1)).await.status, 200);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let late = app.post(ALICE, Some(&session), ping(2)).await;
    assert_eq!(late.status, 404, "an expired session must get 404");
    // The client initializes again and carries on: the expired session no longer counts against the cap (1).
    assert_eq!(app.open_at(ALICE, "2025-06-18").await.status, 200);
}

#[tokio::test]
async fn past_the_cap_the_oldest_idle_session_is_closed_and_503_comes_only_when_none_is_idle() {
    let limits = SessionLimits::default().with_max_per_principal(2).with_max_total(3);
    let (app, _dir) = app(limits);
    let first = app.open(ALICE).await;
    let second = app.open(ALICE).await;
    assert_eq!(app.post(ALICE, Some(&second), ping(1)).await.status, 200);
    // At her cap (2), a third session closes her least recently used idle one (the first).
    let third = app.open(ALICE).await;
    assert_eq!(app.post(ALICE, Some(&first), ping(2)).await.status, 404);
    assert_eq!(app.post(ALICE, Some(&second), ping(3)).await.status, 200);
    // Both of her sessions busy with a call in flight: none is idle, so a new one gets 503 with Retry-After.
    let calls = [app.hang(ALICE, &second).await, app.hang(ALICE, &third).await];
    let refused = app.open_at(ALICE, "2025-06-18").await;
    assert_eq!(refused.status, 503);
    assert!(refused.retry_after.unwrap() >= 1);
    assert_eq!(
        app.post(ALICE, Some(&second), ping(4)).await.status,
        200,
        "the busy session lives on"
    );
    // Bob is not affected by Alice's cap; the server-wide cap (3) holds for him too, and only his own idle session
    // is closed to make room, never Alice's.
    let bob = app.open(BOB).await;
    assert_eq!(app.open_at(BOB, "2025-06-18").await.status, 200);
    assert_eq!(app.post(BOB, Some(&bob), ping(5)).await.status, 404);
    assert_eq!(app.post(ALICE, Some(&third), ping(6)).await.status, 200);
    for call in calls {
        call.abort();
    }
}

#[tokio::test]
async fn a_deleted_session_no_longer_counts() {
    let (app, _dir) = app(SessionLimits::default().with_max_per_principal(1));
    let first = app.open(ALICE).await;
    let deleted = app.send(delete(ALICE, &first)).await;
    assert!((200..300).contains(&deleted.status), "{}", deleted.status);
    assert_eq!(app.post(ALICE, Some(&first), ping(1)).await.status, 404);
    assert_eq!(app.open_at(ALICE, "2025-06-18").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_initializes_do_not_overshoot_the_cap() {
    let (app, _dir) = app(SessionLimits::default().with_max_per_principal(3));
    let opens: Vec<_> = (0..12)
        .map(|_| {
            let app = app.clone();
            tokio::spawn(async move { app.post(ALICE, None, initialize("2025-06-18")).await })
        })
        .collect();
    let mut sessions = Vec::new();
    for open in opens {
        let answer = open.await.unwrap();
        match answer.status {
            200 => sessions.push(answer.session.unwrap()),
            503 => {}
            other => panic!("unexpected status {other}"),
        }
    }
    assert!(!sessions.is_empty());
    let mut live = 0;
    for (i, session) in sessions.iter().enumerate() {
        let done = app
            .post(
                ALICE,
                Some(session),
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            )
            .await;
        if done.status == 202 && app.post(ALICE, Some(session), ping(i as u64)).await.status == 200 {
            live += 1;
        }
    }
    assert!(live <= 3, "{live} live sessions past a cap of 3");
}
