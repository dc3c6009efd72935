//! An rmcp server with the answers rmcp's `ServerHandler` does not send to the client, run
//! over stdio by the `odd_server` example: multi-round-trip `input_required` answers to
//! `tools/call` (SEP-2322: rmcp sends them only on 2026-07-28 sessions, and the client
//! negotiates 2025-11-25 through `initialize`), an input request of a kind rmcp has no type
//! for, and a task whose `tasks/get` answers garbage. [`Odd`] implements rmcp's `Service`
//! itself, in front of a `ServerHandler` for everything else; rmcp's Streamable HTTP server
//! takes only a `ServerHandler`, hence stdio.
//!
//! Tools: `form` (asks who is asking, then answers with the answer and the echoed
//! `requestState`), `forever` (asks again at every round), `sampling`, `weird_input`,
//! `garbage_task`, and `record` (what the server saw, as JSON: `rounds`, the `tools/call`
//! requests of the asking tools, and `cancelled`, the ids `tasks/cancel` named).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientNotification, ClientRequest,
    ContentBlock, CreateTaskResult, CustomResult, ErrorData, InputRequests, InputRequiredResult,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, ServerResult, Task,
    TaskStatus, Tool,
};
use rmcp::service::{NotificationContext, RequestContext, Service};
use rmcp::{RoleServer, ServerHandler, ServiceExt as _};
use serde_json::{Value, json};

use super::task_server::{elicitation, said, who};

/// Lists the tools and answers `record`; [`Odd`] answers the others.
#[derive(Clone, Default)]
struct Tools {
    rounds: Arc<AtomicUsize>,
    cancelled: Arc<Mutex<Vec<String>>>,
}

impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let Value::Object(schema) = json!({"type": "object", "properties": {}}) else {
            unreachable!()
        };
        let tools = [
            "form",
            "forever",
            "sampling",
            "weird_input",
            "garbage_task",
            "record",
        ]
        .map(|name| Tool::new(name, format!("The tool {name}."), schema.clone()));
        Ok(ListToolsResult::with_all_items(tools.to_vec()))
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let record = json!({
            "rounds": self.rounds.load(Ordering::SeqCst),
            "cancelled": *self.cancelled.lock().unwrap(),
        });
        Ok(CallToolResult::success(vec![ContentBlock::text(record.to_string())]).into())
    }
}

#[derive(Clone, Default)]
struct Odd(Tools);

impl Odd {
    /// The asking tools' answers.
    fn round(&self, request: &CallToolRequestParams) -> ServerResult {
        let round = self.0.rounds.fetch_add(1, Ordering::SeqCst) + 1;
        let ask = |key: String| -> InputRequests { [(key, elicitation(who()))].into() };
        match request.name.as_ref() {
            "form" => match (&request.request_state, &request.input_responses) {
                (Some(state), Some(responses)) => {
                    let said = responses.get("who").map_or("no answer".to_owned(), said);
                    let text = format!("{said} (state {state})");
                    ServerResult::CallToolResult(CallToolResult::success(vec![ContentBlock::text(
                        text,
                    )]))
                }
                _ => ServerResult::InputRequiredResult(InputRequiredResult::new(
                    Some(ask("who".to_owned())),
                    Some("round-1".to_owned()),
                )),
            },
            "forever" => ServerResult::InputRequiredResult(InputRequiredResult::new(
                Some(ask(format!("q{round}"))),
                Some(format!("round-{round}")),
            )),
            "sampling" => {
                let sampling = serde_json::from_value(json!({
                    "method": "sampling/createMessage",
                    "params": {
                        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                        "maxTokens": 10
                    }
                }))
                .unwrap();
                ServerResult::InputRequiredResult(InputRequiredResult::from_input_requests(
                    [("llm".to_owned(), sampling)].into(),
                ))
            }
            // A kind of input request rmcp has no type for: plain JSON.
            _ => ServerResult::CustomResult(CustomResult::new(json!({
                "resultType": "input_required",
                "inputRequests": {"x": {"method": "weird/\u{1b}[31mthing", "params": {}}},
                "requestState": "s"
            }))),
        }
    }
}

impl Service<RoleServer> for Odd {
    async fn handle_request(
        &self,
        request: ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<ServerResult, ErrorData> {
        match &request {
            ClientRequest::CallToolRequest(call) if call.params.name != "record" => {
                if call.params.name == "garbage_task" {
                    let task = Task::new(
                        "garbage_task",
                        TaskStatus::Working,
                        "2026-01-01T00:00:00Z",
                        "2026-01-01T00:00:00Z",
                    )
                    .with_poll_interval_ms(100);
                    return Ok(ServerResult::CreateTaskResult(CreateTaskResult::new(task)));
                }
                Ok(self.round(&call.params))
            }
            ClientRequest::GetTaskRequest(_) => Ok(ServerResult::CustomResult(CustomResult::new(
                json!({"hello": "\u{1b}[31m<garbage>", "status": 5}),
            ))),
            ClientRequest::CancelTaskRequest(cancel) => {
                let id = cancel.params.task_id.clone();
                self.0.cancelled.lock().unwrap().push(id);
                Ok(ServerResult::task_ack(()))
            }
            _ => Service::handle_request(&self.0, request, context).await,
        }
    }

    async fn handle_notification(
        &self,
        notification: ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Service::handle_notification(&self.0, notification, context).await
    }

    fn get_info(&self) -> ServerConfig {
        Service::get_info(&self.0)
    }
}

/// Serve over stdin and stdout until the client goes away.
pub async fn serve_stdio() -> Result<(), Box<dyn std::error::Error>> {
    let running = Odd::default()
        .serve((tokio::io::stdin(), tokio::io::stdout()))
        .await?;
    running.waiting().await?;
    Ok(())
}
