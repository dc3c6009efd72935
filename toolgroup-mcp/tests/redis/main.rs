//! The Redis stores against a real `redis-server` (at `REDIS_URL`): server replicas share the
//! active groups of stateless HTTP clients (`groups`), and tasks (`tasks`, `task_replicas`).
//! Skipped, with a notice, when `REDIS_URL` is not set (`.ci/run` starts a server and sets it).
//!
//! The outage tests start a `redis-server` child of their own on a free loopback port, so that
//! they can kill, restart, pause and resume it mid-run. Skipped, with a notice, when
//! `redis-server` is not installed and `REDIS_URL` is not set either.

#[path = "../support/mod.rs"]
mod support;

mod groups;
mod lifecycle;
mod task_kit;
mod task_replicas;
mod tasks;

use std::future::Future;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use support::user_key;

fn redis_url() -> Option<String> {
    match std::env::var("REDIS_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            // Written to the stderr handle itself: the test harness captures `eprintln!`.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "skipped: REDIS_URL is not set (the URL of a Redis server to test the Redis store against)"
            );
            None
        }
    }
}

/// A key prefix of its own for each run, so runs never see each other's keys.
fn prefix() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("toolgroup-test:{}:{nanos}:", std::process::id())
}

/// A `redis-server` child process on a loopback port of its own, killed when dropped.
struct OwnRedis {
    child: Child,
    port: u16,
}

impl OwnRedis {
    /// Start one, or `None` (with a notice) where neither `redis-server` nor `REDIS_URL` is
    /// there. `REDIS_URL` without the binary fails: CI means these tests to run.
    async fn start() -> Option<OwnRedis> {
        let installed = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !installed {
            if std::env::var("REDIS_URL").is_ok_and(|url| !url.is_empty()) {
                panic!(
                    "REDIS_URL is set but `redis-server` is not installed: the outage tests \
                     stop and start a server of their own (Debian package `redis-server`)"
                );
            }
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "skipped: `redis-server` is not installed and REDIS_URL is not set (the outage tests start a server of their own)"
            );
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Self::spawn(port).await;
        Some(OwnRedis { child, port })
    }

    async fn spawn(port: u16) -> Child {
        let mut child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(std::env::temp_dir())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start redis-server");
        // Up to 100 tries, 100 ms apart: the server answers `PING` within 10 s or the test fails.
        for _ in 0..100 {
            if ping(port).await {
                return child;
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("redis-server on port {port} exited: {status}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let _ = child.kill();
        panic!("redis-server on port {port} did not answer PING within 10 s");
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Kill the server (its data goes with it: nothing is saved).
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Start a new server on the same port.
    async fn restart(&mut self) {
        self.child = Self::spawn(self.port).await;
    }

    /// Stop (`SIGSTOP`) or continue (`SIGCONT`) the server: its connections stay open.
    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .arg(signal)
            .arg(self.child.id().to_string())
            .status()
            .unwrap();
        assert!(status.success(), "kill {signal}");
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg("-CONT")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a Redis server on this port answers `PING` within 500 ms.
async fn ping(port: u16) -> bool {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let attempt = async {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await?;
        stream.write_all(b"PING\r\n").await?;
        let mut reply = [0; 7];
        stream.read_exact(&mut reply).await?;
        Ok::<_, std::io::Error>(&reply == b"+PONG\r\n")
    };
    matches!(
        tokio::time::timeout(Duration::from_millis(500), attempt).await,
        Ok(Ok(true))
    )
}

/// A call's answer and how long it took; a call that takes over 10 s fails the test.
async fn timed<T>(call: impl Future<Output = T>) -> (T, Duration) {
    let start = Instant::now();
    let r = tokio::time::timeout(Duration::from_secs(10), call)
        .await
        .expect("the call answered within 10 s");
    (r, start.elapsed())
}

/// How long a store call may take while Redis is down or paused.
const PROMPT: Duration = Duration::from_secs(3);
