//! The generator's progress on stderr: on a terminal, a bar for the pass
//! under way with a line kept above it for each step done; in a log (a
//! run in the background), the lines alone.

use std::io::IsTerminal;
use std::sync::RwLock;

use indicatif::{ProgressBar, ProgressFinish, ProgressStyle};
use morris::tablebase::{Progress, Reporter};

/// A reporter drawing on stderr.
pub fn on_stderr() -> Reporter {
    if !std::io::stderr().is_terminal() {
        return Reporter::new(|p| {
            if let Progress::Done(line) = p {
                eprintln!("{line}");
            }
        });
    }
    // The bar of the run under way; a later run (the placement phase
    // after the movement phase) draws a new one. The workers' advances
    // share the lock.
    let bar: RwLock<Option<ProgressBar>> = RwLock::new(None);
    Reporter::new(move |p| match p {
        Progress::Advanced(n) => {
            if let Some(bar) = bar.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
                bar.inc(n);
            }
        }
        Progress::Done(line) => match bar.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        },
        Progress::Pass { title, len } => {
            let mut bar = bar.write().unwrap_or_else(|e| e.into_inner());
            match bar.as_ref() {
                Some(bar) => {
                    bar.set_length(len);
                    bar.reset();
                    bar.set_message(title.to_string());
                }
                None => *bar = Some(new_bar(len).with_message(title.to_string())),
            }
        }
        Progress::Finished => {
            if let Some(bar) = bar.write().unwrap_or_else(|e| e.into_inner()).take() {
                bar.finish_and_clear();
            }
        }
    })
}

fn new_bar(len: u64) -> ProgressBar {
    ProgressBar::new(len)
        .with_style(
            ProgressStyle::with_template(
                "{msg} {wide_bar} {human_pos}/{human_len} positions, eta {eta}",
            )
            .expect("valid template"),
        )
        .with_finish(ProgressFinish::AndClear)
}
