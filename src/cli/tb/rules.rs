//! What every `morris tb` command takes: the rules and the folder of
//! the tables.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::cli::{CliError, RulesArgs};
use morris::rules::Rules;
use morris::tablebase::default_dir;

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

/// The error for a folder without tables for the rules asked.
pub fn no_tables(dir: &Path) -> CliError {
    CliError::Message(format!("no tables for these rules under {}", dir.display()))
}

pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
