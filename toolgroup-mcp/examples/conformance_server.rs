//! A server for the official MCP conformance suite (npm `@modelcontextprotocol/conformance`),
//! built with toolgroup's public API only: the tools its server scenarios call, by the names
//! and with the results they expect, served over Streamable HTTP. `.ci/conformance` runs the
//! suite against it in mask and in selected mode.
//!
//! ```text
//! conformance_server MODE [ADDRESS]   # MODE: mask, selected or list
//! ```
//!
//! It listens on `ADDRESS` (default `127.0.0.1:0`, a free loopback port) and prints
//! `listening on http://ADDRESS/mcp` on stderr once it accepts connections.
//!
//! The suite's tools are basic tools (always active): every scenario opens a new connection,
//! and a fresh connection of a mask server has no switchable group on. The `clock` group is
//! switchable, so the mask list starts with `reset_tools`; in selected mode choose it with
//! `/mcp?groups=clock`.
//!
//! The tools that ask the user (`input`) and those of the tasks scenarios (`tasks`) are basic
//! tools too; `.ci/conformance` runs the 2026-07-28 scenarios against them.
//!
//! Not offered: `test_sampling` and the sampling and roots input requests (a tool asks the
//! user only, with a form), the SEP-1330 enumeration forms (titled and multiple choices),
//! `test_reconnection` (a tool cannot close its SSE stream), and resources, prompts and
//! completion (toolgroup serves tools).

#[path = "conformance/input.rs"]
mod input;
#[path = "conformance/tasks.rs"]
mod tasks;

use std::process::ExitCode;
use std::time::Duration;

use base64::Engine as _;
use rmcp::transport::StreamableHttpServerConfig;
use toolgroup::context::LogLevel;
use toolgroup::prelude::*;
use toolgroup::result::ResourceContents;
use toolgroup_mcp::{McpServer, Mode};

/// A 1x1 red pixel, as PNG.
const RED_PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

fn red_pixel() -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(RED_PIXEL_PNG)
        .expect("the constant is base64")
}

/// A tenth of a second of silence: 8 kHz, mono, 8-bit PCM, as WAV.
fn silence_wav() -> Vec<u8> {
    let samples = 800u32;
    let mut wav = Vec::with_capacity(44 + samples as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + samples).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&8000u32.to_le_bytes()); // sample rate
    wav.extend_from_slice(&8000u32.to_le_bytes()); // byte rate
    wav.extend_from_slice(&1u16.to_le_bytes()); // block align
    wav.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&samples.to_le_bytes());
    wav.resize(44 + samples as usize, 128); // 8-bit PCM silence is 128
    wav
}

fn embedded_text() -> Content {
    Content::resource(
        ResourceContents::text(
            "test://embedded-resource",
            "This is an embedded resource content.",
        )
        .with_mime_type("text/plain"),
    )
}

/// Answer a fixed text.
#[tool(read_only)]
fn test_simple_text() -> String {
    "This is a simple text response for testing.".to_owned()
}

/// Answer a 1x1 red PNG image.
#[tool(read_only)]
fn test_image_content() -> Image {
    Image::png(red_pixel())
}

/// Answer a short WAV clip of silence.
#[tool(read_only)]
fn test_audio_content() -> Audio {
    Audio::new(silence_wav(), "audio/wav")
}

/// Answer an embedded text resource.
#[tool(read_only)]
fn test_embedded_resource() -> Content {
    embedded_text()
}

/// Answer a text, an image and an embedded resource.
#[tool(read_only)]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Image::png(red_pixel()).into(),
        embedded_text(),
    ]
}

/// Log three messages to the client while running.
#[tool(read_only)]
async fn test_tool_with_logging(ctx: ToolContext<'_>) -> String {
    ctx.log(LogLevel::Info, "Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool execution completed");
    "Tool with logging executed successfully".to_owned()
}

/// Always fail, with an error the model can read.
#[tool(read_only)]
fn test_error_handling() -> Result<String, String> {
    Err("This tool intentionally returns an error for testing".to_owned())
}

/// Report progress three times (0, 50 and 100 of 100) while running.
#[tool(read_only)]
async fn test_tool_with_progress(ctx: ToolContext<'_>) -> String {
    for done in [0.0, 50.0, 100.0] {
        ctx.report(done, Some(100.0), Some(&format!("{done} of 100")));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    "Progress test completed".to_owned()
}

/// A postal address.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[schemars(rename = "address")] // the scenario looks for `$defs/address`
struct Address {
    /// The street and number.
    street: Option<String>,
    /// The city.
    city: Option<String>,
}

/// Tool with JSON Schema 2020-12 features.
#[tool(read_only)]
fn json_schema_2020_12_tool(
    /// A name.
    name: Option<String>,
    /// An address.
    address: Option<Address>,
) -> String {
    let (street, city) = address.map_or((None, None), |a| (a.street, a.city));
    format!(
        "name: {}, street: {}, city: {}",
        name.as_deref().unwrap_or("-"),
        street.as_deref().unwrap_or("-"),
        city.as_deref().unwrap_or("-")
    )
}

#[tool_group(
    name = "conformance",
    description = "The tools the MCP conformance suite calls.",
    tools = [
        test_simple_text,
        test_image_content,
        test_audio_content,
        test_embedded_resource,
        test_multiple_content_types,
        test_tool_with_logging,
        test_error_handling,
        test_tool_with_progress,
        json_schema_2020_12_tool,
    ]
)]
struct Conformance;

/// The seconds since the Unix epoch.
#[tool(read_only)]
fn unix_time() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[tool_group(name = "clock", description = "Reading the clock.", tools = [unix_time])]
struct Clock;

#[toolkit]
struct Kit {
    #[basic]
    conformance: Conformance,
    #[basic]
    input: input::Input,
    #[basic]
    tasks: tasks::Tasks,
    clock: Clock,
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(mode) = args.first() else {
        eprintln!("usage: conformance_server mask|selected|list [ADDRESS]");
        return ExitCode::from(2);
    };
    let mode: Mode = match mode.parse() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let toolkit = Toolkit::new(Kit {
        conformance: Conformance,
        input: input::Input,
        tasks: tasks::Tasks,
        clock: Clock,
    });
    let server = McpServer::new(toolkit, mode).with_server_info(rmcp::model::Implementation::new(
        "toolgroup-conformance-server",
        env!("CARGO_PKG_VERSION"),
    ));
    let address = args.get(1).map_or("127.0.0.1:0", String::as_str);
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
