//! Serve the quickstart's toolkit over MCP, with a `charts` group whose `bar_chart` tool
//! answers with a PNG image (an MCP `image` content block), and a `reports` group whose
//! `write_report` runs for a while (a task for clients that declare the MCP tasks extension)
//! whose `delete_report` the server's approval asks the user about, and whose `retitle_report`
//! asks the user for the title itself (on every MCP revision).
//!
//! ```text
//! cargo run --example mcp_server --features mcp -- --transport stdio --mode mask
//! cargo run --example mcp_server --features mcp -- --transport stdio --mode selected --groups web_search
//! cargo run --example mcp_server --features mcp -- --transport stdio --mode selected --groups charts
//! cargo run --example mcp_server --features mcp -- --transport http --mode list --listen 127.0.0.1:8000
//! cargo run --example mcp_server --features mcp,code-mode -- --transport stdio --code-mode
//! ```
//!
//! Over HTTP the endpoint is `/mcp`; in selected mode its groups come from the URL
//! (`/mcp?groups=web_search,scraping`). Stateless HTTP requests (MCP 2026-07-28 clients) keep
//! their active groups under the `x-user-id` header's value.

#[allow(dead_code)]
#[path = "support/agent.rs"]
mod agent;
#[allow(dead_code)] // its `toolkit` is the agent_loop example's
#[path = "support/charts.rs"]
mod charts;
#[path = "support/reports.rs"]
mod reports;

use std::process::ExitCode;

use toolgroup::Session;
use toolgroup::mcp::rmcp::transport::StreamableHttpServerConfig;
use toolgroup::mcp::{ClientHints, ElicitationApprover, McpServer, Mode};
use toolgroup::policy::RequireApproval;
use toolgroup::prelude::*;

/// The `agent_loop` example's groups and the `reports` group.
#[toolkit]
struct Served {
    /// The basic group.
    #[basic]
    notes: agent::Notes,
    web_search: agent::WebSearch,
    scraping: agent::Scraping,
    charts: charts::Charts,
    reports: reports::Reports,
}

/// The toolkit: destructive tools (`delete_report`) need the user's yes, asked through the
/// client as its revision allows.
fn toolkit(report_seconds: u64) -> Toolkit<Served> {
    Toolkit::new(Served {
        notes: agent::Notes,
        web_search: agent::WebSearch,
        scraping: agent::Scraping,
        charts: charts::Charts,
        reports: reports::Reports {
            seconds: report_seconds,
        },
    })
    .with_policy(RequireApproval::new(ElicitationApprover::new()))
}

const USAGE: &str = "usage: mcp_server --transport stdio|http --mode selected|mask|list [--groups a,b] [--listen 127.0.0.1:PORT] [--no-first-use] [--no-hints] [--no-groups-extension] [--report-seconds N] [--code-mode] [--auth-issuer URL --auth-audience URI [--auth-jwks URL]]

Serves the quickstart toolkit (groups `web_search` and `scraping`; `notes` is always on), the
group `charts` (`bar_chart` answers with a PNG image) and the group `reports` (`write_report`
takes a while and may run as an MCP task; `delete_report` needs the user's approval;
`retitle_report` asks the user for a title) over MCP.
  --transport  stdio (default) or http (Streamable HTTP at /mcp)
  --mode       selected: the groups are chosen at connect time (--groups on stdio, ?groups= in the URL over HTTP)
               mask (default): every tool listed; a call of an inactive group's tool activates
                 its group (with --no-first-use it is refused, and reset_tools is listed to
                 switch groups)
               list: the list follows reset_tools, with notifications/tools/list_changed
  --groups     stdio: the chosen groups (selected) or the starting active groups (mask, list)
  --listen     http: the address to listen on (default 127.0.0.1:8000)
  --no-first-use         refuse calls of inactive groups' tools (naming the group to switch on)
  --no-hints             no client hints in the tools' _meta (anthropic/searchHint, group labels)
  --no-groups-extension  do not serve the io.modelcontextprotocol/groups extension
  --report-seconds N     how long write_report takes (default 5)
  --code-mode            also list run_program: the model writes one JavaScript program that
                         calls the tools (build with --features mcp,code-mode)
  --auth-issuer URL      http: require bearer JWTs of this issuer (build with --features mcp-auth);
                         web_search needs the scope web:read, scraping web:fetch, charts charts
  --auth-audience URI    http: the endpoint's resource URI, the tokens' audience (http://HOST/mcp)
  --auth-jwks URL        http: the issuer's JWKS (default: discovered from the issuer's metadata)
Over stateless HTTP the active groups are kept per `x-user-id` header value; over HTTP a
request may also choose its groups itself: /mcp/web_search, or the X-MCP-Toolsets header.";

