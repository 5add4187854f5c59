//! One worker process of [`super::Isolated`]: start it, check its greeting, exchange frames, stop it.

use std::process::Stdio;

use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use super::{IsolatedConfig, WorkerProgram};
use crate::protocol::GREETING;
use crate::worker::{FLAG, PARENT_PID_ENV};

/// Why an exchange with a worker gave no answer.
#[derive(Debug)]
pub(super) enum Failure {
    /// The program could not be started, or did not greet as a worker: the text says what to do.
    NotAWorker(String),
    /// The answer is longer than the cap, bytes.
    TooLarge,
    /// The worker's stdout ended (or its pipes broke) before a whole answer: it died.
    Died,
}

/// A started worker that has greeted.
#[derive(Debug)]
pub(super) struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Requests answered so far.
    pub(super) served: u32,
}

impl Worker {
    /// Starts `config.program` as a worker (`FLAG AS CPU`, empty environment but [`PARENT_PID_ENV`], stderr
    /// discarded, killed when dropped) and reads its greeting.
    pub(super) async fn start(config: &IsolatedConfig) -> Result<Worker, Failure> {
        let program = match &config.program {
            WorkerProgram::Path(path) => path.clone(),
            WorkerProgram::CurrentExe => std::env::current_exe().map_err(|err| {
                Failure::NotAWorker(format!("this program's own executable could not be found: {err}"))
            })?,
        };
        let mut child = Command::new(&program)
            .arg(FLAG)
            .arg(config.address_space_bytes().to_string())
            .arg(config.cpu_seconds().to_string())
            .env_clear()
            .env(PARENT_PID_ENV, std::process::id().to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|err| {
                Failure::NotAWorker(format!(
                    "the jq worker program {} could not be started: {err}",
                    program.display()
                ))
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(Failure::NotAWorker("the worker's pipes are missing".to_owned()));
        };
        let mut stdout = BufReader::with_capacity(64 * 1024, stdout);
        let mut greeting = [0_u8; GREETING.len()];
        match stdout.read_exact(&mut greeting).await {
            Ok(_) if &greeting == GREETING => Ok(Worker {
                child,
                stdin,
                stdout,
                served: 0,
            }),
            _ => Err(Failure::NotAWorker(not_a_worker(&program, config))),
        }
    }

    /// Sends one request frame and reads one answer frame of at most `cap` bytes.
    pub(super) async fn exchange(&mut self, request: &[u8], cap: u64) -> Result<Vec<u8>, Failure> {
        let stdin = &mut self.stdin;
        let stdout = &mut self.stdout;
        let write = async move {
            let len = u64::try_from(request.len()).unwrap_or(u64::MAX);
            stdin.write_all(&len.to_be_bytes()).await?;
            stdin.write_all(request).await?;
            stdin.flush().await
        };
        let read = async move {
            let len = stdout.read_u64().await.map_err(|_| Failure::Died)?;
            if len > cap {
                return Err(Failure::TooLarge);
            }
            let mut answer = Vec::new();
            answer
                .try_reserve_exact(usize::try_from(len).map_err(|_| Failure::TooLarge)?)
                .map_err(|_| Failure::TooLarge)?;
            stdout
                .take(len)
                .read_to_end(&mut answer)
                .await
                .map_err(|_| Failure::Died)?;
            if u64::try_from(answer.len()).unwrap_or(u64::MAX) != len {
                return Err(Failure::Died);
            }
            Ok(answer)
        };
        // A failed write (the worker died while reading) shows as the end of its stdout.
        let (_written, answer) = tokio::join!(write, read);
        answer
    }

    /// Whether the process has already ended (an idle worker killed from outside).
    pub(super) fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// How a worker whose stdout ended finished (e.g. `signal: 6 (SIGABRT)`): waits up to a second for its exit,
    /// then kills it.
    pub(super) async fn ended(mut self) -> String {
        match tokio::time::timeout(std::time::Duration::from_secs(1), self.child.wait()).await {
            Ok(Ok(status)) => status.to_string(),
            Ok(Err(err)) => format!("its exit status is unknown: {err}"),
            Err(_) => {
                self.kill().await;
                "it closed its output and was killed".to_owned()
            }
        }
    }

    /// Kills the process and reaps it (no zombie left behind).
    pub(super) async fn kill(mut self) {
        if let Err(err) = self.child.kill().await {
            tracing::warn!(error = %err, "killing a jq worker failed");
        }
    }

    /// Ends an idle worker: its stdin closes, so it exits; it is killed if it has not yet.
    pub(super) fn retire(self) {
        drop(self.stdin);
        // `kill_on_drop`: a worker that has not exited yet is killed; tokio reaps it.
        drop(self.child);
    }
}

fn not_a_worker(program: &std::path::Path, config: &IsolatedConfig) -> String {
    let hint = match config.program {
        WorkerProgram::CurrentExe => {
            "this program must call `mcp_projection::worker::run_if_requested()` first thing in `main`, or the runner \
             must name the `mcp-jq-worker` binary (`WorkerProgram::Path`)"
        }
        WorkerProgram::Path(_) => "name the `mcp-jq-worker` binary of the mcp-projection crate",
    };
    format!(
        "the jq worker program {} did not start as a jq worker (no greeting on its output): {hint}",
        program.display()
    )
}
