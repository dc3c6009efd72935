//! The runs: a fresh server process per measurement, the clients connected and warmed, then
//! the mix for a fixed time; the server's CPU time and resident memory read from `/proc`.

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::drive::{Client, Era, MIX};
use crate::serve::Kind;
use crate::{parse_era, parse_list};

pub struct Settings {
    pub clients: Vec<usize>,
    pub secs: f64,
    pub rounds: usize,
    pub sessions: usize,
    pub servers: Vec<Kind>,
    pub eras: Vec<Era>,
    pub short: bool,
    fastmcp_python: Option<String>,
    /// Whether the driver and the servers get a core each (two cores and `taskset`).
    pub pin: bool,
}

impl Settings {
    pub fn from_env() -> Result<Settings, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let short = var("SHORT").is_some_and(|v| v != "0");
        let number = |name: &str, default: usize| -> Result<usize, String> {
            var(name).map_or(Ok(default), |v| {
                v.parse()
                    .map_err(|_| format!("{name} must be a whole number"))
            })
        };
        let clients = match var("CLIENTS") {
            Some(list) => parse_list(&list, |n| n.parse().ok().filter(|n| *n > 0))?,
            None if short => vec![10, 50],
            None => vec![10, 100, 1000],
        };
        let fastmcp_python = var("FASTMCP_PYTHON");
        let servers = match var("SERVERS") {
            Some(list) => parse_list(&list, Kind::parse)?,
            None => {
                let mut servers = vec![Kind::Rmcp, Kind::Toolgroup];
                if var("REDIS_URL").is_some() {
                    servers.push(Kind::ToolgroupRedis);
                } else {
                    eprintln!("toolgroup-redis skipped: REDIS_URL is not set");
                }
                if fastmcp_python.is_some() {
                    servers.push(Kind::FastMcp);
                } else {
                    eprintln!("fastmcp skipped: FASTMCP_PYTHON is not set");
                }
                servers
            }
        };
        if servers.contains(&Kind::FastMcp) && fastmcp_python.is_none() {
            return Err("fastmcp needs FASTMCP_PYTHON, a Python with `fastmcp` installed".into());
        }
        let eras = match var("ERAS") {
            Some(list) => parse_list(&list, parse_era)?,
            None => vec![Era::Sessions, Era::Stateless],
        };
        let secs = match var("SECS") {
            Some(v) => v
                .parse::<f64>()
                .ok()
                .filter(|s| *s > 0.0)
                .ok_or("SECS must be a positive number")?,
            None if short => 1.0,
            None => 5.0,
        };
        Ok(Settings {
            clients,
            secs,
            rounds: number("ROUNDS", if short { 1 } else { 3 })?.max(1),
            sessions: number("SESSIONS", if short { 50 } else { 1000 })?.max(1),
            servers,
            eras,
            short,
            fastmcp_python,
            pin: cores() >= 2 && has_taskset(),
        })
    }
}

/// One round of one server at one client count.
#[derive(Clone, Debug)]
pub struct Round {
    pub requests: usize,
    pub per_second: f64,
    /// Latency percentiles in microseconds: p50, p99, p999.
    pub latency: [f64; 3],
    /// The server's CPU seconds per 1,000 requests.
    pub cpu_per_1000: f64,
    /// Connections the clients opened again, warm-up included, after the server closed one.
    pub reconnects: usize,
}

/// Everything measured, in the order it was measured.
pub struct Results {
    pub rounds: Vec<(Era, usize, Kind, Round)>,
    /// Resident KiB per 1,000 idle sessions (2025-11-25) or keyed clients (2026-07-28).
    pub memory: Vec<(Era, Shape, Kind, f64)>,
    /// FastMCP's rounds that failed, and why.
    pub left_out: Vec<String>,
}

pub async fn all(settings: &Settings) -> Result<Results, String> {
    pin_self(settings.pin);
    let mut results = Results {
        rounds: Vec::new(),
        memory: Vec::new(),
        left_out: Vec::new(),
    };
    for &era in &settings.eras {
        for &clients in &settings.clients {
            for round in 0..settings.rounds {
                for &kind in &settings.servers {
                    let measured = match measure(settings, era, kind, clients).await {
                        Ok(measured) => measured,
                        // uvicorn drops a connection now and then under 1,000 clients, mid
                        // request (a request is never sent twice): that round of FastMCP's is
                        // left out and said so, the run goes on. A Rust server's is fatal.
                        Err(e) if kind == Kind::FastMcp && !settings.short => {
                            eprintln!(
                                "{} {} {clients} clients, round {}: left out: {e}",
                                kind.name(),
                                era.name(),
                                round + 1
                            );
                            results.left_out.push(format!(
                                "{} {} {clients} clients round {}: {e}",
                                kind.name(),
                                era.name(),
                                round + 1
                            ));
                            continue;
                        }
                        Err(e) => {
                            return Err(format!(
                                "{} {} {clients} clients: {e}",
                                kind.name(),
                                era.name()
                            ));
                        }
                    };
                    eprintln!(
                        "{:<22} {:>5} clients  round {}  {:<16} {:>8.0} req/s  p99 {:>8.0} us  {} reconnects",
                        era.name(),
                        clients,
                        round + 1,
                        kind.name(),
                        measured.per_second,
                        measured.latency[1],
                        measured.reconnects,
                    );
                    results.rounds.push((era, clients, kind, measured));
                }
            }
        }
        let shapes: &[Shape] = match era {
            Era::Sessions => &[Shape::AtOnce, Shape::OverTime],
            Era::Stateless => &[Shape::AtOnce],
        };
        for &shape in shapes {
            for &kind in &settings.servers {
                let kib = idle_memory(settings, era, shape, kind)
                    .await
                    .map_err(|e| format!("{} {} idle memory: {e}", kind.name(), era.name()))?;
                eprintln!(
                    "{:<22} {:<10} {:<16} {kib:>8.0} KiB per 1,000 idle",
                    era.name(),
                    shape.name(),
                    kind.name()
                );
                results.memory.push((era, shape, kind, kib));
            }
        }
    }
    Ok(results)
}

