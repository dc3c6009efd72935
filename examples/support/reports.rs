//! A `reports` group for the `mcp_server` example: a report that takes a while (a task for
//! clients that declare the MCP tasks extension, reporting progress as it goes), a
//! destructive tool the server's approval asks the user about, and a tool that asks the user
//! itself (each asked through the client, in the way its MCP revision allows).

use std::time::Duration;

use toolgroup::context::Question;
use toolgroup::prelude::*;

/// Reports that take a while to write.
pub struct Reports {
    /// How long `write_report` takes.
    pub seconds: u64,
}

#[tool_group(
    name = "reports",
    description = "Writing and deleting reports; writing one takes a while.",
    instructions = "`write_report` runs for a while and reports its progress; `delete_report` and `retitle_report` ask the user."
)]
impl Reports {
    /// Write the report on `topic`, reporting progress each second.
    #[tool(read_only, task = "optional")]
    async fn write_report(
        &self,
        ctx: ToolContext<'_>,
        /// What the report is about.
        topic: String,
    ) -> String {
        let steps = self.seconds.max(1);
        for step in 1..=steps {
            tokio::time::sleep(Duration::from_secs(self.seconds) / steps as u32).await;
            ctx.report(step as f64, Some(steps as f64), Some("writing the report"));
        }
        format!("The report on {topic}: all figures are in order.")
    }

    /// Delete the report on `topic` (destructive: the server asks the user first).
    #[tool(destructive)]
    async fn delete_report(
        &self,
        /// What the report is about.
        topic: String,
    ) -> String {
        format!("Deleted the report on {topic}.")
    }

    /// Give the report on `topic` a new title, which the user chooses.
    #[tool]
    async fn retitle_report(
        &self,
        ctx: ToolContext<'_>,
        /// What the report is about.
        topic: String,
    ) -> Result<String, String> {
        let question = Question::new(format!("A new title for the report on {topic}?"))
            .string("title", "Title");
        match ctx.ask(question).await {
            Ok(answer) => match answer.get("title").and_then(|t| t.as_str()) {
                Some(title) => Ok(format!("The report on {topic} is now titled {title:?}.")),
                None => Ok(format!("The report on {topic} keeps its title.")),
            },
            Err(e) => Err(format!("The report on {topic} was not retitled: {e}")),
        }
    }
}
