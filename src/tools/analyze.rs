//! `morris analyze`: searches every position of a game record (or of a
//! list of positions) with the search library, and for games rates each
//! move played by how much worse it scores than the best move.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

use super::record::{format_score, is_record, parse_records};
use crate::cli::PositionArgs;
use crate::rules::{Color, Game, Move, Position, Rules};
use crate::search::{Control, Info, Limits, Score, Searcher, Settings};

const ANALYZE_HELP: &str = "\
OUTPUT:
  Per position: the move played (for games), the best move, its score (pieces,
  from the side to move; +M3 a forced win in 3 moves) and depth, the principal
  variation, and for games the score loss of the move played when it was not
  the best, marked ? (mistake) or ?? (blunder) past --mistake / --blunder.
  --json: one JSON object per line with the fields source, ply, move_number,
  fen, played, best, score ({\"cp\": X} or {\"mate\": N}), depth, lines (multipv),
  loss, mark, game_over.

  Game records carry their own rules (tags); --variant/--option apply to
  position lists. Bad input stops with a non-zero exit and the line at fault.

EXAMPLES:
  morris analyze games.pgn --depth 10
  morris analyze --moves \"d2 d6 b4\" --multipv 3 --movetime 2000
  printf 'd2 d6\\n3/3/3/6/3/3/3 b 9 9 0 1\\n' | morris analyze --json";

/// Arguments of `morris analyze`.
#[derive(Args, Debug)]
#[command(after_help = ANALYZE_HELP)]
pub struct AnalyzeArgs {
    /// A game record, or a file with one position per line (a FEN, a move
    /// list from the start, or a FEN then `moves ...`); `-` or none: stdin.
    pub input: Option<PathBuf>,
    /// Rules for position lists (records carry their own); --fen/--moves
    /// analyse that one position instead of the input.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Search depth per position (8 when no limit is given).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search time per position, in milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Best lines to show per position.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// One JSON object per position instead of text.
    #[arg(long)]
    pub json: bool,
    /// Score loss (hundredths of a piece) that marks a move a mistake (?).
    #[arg(long, default_value_t = 50, value_name = "CP")]
    pub mistake: i32,
    /// Score loss that marks a move a blunder (??); 100 is about one piece.
    #[arg(long, default_value_t = 100, value_name = "CP")]
    pub blunder: i32,
}

/// One position to analyse.
struct Item {
    /// "game 2" or "line 7".
    source: String,
    /// The game up to the position (for repetition history).
    game: Game,
    /// For games: the move played here and its ply index.
    played: Option<(Move, usize)>,
    /// The header printed before the first position of a source.
    header: Option<String>,
}

/// What the search said about one position.
struct Analysis {
    best: Option<Move>,
    score: Score,
    /// The final line of each multipv rank, best first.
    lines: Vec<Info>,
    /// Score loss of the move played, when it was not the best.
    loss: Option<i32>,
}

/// A score as one number for differences: mates beyond any material.
fn score_cp(s: Score) -> i32 {
    const MATE: i32 = 100_000;
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n >= 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

/// The positions of the input, with errors naming the line.
fn read_items(args: &AnalyzeArgs) -> Result<Vec<Item>, String> {
    if args.position.fen.is_some() || args.position.moves.is_some() {
        let game = args.position.game()?;
        return Ok(vec![Item {
            source: "position".into(),
            header: Some(format!("Position {}", game.position().to_fen(game.rules()))),
            game,
            played: None,
        }]);
    }
    let (name, text) = match &args.input {
        Some(p) if p.as_os_str() != "-" => (
            p.display().to_string(),
            std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?,
        ),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("standard input: {e}"))?;
            ("standard input".to_string(), text)
        }
    };
    let mut items = Vec::new();
    if is_record(&text) {
        let records = parse_records(&text).map_err(|e| format!("{name}: {e}"))?;
        for (g, rec) in records.iter().enumerate() {
            let full = rec.replay().map_err(|e| format!("{name}: {e}"))?;
            let mut game = Game::new(*full.rules(), *full.start());
            let mut header = format!(
                "Game {}: {} vs {}, {}",
                g + 1,
                rec.tag("White").unwrap_or("?"),
                rec.tag("Black").unwrap_or("?"),
                rec.result(),
            );
            if let Some(why) = rec.tag("Termination") {
                header += &format!(", {why}");
            }
            for (ply, &mv) in full.moves().iter().enumerate() {
                items.push(Item {
                    source: format!("game {}", g + 1),
                    game: game.clone(),
                    played: Some((mv, ply)),
                    header: (ply == 0).then(|| header.clone()),
                });
                game.play(mv);
            }
        }
        return Ok(items);
    }
    let rules = args.position.rules()?;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let game =
            position_line(line, &rules).map_err(|e| format!("{name}: line {}: {e}", i + 1))?;
        items.push(Item {
            source: format!("line {}", i + 1),
            game,
            played: None,
            header: Some(format!("Line {}: {line}", i + 1)),
        });
    }
    if items.is_empty() {
        return Err(format!("{name}: no positions found"));
    }
    Ok(items)
}

