//! Command line: the engine by default, or one of the tools.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use morris::cli;
use morris::tools::{analyze, match_cli};

#[derive(Parser)]
#[command(
    name = "morris",
    version,
    about = "A Nine Men's Morris engine (UCI-like protocol on stdin/stdout)"
)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree.
    Perft(cli::PerftArgs),
    /// Play engines against each other, refereed by the rules core.
    Match(match_cli::MatchArgs),
    /// Analyse a game record or a list of positions with the search.
    Analyze(analyze::AnalyzeArgs),
    /// Search the fixed bench positions; the last line's node count is the search's signature.
    Bench {
        /// Search every position to this depth instead of its own.
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Endgame tablebases: generate, verify, stats, probe, bench.
    Tb(morris::tablebase::cli::TbArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args = Args::parse();
    let result = match args.command {
        Some(Command::Perft(a)) => cli::perft(&a),
        Some(Command::Match(a)) => match_cli::run(&a),
        Some(Command::Analyze(a)) => analyze::run(&a),
        Some(Command::Bench { depth }) => cli::bench(depth),
        Some(Command::Tb(a)) => morris::tablebase::cli::run(&a),
        None => {
            morris::protocol::run(
                std::io::stdin().lock(),
                morris::protocol::Output::new(std::io::stdout()),
            );
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
