//! A workflow run that moves on while it is polled, for the wait tools' tests and bench: [`Live::mount`] serves
//! `GET /repos/octo-org/octo-repo/actions/runs/{id}` and its `/jobs` as GitHub does for a run in progress, with an
//! `ETag` per state and `304 Not Modified` to a matching `If-None-Match`, and counts the answers (the request log a
//! test reads to prove that polling stopped). The run moves on with the answers of its jobs route (what a wait
//! polls while jobs run); the run's own route answers the state the jobs last showed.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// The counters of a mounted live run.
#[derive(Debug, Clone, Default)]
pub struct Live {
    /// Answers of the run's route (a request each).
    pub run_answers: Arc<AtomicUsize>,
    /// Answers of the jobs route.
    pub jobs_answers: Arc<AtomicUsize>,
    /// Of both, `304 Not Modified`.
    pub not_modified: Arc<AtomicUsize>,
}

impl Live {
    /// Mounts run `run_id` of `octo-org/octo-repo` on `server`: `in_progress` for the first `polls` answers of its
    /// jobs route (a job `lint` done, a job `test` running), then `completed` with `failure` (`test` failed); both
    /// routes answer `500` once the jobs route answered `fail_from` times (`usize::MAX`: never).
    pub async fn mount(server: &MockServer, run_id: u64, polls: usize, fail_from: usize) -> Live {
        let live = Live::default();
        let run_path = format!("/repos/octo-org/octo-repo/actions/runs/{run_id}");
        for jobs in [false, true] {
            let route = if jobs {
                format!("{run_path}/jobs")
            } else {
                run_path.clone()
            };
            Mock::given(method("GET"))
                .and(path(route.as_str()))
                .respond_with(LiveRun {
                    live: live.clone(),
                    run_id,
                    polls,
                    jobs,
                    fail_from,
                })
                .with_priority(1)
                .mount(server)
                .await;
        }
        live
    }

    /// Answers of the run's route so far.
    pub fn run_answers(&self) -> usize {
        self.run_answers.load(Ordering::SeqCst)
    }

    /// Answers of both routes so far: the requests the waits sent.
    pub fn requests(&self) -> usize {
        self.run_answers() + self.jobs_answers.load(Ordering::SeqCst)
    }

    /// `304`s of the run's route so far.
    pub fn not_modified(&self) -> usize {
        self.not_modified.load(Ordering::SeqCst)
    }
}

struct LiveRun {
    live: Live,
    run_id: u64,
    polls: usize,
    jobs: bool,
    fail_from: usize,
}

impl Respond for LiveRun {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let jobs_seen = if self.jobs {
            self.live.jobs_answers.fetch_add(1, Ordering::SeqCst)
        } else {
            self.live.run_answers.fetch_add(1, Ordering::SeqCst);
            // The state the jobs route last showed.
            self.live.jobs_answers.load(Ordering::SeqCst).saturating_sub(1)
        };
        if jobs_seen >= self.fail_from {
            return ResponseTemplate::new(500).set_body_json(json!({"message": "Server Error"}));
        }
        let done = jobs_seen >= self.polls;
        let etag = format!("\"{}-{done}\"", if self.jobs { "jobs" } else { "run" });
        let sent = request.headers.get("if-none-match").and_then(|v| v.to_str().ok());
        if sent == Some(etag.as_str()) {
            self.live.not_modified.fetch_add(1, Ordering::SeqCst);
            return ResponseTemplate::new(304).append_header("ETag", etag.as_str());
        }
        let body = if self.jobs {
            jobs(self.run_id, done)
        } else {
            run(self.run_id, done)
        };
        ResponseTemplate::new(200)
            .append_header("ETag", etag.as_str())
            .set_body_json(body)
    }
}

fn status(done: bool) -> (&'static str, Value) {
    if done {
        ("completed", json!("failure"))
    } else {
        ("in_progress", Value::Null)
    }
}

fn run(run_id: u64, done: bool) -> Value {
    let (status, conclusion) = status(done);
    json!({"id": run_id, "name": "CI", "status": status, "conclusion": conclusion,
           "html_url": format!("https://github.com/octo-org/octo-repo/actions/runs/{run_id}"),
           "run_started_at": "2026-12-05T10:00:00Z", "created_at": "2026-12-05T10:00:00Z",
           "updated_at": "2026-12-05T10:05:00Z"})
}

fn jobs(run_id: u64, done: bool) -> Value {
    let (status, conclusion) = status(done);
    let url = |job: u64| format!("https://github.com/octo-org/octo-repo/actions/runs/{run_id}/job/{job}");
    json!({"total_count": 2, "jobs": [
        {"id": run_id * 10 + 1, "run_id": run_id, "name": "lint", "status": "completed", "conclusion": "success",
         "html_url": url(run_id * 10 + 1), "started_at": "2026-12-05T10:00:00Z",
         "completed_at": "2026-12-05T10:01:00Z", "steps": []},
        {"id": run_id * 10 + 2, "run_id": run_id, "name": "test", "status": status, "conclusion": conclusion,
         "html_url": url(run_id * 10 + 2), "started_at": "2026-12-05T10:00:00Z",
         "completed_at": if done { json!("2026-12-05T10:05:00Z") } else { Value::Null }, "steps": []}
    ]})
}
