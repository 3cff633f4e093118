//! `morris tb generate --compact`: the compact solution of the rules in
//! force, in one resumable run, into the folder every front end reads.

use std::time::Instant;

use crate::cli::CliError;
use crate::cli::stdout::outln;
use crate::cli::tb::generate::GenerateArgs;
use crate::cli::tb::rules::default_threads;
use morris::tablebase::{self, GenerateOptions, Sector};

/// `morris tb generate --compact`.
pub fn run(a: &GenerateArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    if rules.mill_reform {
        eprintln!("note: tables treat MillReform as off");
    }
    let root = a.common.dir()?;
    let options = GenerateOptions {
        threads: a.threads.unwrap_or_else(default_threads),
        progress: crate::cli::progress::on_stderr(),
        wdl: true,
    };
    let start = Instant::now();
    let made = tablebase::build_solution(&root, &rules, &options)?;
    let state = tablebase::solution_state(&root, &rules)?;
    if made.tables.is_empty() {
        outln!(
            "the compact solution is already whole: {} tables, {} bytes under {}",
            state.tables,
            state.bytes,
            root.display()
        );
        return Ok(());
    }
    let slots: u64 = made.tables.iter().map(|c| c.slots).sum();
    let bytes: u64 = made.tables.iter().map(|c| c.compact_bytes).sum();
    outln!(
        "compact solution: {} tables ({} solved by this run), {slots} slots in {bytes} bytes ({:.3} bits a slot), {:.1} s, under {}",
        made.tables.len(),
        made.solved,
        8.0 * bytes as f64 / slots.max(1) as f64,
        start.elapsed().as_secs_f64(),
        root.display()
    );
    Ok(())
}

/// `morris tb generate --compact --table NAME`: one job of `tb submit
/// --compact`'s plan.
pub fn run_table(a: &GenerateArgs, name: &str) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let root = a.common.dir()?;
    let options = GenerateOptions {
        threads: a.threads.unwrap_or_else(default_threads),
        progress: crate::cli::progress::on_stderr(),
        wdl: true,
    };
    let solved = tablebase::build_solution_job(&root, &rules, Sector::parse(name)?, &options)?;
    outln!(
        "{name}: {}",
        if solved == 0 {
            "already coded, nothing to do"
        } else {
            "solved and coded"
        }
    );
    Ok(())
}
