//! `morris tb ...`: generate, plan, verify, stats, probe, bench and sample
//! the tables (movement subspaces and placement sectors); `submit`,
//! `status` and `generate --table` are in `cluster`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};

use super::stdout::{out, outln};
use super::{CliError, RulesArgs};
use morris::rules::{Position, Rules};
use morris::tablebase::{
    self, GenerateOptions, Known, Layout, Phase, Sector, Source, Subspace, TablebaseError,
    Tablebases, Value, default_dir, placement, preference,
};

#[derive(Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    pub command: TbCommand,
}

#[derive(Subcommand, Debug)]
pub enum TbCommand {
    /// Build the missing tables, smaller ones first (resumable).
    Generate(GenerateArgs),
    /// The tables a full solution needs: each sector, its slots and bytes, and the totals.
    Plan(PlanArgs),
    /// Recompute every stored value from its successors.
    Verify(VerifyArgs),
    /// Per sector: positions up to symmetry, wins, losses, draws, longest win and loss.
    Stats(TbRules),
    /// What other draw rules change: each table against the same table under the base rules, position by position at clock 0.
    Compare(CompareArgs),
    /// A position's value and distance, and every move's.
    Probe(ProbeArgs),
    /// Time probes of random covered positions.
    Bench(BenchArgs),
    /// Random positions of the tables on disk, one position string a line
    /// (an openings file for `morris match`).
    Sample(SampleArgs),
    /// An opening book: the value of every position within the first plies (see `BookPath`).
    Book(super::book::BookArgs),
    /// Submit the missing tables to Slurm, one job a table (or pair), chained by dependencies.
    Submit(super::cluster::SubmitArgs),
    /// Which tables of the plan are there and valid, damaged or missing (and their Slurm jobs).
    Status(super::cluster::StatusArgs),
}

/// The rules and the folder of the tables.
#[derive(Args, Debug, Clone)]
pub struct TbRules {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Root folder of the tables [default: $MORRIS_TB_DIR, else
    /// $XDG_CACHE_HOME/morris/tb, else ~/.cache/morris/tb].
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

impl TbRules {
    pub fn rules(&self) -> Result<Rules, CliError> {
        Ok(self.rules.rules()?)
    }

    /// `--dir`, else the default folder.
    pub fn dir(&self) -> Result<PathBuf, CliError> {
        Ok(self.dir.clone().map_or_else(default_dir, Ok)?)
    }
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// The base rules: these options applied over the compared rules
    /// (repeatable; by default both move-count draws off, the published
    /// solutions' rules).
    #[arg(long = "base", value_name = "Name=Value", default_values = ["EndgameMoves=0", "NoCaptureMoves=0"])]
    pub base: Vec<String>,
}

/// The error for a folder without tables for the rules asked.
fn no_tables(dir: &Path) -> CliError {
    CliError::Message(format!("no tables for these rules under {}", dir.display()))
}

pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

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
}

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

#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The position string.
    pub fen: String,
    #[command(flatten)]
    pub common: TbRules,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// Distinct random positions to probe.
    #[arg(long, default_value_t = 1_000_000)]
    pub positions: usize,
}

#[derive(Args, Debug)]
pub struct SampleArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// How many distinct positions.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Only positions of this value for the side to move.
    #[arg(long, value_enum)]
    pub value: Option<SampleValue>,
    /// Only this subspace, like 5-5 (side to move first) [default: every table on disk].
    #[arg(long)]
    pub subspace: Option<String>,
    /// Seed of the random choice (the same seed gives the same positions).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleValue {
    Win,
    Draw,
    Loss,
}

/// Runs one `morris tb` command.
pub fn run(args: &TbArgs) -> Result<(), CliError> {
    match &args.command {
        TbCommand::Generate(a) => {
            super::cluster::remove_partial_tables_on_signal();
            match &a.table {
                Some(name) => super::cluster::generate_table(a, name),
                None => run_generate(a),
            }
        }
        TbCommand::Plan(a) => run_plan(a),
        TbCommand::Verify(a) => run_verify(a),
        TbCommand::Stats(a) => {
            let dir = a.dir()?;
            let rows = tablebase::summaries_on_disk(&dir, &a.rules()?);
            if rows.is_empty() {
                return Err(no_tables(&dir));
            }
            out!("{}", tablebase::format_summaries(&rows));
            Ok(())
        }
        TbCommand::Compare(a) => run_compare(a),
        TbCommand::Probe(a) => run_probe(a),
        TbCommand::Bench(a) => run_bench(a),
        TbCommand::Sample(a) => run_sample(a),
        TbCommand::Book(a) => super::book::run(a),
        TbCommand::Submit(a) => super::cluster::submit(a),
        TbCommand::Status(a) => super::cluster::status(a),
    }
}

