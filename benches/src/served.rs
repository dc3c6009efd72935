//! The tools of the load benchmark (`examples/load/`), written twice: as a toolgroup toolkit
//! of three groups, and as a flat rmcp `#[tool_router]` server with the same six tools, the
//! same descriptions and the same answers. `load/fastmcp_server.py` is the third copy.
//!
//! Two tools of each kind the benchmark's mix calls: a cheap call answering text (`echo`) and
//! a structured call answering an object (`add`); the other four make the listing the size of
//! a small real server's.

use rmcp::handler::server::wrapper::{Json, Parameters};
use serde::{Deserialize, Serialize};
use toolgroup::prelude::*;

use crate::{Sum, add_body};

// `add` is the crate's own tool (`crate::add`), the one every other benchmark calls.

/// A product and its label.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Product {
    /// The caller's label.
    pub label: String,
    /// `a * b`.
    pub product: i64,
}

/// What `stat` says of a file.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FileInfo {
    /// The path asked for.
    pub path: String,
    /// Its size.
    pub bytes: u64,
    /// When it last changed (RFC 3339).
    pub modified: String,
}

fn product_body(a: i64, b: i64, label: String) -> Product {
    Product {
        label,
        product: a.wrapping_mul(b),
    }
}

fn stat_body(path: String) -> FileInfo {
    FileInfo {
        bytes: path.len() as u64 * 1024,
        path,
        modified: "2026-12-01T00:00:00Z".to_owned(),
    }
}

fn read_body(path: &str) -> String {
    format!("The first line of {path}.")
}

/// Multiply two integers and label the result.
#[tool]
pub fn multiply(
    /// The first factor.
    a: i64,
    /// The second factor.
    b: i64,
    /// A label copied to the result.
    label: String,
) -> Product {
    product_body(a, b, label)
}

/// Repeat the text back.
#[tool]
pub fn echo(
    /// The text to repeat.
    text: String,
) -> String {
    text
}

/// The text in upper case.
#[tool]
pub fn upper(
    /// The text to convert.
    text: String,
) -> String {
    text.to_uppercase()
}

/// The size and modification time of a file.
#[tool]
pub fn stat(
    /// The file's path.
    path: String,
) -> FileInfo {
    stat_body(path)
}

/// The first line of a file.
#[tool]
pub fn read(
    /// The file's path.
    path: String,
) -> String {
    read_body(&path)
}

/// Arithmetic.
#[tool_group(
    name = "math",
    description = "Arithmetic on integers.",
    instructions = "Integers are 64-bit; results wrap.",
    tools = [crate::add, multiply]
)]
pub struct ServedMath;

/// Text.
#[tool_group(name = "text", description = "Text transforms.", tools = [echo, upper])]
pub struct ServedText;

/// Files.
#[tool_group(
    name = "files",
    description = "Read-only file information.",
    instructions = "Paths are relative to the workspace.",
    tools = [stat, read]
)]
pub struct ServedFiles;

/// The toolkit the load benchmark serves: three switchable groups of two tools.
#[toolkit]
pub struct Served {
    pub math: ServedMath,
    pub text: ServedText,
    pub files: ServedFiles,
}

impl Served {
    /// The toolkit, every group present.
    pub fn toolkit() -> Toolkit<Served> {
        Toolkit::new(Served {
            math: ServedMath,
            text: ServedText,
            files: ServedFiles,
        })
    }
}

/// `add`'s and `multiply`'s arguments on the rmcp side.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct PairArgs {
    /// The first operand.
    pub a: i64,
    /// The second operand.
    pub b: i64,
    /// A label copied to the result.
    pub label: String,
}

/// `echo`'s and `upper`'s arguments on the rmcp side.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct TextArgs {
    /// The text.
    pub text: String,
}

/// `stat`'s and `read`'s arguments on the rmcp side.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct PathArgs {
    /// The file's path.
    pub path: String,
}

/// The rmcp side: the same six tools, flat, routed by `#[tool_router]`.
#[derive(Clone, Copy, Debug, Default)]
pub struct RmcpServed;

#[rmcp::tool_router(server_handler, vis = "pub")]
impl RmcpServed {
    /// Add two integers and label the result.
    #[rmcp::tool]
    fn add(&self, Parameters(PairArgs { a, b, label }): Parameters<PairArgs>) -> Json<Sum> {
        Json(add_body(a, b, label))
    }

    /// Multiply two integers and label the result.
    #[rmcp::tool]
    fn multiply(
        &self,
        Parameters(PairArgs { a, b, label }): Parameters<PairArgs>,
    ) -> Json<Product> {
        Json(product_body(a, b, label))
    }

    /// Repeat the text back.
    #[rmcp::tool]
    fn echo(&self, Parameters(TextArgs { text }): Parameters<TextArgs>) -> String {
        text
    }

    /// The text in upper case.
    #[rmcp::tool]
    fn upper(&self, Parameters(TextArgs { text }): Parameters<TextArgs>) -> String {
        text.to_uppercase()
    }

    /// The size and modification time of a file.
    #[rmcp::tool]
    fn stat(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> Json<FileInfo> {
        Json(stat_body(path))
    }

    /// The first line of a file.
    #[rmcp::tool]
    fn read(&self, Parameters(PathArgs { path }): Parameters<PathArgs>) -> String {
        read_body(&path)
    }
}
