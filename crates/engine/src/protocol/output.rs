//! Protocol output: whole lines, flushed at once, shared by the command
//! loop and the search thread; and the news that the front end stopped
//! reading, which ends the engine.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// The engine's protocol output (standard output, or any writer): whole
/// lines, each flushed at once; clones share it.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Sink>>);

struct Sink {
    writer: Box<dyn Write + Send>,
    /// A write failed: the front end has closed our standard output.
    closed: bool,
    /// Told once, when the first write fails.
    on_close: Option<Box<dyn FnOnce() + Send>>,
}

impl Output {
    /// Output to `w`, open until a write to it fails.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Sink {
            writer: Box::new(w),
            closed: false,
            on_close: None,
        })))
    }

    /// Writes one line. A failed write means no one reads the engine any
    /// more: nothing is written after it, and `when_closed` is told.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink();
        if sink.closed {
            return;
        }
        let w = &mut sink.writer;
        if let Err(e) = writeln!(w, "{text}").and_then(|_| w.flush()) {
            log::debug!("standard output closed ({e})");
            sink.closed = true;
            if let Some(tell) = sink.on_close.take() {
                tell();
            }
        }
    }

    /// Whether a write has failed.
    pub(crate) fn is_closed(&self) -> bool {
        self.sink().closed
    }

    /// Calls `tell` when a write first fails (now, if one has).
    pub(crate) fn when_closed(&self, tell: impl FnOnce() + Send + 'static) {
        let mut sink = self.sink();
        if sink.closed {
            tell();
        } else {
            sink.on_close = Some(Box::new(tell));
        }
    }

    fn sink(&self) -> std::sync::MutexGuard<'_, Sink> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
