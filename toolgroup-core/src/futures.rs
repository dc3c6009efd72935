//! The boxed future every trait object of the runtime returns, and two small combinators, so
//! the runtime does not pull in `futures-util` for them.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

/// A boxed, `Send` future: what [`Policy`](crate::policy::Policy) and the other trait objects of the runtime return, so
/// they can be stored as trait objects. Write `Box::pin(async move { ... })`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Polls a pinned future, turning a panic during a poll into `Err(message)`.
pub(crate) struct CatchUnwind<'a, F> {
    inner: Pin<&'a mut F>,
}

impl<'a, F: Future> CatchUnwind<'a, F> {
    pub(crate) fn new(inner: Pin<&'a mut F>) -> Self {
        CatchUnwind { inner }
    }
}

impl<F: Future> Future for CatchUnwind<'_, F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // The future is dropped right after a panic and never polled again, so no broken
        // invariant inside it can be observed: asserting unwind safety is sound here.
        let inner = &mut self.inner;
        match catch_unwind(AssertUnwindSafe(|| inner.as_mut().poll(cx))) {
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(panic_message(payload.as_ref()))),
        }
    }
}

/// Runs `f`, turning a panic into `Err(message)`.
#[inline(always)]
pub(crate) fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    // Nothing `f` touched is used after a panic: the caller only reports it.
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panic_message(payload.as_ref()))
}

pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-text payload".to_owned()
    }
}

/// Runs futures concurrently on the current task; outputs in input order.
pub(crate) struct JoinAll<'a, T> {
    slots: Vec<Slot<'a, T>>,
}

enum Slot<'a, T> {
    Running(BoxFuture<'a, T>),
    Done(Option<T>),
}

impl<'a, T> JoinAll<'a, T> {
    pub(crate) fn new(futures: Vec<BoxFuture<'a, T>>) -> Self {
        JoinAll {
            slots: futures.into_iter().map(Slot::Running).collect(),
        }
    }
}

impl<T> Unpin for JoinAll<'_, T> {}

impl<T> Future for JoinAll<'_, T> {
    type Output = Vec<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<T>> {
        let mut pending = false;
        for slot in &mut self.slots {
            if let Slot::Running(fut) = slot {
                match fut.as_mut().poll(cx) {
                    Poll::Ready(v) => *slot = Slot::Done(Some(v)),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            return Poll::Pending;
        }
        let out = self
            .slots
            .iter_mut()
            .map(|slot| match slot {
                Slot::Done(v) => v.take().expect("JoinAll polled after completion"),
                Slot::Running(_) => unreachable!("every slot is done"),
            })
            .collect();
        Poll::Ready(out)
    }
}
