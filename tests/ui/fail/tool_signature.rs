use toolgroup::prelude::*;

/// Generic.
#[tool]
fn generic<T: ToString>(value: T) -> String {
    value.to_string()
}

/// Impl trait.
#[tool]
fn impl_trait(value: impl ToString) -> String {
    value.to_string()
}

/// Borrowed.
#[tool]
fn borrowed(value: &str) -> String {
    value.to_owned()
}

/// Pattern.
#[tool]
fn pattern((a, b): (u8, u8)) -> u8 {
    a + b
}

/// Wildcard.
#[tool]
fn wildcard(_: u8) -> u8 {
    0
}

/// Unsafe.
#[tool]
unsafe fn danger(x: u8) -> u8 {
    x
}

/// Documents a parameter that does not exist.
///
/// # Arguments
/// * `qeury` - misspelled.
#[tool]
fn misdocumented(query: String) -> String {
    query
}

fn main() {}
