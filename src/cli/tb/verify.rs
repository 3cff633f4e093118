//! `morris tb verify`: every stored value recomputed from its successors.

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::outln;
use crate::cli::tb::rules::{TbRules, default_threads, no_tables};
use morris::tablebase;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// Check this many random positions of each table instead of all.
    #[arg(long)]
    pub sample: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `morris tb verify`.
pub fn run(a: &VerifyArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let threads = a.threads.unwrap_or_else(default_threads);
    let dir = a.common.dir()?;
    let checked = tablebase::verify(&dir, &rules, threads, a.sample, |c| {
        outln!(
            "{}: {} positions, {} mismatches{}{}",
            c.subspace,
            c.positions,
            c.mismatches,
            if c.checksum_ok { "" } else { ", BAD CHECKSUM" },
            if c.summary_ok {
                ""
            } else {
                ", header totals differ"
            }
        );
        for e in &c.examples {
            outln!("  {e}");
        }
    })?;
    if checked.is_empty() {
        return Err(no_tables(&dir));
    }
    let bad = checked.iter().filter(|c| !c.ok()).count();
    if bad > 0 {
        return Err(CliError::Message(format!(
            "{bad} of {} tables failed verification",
            checked.len()
        )));
    }
    outln!("all {} tables verified", checked.len());
    Ok(())
}
