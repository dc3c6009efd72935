//! Random ids: task ids, connection ids and the single-use ids of `requestState`s.

/// A fresh id: 128 random bits from the operating system, as 32 hex digits.
pub(crate) fn new_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random number generator failed");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
