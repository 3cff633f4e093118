//! The engine with no front end: the rules, the game, the searcher, the
//! tables and books (`Oracle`) and the engine options, kept consistent
//! with each other. The protocol's loop parses and prints around one
//! session; the tools search through one. A search runs in a thread of
//! its own (`go`, with callbacks) or in the caller's (`search`).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::engine::notice::Notice;
use crate::engine::options::{Applied, BookSource, EngineOption, EngineOptionError};
use crate::engine::oracle::{Oracle, tables_folder};
use crate::search::{
    Control, ExactKnowledge, Info, Limits, SearchOutcome, Searcher, Settings, TableAllocError,
};
use morris_rules::{Game, Move, MoveError, Position, RuleOptionId, Rules, RulesError};
use morris_tablebase::auto::{self, Event};
use morris_tablebase::book::{self, Book, Books, rules_text};
use morris_tablebase::{Building, Known};

/// Where a session's notices go; called from the search and builder
/// threads too.
pub type Notify = Arc<dyn Fn(Notice) + Send + Sync>;

/// Why a session refused a request.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// `setoption` names neither a rule option nor an engine option.
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    /// A rule option set without a value (rule options have no buttons).
    #[error("option {0} needs a value")]
    RuleNeedsValue(RuleOptionId),
    /// A rule option's value is out of its range or contradicts the others.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// An engine option's value does not fit its type or range.
    #[error(transparent)]
    EngineOption(#[from] EngineOptionError),
    /// The transposition table of the size asked for cannot be had (the
    /// old one is kept).
    #[error(transparent)]
    Hash(#[from] TableAllocError),
    /// A move of a position's move list is not legal there.
    #[error("{error} (move {} of the list); the position is unchanged", .index + 1)]
    Move {
        /// The move's place in the list, from 0.
        index: usize,
        /// Why it is not legal.
        error: MoveError,
    },
    /// The operating system refused a thread for the search.
    #[error("cannot start the search thread: {0}")]
    SearchThread(std::io::Error),
}

/// The search thread panicked: its answer is lost and a fresh searcher
/// took its place.
#[derive(Debug, thiserror::Error)]
#[error("the search thread panicked")]
pub struct SearchLost;

/// A search's answer, as `go`'s `on_done` gets it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Answer {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// The reply expected to `best`, to ponder on (`bestmove ... ponder`).
    pub ponder: Option<Move>,
}

/// A search running in its own thread.
struct Running {
    control: Arc<Control>,
    /// Waits for `stop` (infinite or pondering): must be stopped, not awaited.
    open_ended: bool,
    handle: JoinHandle<Searcher>,
}

/// The engine's state between requests.
pub struct Session {
    game: Game,
    settings: Settings,
    /// The searcher, when no search thread holds it.
    searcher: Option<Searcher>,
    /// The endgame tables (`TablebasePath`) with their background build,
    /// and the books (`BookPath`): held here only, lent to each search.
    oracle: Oracle,
    /// `TablebaseAuto`: build the missing tables up to this many stones.
    tb_auto: u8,
    /// Why there is no folder of tables, until the next build says it
    /// (once: at start-up with no default folder, or after `TablebasePath`
    /// is set empty).
    no_folder: Option<String>,
    running: Option<Running>,
    /// Where the books come from, until a search first says that one
    /// chose the moves searched (taken then, set again by `BookPath`).
    book_note: Arc<Mutex<Option<BookSource>>>,
    /// The folder and rules the compact solution was last looked up for.
    solution_said: Option<(PathBuf, String)>,
    notify: Notify,
}

impl Session {
    /// The standard game's start under the default rules and settings,
    /// the tables of the default folder and the built-in books (silent
    /// until one is used); notices go to `notify`.
    pub fn new(notify: impl Fn(Notice) + Send + Sync + 'static) -> Session {
        let rules = Rules::default();
        let settings = Settings::default();
        let root = tables_folder(None);
        let no_folder = root.as_ref().err().map(|e| {
            format!("tablebase: {e}: no tables are built or used (set TablebasePath to a folder)")
        });
        let mut session = Session {
            game: Game::new(rules, Position::start(&rules)),
            settings,
            searcher: Some(Searcher::new(settings)),
            oracle: Oracle::new(root.ok()),
            tb_auto: auto::default_max(),
            no_folder,
            running: None,
            book_note: Arc::default(),
            solution_said: None,
            notify: Arc::new(notify),
        };
        session.open_tablebases();
        // Each built-in book serves its own rules only.
        session.set_books(book::builtin().clone(), &BookSource::Builtin);
        session
    }

    /// The game the next search is of: its rules, start and moves.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The rules in force (the rule options set so far).
    pub fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// The opening books in use (`BookPath`).
    pub fn books(&self) -> &Books {
        self.oracle.books()
    }

