//! Collects every error of an expansion so one compile reports them all.

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::fmt::Display;

#[derive(Default)]
pub(crate) struct Errors {
    errors: Option<syn::Error>,
}

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.errors {
            Some(all) => all.combine(error),
            None => self.errors = Some(error),
        }
    }

    pub(crate) fn spanned(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub(crate) fn at(&mut self, span: proc_macro2::Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.errors.is_none()
    }

    /// `Ok(())` if nothing was collected.
    pub(crate) fn finish(self) -> syn::Result<()> {
        match self.errors {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// The user's item (attributes already stripped) beside the errors, so one mistake does not
/// cascade into unresolved-name errors and rust-analyzer keeps working.
pub(crate) fn with_errors(item: impl ToTokens, error: syn::Error) -> TokenStream {
    let mut out = error.to_compile_error();
    item.to_tokens(&mut out);
    out
}
