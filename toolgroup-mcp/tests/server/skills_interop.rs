//! The official Python SDK (PyPI `mcp`) against the skills extension:
//! `tests/mcp_interop/skills.py` drives the `interop_server` example's `--skills` toolkit over
//! stdio (every mode) and Streamable HTTP, with the 2025-11-25 and 2026-07-28 lifecycles.
//! Skipped without `MCP_VENV` (the venv `.ci/run` creates).

use crate::python;
use crate::support;

#[test]
fn the_python_sdk_lists_gets_and_reads_every_skill() {
    let Some(interpreter) = support::python() else {
        return;
    };
    let server = support::example(&["-p", "toolgroup-mcp"], "interop_server");
    let script =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp_interop/skills.py");
    let output = std::process::Command::new(interpreter)
        .arg(script)
        .arg(server)
        .output()
        .expect("the venv's python runs");
    python::assert_passed(&output);
}
