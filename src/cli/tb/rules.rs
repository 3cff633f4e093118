//! What every `morris tb` command takes: the rules and the folder of
//! the tables.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::{CliError, RulesArgs};
use morris::engine::tables_folder;
use morris::rules::Rules;

/// The command that generates the tables `rules` need under `dir`.
pub fn generate_command(rules: &RulesArgs, dir: Option<&Path>, in_hand: bool) -> String {
    let mut words = vec![
        "morris tb generate --phase".to_string(),
        if in_hand { "all" } else { "movement" }.to_string(),
    ];
    if rules.variant != "nine" {
        words.push(format!("--variant {}", rules.variant));
    }
    words.extend(rules.options.iter().map(|o| format!("--option {o}")));
    if let Some(d) = dir {
        words.push(format!("--dir {}", d.display()));
    }
    words.join(" ")
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
        Ok(tables_folder(self.dir.clone())?)
    }
}

/// The error for a folder without tables for the rules asked.
pub fn no_tables(dir: &Path) -> CliError {
    CliError::Message(format!("no tables for these rules under {}", dir.display()))
}

/// `--wdl` of `tb generate` and `tb submit`: full tables without
/// distances are refused under move-count draws, where a position's value
/// later in the clock depends on its distance (`tb generate --compact`
/// makes such tables of values at clock 0 on its way, and deletes them).
pub fn wdl_allowed(rules: &Rules, wdl: bool) -> Result<(), CliError> {
    if wdl && rules.move_count_draws() {
        return Err(morris::tablebase::TablebaseError::WdlWithDrawLimits.into());
    }
    Ok(())
}

pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
