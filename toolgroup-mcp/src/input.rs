//! Asking the user behind the client while a call runs, in the way the request's revision
//! allows: the [`UserInput`] the handler attaches to every `tools/call`.
//!
//! - Up to 2025-11-25: an `elicitation/create` request to the client during the call.
//! - 2026-07-28 (multi round-trip requests, SEP-2322 as rmcp 3.11 implements it): the
//!   server may not send requests during a call. The first unanswered question ends the
//!   call with an `InputRequiredResult` (`resultType: "input_required"`) carrying an
//!   `elicitation/create` input request and a sealed `requestState`; the client asks its
//!   user and calls again with `inputResponses` and that `requestState`, and the tool runs
//!   again from the start, its earlier questions now answered.
//! - Inside a task (the tasks extension): the task's `input_required` status (see
//!   `tasks`).
//!
//! `requestState` is untrusted: the client echoes it, and may forge it. It is sealed with
//! HMAC-SHA256 (rmcp's `RequestStateCodec`) under the server's key, bound to the tool, a
//! digest of its arguments and the principal, and expires ([`STATE_TTL`]); a retry whose
//! state does not open, or whose responses answer questions that were not asked or do not
//! fit their forms, is refused with `-32602` and runs nothing. Each state carries a random
//! id and is good for one retry (`GroupStore::consume`): SEP-2322 makes single use a MUST
//! for state that must be consumed at most once, and an answer, a user's approval of a
//! destructive call above all, is such state.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{
    CancelledNotificationParam, ClientResult, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationSchema, ErrorData, InputRequest, InputRequests,
    InputRequiredResult, RequestId, RequestStateCodec, SealOptions, ServerRequest,
};
use rmcp::service::{PeerRequestOptions, RequestContext};
use rmcp::{Peer, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use toolgroup_core::BoxFuture;
use toolgroup_core::context::{Answer, AskError, Asker, Question, UserInput};

/// How long a `requestState` stays valid: the time the user has to answer a question.
pub(crate) const STATE_TTL: Duration = Duration::from_secs(600);

/// The longest `requestState` accepted; a sealed state of this server is far shorter.
const MAX_STATE: usize = 64 * 1024;

/// The most questions one call may ask over its rounds.
const MAX_QUESTIONS: usize = 16;

/// The elicitation request of `question`.
pub(crate) fn elicit_params(question: &Question) -> Result<ElicitRequestParams, AskError> {
    let schema: ElicitationSchema = serde_json::from_value(question.schema()).map_err(|e| {
        AskError::Failed(format!(
            "the question's form is not an MCP elicitation form: {e}"
        ))
    })?;
    Ok(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: question.message().to_owned(),
        requested_schema: schema,
    })
}

/// The answer an elicitation result gives to `question`, checked against its form.
pub(crate) fn answer_of(result: &ElicitResult, question: &Question) -> Result<Answer, AskError> {
    match result.action {
        ElicitationAction::Accept => {
            let content = match &result.content {
                Some(Value::Object(content)) => content.clone(),
                None => Map::new(),
                Some(other) => {
                    return Err(AskError::Failed(format!(
                        "the client accepted with content that is {}, not an object",
                        toolgroup_core::args::json_kind(other)
                    )));
                }
            };
            question.check(&content).map_err(AskError::Failed)?;
            Ok(Answer::Accepted(content))
        }
        ElicitationAction::Decline => Ok(Answer::Declined),
        ElicitationAction::Cancel => Ok(Answer::Dismissed),
        _ => Err(AskError::Failed(
            "the client gave an unknown elicitation action".to_owned(),
        )),
    }
}

/// Whether the client declared it can show a form (`elicitation`, with `form` or with
/// neither mode, which means form), at initialization or in this request's `_meta`.
pub(crate) fn can_show_forms(ctx: &RequestContext<RoleServer>) -> bool {
    ctx.client_capabilities()
        .and_then(|caps| caps.elicitation.clone())
        .is_some_and(|e| e.form.is_some() || e.url.is_none())
}

/// The `UserInput` of one `tools/call`, by revision.
pub(crate) fn user_input(ctx: &RequestContext<RoleServer>) -> UserInput {
    if let Some(round) = ctx.extensions.get::<RoundTrip>() {
        return UserInput::new(round.clone());
    }
    UserInput::new(Legacy {
        peer: ctx.peer.clone(),
        can_ask: can_show_forms(ctx),
    })
}

