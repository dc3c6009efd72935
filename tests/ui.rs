//! Compile-time errors of the macros, each with its expected `.stderr`.
//!
//! The `.stderr` files depend on the compiler version; every machine here has the same
//! toolchain. After a toolchain change, regenerate with `TRYBUILD=overwrite cargo test --test ui`
//! and review the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}