/// A server process; killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(settings: &Settings, kind: Kind) -> Result<Server, String> {
        Server::start_idle(settings, kind, None)
    }

    /// `kind`, toolgroup's hibernating its idle sessions after `idle` (else its default).
    fn start_idle(
        settings: &Settings,
        kind: Kind,
        idle: Option<Duration>,
    ) -> Result<Server, String> {
        let mut command = pinned(settings.pin, 1);
        let fixed_port = if kind == Kind::FastMcp {
            let port = free_port()?;
            let script = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/examples/load/fastmcp_server.py"
            );
            command
                .arg(settings.fastmcp_python.as_deref().unwrap_or("python3"))
                .arg(script)
                .arg(port.to_string());
            Some(port)
        } else {
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            command.arg(exe).arg("serve").arg(kind.name());
            if let Some(idle) = idle {
                command.arg(idle.as_millis().to_string());
            }
            None
        };
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("start: {e}"))?;
        let port = match fixed_port {
            Some(port) => port,
            None => {
                let stdout = child.stdout.take().ok_or("no stdout")?;
                let mut line = String::new();
                BufReader::new(stdout)
                    .read_line(&mut line)
                    .map_err(|e| e.to_string())?;
                let port = line
                    .trim()
                    .strip_prefix("port ")
                    .and_then(|p| p.parse().ok());
                match port {
                    Some(port) => port,
                    None => {
                        let _ = child.kill();
                        let _ = child.wait();
                        return Err("the server did not start".into());
                    }
                }
            }
        };
        let server = Server { child, port };
        server.wait_listening()?;
        Ok(server)
    }

    fn wait_listening(&self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            if Instant::now() > deadline {
                return Err("the server did not listen within 30 s".into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    /// User plus system CPU seconds the process has used.
    fn cpu_seconds(&self) -> Result<f64, String> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .map_err(|e| format!("/proc stat: {e}"))?;
        // Fields after the command name, which is in parentheses and may hold spaces.
        let rest = stat.rsplit_once(')').ok_or("/proc stat: no command")?.1;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks = |i: usize| -> Result<f64, String> {
            fields
                .get(i)
                .and_then(|f| f.parse::<f64>().ok())
                .ok_or_else(|| "/proc stat: no CPU times".to_owned())
        };
        // utime and stime are the 14th and 15th fields; `rest` starts at the 3rd.
        Ok((ticks(11)? + ticks(12)?) / clock_ticks())
    }

    /// Resident memory in KiB.
    fn rss_kib(&self) -> Result<f64, String> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .map_err(|e| format!("/proc status: {e}"))?;
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .ok_or_else(|| "/proc status: no VmRSS".to_owned())
    }
}

