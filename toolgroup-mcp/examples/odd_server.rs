//! The client tests' rmcp server with the answers rmcp's `ServerHandler` does not send
//! (multi-round-trip `input_required` answers, an unknown kind of input request, a task whose
//! `tasks/get` answers garbage), over stdio: see `tests/client/odd_server.rs`.
//!
//! ```text
//! odd_server
//! ```

// Only its form and the answers' wording are used here.
#[allow(dead_code)]
#[path = "../tests/client/task_server.rs"]
mod task_server;

#[path = "../tests/client/odd_server.rs"]
mod odd_server;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    odd_server::serve_stdio().await
}
