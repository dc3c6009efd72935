//! Runs one of `tests/mcp_interop`'s Python SDK scripts against a server on loopback HTTP
//! (default Streamable HTTP config: legacy sessions on), with the venv `.ci/run` creates.

use toolgroup::Registry;
use toolgroup_mcp::McpServer;

/// Serves `server` on a free loopback port and runs `script` (a file in
/// `tests/mcp_interop`) with the URL; asserts it exits 0 and reports ` 0 failed`. `false`,
/// with a message, when `MCP_VENV` is not set.
pub async fn run_script<R: Registry>(server: McpServer<R>, script: &str) -> bool {
    let Some(venv) = std::env::var_os("MCP_VENV") else {
        eprintln!(
            "skipped: MCP_VENV is not set (a venv with the PyPI `mcp` package; .ci/run creates one)"
        );
        return false;
    };
    let python = std::path::PathBuf::from(venv).join("bin").join("python");
    let script = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/mcp_interop")
        .join(script);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = server
            .serve_http(
                listener,
                "/mcp",
                rmcp::transport::StreamableHttpServerConfig::default(),
            )
            .await;
    });
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new(python)
            .arg(script)
            .arg(url)
            .output()
            .expect("the venv's python runs")
    })
    .await
    .unwrap();
    assert_passed(&output);
    true
}

/// Prints a script's output and asserts that it exited 0 and reported ` 0 failed`.
pub fn assert_passed(output: &std::process::Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert!(
        output.status.success() && stdout.contains(" 0 failed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
