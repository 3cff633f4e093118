//! The command-line tools: thin layers that parse arguments into library
//! calls and print the results.

use std::time::Instant;

use clap::Args;

use crate::rules::{Game, Position, Rules};

/// The rules shared by the tools' command lines.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rule preset: nine, twelve, morabaraba or lasker.
    #[arg(long, default_value = "nine")]
    pub variant: String,
    /// A rule option as Name=Value (repeatable), applied after the preset.
    #[arg(long = "option", value_name = "Name=Value")]
    pub options: Vec<String>,
}

impl RulesArgs {
    /// The rules these arguments set.
    pub fn rules(&self) -> Result<Rules, String> {
        let mut rules = Rules::default();
        rules
            .set("Variant", &self.variant)
            .map_err(|e| e.to_string())?;
        for o in &self.options {
            rules.apply(o).map_err(|e| e.to_string())?;
        }
        Ok(rules)
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
    pub fn rules(&self) -> Result<Rules, String> {
        self.rules.rules()
    }

    /// The game these arguments describe.
    pub fn game(&self) -> Result<Game, String> {
        let rules = self.rules()?;
        let start = match &self.fen {
            Some(f) => Position::from_fen(f, &rules).map_err(|e| e.to_string())?,
            None => Position::start(&rules),
        };
        let mut game = Game::new(rules, start);
        for token in self.moves.iter().flat_map(|m| m.split_whitespace()) {
            game.play_text(token).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies (whole turns).
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print the count below each legal move.
    #[arg(long)]
    pub divide: bool,
}

/// `morris perft`: counts on stdout, speed on stderr.
pub fn perft(args: &PerftArgs) -> Result<(), String> {
    let game = args.position.game()?;
    let (rules, pos) = (game.rules(), game.position());
    let start = Instant::now();
    let total = if args.divide {
        let lines = pos.divide(rules, args.depth);
        for (mv, n) in &lines {
            println!("{mv}: {n}");
        }
        if args.depth == 0 {
            1
        } else {
            lines.iter().map(|(_, n)| n).sum()
        }
    } else {
        pos.perft(rules, args.depth)
    };
    println!("Nodes searched: {total}");
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {}: {total} nodes in {:.3} s, {:.0} nodes/s",
        args.depth,
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// `morris bench`: the bench line (its node count is the search's signature).
pub fn bench(depth: Option<u32>) -> Result<(), String> {
    println!("{}", crate::search::bench::bench(depth));
    Ok(())
}
