//! A remote MCP server's tools, or one of its groups, as a toolkit group's tools: [`Remote`],
//! the [`DynamicTools`] source over a [`RemoteTools`] connection.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use toolgroup_core::context::UserInput;
use toolgroup_core::dynamic::{DynamicTool, DynamicTools, ToolSet};
use toolgroup_core::{BoxFuture, CallResult, ToolContext, ToolDefinition, args::Arguments};

use super::call::{Names, no_longer_listed};
use super::error::GroupError;
use super::list::{RemoteTool, ToolList};
use super::names::{NameProblem, expose_names};
use super::options::CallOptions;
use super::remote_tools::RemoteTools;

/// The top-level tools of a remote MCP server, or the tools of one of its groups, as the
/// tools of one toolkit group.
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
/// [`Remote::group`] mounts one group of a server that declares the
/// `io.modelcontextprotocol/groups` extension (a `#[tool_group(..., dynamic)]` per remote
/// group): the local `reset_tools` and the provider delivery modes then switch each remote
/// group like any local group, and the remote group's instructions come with its
/// activation. [`Remote::new`] mounts the server's top-level tools: for such a server, the
/// tools outside its groups.
///
/// ```no_run
/// use toolgroup::dynamic::Dynamic;
/// use toolgroup_mcp::client::{Remote, RemoteServer, RemoteTools};
/// use toolgroup::prelude::*;
///
/// #[tool_group(name = "web_search", description = "Search the web and read pages.", dynamic)]
/// struct WebSearch;
///
/// #[tool_group(name = "calendar", description = "Read and plan meetings.", dynamic)]
/// struct Calendar;
///
/// #[toolkit]
/// struct Agent {
///     web_search: Dynamic<WebSearch, Remote>,
///     calendar: Dynamic<Calendar, Remote>,
/// }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let office = RemoteTools::connect(RemoteServer::http("http://127.0.0.1:8000/mcp")).await?;
/// let toolkit = Toolkit::new(Agent {
///     web_search: Dynamic::new(Remote::group(office.clone(), "web-search")?),
///     calendar: Dynamic::new(Remote::group(office, "calendar")?.with_prefix("cal_")),
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
/// against the tool's input schema before sending them; the server's progress reports (and
/// its task's status messages) reach the tool's progress observer, a cancelled call cancels
/// the remote request (or task), and the calling tool's [`UserInput`] answers the server's
/// questions to the user when the server has no asker of its own (see the
/// [module docs](super#user-input)). Error results name the tool as the model called it (the
/// exposed name), never by its name on the server.
pub struct Remote {
    connection: RemoteTools,
    /// The remote group mounted; `None` for the top-level tools.
    group: Option<String>,
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
    /// The mounted group's instructions.
    instructions: Option<String>,
    /// Why the mounted group exposes no tools.
    missing: Option<GroupError>,
}

impl Remote {
    /// The top-level tools of `connection` (what `tools/list` returns), under their own
    /// names.
    pub fn new(connection: RemoteTools) -> Self {
        Remote {
            connection,
            group: None,
            prefix: None,
            current: Mutex::new(None),
        }
    }

