//! `morris perft`: counts on stdout, speed on stderr.

use std::time::Instant;

use clap::Args;

use super::stdout::outln;
use super::{CliError, PositionArgs};

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

pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    let game = args.position.game()?;
    let (rules, pos) = (game.rules(), game.position());
    let start = Instant::now();
    let total = if args.divide {
        let lines = pos.divide(rules, args.depth);
        for (mv, n) in &lines {
            outln!("{mv}: {n}");
        }
        if args.depth == 0 {
            1
        } else {
            lines.iter().map(|(_, n)| n).sum()
        }
    } else {
        pos.perft(rules, args.depth)
    };
    outln!("Nodes searched: {total}");
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {}: {total} nodes in {:.3} s, {:.0} nodes/s",
        args.depth,
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}
