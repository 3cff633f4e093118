//! Protocol output: whole lines, flushed at once, shared by the command
//! loop and the search thread.

use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line. A front end that has gone away is not an error
    /// worth dying for: the next read sees end of input.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}").and_then(|_| w.flush());
    }
}
