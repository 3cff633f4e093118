//! The searcher: the threads of one search (Lazy SMP over a shared
//! transposition table), the root's exact values from the tables or a
//! book (`RootValues`), the weakened choice of a lower skill, and the
//! answer picked from the threads' results.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::search::main_thread::Main;
use crate::search::root_move::RootMove;
use crate::search::score::{self, MATE_BOUND};
use crate::search::shared::{self, Shared};
use crate::search::tb;
use crate::search::time::TimeManager;
use crate::search::tt::{TableAllocError, TranspositionTable};
use crate::search::worker::Worker;
use crate::search::{Control, Info, Limits, MAX_PLY, Score, SearchOutcome, Settings};
use morris_rules::Rng;
use morris_rules::{Game, GameResult, Move, MoveList};
use morris_tablebase::book::{Book, Books};
use morris_tablebase::preference;
use morris_tablebase::{Known, Source};
use morris_tablebase::{MoveProbe, Probe, Tablebases, Value};

/// Stack of each search thread: the recursion is shallow (move lists live
/// on the heap), this is headroom.
const STACK_BYTES: usize = 64 << 20;

/// The search with its state kept between moves (transposition table).
pub struct Searcher {
    settings: Settings,
    tt: TranspositionTable,
    workers: Vec<Worker>,
}

/// What a search may know exactly instead of searching: the endgame
/// tables and the opening books, each used only for games under the rules
/// it serves. The caller holds them (a session's `Oracle`) and lends them
/// to each search, so that one place keeps them up to date.
#[derive(Clone, Copy, Default)]
pub struct ExactKnowledge<'a> {
    /// The endgame tables, probed at the root and in the tree.
    pub tables: Option<&'a Tablebases>,
    /// The opening books, used at roots the tables do not cover.
    pub books: Option<&'a Books>,
}

impl ExactKnowledge<'_> {
    /// Nothing known: the search alone.
    pub const NONE: ExactKnowledge<'static> = ExactKnowledge {
        tables: None,
        books: None,
    };
}

impl Searcher {
    /// A searcher; if the table size cannot be had, the default size is
    /// used instead (and logged).
    pub fn new(settings: Settings) -> Searcher {
        let (tt, settings) = match TranspositionTable::new(settings.hash_mb) {
            Ok(tt) => (tt, settings),
            Err(e) => {
                log::warn!("{e}; using {} MB", Settings::default().hash_mb);
                let hash_mb = Settings::default().hash_mb;
                let tt = TranspositionTable::new(hash_mb).expect("the default table size fits");
                (
                    tt,
                    Settings {
                        hash_mb,
                        ..settings
                    },
                )
            }
        };
        let mut s = Searcher {
            settings,
            tt,
            workers: Vec::new(),
        };
        s.fit_workers();
        s
    }

    /// The settings in force (`hash_mb` the size actually had).
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Applies new settings (resizing the table if `hash_mb` changed). If
    /// the new table cannot be allocated nothing changes.
    pub fn configure(&mut self, settings: Settings) -> Result<(), TableAllocError> {
        if settings.hash_mb != self.settings.hash_mb {
            // Free the old table first: both may not fit at once.
            self.tt = TranspositionTable::new(1)?;
            match TranspositionTable::new(settings.hash_mb) {
                Ok(tt) => self.tt = tt,
                Err(e) => {
                    self.tt = TranspositionTable::new(self.settings.hash_mb)?;
                    return Err(e);
                }
            }
        }
        self.settings = settings;
        self.fit_workers();
        Ok(())
    }

    fn fit_workers(&mut self) {
        let n = self.settings.threads.max(1);
        self.workers.truncate(n);
        while self.workers.len() < n {
            self.workers.push(Worker::new(self.workers.len()));
        }
    }

    /// Forgets everything learnt: the transposition table (killers and
    /// histories start afresh with every search anyway).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches the game's current position within `limits`, reporting each
    /// completed iteration to `report`; where `exact` knows the root's
    /// moves' values, only the moves keeping the value are searched.
    ///
    /// With one thread and a depth or node limit the result (move, score,
    /// node count) depends only on the game and the table's contents: a new
    /// or `clear`ed searcher always answers the same.
    pub fn search(
        &mut self,
        game: &Game,
        exact: ExactKnowledge<'_>,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Info),
    ) -> SearchOutcome {
        let rules = *game.rules();
        let root_moves = root_moves(game, &limits.searchmoves);
        if root_moves.is_empty() {
            return no_move(game);
        }
        let root_draw = game.outcome().is_some_and(|o| o.reason.is_counting_rule());
        let settings = self.settings;
        let skill = settings.effective_skill();
        // A weakened player searches without the tables' perfect play.
        let tb = exact.tables.filter(|tb| tb.serves(&rules) && skill >= 20);
        let book = exact
            .books
            .and_then(|b| b.serving(&rules))
            .filter(|_| skill >= 20);
        let exact = if root_draw {
            None
        } else {
            RootValues::of(tb, book, game, &root_moves)
        };
        if let Some(exact) = &exact
            && let [only] = exact.allowed[..]
        {
            return exact.only_move(only, limits, control, report);
        }
        let root_moves = exact.as_ref().map_or(root_moves, |e| e.allowed.clone());
        let (max_depth, lines) = depth_and_lines(&settings, limits);
        self.tt.new_search();
        let threads = self.workers.len();
        let sh = Shared {
            rules,
            rules_key: rules_key(&rules),
            root: *game.position(),
            tt: &self.tt,
            control,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            settings,
            max_depth,
            node_limit: limits.nodes,
            history: game.reversible_history().collect(),
            root_moves,
            lines,
            root_draw,
            tb,
            tb_draws: exact.as_ref().is_none_or(|e| e.value.value != Value::Draw),
            tb_undistanced: exact
                .as_ref()
                .is_none_or(|e| e.value.value == Value::Draw || e.value.distance().is_some()),
            tbhits: AtomicU64::new(0),
        };
        match &exact {
            None => {
                run_threads(&mut self.workers, &sh, limits, report);
                pick_result(&self.workers[0], &sh, skill)
            }
            Some(exact) => {
                let mut report = |info: &Info| report(&exact.overridden(info));
                run_threads(&mut self.workers, &sh, limits, &mut report);
                let out = pick_result(&self.workers[0], &sh, skill);
                SearchOutcome {
                    score: exact.score_of(out.best, Some(out.score)),
                    from_book: exact.from_book,
                    ..out
                }
            }
        }
    }
}

