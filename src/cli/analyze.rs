//! `morris analyze`: the command line of the analyser (`tools::analyze`):
//! input from a file, stdin or `--fen`/`--moves`, a progress bar on
//! stderr, the analysis on stdout.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::{dialect, read_input};
use super::stdout::out;
use super::{CliError, PositionArgs};
use morris::engine::{Session, tables_folder};
use morris::search::{Limits, Settings};
use morris::tools::{
    GameSummary, InputError, Item, Marks, RecordDialect, analyse, items_from_text, json_output,
    position_item, text_output,
};

const ANALYZE_HELP: &str = "\
OUTPUT:
  Per position: the move played (for games), the best move, its score (pieces,
  from the side to move; +M3 a forced win in 3 moves) and depth, the principal
  variation, and for games the score loss of the move played when it was not
  the best, marked ? (mistake) or ?? (blunder) past --mistake / --blunder;
  where the endgame tables cover the position, a move that changes its value
  is marked ?? with the change, like ?? (win -> draw).
  --json: one JSON object per line with the fields source, ply, move_number,
  fen, played, best, score ({\"cp\": X} or {\"mate\": N}), depth, lines (multipv),
  loss, mark, value_change (\"win -> draw\" or null), exact (null, or
  {source: tables|book, before, after: {value, distance}, keeping: the moves
  that keep the value, legal: the number of legal moves}), game_over; after
  each game one object {source, summary: {judged, plies, white, black: the
  side's value-losing moves, decided_ply}}.
  Where the tables (else the built-in book) know a game's position, its move
  is judged exactly: ?? (win -> draw) throws a value away, ! is the only move
  keeping it among 5 or more, and each game ends with a summary line.

  Game records carry their own rules (tags); --variant/--option apply to
  position lists. PlayOK's and Sanmill's records are read as ours are
  (morris record --help says how each is read). Bad input stops with a non-zero exit and the line at fault.

  Endgame tables from $MORRIS_TB_DIR (default ~/.cache/morris/tb) are used;
  the missing ones up to $MORRIS_TB_AUTO stones a side (default 5; 0: none)
  are built first, as the engine's TablebaseAuto does.

EXAMPLES:
  morris analyze games.pgn --depth 10 --out annotated.pgn
  morris analyze playok-game.txt --out for-sanmill.pgn --out-dialect sanmill
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
    /// Also write the games annotated (each move's analysis in its
    /// comment) to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The dialect of --out: morris, playok or sanmill.
    #[arg(long, default_value = "morris", value_parser = dialect)]
    pub out_dialect: RecordDialect,
}

/// The positions of the input, with errors naming the line.
fn read_items(args: &AnalyzeArgs) -> Result<Vec<Item>, CliError> {
    if args.position.given() {
        return Ok(vec![position_item(args.position.game()?)]);
    }
    let (name, text) = read_input(args.input.as_deref())?;
    Ok(items_from_text(&name, &text, &args.position.rules()?)?)
}

/// `morris analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<(), CliError> {
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
    let marks = Marks {
        mistake: args.mistake,
        blunder: args.blunder,
    };
    let say = |text: &str| bar.suspend(|| eprintln!("morris analyze: {text}"));
    // The tables of the default folder (the missing ones up to
    // TablebaseAuto's size built before an item of new rules is
    // analysed), and the built-in books for the opening's values on a
    // machine without tables.
    let notices = bar.clone();
    let mut session = Session::new(move |n| {
        notices.suspend(|| eprintln!("morris analyze: {n}"));
    });
    session
        .configure(settings)
        .map_err(|e| CliError::Message(e.to_string()))?;
    if let Err(e) = tables_folder(None) {
        say(&format!("{e}: analysing without tables"));
    }
    let mut last_source = String::new();
    let mut summary = GameSummary::default();
    let mut annotated = match &args.out {
        Some(path) if items.iter().any(|i| i.record.is_some()) => Some((
            path,
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        Some(_) => return Err("--out writes game records: the input has none".into()),
        None => None,
    };
    // A game's summary line, and its annotated record in --out.
    let mut finish_game = |s: GameSummary| -> Result<String, CliError> {
        if let (Some((path, file)), Some(record)) = (&mut annotated, s.annotated(args.out_dialect))
        {
            let text = record.map_err(|source| InputError::Record {
                name: path.display().to_string(),
                source,
            })?;
            file.write_all(text.as_bytes())
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(if args.json {
            format!("{}\n", s.json())
        } else {
            s.text()
        })
    };
    for item in &items {
        if item.source != last_source {
            session.clear();
            last_source = item.source.clone();
        }
        session.set_game(item.game.clone());
        session.build_tables(|e| {
            if let Some(text) = e.message() {
                say(&text);
            }
        });
        let a = analyse(&mut session, item, &limits);
        for fault in session.take_faults() {
            say(&format!("error: {fault}"));
        }
        let mut text = match summary.add(&marks, item, &a) {
            Some(done) => finish_game(done)?,
            None => String::new(),
        };
        text += &if args.json {
            format!("{}\n", json_output(&marks, item, &a))
        } else {
            text_output(&marks, item, &a)
        };
        bar.suspend(|| out!("{text}"));
        bar.inc(1);
    }
    if let Some(s) = summary.finish() {
        let text = finish_game(s)?;
        bar.suspend(|| out!("{text}"));
    }
    bar.finish_and_clear();
    Ok(())
}