    /// The tools of the remote group `name` (its name on the server, as in
    /// [`RemoteTools::groups`]), under their own names; its instructions are the source's
    /// instructions.
    ///
    /// The group follows the server's lists: while the server no longer lists it (or the
    /// client hides it), the source exposes no tools, a `tracing` warning says why, and so
    /// does [`group_problem`](Self::group_problem).
    ///
    /// # Errors
    ///
    /// The client was built without the `io.modelcontextprotocol/groups` extension, the
    /// server does not declare it, lists no
    /// group `name` (the error suggests the closest name and lists the server's), or lists
    /// it but the client hides it (the error gives the reason). Nothing is mounted.
    pub fn group(connection: RemoteTools, name: &str) -> Result<Self, GroupError> {
        if let Some(problem) = missing(&connection.watch().borrow(), &connection, name) {
            return Err(problem);
        }
        Ok(Remote {
            connection,
            group: Some(name.to_owned()),
            prefix: None,
            current: Mutex::new(None),
        })
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

    /// The remote group mounted (its name on the server), or `None` for the server's
    /// top-level tools.
    pub fn group_name(&self) -> Option<&str> {
        self.group.as_deref()
    }

    /// Why some of the current tools are not exposed (empty when all are).
    pub fn name_problems(&self) -> Vec<NameProblem> {
        self.with_current(|exposed| exposed.problems.clone())
    }

    /// Why the mounted remote group exposes no tools now: the server no longer lists it,
    /// the client hides it, or the server no longer declares the extension. `None` while
    /// the group is there (and always for the top-level tools).
    pub fn group_problem(&self) -> Option<GroupError> {
        self.with_current(|exposed| exposed.missing.clone())
    }

    fn with_current<T>(&self, f: impl FnOnce(&Exposed) -> T) -> T {
        let list = self.connection.watch().borrow().clone();
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(exposed) = &*current
            && exposed.version == list.version
        {
            return f(exposed);
        }
        let (tools, instructions, missing): (&[RemoteTool], _, _) = match &self.group {
            None => (&list.tools, None, None),
            Some(name) => match list.groups.iter().find(|g| &g.name == name) {
                Some(group) => (&group.tools, group.instructions.clone(), None),
                None => {
                    let why = missing(&list, &self.connection, name);
                    if let Some(why) = &why {
                        tracing::warn!(server = self.connection.server().label(), problem = %why, "a mounted remote group exposes no tools");
                    }
                    (&[], None, why)
                }
            },
        };
        let names = expose_names(
            tools.iter().map(|t| t.name.as_str()),
            self.prefix.as_deref(),
        );
        for problem in &names.problems {
            tracing::warn!(server = self.connection.server().label(), %problem, "a remote tool is not exposed");
        }
        let by_name: HashMap<&str, &RemoteTool> =
            tools.iter().map(|t| (t.name.as_str(), t)).collect();
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
            instructions,
            missing,
        });
        f(exposed)
    }
}

/// Why `list` has no offered group `name`, or `None` when it has.
fn missing(list: &ToolList, connection: &RemoteTools, name: &str) -> Option<GroupError> {
    let server = connection.server().label().to_owned();
    let group = name.to_owned();
    if !connection.server().groups_extension {
        return Some(GroupError::Disabled { server, group });
    }
    if !list.declares_groups {
        return Some(GroupError::NotDeclared { server, group });
    }
    if list.groups.iter().any(|g| g.name == name) {
        return None;
    }
    if let Some(hidden) = list.hidden_groups.iter().find(|g| g.name == name) {
        return Some(GroupError::Hidden {
            server,
            group,
            reason: hidden.reason.clone(),
        });
    }
    let known = list
        .groups
        .iter()
        .map(|g| &g.name)
        .chain(list.hidden_groups.iter().map(|g| &g.name))
        .filter(|n| !n.is_empty())
        .fold(Vec::new(), |mut known: Vec<String>, n| {
            if !known.contains(n) {
                known.push(n.clone());
            }
            known
        });
    Some(GroupError::Unknown {
        server,
        group,
        known,
    })
}

impl fmt::Debug for Remote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Remote")
            .field("server", &self.connection.server().label())
            .field("group", &self.group)
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
            let mut options = CallOptions::new().with_progress(&progress);
            if let Some(user_input) = ctx.extension::<UserInput>() {
                options = options.with_user_input(user_input.clone());
            }
            self.connection.call_as(names, arguments, options).await
        })
    }

    /// The mounted remote group's `instructions` (from `groups/get`), shown after the local
    /// group's own when it becomes active; `None` for the top-level tools.
    fn instructions(&self) -> Option<String> {
        self.with_current(|exposed| exposed.instructions.clone())
    }
}
