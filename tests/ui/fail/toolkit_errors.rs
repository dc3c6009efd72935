use toolgroup::prelude::*;

/// Search.
#[tool]
fn search() {}

/// Fetch.
#[tool]
fn fetch() {}

mod other {
    use toolgroup::prelude::*;
    /// Search again, same name.
    #[tool]
    pub fn search() {}
}

#[tool_group(name = "web", description = "Web.", tools = [search])]
struct Web;

#[tool_group(name = "pages", description = "Pages.", tools = [fetch])]
struct Pages;

#[tool_group(name = "more", description = "More search.", tools = [other::search])]
struct More;

#[toolkit]
struct Clash {
    web: Web,
    more: More,
}

#[toolkit]
struct Misnamed {
    website: Web,
}

#[toolkit]
struct TwiceTheSame {
    #[basic]
    first: Pages,
    pages: Pages,
}

struct NotAGroup;

#[toolkit]
struct Wrong {
    web: NotAGroup,
}

#[toolkit]
struct Tuple(Web);

#[toolkit]
struct Empty {}

fn main() {}