fn run_generate(a: &GenerateArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    if rules.mill_reform {
        eprintln!("note: tables treat MillReform as off");
    }
    let options = GenerateOptions {
        threads: a.threads.unwrap_or_else(default_threads),
        progress: super::progress::on_stderr(),
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

fn run_plan(a: &PlanArgs) -> Result<(), CliError> {
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
    let layout = if a.wdl { Layout::Wdl } else { Layout::Byte };
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

fn run_verify(a: &VerifyArgs) -> Result<(), CliError> {
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

fn run_compare(a: &CompareArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let mut base = rules;
    for setting in &a.base {
        base.apply(setting)?;
    }
    let rows = tablebase::compare_on_disk(&a.common.dir()?, &rules, &base)
        .map_err(|e| CliError::Message(e.to_string()))?;
    out!("{}", tablebase::format_changes(&rows));
    let wrong: Vec<String> = rows
        .iter()
        .filter_map(|(sector, c)| c.other_slot.map(|slot| format!("{sector} slot {slot}")))
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(CliError::Message(format!(
            "values changed in a way no draw rule can change them (a bug): first at {}",
            wrong.join(", ")
        )))
    }
}

fn run_probe(a: &ProbeArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let pos = Position::from_fen(&a.fen, &rules)?;
    let tbs = Tablebases::open(a.common.dir()?, &rules);
    // Where no tables cover it, the built-in book may.
    let book = morris::tablebase::book::builtin().serving(&rules);
    let known = Known::of(Some(&tbs), book, &pos, &rules)
        .ok_or("position not covered by the tables on disk (nor by the built-in book)")?;
    match known.source {
        Source::Tables => {
            outln!("value: {}", known.value);
            let stored = tbs.probe_table(&pos).expect("covered");
            if known.value != stored {
                outln!("stored: {stored} (the move-count draw comes first)");
            }
        }
        Source::Book => outln!("value: {} (book)", known.value),
    }
    let mut moves = known.moves;
    moves.sort_by_key(|m| std::cmp::Reverse(preference(m.probe)));
    for m in moves {
        outln!("{:<12} {}", m.mv.to_string(), m.probe);
    }
    Ok(())
}

/// The subspaces whose tables are on disk for these rules.
fn tables_on_disk(tbs: &Tablebases, common: &TbRules) -> Result<Vec<Subspace>, CliError> {
    let subs: Vec<Subspace> = tbs
        .available()
        .into_iter()
        .filter(|&s| tbs.usable(s))
        .collect();
    if subs.is_empty() {
        return Err(no_tables(&common.dir()?));
    }
    Ok(subs)
}

fn run_sample(a: &SampleArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let tbs = Tablebases::open(a.common.dir()?, &rules);
    let mut subs = tables_on_disk(&tbs, &a.common)?;
    if let Some(text) = &a.subspace {
        let sub = Subspace::parse(text)?;
        if !subs.contains(&sub) {
            return Err(CliError::Message(format!(
                "no table {sub} on disk for these rules"
            )));
        }
        subs = vec![sub];
    }
    let wanted = a.value.map(|v| match v {
        SampleValue::Win => Value::Win,
        SampleValue::Draw => Value::Draw,
        SampleValue::Loss => Value::Loss,
    });
    let (found, tries) = tablebase::sample(&tbs, &rules, &subs, a.count, wanted, a.seed);
    for pos in &found {
        outln!("{}", pos.to_fen(&rules));
    }
    if found.len() < a.count {
        return Err(CliError::Message(format!(
            "found only {} such positions in {tries} tries",
            found.len()
        )));
    }
    Ok(())
}

fn run_bench(a: &BenchArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let tbs = Tablebases::open(a.common.dir()?, &rules);
    let subs = tables_on_disk(&tbs, &a.common)?;
    let b = tablebase::probe_bench(&tbs, &subs, a.positions);
    outln!(
        "{:.0} ns per probe of random positions ({} from {} tables, mostly cache misses), \
         {:.0} ns per probe of {} cache-resident positions (checksum {})",
        b.random_ns,
        b.positions,
        subs.len(),
        b.cached_ns,
        b.hot,
        b.checksum
    );
    Ok(())
}
