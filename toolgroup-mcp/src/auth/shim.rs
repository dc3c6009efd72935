//! TEMPORARY until `core: entitle` lands on main: removed by the merge.
#![allow(dead_code, unreachable_pub)]
use toolgroup_core::{Registry, Scopes, Toolkit};

pub(crate) trait EntitleShim {
    fn declared_scopes(&self) -> Scopes;
    fn required_scopes(&self, tool: &str) -> Option<Scopes>;
}

impl<R: Registry> EntitleShim for Toolkit<R> {
    fn declared_scopes(&self) -> Scopes {
        Scopes::none()
    }
    fn required_scopes(&self, tool: &str) -> Option<Scopes> {
        self.definition(tool).map(|_| Scopes::none())
    }
}
