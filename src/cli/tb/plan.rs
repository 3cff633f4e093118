//! `morris tb plan`: the tables a full solution needs, with their sizes.

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::outln;
use crate::cli::tb::rules::TbRules;
use morris::tablebase::{self, Phase, Sector, TablebaseError, ValueLayout, placement};

#[derive(Args, Debug)]
pub struct PlanArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// Which tables: movement, placement or all.
    #[arg(long, default_value = "all")]
    pub phase: Phase,
    /// Sizes of win/draw/loss-only tables (`tb generate --wdl`).
    #[arg(long)]
    pub wdl: bool,
}

/// `morris tb plan`.
pub fn run(a: &PlanArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let mut rows: Vec<Sector> = Vec::new();
    if a.phase != Phase::Placement {
        morris::tablebase::covers(&rules).map_err(TablebaseError::from)?;
        let pairs = tablebase::plan(&rules, &tablebase::up_to(rules.pieces));
        for p in pairs {
            rows.push(p);
            if p.mine != p.theirs {
                rows.push(p.swapped());
            }
        }
    }
    if a.phase != Phase::Movement {
        morris::tablebase::placement_covers(&rules).map_err(TablebaseError::from)?;
        rows.extend(placement::plan(&rules).sectors());
    }
    outln!("{:>12} {:>16} {:>16}", "sector", "slots", "bytes");
    let (mut slots, mut bytes, mut placing) = (0u64, 0u64, 0u64);
    let layout = if a.wdl {
        ValueLayout::Wdl
    } else {
        ValueLayout::Byte
    };
    for s in &rows {
        let n = placement::slots(*s);
        let b = tablebase::file_len(layout.bytes(n).unwrap_or(u64::MAX) as usize);
        outln!("{:>12} {n:>16} {b:>16}", s.to_string());
        slots += n;
        bytes += b;
        placing += s.placing() as u64;
    }
    let per_slot = if a.wdl {
        "win/draw/loss only, 5 slots a byte"
    } else {
        "1 byte a slot; a table whose distances pass 126 plies takes 2"
    };
    outln!(
        "{} tables ({} movement, {placing} placement), {slots} slots, {bytes} bytes \
         ({} GB; {per_slot})",
        rows.len(),
        rows.len() as u64 - placing,
        bytes as f64 / 1e9
    );
    Ok(())
}
