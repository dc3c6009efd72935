//! `skills = [...]` of `#[tool_group]`: each skill folder read and checked at compile time
//! ([`model`]: the read, with every problem kept; [`check`]: the problems reported on the
//! path literal), then embedded ([`expand`](mod@expand): one `static` per skill, every file
//! with `include_bytes!` so that cargo rebuilds when one changes, and the group's skill enum).

pub(crate) mod check;
pub(crate) mod expand;
pub(crate) mod model;