/// The legal root moves to search: those of `searchmoves` (all when it
/// names none of them).
fn root_moves(game: &Game, searchmoves: &[Move]) -> Vec<Move> {
    let mut list = MoveList::new();
    game.position().legal_moves(game.rules(), &mut list);
    let chosen: Vec<Move> = list
        .iter()
        .copied()
        .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
        .collect();
    if chosen.is_empty() {
        list.iter().copied().collect()
    } else {
        chosen
    }
}

/// The answer when the side to move has no legal move: lost, or drawn by
/// the rules.
fn no_move(game: &Game) -> SearchOutcome {
    let lost = game
        .outcome()
        .is_some_and(|o| o.result == GameResult::Win(!game.position().side_to_move()));
    SearchOutcome {
        best: None,
        ponder: None,
        score: if lost { Score::Mate(0) } else { Score::Cp(0) },
        nodes: 0,
        from_book: false,
    }
}

/// The deepest iteration and the lines searched in each. A weakened
/// player searches shallower and at least four lines, to pick among them.
fn depth_and_lines(settings: &Settings, limits: &Limits) -> (i32, usize) {
    let skill = settings.effective_skill();
    let mut max_depth = limits.depth.map_or(MAX_PLY as i32 - 1, |d| {
        (d as i32).clamp(1, MAX_PLY as i32 - 1)
    });
    let mut lines = settings.multipv.max(1);
    if skill < 20 {
        max_depth = max_depth.min(2 + skill as i32 / 2);
        lines = lines.max(4);
    }
    (max_depth, lines)
}

/// Searches with one thread per worker until the main one (the first)
/// ends the search, passing its reports on as they come.
fn run_threads(
    workers: &mut [Worker],
    sh: &Shared,
    limits: &Limits,
    report: &mut dyn FnMut(&Info),
) {
    let control = sh.control;
    let pondering = control.ponder.load(Ordering::Relaxed);
    let tm = TimeManager::new(
        limits,
        sh.root.side_to_move(),
        sh.settings.move_overhead_ms,
        Instant::now(),
    );
    let (tx, rx) = mpsc::channel();
    let main = Main::new(tm, pondering, limits.infinite, tx);
    let (first, helpers) = workers.split_at_mut(1);
    let main_worker = &mut first[0];
    std::thread::scope(|scope| {
        for w in helpers.iter_mut() {
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || {
                    w.reset(sh);
                    w.iterate(sh, None);
                })
                .expect("spawn a search thread");
        }
        let main_thread = std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, move || {
                main_worker.reset(sh);
                main_worker.iterate(sh, Some(main));
                wait_for_stop(control, limits.infinite);
                sh.abort.store(true, Ordering::Relaxed);
            })
            .expect("spawn the main search thread");
        for info in rx {
            report(&info);
        }
        main_thread.join().expect("main search thread");
    });
}

/// The answer from the main worker's last completed iteration: its best
/// line, or for a weakened player one of its best lines; the ponder move
/// from the line or else from the table.
fn pick_result(main_worker: &Worker, sh: &Shared, skill: u8) -> SearchOutcome {
    let best_lines = if main_worker.best.is_empty() {
        &main_worker.root_moves[..1]
    } else {
        &main_worker.best[..]
    };
    let pick = if skill < 20 {
        weakened_choice(best_lines, skill, sh.root.hash())
    } else {
        0
    };
    let line = &best_lines[pick];
    let score = if sh.root_draw || main_worker.best.is_empty() {
        Score::Cp(0)
    } else {
        score::to_score(line.shown)
    };
    let ponder = line.pv.get(1).copied().or_else(|| {
        let next = sh.root.make(&sh.rules, line.mv);
        let mv = sh.tt.probe(shared::tt_key(sh, &next))?.mv?;
        let mut list = MoveList::new();
        next.legal_moves(&sh.rules, &mut list);
        list.contains(mv).then_some(mv)
    });
    SearchOutcome {
        best: Some(line.mv),
        ponder,
        score,
        nodes: sh.total_nodes(),
        from_book: false,
    }
}