struct Options {
    http: bool,
    mode: Mode,
    groups: Option<String>,
    listen: String,
    first_use: bool,
    hints: bool,
    groups_extension: bool,
    report_seconds: u64,
    code_mode: bool,
    auth_issuer: Option<String>,
    auth_audience: Option<String>,
    auth_jwks: Option<String>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        http: false,
        mode: Mode::Mask,
        groups: None,
        listen: "127.0.0.1:8000".to_owned(),
        first_use: true,
        hints: true,
        groups_extension: true,
        report_seconds: 5,
        code_mode: false,
        auth_issuer: None,
        auth_audience: None,
        auth_jwks: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--transport" => match value("--transport")?.as_str() {
                "stdio" => options.http = false,
                "http" => options.http = true,
                other => {
                    return Err(format!(
                        "unknown transport `{other}`; expected `stdio` or `http`"
                    ));
                }
            },
            "--mode" => {
                options.mode = value("--mode")?
                    .parse()
                    .map_err(|e: toolgroup::mcp::UnknownMode| e.to_string())?
            }
            "--groups" => options.groups = Some(value("--groups")?),
            "--listen" => options.listen = value("--listen")?,
            "--no-first-use" => options.first_use = false,
            "--no-hints" => options.hints = false,
            "--no-groups-extension" => options.groups_extension = false,
            "--report-seconds" => {
                options.report_seconds = value("--report-seconds")?
                    .parse()
                    .map_err(|_| "--report-seconds takes a whole number of seconds".to_owned())?;
            }
            "--code-mode" => options.code_mode = true,
            "--auth-issuer" => options.auth_issuer = Some(value("--auth-issuer")?),
            "--auth-audience" => options.auth_audience = Some(value("--auth-audience")?),
            "--auth-jwks" => options.auth_jwks = Some(value("--auth-jwks")?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if options.http && options.groups.is_some() {
        return Err(
            "--groups is for stdio; over HTTP, selected mode takes the groups from the URL (/mcp?groups=a,b)"
                .to_owned(),
        );
    }
    let auth = options.auth_issuer.is_some()
        || options.auth_audience.is_some()
        || options.auth_jwks.is_some();
    if auth && !options.http {
        return Err("the --auth-* flags are for --transport http (stdio takes no tokens)".into());
    }
    if auth && (options.auth_issuer.is_none() || options.auth_audience.is_none()) {
        return Err("authorization needs both --auth-issuer and --auth-audience".into());
    }
    if options.code_mode && cfg!(not(feature = "code-mode")) {
        return Err("--code-mode needs the example built with --features mcp,code-mode".into());
    }
    if auth && cfg!(not(feature = "mcp-auth")) {
        return Err("the --auth-* flags need the example built with --features mcp-auth".into());
    }
    Ok(options)
}

/// The toolkit, with the scopes each switchable group needs when tokens are checked, and
/// the server with bearer authorization.
#[cfg(feature = "mcp-auth")]
fn with_auth(
    options: &Options,
    toolkit: toolgroup::Toolkit<Served>,
    mode: Mode,
) -> Result<McpServer<Served>, String> {
    use toolgroup::Scopes;
    use toolgroup::mcp::auth::{BearerAuth, JwtValidator};
    let (Some(issuer), Some(audience)) = (&options.auth_issuer, &options.auth_audience) else {
        return Ok(McpServer::new(toolkit, mode));
    };
    let scope = |s: &str| Scopes::parse(s).expect("a valid scope");
    let toolkit = toolkit
        .with_required_scopes(ServedGroup::WebSearch, scope("web:read"))
        .with_required_scopes(ServedGroup::Scraping, scope("web:fetch"))
        .with_required_scopes(ServedGroup::Charts, scope("charts"));
    let mut validator = JwtValidator::new(issuer, audience);
    if let Some(jwks) = &options.auth_jwks {
        validator = validator.with_jwks_uri(jwks);
    }
    let auth = BearerAuth::new(audience, validator)
        .map_err(|e| format!("--auth-audience: {e}"))?
        .with_authorization_server(issuer);
    Ok(McpServer::new(toolkit, mode).with_auth(auth))
}

#[cfg(not(feature = "mcp-auth"))]
fn with_auth(
    _options: &Options,
    toolkit: toolgroup::Toolkit<Served>,
    mode: Mode,
) -> Result<McpServer<Served>, String> {
    Ok(McpServer::new(toolkit, mode))
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let server = match with_auth(&options, toolkit(options.report_seconds), options.mode) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let server = server
        .with_instructions("The quickstart toolkit of toolgroup: notes, web search, page fetching (offline, canned results), and bar charts drawn as PNG images.")
        .with_key(|parts| parts.headers.get("x-user-id")?.to_str().ok().map(str::to_owned))
        .with_first_use_activation(options.first_use)
        .with_client_hints(if options.hints {
            ClientHints::default()
        } else {
            ClientHints::none()
        })
        .with_groups_extension(options.groups_extension);
    #[cfg(feature = "code-mode")]
    let server = if options.code_mode {
        server.with_code_mode(toolgroup::code::Limits::new())
    } else {
        server
    };
    if options.http {
        let listener = match tokio::net::TcpListener::bind(&options.listen).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: cannot listen on {}: {e}", options.listen);
                return ExitCode::FAILURE;
            }
        };
        let addr = listener
            .local_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        eprintln!("MCP server ({} mode) at http://{addr}/mcp", options.mode);
        if let Err(e) = server
            .serve_http(listener, "/mcp", StreamableHttpServerConfig::default())
            .await
        {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    let groups: Session<Served> = match options.groups.as_deref().unwrap_or("").parse() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: --groups: {e}");
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
