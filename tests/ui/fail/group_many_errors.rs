use toolgroup::prelude::*;

struct Store;

// Every bad tool of the group is reported in one compile.
#[tool_group(name = "store", description = "Storage.")]
impl Store {
    #[tool]
    fn undocumented(&self) {}

    /// Mutable.
    #[tool]
    fn mutable(&mut self) {}

    /// Generic.
    #[tool]
    fn generic<T>(&self, _t: u8) {}

    /// Bad name.
    #[tool(name = "bad name")]
    fn named(&self) {}
}

fn main() {}
