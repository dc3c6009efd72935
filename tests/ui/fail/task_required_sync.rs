use toolgroup::prelude::*;

/// A plain `fn` cannot require running as a task.
#[tool(task = "required")]
fn compile_project(target: String) -> String {
    target
}

/// `"optional"` is allowed on one.
#[tool(task = "optional")]
fn lint(path: String) -> bool {
    path.is_empty()
}

struct Jobs;

#[tool_group(name = "jobs", description = "Long-running jobs.")]
impl Jobs {
    /// Neither can a plain method.
    #[tool(read_only, task = "required")]
    fn build(&self) {}
}

fn main() {}
