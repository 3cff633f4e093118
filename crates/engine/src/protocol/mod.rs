//! The engine protocol: a UCI-like command loop on stdin/stdout (and the
//! GBGP dialect). A thin layer: it parses commands, keeps the game and the
//! options, and runs the search library in a thread.

mod declarations;
mod display;
mod output;
pub mod wire;

use std::io::BufRead;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use crate::engine::{BookSource, Notice, SearchLost, Session, SessionError};
use crate::search::{self, Info, Limits};
use morris_rules::{Color, FenError, MoveError, MoveList};
use morris_tablebase::book;
pub use output::Output;
use wire::{BestMove, Dialect, GbgpError, InfoLine};
use wire::{Command, CommandError, GoArgs, PositionArgs};

/// The engine's name and version, as `uci` and the banner print them.
const ENGINE_NAME: &str = concat!("morris ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the morris developers";

/// Why a command was refused; the loop prints it as `info string error: ...`.
#[derive(Debug, thiserror::Error)]
enum EngineError {
    #[error(transparent)]
    Command(#[from] CommandError),
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Gbgp(#[from] GbgpError),
    #[error("searchmoves: {0}")]
    SearchMoves(MoveError),
}

/// The command loop's state between commands: the output, its dialect,
/// and the engine session it drives.
struct Engine {
    out: Output,
    /// Shared with the session's notices, which may come from its threads.
    dialect: Arc<Mutex<Dialect>>,
    session: Session,
}

/// What the command loop waits for.
enum Event {
    /// A line of input (without its decoding: lines may be any bytes).
    Line(Vec<u8>),
    /// End of input, or input that cannot be read.
    End,
    /// The front end stopped reading our output.
    OutputClosed,
}

/// Runs the command loop until `quit`, end of input or the output is
/// closed; then the background table builder is stopped and the table it
/// was writing removed, so the engine leaves no partial file.
pub fn run(input: impl BufRead + Send + 'static, out: Output) {
    out.line(&format!(
        "{ENGINE_NAME} by {AUTHOR}: UCI-like protocol on stdin/stdout (see protocol.md); type 'uci'"
    ));
    let (events, next) = mpsc::channel();
    let closed = events.clone();
    out.when_closed(move || {
        let _ = closed.send(Event::OutputClosed);
    });
    // Input is read in a thread of its own, so that a closed output ends
    // the loop even while no command comes.
    if let Err(e) = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || read_lines(input, &events))
    {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    let mut engine = Engine::new(out);
    loop {
        match next.recv().unwrap_or(Event::End) {
            Event::OutputClosed => break,
            // Commands queued behind a closed output are not run.
            Event::Line(_) if engine.out.is_closed() => break,
            Event::Line(buf) => {
                let line = String::from_utf8_lossy(&buf);
                log::debug!("<< {}", line.trim_end());
                match wire::parse_command(&line) {
                    Ok(None) => {}
                    Ok(Some(Command::Quit)) => break,
                    Ok(Some(cmd)) => engine.execute(cmd),
                    Err(e) => engine.error(&e.into()),
                }
            }
            Event::End => {
                // A finite search still gets to answer; an open-ended one is stopped.
                engine.finish_search();
                break;
            }
        }
    }
    let closed = engine.session.close();
    engine.report(closed);
}

/// Sends each line of `input` to the loop, then `End`.
fn read_lines(mut input: impl BufRead, events: &mpsc::Sender<Event>) {
    loop {
        let mut buf = Vec::new();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                if events.send(Event::Line(buf)).is_err() {
                    return;
                }
            }
            Err(e) => {
                log::error!("reading input: {e}");
                break;
            }
        }
    }
    let _ = events.send(Event::End);
}

impl Engine {
    fn new(out: Output) -> Engine {
        let dialect = Arc::new(Mutex::new(Dialect::Uci));
        let (notice_out, notice_dialect) = (out.clone(), Arc::clone(&dialect));
        let session = Session::new(move |notice: Notice| {
            let dialect = *notice_dialect.lock().expect("dialect");
            notice_out.line(&InfoLine::text(notice.to_string()).to_line(dialect));
        });
        Engine {
            out,
            dialect,
            session,
        }
    }

    fn dialect(&self) -> Dialect {
        *self.dialect.lock().expect("dialect")
    }

    fn error(&self, error: &EngineError) {
        self.info_string(&format!("error: {error}"));
    }

    fn info_string(&self, message: &str) {
        self.out
            .line(&InfoLine::text(message).to_line(self.dialect()));
    }

    fn execute(&mut self, cmd: Command) {
        let result = match cmd {
            Command::Hello(dialect) => {
                *self.dialect.lock().expect("dialect") = dialect;
                self.identify();
                Ok(())
            }
            Command::IsReady => {
                self.session.sync_tables();
                self.out.line(wire::READY_OK);
                Ok(())
            }
            Command::SetOption { name, value } => {
                self.stop_search();
                self.session
                    .set_option(&name, value.as_deref())
                    .map_err(EngineError::from)
            }
            Command::NewGame(_) => {
                let stopped = self.session.new_game();
                self.report(stopped);
                Ok(())
            }
            Command::Position(args) => self.set_position(&args),
            Command::Go(args) => {
                self.stop_search();
                self.session.sync_tables();
                self.go(args)
            }
            Command::Stop => {
                self.stop_search();
                Ok(())
            }
            Command::PonderHit => {
                self.session.ponderhit();
                Ok(())
            }
            Command::Quit => Ok(()),
            Command::Display => {
                self.display();
                Ok(())
            }
            Command::Perft(depth) => {
                self.stop_search();
                self.perft(depth);
                Ok(())
            }
            Command::Eval => {
                self.eval();
                Ok(())
            }
            Command::Moves => {
                let mut moves = self.legal_move_texts();
                moves.insert(0, "moves".to_string());
                self.out.line(&moves.join(" "));
                Ok(())
            }
            Command::Bench => {
                self.stop_search();
                self.bench();
                Ok(())
            }
        };
        if let Err(e) = result {
            self.error(&e);
        }
    }

    fn identify(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {AUTHOR}"));
        for line in declarations::rule_declarations() {
            self.out.line(&line);
        }
        for o in crate::engine::EngineOption::all() {
            self.out.line(&declarations::option_declaration(o));
        }
        // What `BookPath <builtin>` holds: a book for each of these rules.
        for book in book::builtin().iter() {
            self.info_string(&Notice::book(book, &BookSource::Builtin).to_string());
        }
        self.out.line(self.dialect().hello_ok());
    }

    fn set_position(&mut self, args: &PositionArgs) -> Result<(), EngineError> {
        let rules = *self.session.rules();
        let (start, moves) = match args {
            PositionArgs::Setup(setup) => (setup.start_position(&rules)?, &setup.moves),
            PositionArgs::Gbgp { pos, moves } => (wire::parse_pos(pos, &rules)?, moves),
        };
        Ok(self.session.set_position(start, moves)?)
    }

    fn legal_move_texts(&self) -> Vec<String> {
        let mut list = MoveList::new();
        self.session.game().legal_moves(&mut list);
        let mut texts: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        texts.sort();
        texts
    }

    fn display(&self) {
        let game = self.session.game();
        let (pos, rules) = (game.position(), game.rules());
        self.out.line(&display::board(pos, rules.diagonals));
        self.out.line("");
        self.out.line(&format!("Fen: {}", pos.to_fen(rules)));
        self.out.line(&format!("Key: {:016X}", pos.hash()));
        self.out.line(&format!(
            "To move: {}; in hand: white {}, black {}",
            pos.side_to_move().name(),
            pos.in_hand(Color::White),
            pos.in_hand(Color::Black)
        ));
        self.out
            .line(format!("Legal moves: {}", self.legal_move_texts().join(" ")).trim_end());
        if let Some(outcome) = game.outcome() {
            self.out.line(&format!("Game over: {outcome}"));
        }
    }

    fn perft(&self, depth: u32) {
        let game = self.session.game();
        let lines = game.position().divide(game.rules(), depth);
        for (mv, n) in &lines {
            self.out.line(&format!("{mv}: {n}"));
        }
        let total: u64 = if depth == 0 {
            1
        } else {
            lines.iter().map(|(_, n)| n).sum()
        };
        self.out.line(&format!("Nodes searched: {total}"));
    }

    fn eval(&self) {
        for (term, value) in
            search::eval::explain(self.session.game().position(), self.session.game().rules())
        {
            self.info_string(&format!("eval {term} {value}"));
        }
    }

    fn bench(&self) {
        self.info_string(&search::bench::bench(None).to_string());
    }

    /// Turns `go` arguments into search limits for the current position.
    fn limits(&self, args: &GoArgs) -> Result<Limits, EngineError> {
        let game = self.session.game();
        let (rules, pos) = (game.rules(), game.position());
        let searchmoves = args
            .searchmoves
            .iter()
            .map(|t| pos.parse_move(rules, t).map_err(EngineError::SearchMoves))
            .collect::<Result<Vec<_>, _>>()?;
        let clock = (args.wtime.is_some() || args.btime.is_some()).then(|| search::Clock {
            time: [args.wtime.unwrap_or(0), args.btime.unwrap_or(0)],
            inc: [args.winc.unwrap_or(0), args.binc.unwrap_or(0)],
            moves_to_go: args.movestogo,
        });
        let mut limits = Limits {
            depth: args.depth,
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            clock,
            infinite: args.infinite,
            searchmoves,
        };
        let unlimited = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none();
        if unlimited && !args.infinite && !args.ponder {
            // Plain `go`: a shell user gets an answer after a second.
            limits.movetime = Some(Duration::from_secs(1));
        }
        Ok(limits)
    }

    fn go(&mut self, args: GoArgs) -> Result<(), EngineError> {
        let limits = self.limits(&args)?;
        if let Some(outcome) = self.session.game().outcome() {
            self.info_string(&format!("game over: {outcome}"));
            if !outcome.reason.is_counting_rule() {
                self.out.line(&self.null_bestmove());
                return Ok(());
            }
        }
        let dialect = self.dialect();
        let (info_out, done_out) = (self.out.clone(), self.out.clone());
        let on_info = move |info: &Info| {
            info_out.line(&InfoLine::from(info).to_line(dialect));
            // No one reads the lines: the loop is ending.
            if info_out.is_closed() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let on_done = move |answer: crate::engine::Answer| {
            let best = match answer.best {
                Some(best) => BestMove::Move {
                    best: best.to_string(),
                    ponder: answer.ponder.map(|p| p.to_string()),
                },
                None => BestMove::Null,
            };
            done_out.line(&best.to_line(dialect));
        };
        Ok(self.session.go(limits, args.ponder, on_info, on_done)?)
    }

    fn null_bestmove(&self) -> String {
        BestMove::Null.to_line(self.dialect())
    }

    /// Stops a running search (it prints its bestmove) and takes the searcher back.
    fn stop_search(&mut self) {
        let stopped = self.session.stop();
        self.report(stopped);
    }

    /// At end of input: waits for a finite search, stops an open-ended one.
    fn finish_search(&mut self) {
        let finished = self.session.finish();
        self.report(finished);
    }

    /// A search lost to a panic still answers, with no move.
    fn report(&self, ended: Result<(), SearchLost>) {
        if ended.is_err() {
            log::error!("the search thread panicked; starting afresh");
            self.out.line(&self.null_bestmove());
        }
    }
}