/// The exact values at a root the tables (or else the book) cover, and
/// the root moves the search may choose among: those that keep the
/// root's value. Winning, only the fastest conversions (each brings the
/// next removal or the end nearer, so the win is never lost by wandering);
/// drawing, every drawing move; losing, the longest resistance.
struct RootValues {
    /// The root's value: the best of its moves'.
    value: Probe,
    moves: Vec<MoveProbe>,
    allowed: Vec<Move>,
    started: Instant,
    /// Whether the values are the book's (no table covers the root).
    from_book: bool,
}

impl RootValues {
    fn of(
        tb: Option<&Tablebases>,
        book: Option<&Book>,
        game: &Game,
        root_moves: &[Move],
    ) -> Option<RootValues> {
        let started = Instant::now();
        let (rules, root) = (game.rules(), game.position());
        let known = Known::of(tb, book, root, rules)?;
        let (moves, from_book) = (known.moves, known.source == Source::Book);
        // The tables know no history: a move into a third occurrence is a draw.
        let repeats = |mv: Move| {
            let key = root.make(rules, mv).repetition_key();
            rules.repetition && game.reversible_history().filter(|&k| k == key).count() >= 2
        };
        let moves: Vec<MoveProbe> = moves
            .into_iter()
            .filter(|m| root_moves.contains(&m.mv))
            .map(|mut m| {
                if repeats(m.mv) {
                    m.probe = Probe::DRAW;
                }
                m
            })
            .collect();
        let value = moves
            .iter()
            .map(|m| m.probe)
            .max_by_key(|&p| preference(p))?;
        let allowed = moves
            .iter()
            .filter(|m| match value.value {
                Value::Draw => m.probe.value == Value::Draw,
                Value::Win | Value::Loss => m.probe == value,
            })
            .map(|m| m.mv)
            .collect();
        Some(RootValues {
            value,
            moves,
            allowed,
            started,
            from_book,
        })
    }

    /// The score of a root move (of the root's value for none): the
    /// table's, or the search's when it proved a mate of the same result
    /// (a true distance to the end of the game, where the table only knows
    /// the distance to the next removal).
    fn score_of(&self, mv: Option<Move>, searched: Option<Score>) -> Score {
        let probe = self
            .moves
            .iter()
            .find(|m| Some(m.mv) == mv)
            .map_or(self.value, |m| m.probe);
        match (probe.value, searched) {
            (Value::Win, Some(Score::Mate(n))) if n > 0 => Score::Mate(n),
            (Value::Loss, Some(Score::Mate(n))) if n <= 0 => Score::Mate(n),
            _ => Score::Cp(tb::score(probe)),
        }
    }

    /// A search report with the table's score of its line in place of the
    /// search's: a search result never overrides a table value.
    fn overridden(&self, info: &Info) -> Info {
        Info {
            score: self.score_of(info.pv.first().copied(), Some(info.score)),
            tbhits: info.tbhits + self.moves.len() as u64 + 1,
            ..info.clone()
        }
    }

    /// The answer when one move keeps the value: no search, one report;
    /// waits like a search for `stop`/`ponderhit` when open-ended.
    fn only_move(
        &self,
        mv: Move,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Info),
    ) -> SearchOutcome {
        let score = self.score_of(Some(mv), None);
        report(&Info {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score,
            nodes: 0,
            nps: 0,
            hashfull: 0,
            time_ms: self.started.elapsed().as_millis() as u64,
            pv: vec![mv],
            tbhits: self.moves.len() as u64 + 1,
        });
        wait_for_stop(control, limits.infinite);
        SearchOutcome {
            best: Some(mv),
            ponder: None,
            score,
            nodes: 0,
            from_book: self.from_book,
        }
    }
}

/// An infinite or pondering search answers only after `stop` or
/// `ponderhit`.
fn wait_for_stop(control: &Control, infinite: bool) {
    while !control.stopped() && (infinite || control.ponder.load(Ordering::Relaxed)) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Index of the line a weakened player picks: the best score after noise
/// that grows as `skill` falls, seeded by the position (repeatable).
fn weakened_choice(lines: &[RootMove], skill: u8, seed: u64) -> usize {
    let spread = (20 - skill as i64) * 15;
    let mut rng = Rng::new(seed | 1);
    let mut best = 0;
    let mut best_value = i64::MIN;
    for (i, rm) in lines.iter().enumerate() {
        let state = rng.next_u64();
        let noise = if rm.score.abs() >= MATE_BOUND {
            0
        } else {
            (state % (spread as u64 + 1)) as i64
        };
        let value = rm.score as i64 + noise;
        if value > best_value {
            best_value = value;
            best = i;
        }
    }
    best
}

/// A fingerprint of the rules (FNV-1a over their description).
fn rules_key(rules: &morris_rules::Rules) -> u64 {
    format!("{rules:?}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
        })
}