/// Asks with an `elicitation/create` request during the call (revisions up to 2025-11-25).
struct Legacy {
    peer: Peer<RoleServer>,
    can_ask: bool,
}

/// Tells the client the request is no longer awaited, unless it was answered.
struct CancelOnDrop {
    peer: Peer<RoleServer>,
    id: Option<RequestId>,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let (Some(id), Ok(runtime)) = (self.id.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let peer = self.peer.clone();
        runtime.spawn(async move {
            let reason = "the call no longer waits for the answer".to_owned();
            // Best effort: a client that went away has no form to close.
            let _ = peer
                .notify_cancelled(CancelledNotificationParam::new(Some(id), Some(reason)))
                .await;
        });
    }
}

impl Asker for Legacy {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        Box::pin(async move {
            if !self.can_ask {
                return Err(AskError::NoUser(
                    "this client cannot show the user a form (no elicitation capability)"
                        .to_owned(),
                ));
            }
            let params = elicit_params(question)?;
            let failed = |e: &dyn std::fmt::Display| {
                AskError::Failed(format!("the elicitation request failed: {e}"))
            };
            let handle = self
                .peer
                .send_request_with_option(
                    ServerRequest::ElicitRequest(ElicitRequest::new(params)),
                    PeerRequestOptions::no_options(),
                )
                .await
                .map_err(|e| failed(&e))?;
            let mut guard = CancelOnDrop {
                peer: self.peer.clone(),
                id: Some(handle.id.clone()),
            };
            let answer = handle.await_response().await;
            guard.id = None;
            match answer {
                Ok(ClientResult::ElicitResult(result)) => answer_of(&result, question),
                Ok(_) => Err(failed(&"the client's answer is not an elicitation result")),
                Err(e) => Err(failed(&e)),
            }
        })
    }
}

/// What a `requestState` of this server holds: the call it belongs to and the answers so
/// far (the client sends back only the answers of the last round).
#[derive(Serialize, Deserialize)]
struct State {
    /// The tool.
    t: String,
    /// SHA-256 of the arguments' JSON text, hex.
    a: String,
    /// Earlier rounds' answers, by key: elicitation results as the client sent them.
    r: BTreeMap<String, Value>,
    /// The keys the last round asked.
    q: Vec<String>,
    /// A random id, 128 bits in hex: the state is used once (`GroupStore::consume`), so a
    /// retry that carries an answer, such as an approval, cannot be sent again.
    n: String,
}

/// The questions and answers of one call on 2026-07-28: answers from the verified retry,
/// and the first question that had none (the call stops there).
#[derive(Clone)]
pub(crate) struct RoundTrip {
    inner: std::sync::Arc<RoundInner>,
}

struct RoundInner {
    /// The request declared `elicitation` (form): an input request may ask for a form.
    can_ask: bool,
    codec: std::sync::Arc<RequestStateCodec>,
    call: CallBinding,
    answers: BTreeMap<String, Value>,
    asked: AtomicUsize,
    pending: Mutex<Option<(String, Question)>>,
    needed: tokio::sync::Notify,
}

impl RoundTrip {
    fn new(
        can_ask: bool,
        codec: std::sync::Arc<RequestStateCodec>,
        call: CallBinding,
        answers: BTreeMap<String, Value>,
    ) -> Self {
        RoundTrip {
            inner: std::sync::Arc::new(RoundInner {
                can_ask,
                codec,
                call,
                answers,
                asked: AtomicUsize::new(0),
                pending: Mutex::new(None),
                needed: tokio::sync::Notify::new(),
            }),
        }
    }

    /// The answers the client brought, by key.
    pub(crate) fn answers(&self) -> BTreeMap<String, Value> {
        self.inner.answers.clone()
    }

    /// Completes once the call asked a question it has no answer for.
    pub(crate) async fn needs_input(&self) {
        loop {
            let notified = self.inner.needed.notified();
            if self
                .inner
                .pending
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_some()
            {
                return;
            }
            notified.await;
        }
    }