/// One round: `clients` connected and through one warm-up cycle of the mix, then the mix for
/// `settings.secs`; every request started before the deadline is counted.
async fn measure(
    settings: &Settings,
    era: Era,
    kind: Kind,
    clients: usize,
) -> Result<Round, String> {
    let server = Server::start(settings, kind)?;
    let connected = connect_all(server.port, era, kind, clients, true, true).await?;
    let cpu_before = server.cpu_seconds()?;
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(settings.secs);
    let tasks: Vec<_> = connected
        .into_iter()
        .map(|mut client| {
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(4096);
                let mut next = 0;
                while Instant::now() < deadline {
                    let took = client.run(MIX[next % MIX.len()]).await?;
                    latencies.push(u32::try_from(took.as_micros()).unwrap_or(u32::MAX));
                    next += 1;
                }
                Ok::<_, String>((latencies, client.reconnects))
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut reconnects = 0;
    let mut failure = None;
    for task in tasks {
        match task.await {
            Ok(Ok((mine, again))) => {
                latencies.extend(mine);
                reconnects += again;
            }
            Ok(Err(e)) => failure = failure.or(Some(e)),
            Err(e) => failure = failure.or(Some(format!("client task: {e}"))),
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = server.cpu_seconds()? - cpu_before;
    if let Some(e) = failure {
        return Err(e);
    }
    if latencies.is_empty() {
        return Err("no request finished".into());
    }
    latencies.sort_unstable();
    let at = |q: f64| f64::from(latencies[toolgroup_bench::quantile_index(latencies.len(), q)]);
    Ok(Round {
        requests: latencies.len(),
        per_second: latencies.len() as f64 / elapsed,
        latency: [at(0.5), at(0.99), at(0.999)],
        cpu_per_1000: cpu * 1000.0 / latencies.len() as f64,
        reconnects,
    })
}

/// `count` clients connected (64 handshakes at a time, as a listen backlog bears), each
/// through one cycle of the mix when `warm`, else through the first request of a session's
/// life: a listing, and on 2026-07-28 the `reset_tools` that makes toolgroup keep a state.
/// Returned connected when `keep`, else each disconnected once done.
async fn connect_all(
    port: u16,
    era: Era,
    kind: Kind,
    count: usize,
    warm: bool,
    keep: bool,
) -> Result<Vec<Client>, String> {
    let limit = Arc::new(tokio::sync::Semaphore::new(64));
    let tasks: Vec<_> = (0..count)
        .map(|index| {
            let limit = limit.clone();
            tokio::spawn(async move {
                let _permit = limit.acquire().await.map_err(|e| e.to_string())?;
                let mut client = Client::connect(port, index, era, kind).await?;
                let ops: &[_] = if warm { &MIX } else { &MIX[..1] };
                for op in ops {
                    client.run(*op).await?;
                }
                if !warm && era == Era::Stateless {
                    client.run(crate::drive::Op::Reset).await?;
                }
                Ok::<_, String>(keep.then_some(client))
            })
        })
        .collect();
    let mut clients = Vec::with_capacity(count);
    for task in tasks {
        clients.extend(task.await.map_err(|e| format!("client task: {e}"))??);
    }
    Ok(clients)
}

/// How the idle clients of the memory figure arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// All at once (64 handshakes at a time), measured half a second after the last.
    AtOnce,
    /// In ten batches (three in the short form), each once the previous one has sat idle
    /// past [`IDLE`].
    OverTime,
}

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::AtOnce => "at once",
            Shape::OverTime => "over time",
        }
    }
}

/// The hibernation delay of toolgroup's servers when sessions arrive over time: short, so
/// that the run takes seconds; the default (30 s) changes when a session hibernates, not
/// what it then holds.
pub const IDLE: Duration = Duration::from_millis(1000);

/// Resident KiB per 1,000 clients left idle: sessions opened and listed once (2025-11-25), or
/// keyed clients that switched groups once (2026-07-28). Each client's connection is closed
/// once it is done, as an idle client's is: what remains is the server's state of it (and
/// what the allocator kept of the peak).
async fn idle_memory(
    settings: &Settings,
    era: Era,
    shape: Shape,
    kind: Kind,
) -> Result<f64, String> {
    let (batches, idle) = match shape {
        Shape::AtOnce => (1, None),
        Shape::OverTime => (if settings.short { 3 } else { 10 }, Some(IDLE)),
    };
    let server = Server::start_idle(settings, kind, idle)?;
    // One client first, so code paths and buffers touched once are in the baseline.
    drop(connect_all(server.port, era, kind, 1, false, false).await?);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = server.rss_kib()?;
    let per_batch = settings.sessions.div_ceil(batches);
    let mut opened = 0;
    while opened < settings.sessions {
        if opened > 0 {
            // Past the delay and the sweep that follows it (every half delay).
            tokio::time::sleep(IDLE * 2).await;
        }
        let count = per_batch.min(settings.sessions - opened);
        drop(connect_all(server.port, era, kind, count, false, false).await?);
        opened += count;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = server.rss_kib()?;
    Ok((after - before) * 1000.0 / settings.sessions as f64)
}

/// `taskset -c CORE` when the machine has another core to give, else a plain command line.
fn pinned(pin: bool, core: usize) -> Command {
    if pin {
        let mut command = Command::new("taskset");
        command.arg("-c").arg(core.to_string());
        command
    } else {
        // `Command::new` needs the program: the caller's first `arg` becomes it.
        Command::new("env")
    }
}

/// Pins the driver to the first core, when the servers get the second.
fn pin_self(pin: bool) {
    if pin {
        let pinned = Command::new("taskset")
            .args(["-p", "-c", "0", &std::process::id().to_string()])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !pinned {
            eprintln!("could not pin the driver to core 0; the figures share cores");
        }
    } else {
        eprintln!("one core or no taskset: the driver and the servers share cores");
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn has_taskset() -> bool {
    Command::new("taskset")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn clock_ticks() -> f64 {
    static TICKS: OnceLock<f64> = OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|out| String::from_utf8(out.stdout).ok())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}
