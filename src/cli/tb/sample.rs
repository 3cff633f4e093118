//! `morris tb sample` and `morris tb bench`: random positions of the
//! tables on disk, and the time to probe them.

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::outln;
use crate::cli::tb::rules::{TbRules, no_tables};
use morris::tablebase::{self, Subspace, Tablebases, Value};

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

/// The subspaces whose tables are on disk for these rules.
fn tables_on_disk(tbs: &Tablebases, common: &TbRules) -> Result<Vec<Subspace>, CliError> {
    let subs: Vec<Subspace> = tbs
        .on_disk()
        .into_iter()
        .filter(|&s| tbs.usable(s))
        .collect();
    if subs.is_empty() {
        return Err(no_tables(&common.dir()?));
    }
    Ok(subs)
}

/// `morris tb sample`.
pub fn sample(a: &SampleArgs) -> Result<(), CliError> {
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

/// `morris tb bench`.
pub fn bench(a: &BenchArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let tbs = Tablebases::open(a.common.dir()?, &rules);
    let subs = tables_on_disk(&tbs, &a.common)?;
    let b = tablebase::probe_bench(&tbs, &subs, a.positions);
    outln!(
        "{:.0} ns per probe of random positions ({} from {} tables, mostly cache misses; \
         single probes: median {:.0} ns, p99 {:.0} ns; first pass {:.0} ns), \
         {:.0} ns per probe of {} cache-resident positions (checksum {})",
        b.random_ns,
        b.positions,
        subs.len(),
        b.median_ns,
        b.p99_ns,
        b.first_ns,
        b.cached_ns,
        b.hot,
        b.checksum
    );
    Ok(())
}
