//! Code mode over MCP (feature `code-mode`): `run_program` listed beside the tools, its
//! description declaring what the request's client is shown, and its program's calls made
//! on the request's active set, kept where that set lives.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, ErrorData, Tool};
use rmcp::service::RequestContext;
use serde_json::Value;
use toolgroup_core::code::{CodeMode, Limits, RUN_PROGRAM};
use toolgroup_core::context::{Answer, AskError, Asker, Question, UserInput};
use toolgroup_core::provider::Provider;
use toolgroup_core::{BoxFuture, CallContext, Registry, Session, Toolkit};

use super::call::{Counting, call_context, forwarding};
use super::entitled::Kit;
use super::{Handler, Place};
use crate::Mode;
use crate::program_tools::ProgramTools;

impl<R: Registry> Handler<R> {
    /// `run_program`'s MCP definition for a listing in `mode` of `session`: it declares
    /// what the listing lists (in mask mode every group's tools; `reset_tools` where it is
    /// listed). `shared_kit`: the
    /// toolkit is the server's own (its listings are kept: `crate::program_tools`).
    pub(super) fn program_tool(
        &self,
        cache: &ProgramTools,
        toolkit: &Toolkit<R>,
        shared_kit: bool,
        mode: Mode,
        session: &Session<R>,
    ) -> Cow<'static, Tool> {
        let mut shown = *session;
        if mode == Mode::Mask {
            shown.activate_all();
        }
        // Declared as listed: `reset_tools` only where the listing has it.
        let reset_listed = match mode {
            Mode::Mask => self.reset_listed(),
            Mode::Selected => false,
            _ => true,
        };
        let declared = || {
            toolkit
                .definitions(&shown)
                .filter(move |d| reset_listed || d.name != toolgroup_core::meta::RESET_TOOLS)
        };
        let key: Option<Box<[usize]>> =
            shared_kit.then(|| declared().map(|d| std::ptr::from_ref(d) as usize).collect());
        if let Some(tool) = key.as_deref().and_then(|key| cache.get(key)) {
            return Cow::Owned(tool);
        }
        let definition =
            toolgroup_core::code::definition_declaring(toolkit, declared(), cache.limits());
        let json = Provider::Mcp.render_definition(&definition);
        let tool =
            serde_json::from_value(json).expect("the MCP rendering of a tool is an MCP Tool");
        // The description is interned: a kept definition's clone copies no text.
        let tool = crate::server::borrowing_text(tool, &definition);
        if let Some(key) = key {
            cache.keep(key, tool.clone());
        }
        Cow::Owned(tool)
    }

    /// A `tools/call` of `run_program`: the program runs on the request's active set (the
    /// request's principal's tools), and what its calls switch on or off is kept where the
    /// set lives, as a `reset_tools` would be.
    pub(super) async fn program_call(
        &self,
        arguments: &Value,
        context: &RequestContext<RoleServer>,
        limits: &Limits,
    ) -> Result<CallToolResponse, ErrorData> {
        let program = match toolgroup_core::code::program_argument(arguments) {
            Ok(program) => program,
            Err(refusal) => return Ok(Self::error_result(refusal.to_owned())),
        };
        let program = program.as_str();
        let toolkit: Arc<Toolkit<R>> = match self.kit(context) {
            Kit::Shared(_) => self.shared.toolkit.clone(),
            Kit::Entitled(toolkit) => Arc::from(toolkit),
        };
        let code = CodeMode::new(toolkit.clone()).with_limits(limits.clone());
        let mut cx = call_context(context, self.first_use());
        // Up to 2025-11-25 a program's calls ask the user during the call (elicitation), as
        // a tool's own call does. On 2026-07-28 a question ends the request and its answer
        // comes back with the same call again: the program would run again, and the calls it
        // made before the question with it. So there its calls have no user to ask, and the
        // asking tool is told why.
        if context
            .extensions
            .get::<crate::input::RoundTrip>()
            .is_some()
        {
            cx.extensions_mut().insert(UserInput::new(NoUserInPrograms));
        } else {
            cx.extensions_mut()
                .insert(crate::input::user_input(context));
        }
        let mode = self.mode(context);
        let place = self.place(context);
        let (result, changed) = match &place {
            Place::Fixed(selection) => {
                // The connection's groups are the ones it selected: nothing is kept.
                let mut session = *selection;
                (run(&code, &mut session, program, cx, context).await, false)
            }
            Place::NoKey => {
                let mut session = Session::new();
                (run(&code, &mut session, program, cx, context).await, false)
            }
            Place::Local => {
                let before = self.local_session();
                let mut session = before;
                let mut result = run(&code, &mut session, program, cx, context).await;
                self.set_local_session(&before, session);
                let evicted =
                    self.lifecycle_after(&place, &toolkit, &before, RUN_PROGRAM, &mut result);
                (result, evicted || self.local_session() != before)
            }
            Place::Keyed(key) => {
                let before = match self.load(&place).await {
                    Ok(session) => session,
                    Err(e) => {
                        return Ok(Self::error_result(format!(
                            "`{RUN_PROGRAM}` was not run: the active groups could not be loaded: {e}"
                        )));
                    }
                };
                let mut session = before;
                let mut result = run(&code, &mut session, program, cx, context).await;
                let kept = self
                    .keep_keyed(
                        key,
                        false,
                        &toolkit,
                        &before,
                        &session,
                        RUN_PROGRAM,
                        &mut result,
                        false,
                    )
                    .await;
                match kept {
                    Ok(changed) => (result, changed),
                    Err(e) => {
                        return Ok(Self::error_result(format!(
                            "`{RUN_PROGRAM}` ran, but the active groups it changed could not be saved: {e}"
                        )));
                    }
                }
            }
        };
        if changed && mode == Mode::List {
            // Best effort: a client that went away does not need the notification.
            let _ = context.peer.notify_tool_list_changed().await;
        }
        self.to_mcp(RUN_PROGRAM, result)
    }
}

/// The asker of a program's calls on 2026-07-28 (see `program_call`).
struct NoUserInPrograms;

impl Asker for NoUserInPrograms {
    fn ask<'a>(&'a self, _question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        Box::pin(std::future::ready(Err(AskError::NoUser(
            "a program's tool calls cannot ask the user on protocol 2026-07-28 (the answer would run the whole program again); call this tool directly".to_owned(),
        ))))
    }
}

/// Runs `program` with the request's progress token and log level: its calls' reports and
/// log messages reach the client as a single tool's would, the reports numbered for the
/// whole program ([`Counting::Program`]).
async fn run<R: Registry>(
    code: &CodeMode<R>,
    session: &mut Session<R>,
    program: &str,
    cx: CallContext,
    context: &RequestContext<RoleServer>,
) -> toolgroup_core::CallResult {
    forwarding(context, cx, Counting::Program, async |cx| {
        code.run_with(session, program, cx).await
    })
    .await
}
