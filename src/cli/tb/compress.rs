//! `morris tb compress`: the compact tables made from the full ones.

use std::path::PathBuf;

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::outln;
use crate::cli::tb::rules::{TbRules, default_threads, no_tables};
use morris::tablebase::{self, CompressStep};

#[derive(Args, Debug)]
pub struct CompressArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// Root folder to write the compact tables under, in the same folders
    /// as the full ones [default: --dir, beside the full tables].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Then compare this many positions of each table, compact against
    /// full (needs --out: another folder than --dir).
    #[arg(long)]
    pub check: Option<u64>,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `morris tb compress`.
pub fn run(a: &CompressArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let threads = a.threads.unwrap_or_else(default_threads);
    let dir = a.common.dir()?;
    let out = a.out.clone().unwrap_or_else(|| dir.clone());
    if a.check.is_some() && out == dir {
        return Err(CliError::Message(
            "--check compares the compact tables with the full ones: give --out another folder"
                .into(),
        ));
    }
    let bits = |bytes: u64, slots: u64| 8.0 * bytes as f64 / slots.max(1) as f64;
    let made = tablebase::compress(&dir, &out, &rules, threads, |step| match step {
        CompressStep::Coded {
            sector,
            slots,
            bytes,
        } => outln!(
            "coded {sector}: {slots} slots; bits a slot with the loss plane {:.3}, the win plane {:.3}, both {:.3}",
            bits(bytes[0], *slots),
            bits(bytes[1], *slots),
            bits(bytes[2], *slots)
        ),
        CompressStep::Written(c) => outln!(
            "{}: {} slots, {} bytes -> {} bytes ({:.3} bits a slot), {}",
            c.sector,
            c.slots,
            c.full_bytes,
            c.compact_bytes,
            bits(c.compact_bytes, c.slots),
            c.kind
        ),
    })?;
    if made.is_empty() {
        return Err(no_tables(&dir));
    }
    let slots: u64 = made.iter().map(|c| c.slots).sum();
    let full: u64 = made.iter().map(|c| c.full_bytes).sum();
    let compact: u64 = made.iter().map(|c| c.compact_bytes).sum();
    outln!(
        "{} tables, {slots} slots: {full} bytes -> {compact} bytes ({:.3} bits a slot)",
        made.len(),
        8.0 * compact as f64 / slots.max(1) as f64
    );
    if let Some(n) = a.check {
        let checked = tablebase::check_compact(&dir, &out, &rules, n, threads, |c| {
            outln!(
                "check {}: {} positions, {} mismatches",
                c.sector,
                c.positions,
                c.mismatches
            );
            for e in &c.examples {
                outln!("  {e}");
            }
        })?;
        let positions: u64 = checked.iter().map(|c| c.positions).sum();
        let wrong: u64 = checked.iter().map(|c| c.mismatches).sum();
        if wrong > 0 {
            return Err(CliError::Message(format!(
                "{wrong} of {positions} positions read differently from the compact tables"
            )));
        }
        outln!(
            "checked {positions} positions of {} tables: 0 mismatches",
            checked.len()
        );
    }
    Ok(())
}
