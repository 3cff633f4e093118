//! The engine protocol: a UCI-like command loop on stdin/stdout (and the
//! GBGP dialect). A thin layer: it parses commands, keeps the game and the
//! options, and runs the search library in a thread.

pub mod display;
pub mod engine_options;
pub mod output;
pub mod wire;

use std::io::BufRead;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::rules::{
    Color, FenError, Game, MoveError, MoveList, Position, RuleOptionId, Rules, RulesError,
};
use crate::search::{self, Control, Info, Limits, Searcher, Settings, TableAllocError};
use crate::tablebase::auto;
use crate::tablebase::book::{self, Book, Books};
use crate::tablebase::{Building, OpenTables};
use engine_options::{Applied, BookSource, EngineOption, EngineOptionError};
pub use output::Output;
use wire::command::{self, Command, GoArgs, PositionArgs};
use wire::{BestMove, Dialect, GbgpError, InfoLine, gbgp};

/// The engine's name and version, as `uci` and the banner print them.
pub const ENGINE_NAME: &str = concat!("morris ", env!("CARGO_PKG_VERSION"));
pub const AUTHOR: &str = "the morris developers";

/// Why a command was refused; the loop prints it as `info string error: ...`.
#[derive(Debug, thiserror::Error)]
enum EngineError {
    #[error(transparent)]
    Command(#[from] command::CommandError),
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    #[error("option {0} needs a value")]
    RuleNeedsValue(RuleOptionId),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    EngineOption(#[from] EngineOptionError),
    #[error(transparent)]
    Hash(#[from] TableAllocError),
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Gbgp(#[from] GbgpError),
    /// Move `index` (0-based) of a `position` command's list.
    #[error("{error} (move {} of the list); the position is unchanged", .index + 1)]
    Move { index: usize, error: MoveError },
    #[error("searchmoves: {0}")]
    SearchMoves(MoveError),
    #[error("cannot start the search thread: {0}")]
    SearchThread(std::io::Error),
}

/// A search running in its own thread.
struct Running {
    control: Arc<Control>,
    /// Waits for `stop` (infinite or pondering): must be stopped, not awaited.
    open_ended: bool,
    handle: JoinHandle<Searcher>,
}

/// The engine's state between commands.
struct Engine {
    out: Output,
    dialect: Dialect,
    rules: Rules,
    game: Game,
    settings: Settings,
    /// The searcher, when no search thread holds it.
    searcher: Option<Searcher>,
    /// The endgame tables (`TablebasePath`), the background build and
    /// the tables found unusable, reported after a search or by the builder.
    tables: OpenTables,
    /// `TablebaseAuto`: build the missing tables up to this many stones.
    tb_auto: u8,
    /// Why there is no folder of tables, until the next build says it
    /// (once: at start-up with no default folder, or after `TablebasePath`
    /// is set empty).
    no_folder: Option<String>,
    running: Option<Running>,
    /// Where the books come from, until the search thread first says
    /// that one chose the moves searched (taken then, set again when
    /// `BookPath` is set).
    book_note: Arc<Mutex<Option<BookSource>>>,
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
                match command::parse(&line) {
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
    engine.stop_search();
    engine.tables.stop_building();
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
        let rules = Rules::default();
        let settings = Settings::default();
        let root = crate::tablebase::default_dir();
        let no_folder = root.as_ref().err().map(|e| {
            format!("tablebase: {e}: no tables are built or used (set TablebasePath to a folder)")
        });
        Engine {
            out,
            dialect: Dialect::Uci,
            rules,
            game: Game::new(rules, Position::start(&rules)),
            settings,
            searcher: Some(Searcher::new(settings)),
            tables: OpenTables::new(root.ok()),
            tb_auto: auto::default_max(),
            no_folder,
            running: None,
            book_note: Arc::default(),
        }
        .with_tablebases()
    }

    /// Points the searcher at the tables for the current rules (opening
    /// reads nothing: tables are loaded when first probed).
    fn with_tablebases(mut self) -> Engine {
        self.open_tablebases();
        // The built-in books, silent until one is used: each serves its
        // own rules only.
        self.set_books(book::builtin().clone(), &BookSource::Builtin);
        self
    }

    fn open_tablebases(&mut self) {
        let tables = self.tables.reopened_for(&self.rules);
        self.searcher_mut().set_tablebases(tables);
    }

    /// Starts building the missing tables in the background when the
    /// folder, the rules or `TablebaseAuto` changed since the last call,
    /// and, with the searcher at home, lets it see the tables built since.
    fn update_tables(&mut self) {
        let max = auto::effective_max(&self.rules, self.tb_auto);
        let (out, dialect) = (self.out.clone(), self.dialect);
        let building = self
            .tables
            .build_in_background(&self.rules, max, move |event| {
                if let Some(text) = event.message() {
                    out.line(&InfoLine::text(&text).to_line(dialect));
                }
            });
        match building {
            Ok(Building::NoFolder) => {
                if let Some(why) = self.no_folder.take() {
                    self.info_string(&why);
                }
            }
            Ok(Building::Unchanged | Building::Started | Building::Off) => {}
            Err(e) => self.info_string(&format!(
                "error: tablebase: cannot start the builder thread: {e}"
            )),
        }
        if self.searcher.is_some()
            && let Some(tables) = self.tables.reopened_if_built()
        {
            self.searcher_mut().set_tablebases(Some(tables));
        }
    }

    /// Uses the opening book `source` names. A file that does not read as
    /// a book is reported and ignored: the engine plays on without it.
    fn open_book(&mut self, source: &BookSource) {
        let books = match source {
            BookSource::None => Books::default(),
            BookSource::Builtin => book::builtin().clone(),
            BookSource::File(p) => match Book::read(p) {
                Ok(book) => Books::from(book),
                Err(e) => {
                    self.info_string(&format!("error: book: {e}"));
                    Books::default()
                }
            },
        };
        for book in books.iter() {
            self.info_string(&format!("book: {}", describe_book(book, source)));
        }
        self.set_books(books, source);
    }

    fn set_books(&mut self, books: Books, source: &BookSource) {
        *self.book_note.lock().expect("book note") = Some(source.clone());
        self.searcher_mut().set_books(books);
    }

    fn error(&self, error: &EngineError) {
        self.info_string(&format!("error: {error}"));
    }

    fn info_string(&self, message: &str) {
        self.out
            .line(&InfoLine::text(message).to_line(self.dialect));
    }

    fn execute(&mut self, cmd: Command) {
        let result = match cmd {
            Command::Hello(dialect) => {
                self.dialect = dialect;
                self.identify();
                Ok(())
            }
            Command::IsReady => {
                self.update_tables();
                self.out.line(wire::READY_OK);
                Ok(())
            }
            Command::SetOption { name, value } => {
                self.stop_search();
                self.set_option(&name, value.as_deref())
            }
            Command::NewGame(_) => {
                self.stop_search();
                self.game = Game::new(self.rules, Position::start(&self.rules));
                self.searcher_mut().clear();
                self.update_tables();
                Ok(())
            }
            Command::Position(args) => self.set_position(&args),
            Command::Go(args) => {
                self.stop_search();
                self.update_tables();
                self.go(args)
            }
            Command::Stop => {
                self.stop_search();
                Ok(())
            }
            Command::PonderHit => {
                if let Some(r) = &self.running {
                    r.control.ponder.store(false, Ordering::SeqCst);
                }
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

    fn searcher_mut(&mut self) -> &mut Searcher {
        self.searcher
            .as_mut()
            .expect("the searcher is home when no search runs")
    }

    fn identify(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {AUTHOR}"));
        for line in engine_options::rule_declarations() {
            self.out.line(&line);
        }
        for o in EngineOption::ALL {
            self.out.line(&o.declaration());
        }
        // What `BookPath <builtin>` holds: a book for each of these rules.
        for book in book::builtin().iter() {
            self.info_string(&format!(
                "book: {}",
                describe_book(book, &BookSource::Builtin)
            ));
        }
        self.out.line(self.dialect.hello_ok());
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), EngineError> {
        if let Some(option) = RuleOptionId::find(name) {
            let value = value.ok_or(EngineError::RuleNeedsValue(option))?;
            let mut rules = self.rules;
            rules.set_option(option, value)?;
            self.rules = rules;
            self.game = Game::new(rules, Position::start(&rules));
            self.open_tablebases();
            return Ok(());
        }
        let option =
            EngineOption::find(name).ok_or_else(|| EngineError::UnknownOption(name.to_string()))?;
        let mut settings = self.settings;
        match option.apply(&mut settings, value)? {
            Applied::TablebasePath(path) => {
                self.no_folder = path
                    .is_none()
                    .then(|| "tablebase: TablebasePath is empty: no tables".to_string());
                self.tables.set_root(path);
                self.open_tablebases();
                return Ok(());
            }
            Applied::TablebaseAuto(max) => {
                self.tb_auto = max;
                return Ok(());
            }
            Applied::BookPath(source) => {
                self.open_book(&source);
                return Ok(());
            }
            Applied::Settings => self.searcher_mut().configure(settings)?,
            Applied::ClearHash => {
                let searcher = self.searcher_mut();
                searcher.configure(settings)?;
                searcher.clear();
            }
        }
        self.settings = settings;
        Ok(())
    }

    fn set_position(&mut self, args: &PositionArgs) -> Result<(), EngineError> {
        let rules = self.rules;
        let (start, moves) = match args {
            PositionArgs::Setup(setup) => (setup.start_position(&rules)?, &setup.moves),
            PositionArgs::Gbgp { pos, moves } => (gbgp::parse_pos(pos, &rules)?, moves),
        };
        let mut game = Game::new(rules, start);
        for (index, token) in moves.iter().enumerate() {
            game.play_text(token)
                .map_err(|error| EngineError::Move { index, error })?;
        }
        self.game = game;
        Ok(())
    }

    fn legal_move_texts(&self) -> Vec<String> {
        let mut list = MoveList::new();
        self.game.legal_moves(&mut list);
        let mut texts: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        texts.sort();
        texts
    }

    fn display(&self) {
        let pos = self.game.position();
        let rules = self.game.rules();
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
        if let Some(outcome) = self.game.outcome() {
            self.out.line(&format!("Game over: {outcome}"));
        }
    }

    fn perft(&self, depth: u32) {
        let (rules, pos) = (self.game.rules(), self.game.position());
        let lines = pos.divide(rules, depth);
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
        for (term, value) in search::eval::explain(self.game.position(), self.game.rules()) {
            self.info_string(&format!("eval {term} {value}"));
        }
    }

    fn bench(&self) {
        self.info_string(&search::bench::bench(None).to_string());
    }

    /// Turns `go` arguments into search limits for the current position.
    fn limits(&self, args: &GoArgs) -> Result<Limits, EngineError> {
        let (rules, pos) = (self.game.rules(), self.game.position());
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
        if let Some(outcome) = self.game.outcome() {
            self.info_string(&format!("game over: {outcome}"));
            if !outcome.reason.is_counting_rule() {
                self.out.line(&self.null_bestmove());
                return Ok(());
            }
        }
        let control = Arc::new(Control::default());
        control.ponder.store(args.ponder, Ordering::SeqCst);
        let mut searcher = self.searcher.take().expect("no search is running");
        let game = self.game.clone();
        let out = self.out.clone();
        let dialect = self.dialect;
        let thread_control = Arc::clone(&control);
        let faults = self.tables.faults();
        let book_note = Arc::clone(&self.book_note);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(256 << 20)
            .spawn(move || {
                let result =
                    searcher.search(&game, &limits, &thread_control, &mut |info: &Info| {
                        out.line(&InfoLine::from(info).to_line(dialect));
                        // No one reads the lines: the loop is ending.
                        if out.is_closed() {
                            thread_control.stop.store(true, Ordering::SeqCst);
                        }
                    });
                let best = match result.best {
                    Some(best) => BestMove::Move {
                        best: best.to_string(),
                        ponder: result.ponder.map(|p| p.to_string()),
                    },
                    None => BestMove::Null,
                };
                for fault in faults.take() {
                    out.line(&InfoLine::text(format!("error: {fault}")).to_line(dialect));
                }
                if result.from_book
                    && let Some(source) = book_note.lock().expect("book note").take()
                    && let Some(book) = searcher.books().serving(game.rules())
                {
                    let note = format!(
                        "book: playing from the opening book ({}): only moves that keep the position's value are searched",
                        describe_book(book, &source)
                    );
                    out.line(&InfoLine::text(note).to_line(dialect));
                }
                out.line(&best.to_line(dialect));
                searcher
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    control,
                    open_ended: args.infinite || args.ponder,
                    handle,
                });
                Ok(())
            }
            Err(e) => {
                self.searcher = Some(Searcher::new(self.settings));
                self.open_tablebases();
                Err(EngineError::SearchThread(e))
            }
        }
    }

    fn null_bestmove(&self) -> String {
        BestMove::Null.to_line(self.dialect)
    }

    /// Stops a running search (it prints its bestmove) and takes the searcher back.
    fn stop_search(&mut self) {
        if let Some(r) = &self.running {
            r.control.stop.store(true, Ordering::SeqCst);
        }
        self.join_search();
    }

    /// At end of input: waits for a finite search, stops an open-ended one.
    fn finish_search(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.open_ended) {
            self.stop_search();
        } else {
            self.join_search();
        }
    }

    fn join_search(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    log::error!("the search thread panicked; starting afresh");
                    self.out.line(&self.null_bestmove());
                    self.searcher = Some(Searcher::new(self.settings));
                    self.open_tablebases();
                }
            }
        }
    }
}

/// A book as `info string book:` lines name it.
fn describe_book(book: &Book, source: &BookSource) -> String {
    let origin = if *source == BookSource::Builtin {
        "built in, "
    } else {
        ""
    };
    format!(
        "{origin}{} positions within {} plies, for rules {}",
        book.len(),
        book.plies(),
        book.rules()
    )
}