    /// The exact values of `pos` and its moves under the session's rules,
    /// from the tables or else the book, where they know them.
    pub fn known(&self, pos: &Position) -> Option<Known> {
        self.oracle.known(pos, self.game.rules())
    }

    fn say(&self, notice: Notice) {
        (self.notify)(notice);
    }

    fn searcher_mut(&mut self) -> &mut Searcher {
        self.searcher
            .as_mut()
            .expect("the searcher is home when no search runs")
    }

    /// Opens the tables for the current rules (opening reads nothing:
    /// tables are loaded when first probed), and says once for each
    /// folder and rules when the compact solution is there whole.
    fn open_tablebases(&mut self) {
        let rules = *self.game.rules();
        self.oracle.reopen_for(&rules);
        let root = self.oracle.tables().root().map(Path::to_path_buf);
        let said = root.clone().map(|r| (r, rules_text(&rules)));
        if said == self.solution_said {
            return;
        }
        self.solution_said = said;
        if let Some(root) = root
            && let Some((present, all)) = morris_tablebase::solution_files(&root, &rules)
            && present == all
        {
            self.say(Notice::Tables(format!(
                "tablebase: compact solution for rules {}: {all} tables under {}, every position's value{}",
                rules_text(&rules),
                root.display(),
                if rules.move_count_draws() {
                    " at clock 0 (every placement, and a movement position just after a removal or the last placement)"
                } else {
                    ""
                }
            )));
        }
    }

    /// Starts building the missing tables in the background when the
    /// folder, the rules or `TablebaseAuto` changed since the last call,
    /// and reopens the tables to see those built since (the next search
    /// gets them).
    pub(crate) fn sync_tables(&mut self) {
        let rules = *self.game.rules();
        let max = auto::effective_max(&rules, self.tb_auto);
        let notify = Arc::clone(&self.notify);
        let building = self
            .oracle
            .tables_mut()
            .build_in_background(&rules, max, move |event| {
                if let Some(text) = event.message() {
                    notify(Notice::Tables(text));
                }
            });
        match building {
            Ok(Building::NoFolder) => {
                if let Some(why) = self.no_folder.take() {
                    self.say(Notice::Tables(why));
                }
            }
            Ok(Building::Unchanged | Building::Started | Building::Off) => {}
            Err(e) => self.say(Notice::BuilderThread(e)),
        }
        self.oracle.tables_mut().reopen_if_built();
    }

    /// For a tool searching in its own thread: the tables for the game's
    /// rules, the missing ones up to `TablebaseAuto`'s size built first
    /// (what happens goes to `event`).
    pub fn build_tables(&mut self, event: impl FnMut(Event)) {
        let rules = *self.game.rules();
        self.oracle
            .tables_mut()
            .build_for(&rules, self.tb_auto, event);
    }

    /// The unusable table files found and not reported yet (a search in
    /// its own thread reports them itself).
    pub fn take_faults(&self) -> Vec<morris_tablebase::TableFault> {
        self.oracle.take_faults()
    }

    /// Uses the opening book `source` names, and says which. A file that
    /// does not read as a book is reported and ignored: the engine plays
    /// on without it.
    fn open_book(&mut self, source: &BookSource) {
        let books = match source {
            BookSource::None => Books::default(),
            BookSource::Builtin => book::builtin().clone(),
            BookSource::File(p) => match Book::read(p) {
                Ok(book) => Books::from(book),
                Err(e) => {
                    self.say(Notice::BookUnreadable(e));
                    Books::default()
                }
            },
        };
        for book in books.iter() {
            self.say(Notice::book(book, source));
        }
        self.set_books(books, source);
    }

    fn set_books(&mut self, books: Books, source: &BookSource) {
        *self.book_note.lock().expect("book note") = Some(source.clone());
        self.oracle.set_books(books);
    }

