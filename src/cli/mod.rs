//! The command line: the only place that knows clap. Each subcommand's
//! module turns its arguments into the library's typed options, calls the
//! library and prints the results (through `stdout`); `run` dispatches
//! and reports errors.

#![deny(clippy::print_stdout)]

pub mod analyze;
pub mod bench;
pub mod engine;
pub mod gui;
pub mod r#match;
pub mod perft;
mod progress;
pub mod shell;
pub mod solve;
pub mod stdout;
pub mod tb;

use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

use morris::rules::{FenError, Game, Rules, RulesError, Setup, SetupError, Start};
use morris::tablebase::TablebaseError;
use morris::tools::SprtError;
use morris::tools::{EngineSpecError, TimeControlError};
use morris::tools::{EntryError, InputError};

#[derive(Parser)]
#[command(
    name = "morris",
    version,
    about = "A Nine Men's Morris engine (UCI-like protocol on stdin/stdout)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree.
    Perft(perft::PerftArgs),
    /// Play engines against each other, refereed by the rules core.
    Match(r#match::MatchArgs),
    /// Analyse a game record or a list of positions with the search.
    Analyze(analyze::AnalyzeArgs),
    /// Search the fixed bench positions; the last line's node count is the search's signature.
    Bench(bench::BenchArgs),
    /// The value of a position and of each of its moves (tables, else the built-in book).
    Solve(solve::SolveArgs),
    /// Endgame tables and opening books: generate, plan, verify, stats, compare, probe, bench, sample, book, submit, status.
    Tb(tb::TbArgs),
    /// A board in the browser: play the engine on a page served on 127.0.0.1.
    Gui(gui::GuiArgs),
    /// The shell completion script of these commands (bash, zsh, fish, elvish, powershell).
    Completions(shell::CompletionsArgs),
    /// The manual page of these commands, in roff (`morris man | man -l -`).
    Man,
}

/// Why a command failed: the library's typed errors, or a message of the
/// command line's own.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Tablebase(#[from] TablebaseError),
    #[error(transparent)]
    NotCovered(#[from] morris::tablebase::NotCovered),
    #[error(transparent)]
    Sector(#[from] morris::tablebase::SectorError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Opening(#[from] EntryError),
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error(transparent)]
    EngineSpec(#[from] EngineSpecError),
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    #[error("{0}; name one with --dir")]
    NoDefaultDir(#[from] morris::tablebase::NoDefaultDir),
    #[error("{0}")]
    Message(String),
}

impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::Message(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> CliError {
        CliError::Message(message.to_string())
    }
}

/// Parses the command line and runs it: the engine without a subcommand.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(a)) => perft::run(&a),
        Some(Command::Match(a)) => r#match::run(&a),
        Some(Command::Analyze(a)) => analyze::run(&a),
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Solve(a)) => solve::run(&a),
        Some(Command::Tb(a)) => tb::run(&a),
        Some(Command::Gui(a)) => gui::run(&a),
        Some(Command::Completions(a)) => shell::completions(&a, Cli::command()),
        Some(Command::Man) => shell::man(Cli::command()),
        None => {
            engine::run();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("morris: {e}");
            ExitCode::FAILURE
        }
    }
}

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
