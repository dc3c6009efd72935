//! Collects every error of an expansion so one compile reports them all (serde_derive's
//! `Ctxt`): the phases push errors here, and the expansion checks once, at the end.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// The errors of one expansion. Dropping it without [`check`](Ctxt::check) is a bug in the
/// macro (an error would be lost), so `Drop` panics unless a panic is already under way.
pub(crate) struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    pub(crate) fn push(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("errors pushed after the check")
            .push(error);
    }

    pub(crate) fn spanned(&self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub(crate) fn at(&self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// How many errors were collected so far (to tell whether one phase added any).
    pub(crate) fn count(&self) -> usize {
        self.errors.borrow().as_ref().map_or(0, Vec::len)
    }

    /// Every collected error combined, in the order they were pushed; `Ok(())` if none.
    pub(crate) fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut errors = errors.into_iter();
        let Some(mut all) = errors.next() else {
            return Ok(());
        };
        for e in errors {
            all.combine(e);
        }
        Err(all)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("toolgroup-macros: an expansion dropped its errors without checking them");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ctxt;
    use proc_macro2::Span;

    #[test]
    fn check_combines_in_order() {
        let cx = Ctxt::new();
        assert_eq!(cx.count(), 0);
        cx.at(Span::call_site(), "first");
        cx.at(Span::call_site(), "second");
        assert_eq!(cx.count(), 2);
        let messages: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(messages, ["first", "second"]);
        assert!(Ctxt::new().check().is_ok());
    }

    #[test]
    #[should_panic(expected = "without checking them")]
    fn unchecked_errors_panic_on_drop() {
        let cx = Ctxt::new();
        cx.at(Span::call_site(), "lost");
    }
}
