// `#[tool_group]` takes `#[tool]` in its spellings (`tool`, `toolgroup::tool`, the `crate =`
// path's `tool`) and leaves other attributes whose path ends in `tool` alone.
use toolgroup::ToolGroup as _;

mod reexport {
    pub use toolgroup as tg;
}

struct Notes;

#[toolgroup::tool_group(crate = reexport::tg, name = "notes", description = "Notes.")]
impl Notes {
    /// Plain spelling.
    #[tool]
    fn plain(&self) -> u8 {
        1
    }

    /// Through the crate's path.
    #[toolgroup::tool]
    fn qualified(&self) -> u8 {
        2
    }

    /// Through the `crate =` path.
    #[reexport::tg::tool]
    fn renamed(&self) -> u8 {
        3
    }

    // Another tool's attribute: not a `#[tool]`.
    #[rustfmt::tool]
    fn helper(&self) -> u8 {
        4
    }
}

fn main() {
    let names: Vec<&str> = Notes::TOOL_INFOS.iter().map(|t| t.name).collect();
    assert_eq!(names, ["plain", "qualified", "renamed"]);
    assert_eq!(Notes.helper(), 4);
}
