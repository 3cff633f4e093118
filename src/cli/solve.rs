//! `morris solve`: the value of a position and of each of its moves, from
//! the tables.

use std::path::PathBuf;

use clap::Args;

use super::stdout::out;
use super::tb::generate_command;
use super::{CliError, PositionArgs};
use morris::engine::{Oracle, tables_folder};
use morris::rules::Color;
use morris::tablebase::Source;
use morris::tablebase::preference;
use morris::tablebase::{covers, placement_covers};
use morris::tools::change_mark;

/// Arguments of `morris solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Root folder of the tables [default: $MORRIS_TB_DIR, else
    /// $XDG_CACHE_HOME/morris/tb, else ~/.cache/morris/tb].
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// After each move, how many of the opponent's replies keep the value
    /// of the position it leads to, of how many legal ones (`replies
    /// 2/17`): the fewer, the harder its task (`?` where they are not all
    /// known).
    #[arg(long)]
    pub replies: bool,
}

/// `morris solve`.
pub fn run(args: &SolveArgs) -> Result<(), CliError> {
    let rules = args.position.rules()?;
    if rules.mill_reform {
        return Err("the tables do not cover MillReform".into());
    }
    let game = args.position.game()?;
    let pos = game.position();
    let in_hand = Color::BOTH.iter().any(|&c| pos.in_hand(c) > 0);
    if in_hand {
        placement_covers(&rules)?;
    } else {
        covers(&rules)?;
    }
    if let Some(o) = game.outcome() {
        out!("position {}\ngame over: {o}\n", pos.to_fen(&rules));
        return Ok(());
    }
    let root = tables_folder(args.dir.clone());
    let mut oracle = Oracle::new(root.as_ref().ok().cloned());
    let tbs = oracle.reopen_for(&rules);
    let missing = || match (&tbs, &root) {
        (Some(_), _) if let Some(note) = oracle.clock_zero_only(pos) => CliError::Message(note),
        (Some(tbs), _) => CliError::Message(format!(
            "the tables under {} do not give this position's value; run `{}`",
            tbs.dir().display(),
            generate_command(&args.position.rules, args.dir.as_deref(), in_hand)
        )),
        (None, Err(e)) => e.clone().into(),
        (None, Ok(_)) => unreachable!("a folder opens tables"),
    };
    // Where no tables cover it (or there is no folder), the built-in book may.
    let known = oracle.known_or_value(pos, &rules).ok_or_else(missing)?;
    if let (Source::Book, true, Some(book)) =
        (known.source, known.moves.is_empty(), oracle.book(&rules))
    {
        eprintln!(
            "morris solve: the moves of this position lead past the book's {} plies; their values need the tables: run `{}`",
            book.plies(),
            generate_command(&args.position.rules, args.dir.as_deref(), in_hand)
        );
    }
    if let (Source::Tables, true) = (known.source, known.moves.is_empty())
        && let Some(note) = oracle.moves_past_clock_zero(pos)
    {
        eprintln!("morris solve: {note}");
    }
    let (value, mut moves) = (known.value, known.moves);
    for f in oracle.take_faults() {
        eprintln!("morris solve: error: {f}");
    }
    moves.sort_by_key(|m| std::cmp::Reverse(preference(m.probe)));
    let source = match known.source {
        Source::Tables => "",
        Source::Book => " (book)",
    };
    let mut text = format!("position {}\nvalue {value}{source}\n", pos.to_fen(&rules));
    for m in moves {
        let mark = change_mark(value.value, m.probe.value).unwrap_or_default();
        let replies = if args.replies {
            let r = oracle
                .replies(pos, &rules, m.mv)
                .map_or("replies ?".to_string(), |r| {
                    format!("replies {}/{}", r.keeping, r.legal)
                });
            format!("{r:<13} ")
        } else {
            String::new()
        };
        let line = format!(
            "  {:<12} {:<34} {replies}{mark}",
            m.mv.to_string(),
            m.probe.to_string()
        );
        text += line.trim_end();
        text += "\n";
    }
    out!("{text}");
    Ok(())
}
