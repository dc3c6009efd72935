use toolgroup::prelude::*;

struct Db;

impl Db {
    /// A method without a group.
    #[tool]
    fn lonely(&self, x: u8) -> u8 {
        x
    }
}

struct Counter;

#[tool_group(name = "counter", description = "Counting.")]
impl Counter {
    /// Takes self by value.
    #[tool]
    fn consume(self) -> u8 {
        0
    }

    /// Takes &mut self.
    #[tool]
    fn bump(&mut self) -> u8 {
        0
    }

    /// No receiver.
    #[tool]
    fn stateless(x: u8) -> u8 {
        x
    }
}

fn main() {}
