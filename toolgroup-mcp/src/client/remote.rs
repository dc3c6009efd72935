//! A remote MCP server's tools as a toolkit group's tools: [`Remote`], the
//! [`DynamicTools`] source over a [`RemoteTools`] connection.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use toolgroup_core::dynamic::{DynamicTool, DynamicTools, ToolSet};
use toolgroup_core::{BoxFuture, CallResult, ToolContext, ToolDefinition, args::Arguments};

use super::call::{Names, no_longer_listed};
use super::list::RemoteTool;
use super::names::{NameProblem, expose_names};
use super::options::CallOptions;
use super::remote_tools::RemoteTools;

/// The tools of a remote MCP server as the tools of one toolkit group.
///
/// Put it in a [`Dynamic`](toolgroup_core::dynamic::Dynamic) group of your toolkit, beside
/// a `#[tool_group(name = "...", description = "...", dynamic)]` unit struct that declares the
/// group:
///
/// ```no_run
/// use toolgroup::dynamic::Dynamic;
/// use toolgroup_mcp::client::{Remote, RemoteServer, RemoteTools};
/// use toolgroup::prelude::*;
///
/// #[tool_group(name = "git", description = "Inspect the repository with git.", dynamic)]
/// struct Git;
///
/// #[toolkit]
/// struct Agent {
///     git: Dynamic<Git, Remote>,
/// }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let git = RemoteTools::connect(RemoteServer::stdio("uvx", ["mcp-server-git"])).await?;
/// let toolkit = Toolkit::new(Agent {
///     git: Dynamic::new(Remote::new(git).with_prefix("git_")),
/// });
/// # Ok(()) }
/// ```
///
/// The model sees each remote tool under the prefix (none by default) followed by its name
/// on the server. A name that providers refuse, a duplicate, or a name that would be
/// `reset_tools` is not exposed, and [`name_problems`](Remote::name_problems) says why; the
/// toolkit then hides any exposed name that another tool already has (see
/// [`Toolkit::hidden_tools`](toolgroup_core::Toolkit::hidden_tools)). The list follows the
/// server's `notifications/tools/list_changed` and reconnections. Calls check the arguments
/// against the tool's input schema before sending them; the server's progress reports reach
/// the tool's progress observer, and a cancelled call cancels the remote request. Error
/// results name the tool as the model called it (the exposed name), never by its name on the
/// server.
pub struct Remote {
    connection: RemoteTools,
    prefix: Option<String>,
    current: Mutex<Option<Exposed>>,
}

/// The exposed tools of one version of the server's list.
struct Exposed {
    version: u64,
    set: Arc<ToolSet>,
    /// Exposed name -> name on the server.
    remote: HashMap<String, String>,
    problems: Vec<NameProblem>,
}

impl Remote {
    /// The tools of `connection`, under their own names.
    pub fn new(connection: RemoteTools) -> Self {
        Remote {
            connection,
            prefix: None,
            current: Mutex::new(None),
        }
    }

    /// Expose each tool as `prefix` followed by its name on the server (`fs_` + `read_file`
    /// gives `fs_read_file`), to keep names apart from other groups' tools.
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        *self
            .current
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner) = None;
        self
    }

    /// The connection.
    pub fn connection(&self) -> &RemoteTools {
        &self.connection
    }

    /// Why some of the server's current tools are not exposed (empty when all are).
    pub fn name_problems(&self) -> Vec<NameProblem> {
        self.with_current(|exposed| exposed.problems.clone())
    }

    fn with_current<T>(&self, f: impl FnOnce(&Exposed) -> T) -> T {
        let list = self.connection.watch().borrow().clone();
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(exposed) = &*current
            && exposed.version == list.version
        {
            return f(exposed);
        }
        let names = expose_names(
            list.tools.iter().map(|t| t.name.as_str()),
            self.prefix.as_deref(),
        );
        for problem in &names.problems {
            tracing::warn!(server = self.connection.server().label(), %problem, "a remote tool is not exposed");
        }
        let by_name: HashMap<&str, &RemoteTool> =
            list.tools.iter().map(|t| (t.name.as_str(), t)).collect();
        let mut remote = HashMap::with_capacity(names.names.len());
        let tools: Vec<DynamicTool> = names
            .names
            .iter()
            .map(|name| {
                let tool = by_name[name.remote.as_str()];
                remote.insert(name.exposed.clone(), name.remote.clone());
                let mut out = DynamicTool::new(
                    name.exposed.clone(),
                    tool.description
                        .clone()
                        .or_else(|| tool.title.clone())
                        .unwrap_or_default(),
                    tool.input_schema.clone(),
                )
                .with_annotations(tool.annotations);
                if let Some(schema) = &tool.output_schema {
                    out = out.with_output_schema(schema.clone());
                }
                out
            })
            .collect();
        let exposed = current.insert(Exposed {
            version: list.version,
            set: Arc::new(ToolSet::new(tools)),
            remote,
            problems: names.problems,
        });
        f(exposed)
    }
}

impl fmt::Debug for Remote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Remote")
            .field("server", &self.connection.server().label())
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl DynamicTools for Remote {
    fn tools(&self) -> Arc<ToolSet> {
        self.with_current(|exposed| exposed.set.clone())
    }

    fn call<'a>(
        &'a self,
        tool: &'static ToolDefinition,
        ctx: ToolContext<'a>,
        arguments: Arguments<'a>,
    ) -> BoxFuture<'a, CallResult> {
        let remote = self.with_current(|exposed| exposed.remote.get(tool.name).cloned());
        Box::pin(async move {
            let Some(remote) = remote else {
                return no_longer_listed(tool.name, self.connection.server().label());
            };
            let progress = move |done: f64, total: Option<f64>, message: Option<&str>| {
                ctx.report(done, total, message);
            };
            let names = Names {
                remote: &remote,
                shown: tool.name,
            };
            self.connection
                .call_as(
                    names,
                    arguments,
                    CallOptions::new().with_progress(&progress),
                )
                .await
        })
    }
}
