//! The command line: the only place that knows clap. Each subcommand's
//! module turns its arguments into the library's typed options, calls the
//! library and prints the results (through `stdout`); `run` dispatches
//! and reports errors. The arguments the subcommands share are in
//! `args.rs`, their error type in `error.rs`.

#![deny(clippy::print_stdout)]

pub mod analyze;
mod args;
pub mod bench;
pub mod engine;
mod error;
pub mod gui;
pub mod r#match;
pub mod perft;
mod progress;
pub mod puzzles;
pub mod record;
pub mod shell;
pub mod solve;
pub mod stdout;
pub mod tb;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

pub use args::{PositionArgs, RulesArgs};
pub use error::CliError;

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
    /// Convert game records between dialects (ours, PlayOK's, Sanmill's), checking each.
    Record(record::RecordArgs),
    /// Puzzles from the mistakes of real games, in Sanmill's puzzle JSON.
    Puzzles(puzzles::PuzzlesArgs),
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

/// Parses the command line and runs it: the engine without a subcommand.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(a)) => perft::run(&a),
        Some(Command::Match(a)) => r#match::run(&a),
        Some(Command::Analyze(a)) => analyze::run(&a),
        Some(Command::Record(a)) => record::run(&a),
        Some(Command::Puzzles(a)) => puzzles::run(&a),
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