/// A position line: a FEN, a move list from the start, or a FEN then
/// `moves` and a move list.
fn position_line(line: &str, rules: &Rules) -> Result<Game, String> {
    let (fen, moves) = if line.contains('/') {
        line.split_once(" moves ").unwrap_or((line, ""))
    } else {
        ("", line)
    };
    let start = if fen.is_empty() {
        Position::start(rules)
    } else {
        Position::from_fen(fen, rules).map_err(|e| e.to_string())?
    };
    let mut game = Game::new(*rules, start);
    for m in moves.split_whitespace() {
        game.play_text(m).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

fn analyse(searcher: &mut Searcher, item: &Item, limits: &Limits) -> Analysis {
    let mut by_rank: BTreeMap<u32, Info> = BTreeMap::new();
    let out = searcher.search(&item.game, limits, &Control::default(), &mut |info| {
        by_rank.insert(info.multipv.max(1), info.clone());
    });
    let loss = match item.played {
        Some((mv, _)) if Some(mv) != out.best => {
            let only = Limits {
                searchmoves: vec![mv],
                ..limits.clone()
            };
            let played = searcher.search(&item.game, &only, &Control::default(), &mut |_| {});
            Some((score_cp(out.score) - score_cp(played.score)).max(0))
        }
        Some(_) => Some(0),
        None => None,
    };
    Analysis {
        best: out.best,
        score: out.score,
        lines: by_rank.into_values().collect(),
        loss,
    }
}

/// The move number as records write it: `12.` for white, `12...` for black.
fn move_number(pos: &Position) -> String {
    match pos.side_to_move() {
        Color::White => format!("{}.", pos.fullmove()),
        Color::Black => format!("{}...", pos.fullmove()),
    }
}

fn mark(args: &AnalyzeArgs, loss: Option<i32>) -> Option<&'static str> {
    match loss {
        Some(l) if l >= args.blunder => Some("??"),
        Some(l) if l >= args.mistake => Some("?"),
        _ => None,
    }
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn score_json(s: Score) -> serde_json::Value {
    match s {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

fn text_output(args: &AnalyzeArgs, item: &Item, a: &Analysis) -> String {
    let pos = item.game.position();
    let mut out = String::new();
    if let Some(h) = &item.header {
        out += &format!("{h}\n");
    }
    let depth = a
        .lines
        .first()
        .map_or(String::new(), |l| format!("/{}", l.depth));
    let best = a.best.map_or("(none)".to_string(), |m| m.to_string());
    let pv = a.lines.first().map_or(best.clone(), |l| pv_text(&l.pv));
    match item.played {
        Some((mv, _)) => {
            let played = format!(
                "{} {}{}",
                move_number(pos),
                mv,
                mark(args, a.loss).map_or(String::new(), |m| format!(" {m}"))
            );
            let loss = match a.loss {
                Some(l) if l > 0 => format!("  loss {:.2}", l as f64 / 100.0),
                _ => String::new(),
            };
            out += &format!(
                "  {played:<18} best {best:<10} {}{depth}{loss}  pv {pv}\n",
                format_score(a.score)
            );
        }
        None => {
            if let Some(o) = item.game.outcome() {
                out += &format!("  game over: {o}\n");
            } else {
                out += &format!("  best {best} {}{depth}  pv {pv}\n", format_score(a.score));
            }
            for l in a.lines.iter().skip(1) {
                out += &format!(
                    "  {}: {}/{}  pv {}\n",
                    l.multipv,
                    format_score(l.score),
                    l.depth,
                    pv_text(&l.pv)
                );
            }
        }
    }
    out
}

fn json_output(args: &AnalyzeArgs, item: &Item, a: &Analysis) -> serde_json::Value {
    let pos = item.game.position();
    let lines: Vec<_> = a
        .lines
        .iter()
        .map(|l| {
            json!({
                "multipv": l.multipv, "depth": l.depth, "score": score_json(l.score),
                "nodes": l.nodes, "pv": l.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let over = item.game.outcome();
    json!({
        "source": item.source,
        "ply": item.played.map(|(_, p)| p + 1),
        "move_number": move_number(pos),
        "fen": pos.to_fen(item.game.rules()),
        "played": item.played.map(|(m, _)| m.to_string()),
        "best": a.best.map(|m| m.to_string()),
        "score": if over.is_some() { serde_json::Value::Null } else { score_json(a.score) },
        "depth": a.lines.first().map(|l| l.depth),
        "lines": lines,
        "loss": a.loss,
        "mark": mark(args, a.loss),
        "game_over": over.map(|o| o.to_string()),
    })
}

/// `morris analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    if args.multipv == 0 || args.threads == 0 || args.hash == 0 {
        return Err("--multipv, --threads and --hash must be at least 1".into());
    }
    let items = read_items(args)?;
    let limits = Limits {
        depth: match (args.depth, args.movetime, args.nodes) {
            (None, None, None) => Some(8),
            (d, ..) => d,
        },
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    // Fields beyond these (search tuning) keep their defaults.
    let settings = Settings {
        hash_mb: args.hash,
        threads: args.threads,
        multipv: args.multipv,
        move_overhead_ms: 0,
        ..Settings::default()
    };
    let mut searcher = Searcher::new(settings);
    let target = if std::io::stderr().is_terminal() && items.len() > 1 {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(items.len() as u64), target);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions  {eta}")
            .expect("valid template"),
    );
    let mut last_source = String::new();
    for item in &items {
        if item.source != last_source {
            searcher.clear();
            last_source = item.source.clone();
        }
        let a = analyse(&mut searcher, item, &limits);
        let text = if args.json {
            format!("{}\n", json_output(args, item, &a))
        } else {
            text_output(args, item, &a)
        };
        match bar.suspend(|| std::io::stdout().write_all(text.as_bytes())) {
            Ok(()) => {}
            // The reader has gone (`| head`): nothing more to do.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(format!("writing the analysis: {e}")),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}
