use std::rc::Rc;
use toolgroup::prelude::*;

async fn tick() {}

/// Holds an `Rc` across an await.
#[tool]
async fn not_send(x: u8) -> u8 {
    let rc = Rc::new(x);
    tick().await;
    *rc
}

fn main() {}
