//! The stdio floor of [`super`]: what the least a stdio MCP server can do per call costs on this machine. This
//! bench's own binary, started again with [`STDIO_FLOOR_ARG`] and a folder holding the real server's results (files
//! `tools/call` and `tools/list`: one result's JSON text each), reads newline-delimited JSON-RPC on stdin with one
//! thread and blocking reads (no runtime, no other thread), parses each line as JSON and writes the recorded result
//! of its method under its `id` (`initialize` gets a minimal result; notifications nothing). No MCP logic, no
//! cache, no rendering: the part of a call no stdio server can avoid (the pipe's read and write, one parse, one
//! sleep and wake-up of the thread between calls).

use std::io::{BufRead, Write};

use serde_json::{Value, json};

/// The argument that makes this binary the stdio floor server (followed by the results' folder).
pub const STDIO_FLOOR_ARG: &str = "--stdio-floor";

/// The methods whose recorded result the floor answers with (a file of that name in the folder).
pub const RECORDED: [&str; 2] = ["tools/call", "tools/list"];

/// The file name in the folder for `method`.
pub fn file_name(method: &str) -> String {
    method.replace('/', "-")
}

/// Serves stdin until it closes.
pub fn serve(folder: &str) {
    let results: Vec<(&str, String)> = RECORDED
        .iter()
        .map(|&method| {
            let path = std::path::Path::new(folder).join(file_name(method));
            (method, std::fs::read_to_string(path).unwrap())
        })
        .collect();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    let mut answer = Vec::new();
    for line in stdin.lines() {
        let line = line.unwrap();
        let request: Value = serde_json::from_str(&line).unwrap();
        let (Some(id), Some(method)) = (request.get("id"), request["method"].as_str()) else {
            continue;
        };
        answer.clear();
        answer.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
        serde_json::to_writer(&mut answer, id).unwrap();
        answer.extend_from_slice(b",\"result\":");
        match results.iter().find(|(recorded, _)| *recorded == method) {
            Some((_, result)) => answer.extend_from_slice(result.as_bytes()),
            None if method == "initialize" => {
                let result = json!({
                    "protocolVersion": request["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "stdio-floor", "version": "1"}
                });
                serde_json::to_writer(&mut answer, &result).unwrap();
            }
            None => answer.extend_from_slice(b"{}"),
        }
        answer.extend_from_slice(b"}\n");
        stdout.write_all(&answer).unwrap();
        stdout.flush().unwrap();
    }
}
