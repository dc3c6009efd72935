//! The MCP tests' toolkit (with a slow tool to cancel) as a server for clients written
//! elsewhere: `.ci/run` drives it with the official Python SDK (`tests/mcp_interop`).
//!
//! ```text
//! interop_server [--skills] MODE stdio [GROUPS]
//! interop_server [--skills] MODE http [ADDRESS]   # prints `listening on http://ADDRESS/mcp` on stderr
//! ```
//!
//! With `--skills` it serves the skills tests' toolkit instead (groups with Agent Skills, for
//! the skills extension: `tests/mcp_interop/skills.py`).
//!
//! Over HTTP, stateless requests keep their active groups per `x-user-id` header.

#[path = "../tests/skills_support/mod.rs"]
mod skills_support;
#[path = "../tests/support/mod.rs"]
mod support;

use std::process::ExitCode;

use rmcp::transport::StreamableHttpServerConfig;
use toolgroup::Registry;
use toolgroup_mcp::{McpServer, Mode};

#[tokio::main]
async fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let skills = args.first().is_some_and(|a| a == "--skills");
    if skills {
        args.remove(0);
    }
    let (Some(mode), Some(_)) = (args.first(), args.get(1)) else {
        eprintln!(
            "usage: interop_server [--skills] selected|mask|list stdio|http [GROUPS|ADDRESS]"
        );
        return ExitCode::from(2);
    };
    let mode: Mode = match mode.parse() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if skills {
        run(McpServer::new(skills_support::toolkit(), mode), &args).await
    } else {
        run(McpServer::new(support::toolkit(), mode), &args).await
    }
}

async fn run<R: Registry>(server: McpServer<R>, args: &[String]) -> ExitCode {
    let server = server.with_key(|parts| {
        parts
            .headers
            .get("x-user-id")?
            .to_str()
            .ok()
            .map(str::to_owned)
    });
    match args[1].as_str() {
        "stdio" => {
            let groups: toolgroup::Session<_> = match args.get(2).map_or("", String::as_str).parse()
            {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            match server.serve_stdio(groups).await {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        "http" => {
            let address = args.get(2).map_or("127.0.0.1:0", String::as_str);
            let listener = match tokio::net::TcpListener::bind(address).await {
                Ok(l) => l,
                Err(e) => {
                    eprintln!("error: cannot listen on {address}: {e}");
                    return ExitCode::FAILURE;
                }
            };
            match listener.local_addr() {
                Ok(a) => eprintln!("listening on http://{a}/mcp"),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
            match server
                .serve_http(listener, "/mcp", StreamableHttpServerConfig::default())
                .await
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        other => {
            eprintln!("error: unknown transport `{other}`; expected `stdio` or `http`");
            ExitCode::from(2)
        }
    }
}
