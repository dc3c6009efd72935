use toolgroup::prelude::*;

// Every problem of one item is reported in one compile.
#[tool(nmae = "x", timeout = "later")]
fn everything_wrong<T>((_a, _b): (u8, u8), _text: &str) {}

fn main() {}
