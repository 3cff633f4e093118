//! `morris tb generate`: the missing tables, smaller ones first
//! (resumable); `--table` is one job of the cluster's plan (`cluster`).

use std::time::Instant;

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::outln;
use crate::cli::tb::rules::{TbRules, default_threads};
use morris::tablebase::{self, GenerateOptions, Phase, Subspace, Tablebases};

#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// movement: the subspaces with no stones in hand; placement: the
    /// sectors with stones in hand reachable from the start (needs the
    /// movement tables); all: both, for the variant's pieces.
    #[arg(long, default_value = "movement")]
    pub phase: Phase,
    /// Every subspace with at most this many stones a side [default: the variant's pieces].
    #[arg(long, conflicts_with = "subspace")]
    pub max_stones: Option<u8>,
    /// One subspace (with its mirror and what it depends on), like 5-4.
    #[arg(long)]
    pub subspace: Option<String>,
    /// Exactly one job of `tb submit`'s plan, named by one of its tables
    /// (5-4 builds the pair 5-4 and 4-5; 4-4+1-1 a placement sector): the
    /// tables it reads must be there and whole; its tables are written,
    /// checked and kept, or left alone if they are there already.
    #[arg(long, conflicts_with_all = ["subspace", "max_stones"])]
    pub table: Option<String>,
    /// With --table: positions of each table written that are recomputed
    /// from their successors before the job succeeds.
    #[arg(long, default_value_t = 10_000)]
    pub verify_sample: u64,
    /// Worker threads [default: all cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Store win/draw/loss only, five positions to a byte: a fifth of the
    /// disk, no distances (needs EndgameMoves=0 and NoCaptureMoves=0).
    #[arg(long)]
    pub wdl: bool,
    /// The compact solution of the whole game under the rules in force, in
    /// one resumable run: every table is solved, coded and deleted on the
    /// way, and only the compact tables are kept, in the folder every
    /// front end reads.
    /// With --table: one job of `tb submit --compact`'s plan.
    #[arg(long, conflicts_with_all = ["subspace", "max_stones", "wdl", "phase"])]
    pub compact: bool,
}

/// A stopped run (Ctrl-C, or the SIGTERM of Slurm's `scancel`) leaves no
/// partial table behind.
pub fn remove_partial_tables_on_signal() {
    let installed = ctrlc::set_handler(|| {
        tablebase::remove_temporaries_being_written();
        eprintln!("morris: stopped by a signal; no partial table is left");
        std::process::exit(130);
    });
    if let Err(e) = installed {
        log::warn!("no signal handler ({e}): a stopped run may leave a temporary file");
    }
}

/// `morris tb generate` (without `--table`).
pub fn run(a: &GenerateArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    if rules.mill_reform {
        eprintln!("note: tables treat MillReform as off");
    }
    let options = GenerateOptions {
        threads: a.threads.unwrap_or_else(default_threads),
        progress: crate::cli::progress::on_stderr(),
        wdl: a.wdl,
    };
    let root = a.common.dir()?;
    let start = Instant::now();
    let done = if a.phase == Phase::Movement {
        let targets = match (&a.subspace, a.max_stones) {
            (Some(s), _) => vec![Subspace::parse(s)?],
            (None, max) => {
                let max = max.unwrap_or(rules.pieces);
                if !(3..=12).contains(&max) {
                    return Err("--max-stones runs from 3 to 12".into());
                }
                tablebase::up_to(max)
            }
        };
        tablebase::generate(&root, &rules, &targets, &options)?
    } else {
        if a.subspace.is_some() || a.max_stones.is_some() {
            return Err("--subspace and --max-stones go with --phase movement".into());
        }
        tablebase::generate_game(&root, &rules, a.phase, &options)?
    };
    for g in &done {
        outln!(
            "{}: {} positions, {} bytes, {:.1} s, {:.0} positions/s",
            g.subspace,
            g.summary.positions,
            g.bytes,
            g.seconds,
            g.rate()
        );
    }
    let seconds = start.elapsed().as_secs_f64();
    let positions: u64 = done.iter().map(|g| g.summary.positions).sum();
    let tbs = Tablebases::open(&root, &rules);
    outln!(
        "generated {} tables, {positions} positions in {seconds:.1} s ({:.0} positions/s) into {}",
        done.len(),
        positions as f64 / seconds.max(1e-9),
        if a.phase == Phase::Movement {
            tbs.dir()
        } else {
            tbs.placement_dir()
        }
        .display()
    );
    Ok(())
}
