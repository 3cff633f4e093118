//! What a long computation reports as it goes. The library never writes
//! to the terminal: the command line turns these reports into a bar or
//! into lines of a log.

use std::fmt;
use std::sync::Arc;

/// One report.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Progress<'a> {
    /// A pass over `len` positions starts; `title` names it.
    Pass {
        /// What the pass is (the tables and the step), shown with its bar.
        title: &'a str,
        /// Positions the pass goes over: what the `Advanced` counts that
        /// follow add up to.
        len: u64,
    },
    /// This many more positions of the current pass are done.
    Advanced(u64),
    /// A step is done (a pair or a sector solved): a line to keep.
    Done(&'a str),
    /// The run is over (a bar can go).
    Finished,
}

/// A callback taking reports from any of the worker threads.
type Callback = dyn Fn(Progress<'_>) + Send + Sync;

/// Where the reports go: one callback, or nowhere (`Default`).
#[derive(Clone, Default)]
pub struct Reporter(Option<Arc<Callback>>);

impl Reporter {
    /// Reports handed to `to`.
    pub fn new(to: impl Fn(Progress<'_>) + Send + Sync + 'static) -> Reporter {
        Reporter(Some(Arc::new(to)))
    }

    /// Hands one report to the callback, if there is one (from any
    /// thread).
    pub fn report(&self, progress: Progress<'_>) {
        if let Some(to) = &self.0 {
            to(progress);
        }
    }
}

impl fmt::Debug for Reporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Reporter(callback)"
        } else {
            "Reporter(silent)"
        })
    }
}