    /// The `InputRequiredResult` that ends the call: its unanswered question, and a state
    /// with the answers so far.
    pub(crate) fn input_required(&self) -> Result<InputRequiredResult, ErrorData> {
        let (codec, call) = (&self.inner.codec, &self.inner.call);
        let pending = self.inner.pending.lock().unwrap_or_else(|e| e.into_inner());
        let Some((key, question)) = pending.as_ref() else {
            return Err(ErrorData::internal_error("no question is pending", None));
        };
        let params =
            elicit_params(question).map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let mut requests = InputRequests::new();
        requests.insert(
            key.clone(),
            InputRequest::Elicitation(ElicitRequest::new(params)),
        );
        let state = State {
            t: call.tool.clone(),
            a: call.digest.clone(),
            r: self.inner.answers.clone(),
            q: vec![key.clone()],
            n: crate::random::new_id(),
        };
        let sealed = codec
            .seal_json_with(
                &state,
                &SealOptions::new()
                    .associated_data(call.principal.as_bytes())
                    .ttl(STATE_TTL),
            )
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(InputRequiredResult::new(Some(requests), Some(sealed)))
    }
}

impl Asker for RoundTrip {
    fn ask<'a>(&'a self, question: &'a Question) -> BoxFuture<'a, Result<Answer, AskError>> {
        Box::pin(async move {
            let n = self.inner.asked.fetch_add(1, Ordering::Relaxed) + 1;
            if n > MAX_QUESTIONS {
                return Err(AskError::Failed(format!(
                    "a call may ask at most {MAX_QUESTIONS} questions"
                )));
            }
            let key = format!("q{n}");
            if !self.inner.can_ask {
                // SEP-2322: no input request the client did not declare it can fulfil.
                return Err(AskError::NoUser(
                    "this client cannot show the user a form (no elicitation capability)"
                        .to_owned(),
                ));
            }
            if let Some(raw) = self.inner.answers.get(&key) {
                // Checked when the retry came in: an elicitation result.
                let result: ElicitResult = serde_json::from_value(raw.clone()).map_err(|_| {
                    AskError::Failed(format!(
                        "the client's answer `{key}` is not an elicitation result"
                    ))
                })?;
                return answer_of(&result, question);
            }
            {
                let mut pending = self.inner.pending.lock().unwrap_or_else(|e| e.into_inner());
                if pending.is_none() {
                    *pending = Some((key, question.clone()));
                }
            }
            self.inner.needed.notify_waiters();
            // The call ends with the input request; this question waits for the retry.
            std::future::pending().await
        })
    }
}

/// Run `work` for a request; on 2026-07-28 a question without an answer ends it with the
/// `InputRequiredResult` (the `Err`; `work` is dropped, as on cancellation).
pub(crate) async fn until_unanswered<T>(
    ctx: &RequestContext<RoleServer>,
    work: impl std::future::Future<Output = T>,
) -> Result<T, rmcp::model::CallToolResponse> {
    let Some(round) = ctx.extensions.get::<RoundTrip>() else {
        return Ok(work.await);
    };
    tokio::select! {
        biased;
        done = work => Ok(done),
        () = round.needs_input() => match round.input_required() {
            Ok(input) => Err(rmcp::model::CallToolResponse::InputRequired(input)),
            Err(e) => Err(rmcp::model::CallToolResult::error(vec![
                rmcp::model::ContentBlock::text(format!("the call could not ask its user: {}", e.message)),
            ]).into()),
        },
    }
}

/// What a `requestState` is bound to: the tool, its arguments and the principal.
pub(crate) struct CallBinding {
    tool: String,
    digest: String,
    principal: String,
}

impl CallBinding {
    pub(crate) fn new(tool: &str, arguments: &Value, principal: Option<&str>) -> Self {
        let digest = Sha256::digest(arguments.to_string().as_bytes());
        CallBinding {
            tool: tool.to_owned(),
            digest: digest.iter().map(|b| format!("{b:02x}")).collect(),
            principal: principal.unwrap_or("").to_owned(),
        }
    }
}

/// A `-32602` for a retry that cannot be trusted; the fields are never quoted.
fn refused(why: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!(
            "invalid params: {why}. Call the tool again without `inputResponses` and `requestState` to start over."
        ),
        None,
    )
}

