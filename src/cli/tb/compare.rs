//! `morris tb compare`: what other draw rules change, table by table.

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::out;
use crate::cli::tb::rules::TbRules;
use morris::tablebase;

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

/// `morris tb compare`.
pub fn run(a: &CompareArgs) -> Result<(), CliError> {
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