    /// Sets a rule option (which starts a new game under the new rules)
    /// or an engine option; stops the search running first.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), SessionError> {
        self.stop_quietly();
        if let Some(option) = RuleOptionId::find(name) {
            let value = value.ok_or(SessionError::RuleNeedsValue(option))?;
            let mut rules = *self.game.rules();
            rules.set_option(option, value)?;
            self.game = Game::new(rules, Position::start(&rules));
            self.open_tablebases();
            return Ok(());
        }
        let option = EngineOption::find(name)
            .ok_or_else(|| SessionError::UnknownOption(name.to_string()))?;
        let mut settings = self.settings;
        match option.apply(&mut settings, value)? {
            Applied::TablebasePath(path) => {
                self.no_folder = path
                    .is_none()
                    .then(|| "tablebase: TablebasePath is empty: no tables".to_string());
                self.oracle.tables_mut().set_root(path);
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

    /// Search settings for a tool (the engine options set them one by one).
    pub fn configure(&mut self, settings: Settings) -> Result<(), TableAllocError> {
        self.stop_quietly();
        self.searcher_mut().configure(settings)?;
        self.settings = settings;
        Ok(())
    }

    /// A new game at the start of the rules in force: the search's
    /// memory is cleared and the tables brought up to date.
    pub fn new_game(&mut self) -> Result<(), SearchLost> {
        let stopped = self.stop();
        let rules = *self.game.rules();
        self.game = Game::new(rules, Position::start(&rules));
        self.searcher_mut().clear();
        self.sync_tables();
        stopped
    }

    /// The position `start` under the rules in force, then `moves` in the
    /// notation; on a bad move the game is left as it was.
    pub fn set_position(&mut self, start: Position, moves: &[String]) -> Result<(), SessionError> {
        let mut game = Game::new(*self.game.rules(), start);
        for (index, token) in moves.iter().enumerate() {
            game.play_text(token)
                .map_err(|error| SessionError::Move { index, error })?;
        }
        self.game = game;
        Ok(())
    }

    /// Another game, with its own rules, for a tool (the tables follow
    /// with `build_tables`).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
    }

    /// Forgets what the searcher learnt (its hash table).
    pub fn clear(&mut self) {
        self.stop_quietly();
        self.searcher_mut().clear();
    }

    /// Searches the game in the caller's thread (no notices).
    pub fn search(&mut self, limits: &Limits, on_info: &mut dyn FnMut(&Info)) -> SearchOutcome {
        self.stop_quietly();
        let searcher = self
            .searcher
            .as_mut()
            .expect("the searcher is home when no search runs");
        searcher.search(
            &self.game,
            self.oracle.knowledge(),
            limits,
            &Control::default(),
            on_info,
        )
    }

    /// Starts searching the game in a thread of its own (a search running
    /// is stopped first). `on_info` gets each progress report, and stops
    /// the search by answering `Break`; when it ends, the table faults
    /// and the book's first use are notices, then `on_done` gets the
    /// answer. With `ponder`, the time limits wait for `ponderhit`.
    pub fn go(
        &mut self,
        limits: Limits,
        ponder: bool,
        mut on_info: impl FnMut(&Info) -> ControlFlow<()> + Send + 'static,
        on_done: impl FnOnce(Answer) + Send + 'static,
    ) -> Result<(), SessionError> {
        self.stop_quietly();
        let control = Arc::new(Control::default());
        control.ponder.store(ponder, Ordering::SeqCst);
        let open_ended = limits.infinite || ponder;
        let mut searcher = self.searcher.take().expect("no search is running");
        let game = self.game.clone();
        let thread_control = Arc::clone(&control);
        // Lent to the search: the tables shared, the books' list copied.
        let tables = self.oracle.tables().current().cloned();
        let books = self.oracle.books().clone();
        let faults = self.oracle.tables().faults();
        let book_note = Arc::clone(&self.book_note);
        let notify = Arc::clone(&self.notify);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(256 << 20)
            .spawn(move || {
                let exact = ExactKnowledge {
                    tables: tables.as_deref(),
                    books: Some(&books),
                };
                let result = searcher.search(&game, exact, &limits, &thread_control, &mut |info| {
                    if on_info(info).is_break() {
                        thread_control.stop.store(true, Ordering::SeqCst);
                    }
                });
                for fault in faults.take() {
                    notify(Notice::TableFault(fault));
                }
                if result.from_book
                    && let Some(source) = book_note.lock().expect("book note").take()
                    && let Some(book) = books.serving(game.rules())
                {
                    notify(Notice::BookPlayed(crate::engine::notice::describe_book(
                        book, &source,
                    )));
                }
                on_done(Answer {
                    best: result.best,
                    ponder: result.ponder,
                });
                searcher
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    control,
                    open_ended,
                    handle,
                });
                Ok(())
            }
            Err(e) => {
                self.fresh_searcher();
                Err(SessionError::SearchThread(e))
            }
        }
    }

    /// The opponent played the move pondered: the time limits apply now.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.control.ponder.store(false, Ordering::SeqCst);
        }
    }

    /// Stops the search running (its `on_done` is called) and takes the
    /// searcher back.
    pub fn stop(&mut self) -> Result<(), SearchLost> {
        if let Some(r) = &self.running {
            r.control.stop.store(true, Ordering::SeqCst);
        }
        self.wait()
    }

    /// `stop` where a lost search has no one to tell: it is logged.
    fn stop_quietly(&mut self) {
        if self.stop().is_err() {
            log::error!("the search thread panicked; starting afresh");
        }
    }

    /// Waits for the search running to end by itself.
    pub fn wait(&mut self) -> Result<(), SearchLost> {
        let Some(r) = self.running.take() else {
            return Ok(());
        };
        match r.handle.join() {
            Ok(searcher) => {
                self.searcher = Some(searcher);
                Ok(())
            }
            Err(_) => {
                self.fresh_searcher();
                Err(SearchLost)
            }
        }
    }

    /// At the end of input: waits for a finite search, stops an
    /// open-ended one.
    pub fn finish(&mut self) -> Result<(), SearchLost> {
        if self.running.as_ref().is_some_and(|r| r.open_ended) {
            self.stop()
        } else {
            self.wait()
        }
    }

    /// Ends the session: stops the search and the background table
    /// build, removing the table it was writing.
    pub fn close(&mut self) -> Result<(), SearchLost> {
        let stopped = self.stop();
        self.oracle.tables_mut().stop_building();
        stopped
    }

    fn fresh_searcher(&mut self) {
        self.searcher = Some(Searcher::new(self.settings));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_rules::MoveList;
    use std::sync::mpsc;

    /// A session with no tables (the machine's own must not change the
    /// answers), its notices collected.
    fn session() -> (Session, Arc<Mutex<Vec<String>>>) {
        let notices: Arc<Mutex<Vec<String>>> = Arc::default();
        let sink = Arc::clone(&notices);
        let mut s = Session::new(move |n| sink.lock().unwrap().push(n.to_string()));
        s.set_option("TablebasePath", Some("<empty>")).unwrap();
        (s, notices)
    }

    fn legal(game: &Game) -> Vec<Move> {
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        list.iter().copied().collect()
    }

    #[test]
    fn go_reports_progress_then_a_legal_answer_and_the_book_once() {
        let (mut s, notices) = session();
        for _ in 0..2 {
            let (infos, answers) = (mpsc::channel(), mpsc::channel());
            let limits = Limits {
                depth: Some(3),
                ..Limits::default()
            };
            let on_info = move |i: &Info| {
                infos.0.send(i.depth).unwrap();
                ControlFlow::Continue(())
            };
            s.go(limits, false, on_info, move |a| answers.0.send(a).unwrap())
                .unwrap();
            s.wait().unwrap();
            let depths: Vec<u32> = infos.1.try_iter().collect();
            assert_eq!(depths.last(), Some(&3), "{depths:?}");
            let answer = answers.1.try_recv().unwrap();
            assert!(legal(s.game()).contains(&answer.best.unwrap()));
        }
        // The built-in book chose the moves: said after the first search only.
        let said = notices.lock().unwrap();
        let played: Vec<_> = said.iter().filter(|n| n.contains("playing from")).collect();
        assert_eq!(played.len(), 1, "{said:?}");
    }

    #[test]
    fn an_open_ended_search_runs_until_stopped_and_answers_once() {
        let (mut s, _) = session();
        let (tx, rx) = mpsc::channel();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        s.go(
            limits,
            false,
            |_: &Info| ControlFlow::Continue(()),
            move |a| tx.send(a).unwrap(),
        )
        .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(rx.try_recv().is_err(), "answered before stop");
        s.stop().unwrap();
        assert!(rx.try_recv().unwrap().best.is_some());
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn refused_requests_leave_the_session_as_it_was() {
        let (mut s, _) = session();
        let start = Position::start(s.rules());
        s.set_position(start, &["d2".to_string()]).unwrap();
        let before = *s.game().position();
        let bad = ["d6".to_string(), "d6".to_string()];
        assert!(matches!(
            s.set_position(start, &bad),
            Err(SessionError::Move { index: 1, .. })
        ));
        assert_eq!(s.game().position(), &before);
        assert!(matches!(
            s.set_option("NoSuchOption", Some("1")),
            Err(SessionError::UnknownOption(_))
        ));
        assert!(matches!(
            s.set_option("Pieces", None),
            Err(SessionError::RuleNeedsValue(_))
        ));
        assert!(matches!(
            s.set_option("Hash", Some("0")),
            Err(SessionError::EngineOption(_))
        ));
        assert_eq!(s.game().position(), &before);
        // A rule option starts a new game under the new rules.
        s.set_option("Pieces", Some("3")).unwrap();
        assert_eq!(s.rules().pieces, 3);
        assert!(s.game().moves().is_empty());
    }

    #[test]
    fn known_values_come_from_the_book_of_the_rules_in_force() {
        let (mut s, _) = session();
        let start = *s.game().position();
        let known = s
            .known(&start)
            .expect("the built-in book serves the default rules");
        assert_eq!(known.moves.len(), 24);
        assert_eq!(known.source, morris_tablebase::Source::Book);
        s.set_option("BookPath", Some("<empty>")).unwrap();
        assert!(s.known(&start).is_none());
    }
}
