//! The official TypeScript SDK's client with a bearer token: its principal's tools, and a
//! refusal without a token.

use serde_json::Value;
use toolgroup_mcp::Mode;

use crate::idp::{Idp, serve};

fn run(sdk: &str, url: &str, token: Option<&str>) -> Value {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/auth/sdk.mjs");
    let output = std::process::Command::new("node")
        .arg(script)
        .arg(sdk)
        .arg(url)
        .args(token)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr)))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_typescript_sdk_sees_its_principals_tools() {
    let Some(idp) = Idp::start() else { return };
    let Some(sdk) = std::env::var_os("TS_SDK") else {
        eprintln!(
            "skipped: TS_SDK is not set (the folder of npm's @modelcontextprotocol/sdk; .ci/run installs it)"
        );
        return;
    };
    let sdk = sdk.to_string_lossy().into_owned();
    let config = rmcp::transport::StreamableHttpServerConfig::default();
    let url = serve(&idp, Mode::Mask, config, |v| v, |a| a).await;
    let token = idp.token(&url, "alice", "web:read");
    let (sdk2, url2) = (sdk.clone(), url.clone());
    let seen = tokio::task::spawn_blocking(move || run(&sdk2, &url2, Some(&token)))
        .await
        .unwrap();
    assert_eq!(
        seen["tools"],
        serde_json::json!(["reset_tools", "note_write", "whoami", "web_search"]),
        "{seen}"
    );
    assert_eq!(seen["whoami"], "alice [web:read]");
    let refused = tokio::task::spawn_blocking(move || run(&sdk, &url, None))
        .await
        .unwrap();
    assert!(refused.get("error").is_some(), "{refused}");
}
