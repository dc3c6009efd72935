// One `macro_rules!` body expanded twice, into two modules, gives two `#[tool]`s with the
// same place and text: their hidden `#[macro_export]` doc macros still get distinct names,
// because the name is derived from each expansion's own call site.
macro_rules! echo_module {
    ($($module:ident),*) => {$(
        pub mod $module {
            /// Echo the text.
            #[toolgroup::tool]
            pub fn echo(text: String) -> String {
                text
            }

            #[toolgroup::tool_group(name = "echo", description = "Echo.", tools = [echo])]
            pub struct Echo;
        }
    )*};
}

echo_module!(first, second);

#[toolgroup::toolkit]
pub struct Kit {
    #[basic]
    first: first::Echo,
}

fn main() {
    let kit = toolgroup::Toolkit::new(Kit { first: first::Echo });
    assert_eq!(kit.all_definitions().count(), 1);
    assert!(Kit::__TOOLGROUP_DOC.contains("Echo the text."));
}
