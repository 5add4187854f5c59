//! The HTTP floor of [`super`]: what a bare hyper server costs per call on this machine, answering what the real
//! server answered. This bench's own binary, started again with [`FLOOR_ARG`] and a file holding one recorded answer
//! (its `Content-Type` on the first line, its body after), serves HTTP/1.1 on `127.0.0.1:0` with the same tokio
//! runtime shape as the server (one async worker per CPU): each `POST` body is read in full and parsed as JSON, and
//! answered with the recorded answer and an `Mcp-Session-Id`. No authentication, no session, no MCP: the part of a
//! call that no streamable-HTTP server can avoid (hyper's read, parse and write, the loopback socket, the wake-ups).

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;

/// The argument that makes this binary the floor server (followed by the answer's file).
pub const FLOOR_ARG: &str = "--http-floor";

/// Serves the answer in `path` until killed; prints `mcp-devtools: serving streamable HTTP at http://ADDR/mcp` to
/// stderr as the real server does, so [`super::http::HttpServer`] can start it.
pub fn serve(path: &str) {
    let recorded = std::fs::read(path).unwrap();
    let split = recorded.iter().position(|&b| b == b'\n').unwrap();
    let content_type = String::from_utf8(recorded[..split].to_vec()).unwrap();
    let body = Bytes::from(recorded[split + 1..].to_vec());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        eprintln!(
            "mcp-devtools: serving streamable HTTP at http://{}/mcp",
            listener.local_addr().unwrap()
        );
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            stream.set_nodelay(true).unwrap();
            let (content_type, body) = (content_type.clone(), body.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                    let (content_type, body) = (content_type.clone(), body.clone());
                    async move {
                        let bytes = request.into_body().collect().await.unwrap().to_bytes();
                        std::hint::black_box(serde_json::from_slice::<serde_json::Value>(&bytes).unwrap());
                        Ok::<_, Infallible>(
                            Response::builder()
                                .header("content-type", content_type)
                                .header("mcp-session-id", "floor")
                                .body(Full::new(body))
                                .unwrap(),
                        )
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
}
