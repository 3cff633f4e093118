//! `morris tb ...`: one file a subcommand (`generate`, `generate --compact` in
//! `solution`, `plan`, `verify`,
//! `compare`, `compress`, `probe`, `sample` with `bench`, `book`; `submit`, `status`
//! and `generate --table` in `cluster`), sharing the rules and folder
//! arguments of `rules`; this file only dispatches.

mod book;
mod cluster;
mod compare;
mod compress;
mod generate;
mod plan;
mod probe;
mod rules;
mod sample;
mod solution;
mod verify;

use clap::{Args, Subcommand};

use crate::cli::CliError;
use crate::cli::stdout::out;
use morris::tablebase;
pub(crate) use rules::generate_command;
use rules::{TbRules, no_tables};

#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    pub command: TbCommand,
}

#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Build the missing tables, smaller ones first (resumable).
    Generate(generate::GenerateArgs),
    /// The tables a full solution needs: each sector, its slots and bytes, and the totals.
    Plan(plan::PlanArgs),
    /// Recompute every stored value from its successors.
    Verify(verify::VerifyArgs),
    /// Per sector: positions up to symmetry, wins, losses, draws, longest win and loss.
    Stats(TbRules),
    /// What other draw rules change: each table against the same table under the base rules, position by position at clock 0.
    Compare(compare::CompareArgs),
    /// The compact tables (`.mtc`: win/draw/loss in a fraction of a bit a position, read in place) made from the full ones; under move-count draws the values at clock 0, the movement tables from their distances.
    Compress(compress::CompressArgs),
    /// A position's value and distance, and every move's.
    Probe(probe::ProbeArgs),
    /// Time probes of random covered positions.
    Bench(sample::BenchArgs),
    /// Random positions of the tables on disk, one position string a line
    /// (an openings file for `morris match`).
    Sample(sample::SampleArgs),
    /// An opening book: the value of every position within the first plies (see `BookPath`).
    Book(book::BookArgs),
    /// Submit the missing tables to Slurm, one job a table (or pair), chained by dependencies.
    Submit(cluster::SubmitArgs),
    /// Which tables of the plan are there and valid, damaged or missing (and their Slurm jobs).
    Status(cluster::StatusArgs),
}

/// Runs one `morris tb` command.
pub fn run(args: &TbArgs) -> Result<(), CliError> {
    match &args.command {
        TbCommand::Generate(a) => {
            rules::wdl_allowed(&a.common.rules()?, a.wdl)?;
            generate::remove_partial_tables_on_signal();
            match &a.table {
                Some(name) if a.compact => solution::run_table(a, name),
                Some(name) => cluster::generate_table(a, name),
                None if a.compact => solution::run(a),
                None => generate::run(a),
            }
        }
        TbCommand::Plan(a) => plan::run(a),
        TbCommand::Verify(a) => verify::run(a),
        TbCommand::Stats(a) => {
            let dir = a.dir()?;
            let rows = tablebase::summaries_on_disk(&dir, &a.rules()?);
            if rows.is_empty() {
                return Err(no_tables(&dir));
            }
            out!("{}", tablebase::format_summaries(&rows));
            Ok(())
        }
        TbCommand::Compare(a) => compare::run(a),
        TbCommand::Compress(a) => compress::run(a),
        TbCommand::Probe(a) => probe::run(a),
        TbCommand::Bench(a) => sample::bench(a),
        TbCommand::Sample(a) => sample::sample(a),
        TbCommand::Book(a) => book::run(a),
        TbCommand::Submit(a) => {
            rules::wdl_allowed(&a.common.rules()?, a.wdl)?;
            cluster::submit(a)
        }
        TbCommand::Status(a) => cluster::status(a),
    }
}