/// The questions and answers of one `tools/call`: a first call has none; a retry's
/// `requestState` must open under `codec` for this call, and its `inputResponses` must
/// answer exactly the questions the state asked, each an elicitation result. With a state,
/// also its single-use id, which the caller must consume (`GroupStore::consume`) before
/// the call runs.
pub(crate) fn round_trip(
    can_ask: bool,
    codec: &std::sync::Arc<RequestStateCodec>,
    call: CallBinding,
    state: Option<&str>,
    responses: Option<&Map<String, Value>>,
) -> Result<(RoundTrip, Option<String>), ErrorData> {
    // Responses without a state answer nothing this server can trust: the call starts over
    // and asks again, as SEP-2322 prefers to an error.
    let Some(state) = state else {
        let round = RoundTrip::new(can_ask, codec.clone(), call, BTreeMap::new());
        return Ok((round, None));
    };
    if state.len() > MAX_STATE {
        return Err(refused(&format!(
            "the `requestState` is {} bytes long, more than any this server issues",
            state.len()
        )));
    }
    let opened: State = codec
        .open_json_with(state, call.principal.as_bytes())
        .map_err(|e| {
            refused(&format!(
                "the `requestState` was not issued by this server for this caller, or it expired ({e})"
            ))
        })?;
    if opened.t != call.tool || opened.a != call.digest {
        return Err(refused(
            "the `requestState` belongs to another call (another tool or other arguments)",
        ));
    }
    let mut answers = opened.r;
    let responses = responses.cloned().unwrap_or_default();
    for (key, value) in responses {
        // SEP-2322: a server SHOULD ignore what it did not ask for.
        if !opened.q.contains(&key) {
            continue;
        }
        // serde's message could quote the value: the error names the key (one of ours).
        if serde_json::from_value::<ElicitResult>(value.clone()).is_err() {
            return Err(refused(&format!(
                "the response `{key}` is not an elicitation result (an object whose `action` is `accept`, `decline` or `cancel`, with the form's fields in `content` on accept)"
            )));
        }
        answers.insert(key, value);
    }
    let round = RoundTrip::new(can_ask, codec.clone(), call, answers);
    Ok((round, Some(opened.n)))
}

/// The refusal of a `requestState` used before: the retry it belonged to was answered.
pub(crate) fn used_again() -> ErrorData {
    refused(
        "this `requestState` was already used (each is good for one retry, so that an answer such as an approval is acted on once)",
    )
}

/// A key for sealing `requestState`: 32 random bytes, for a server that was given none.
pub(crate) fn random_codec() -> RequestStateCodec {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).expect("the operating system's random number generator failed");
    RequestStateCodec::try_new(key.to_vec()).expect("a 32-byte key is long enough")
}

/// A `requestState` key that is too short: [`McpServer::with_request_state_key`] needs at
/// least 32 bytes.
///
/// [`McpServer::with_request_state_key`]: crate::McpServer::with_request_state_key
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RequestStateKeyError {
    /// The key's length, in bytes.
    pub len: usize,
}

impl std::fmt::Display for RequestStateKeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a requestState key must be at least {} bytes long, and this one has {}",
            RequestStateCodec::MIN_KEY_LENGTH,
            self.len
        )
    }
}

impl std::error::Error for RequestStateKeyError {}

impl<R: toolgroup_core::Registry> crate::McpServer<R> {
    /// The key that seals the `requestState` of multi-round-trip calls (MCP 2026-07-28: a
    /// call that asks its user answers `input_required`, and the client calls again with the
    /// answer and that state). Without one, each server draws a random key when it is built,
    /// so a retry must reach the server that asked: give every replica behind one address the
    /// same key (at least 32 bytes, from a secret store).
    ///
    /// ```
    /// use toolgroup::prelude::*;
    /// use toolgroup_mcp::{McpServer, Mode};
    /// # /// Ping.
    /// # #[tool]
    /// # fn ping() -> String { "pong".into() }
    /// # #[tool_group(name = "g", description = "G.", tools = [ping])]
    /// # struct G;
    /// # #[toolkit]
    /// # struct Kit { #[basic] g: G }
    ///
    /// let secret = [7u8; 32]; // from the replicas' shared secret store
    /// let server = McpServer::new(Toolkit::new(Kit { g: G }), Mode::Mask)
    ///     .with_request_state_key(secret)?;
    /// # let _ = server;
    /// # Ok::<(), toolgroup_mcp::RequestStateKeyError>(())
    /// ```
    pub fn with_request_state_key(
        mut self,
        key: impl Into<Vec<u8>>,
    ) -> Result<Self, RequestStateKeyError> {
        let key = key.into();
        let len = key.len();
        let codec = RequestStateCodec::try_new(key).map_err(|_| RequestStateKeyError { len })?;
        self.shared_mut().request_state = std::sync::Arc::new(codec);
        Ok(self)
    }
}
