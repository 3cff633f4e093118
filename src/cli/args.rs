//! The arguments that the tools' subcommands share: the rules, and the
//! rules with a position.

use std::io::Read;
use std::path::Path;

use clap::Args;

use crate::cli::error::CliError;
use morris::rules::{Game, Rules, RulesError, Setup, Start};
use morris::tools::RecordDialect;

/// The rules shared by the tools' command lines.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rule preset: nine, twelve, morabaraba, lasker, a Sanmill rule set
    /// (nine-app, dooz, onetime, chamgonu, zhiqi, ...) or table0..table10.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// A rule option as Name=Value (repeatable), applied after the preset.
    #[arg(long = "option", value_name = "Name=Value")]
    pub options: Vec<String>,
}

impl RulesArgs {
    /// The rules these arguments set.
    pub fn rules(&self) -> Result<Rules, RulesError> {
        Rules::with_settings(&self.variant, &self.options)
    }
}

/// The rules and position shared by the tools' command lines.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, separated by spaces.
    #[arg(long)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The rules these arguments set.
    pub fn rules(&self) -> Result<Rules, RulesError> {
        self.rules.rules()
    }

    /// Whether a position was given (`--fen` or `--moves`).
    pub fn given(&self) -> bool {
        self.fen.is_some() || self.moves.is_some()
    }

    /// The set-up these arguments describe.
    pub fn setup(&self) -> Setup {
        let start = self.fen.clone().map_or(Start::Initial, Start::Fen);
        let moves = self
            .moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .map(str::to_string)
            .collect();
        Setup::new(start, moves)
    }

    /// The game these arguments describe.
    pub fn game(&self) -> Result<Game, CliError> {
        Ok(self.setup().game(&self.rules()?)?)
    }
}

/// The text of a file, or of standard input for `-` or none, with the
/// name errors give it.
pub fn read_input(input: Option<&Path>) -> Result<(String, String), CliError> {
    match input {
        Some(p) if p.as_os_str() != "-" => Ok((
            p.display().to_string(),
            std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?,
        )),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("standard input: {e}"))?;
            Ok(("standard input".to_string(), text))
        }
    }
}

/// A record dialect named on the command line.
pub fn dialect(name: &str) -> Result<RecordDialect, String> {
    RecordDialect::find(name).ok_or_else(|| format!("'{name}' is none of morris, playok, sanmill"))
}
