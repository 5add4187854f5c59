//! Issue 43, point 7, in-process (rmcp client over an in-memory pipe → the tools and their jq worker → the recorded
//! upstream): builtins at their edges answer as jq 1.8 does, in one `jq` of a real call. The expected value is what
//! libjq printed for the same program (`clients/python/jq_oracle.py`'s jq); the full differential, every builtin of
//! the manual over edge inputs, is `mcp-envelope`'s `jq_builtins` test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{call, connect_to_all, structured};
use recorded_upstream::RecordedUpstream;
use serde_json::json;

/// Signed zero, a double's `%`, NUL in `@sh`, a date, `contains` of nested arrays, `sort_by` of a negation, a
/// number literal past the double range (jq keeps its digits), an update through an empty path, `|=` with two
/// outputs (the first), `%` of a negative fraction, `fromdate` of a fraction (an error), `range` by 0.
const PROGRAM: &str = r#"[(-1 * 0 | tojson), (9007199254740993 % 2), ("a\u0000b" | @sh), (1425599507 | todate), ([1,[2]] | contains([[2]])), ([3,1,2] | sort_by(-.)), ("1e1000" | tonumber | tojson), (null | (.a | select(. != null)) |= . + 1), ([1,2] | .[] |= (., 10)), (-5.5 % 3), ("2015-03-05T23:51:47.877Z" | fromdate? // "E"), ([limit(3; range(0; 1; 0))])]"#;

#[tokio::test]
async fn builtins_at_their_edges_answer_as_jq_does() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = connect_to_all(&upstream).await;
    let result = call(
        &client,
        "github_get",
        json!({"path": "/repos/octo-org/octo-repo/actions/runs", "jq": PROGRAM}),
    )
    .await;
    assert_eq!(
        structured(&result)["data"],
        json!([
            "-0",
            0,
            "'a\\0b'",
            "2015-03-05T23:51:47Z",
            true,
            [3, 2, 1],
            "1E+1000",
            null,
            [1, 2],
            -2,
            "E",
            []
        ])
    );
    client.cancel().await.unwrap();
}
