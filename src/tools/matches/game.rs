//! One game of a match, refereed: the engines' moves checked by the rules
//! core (never what an engine claims), both clocks, and the record.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::engine_process::{Answer, Engine, Fault, Reply};
use super::engine_spec::{Proto, TimeControl};
use super::schedule::{MatchConfig, ScheduledGame};
use crate::protocol::wire::sanmill::Token;
use crate::protocol::wire::{GoArgs, PositionArgs};
use crate::rules::{Color, Game, GameResult, Move, MoveList, Setup};
use crate::tools::records::record::{Record, format_score};

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game as scheduled: its number, round, engines and opening.
    pub job: ScheduledGame,
    /// Its result: by the rules, a draw by `max_plies`, or a loss by a fault.
    pub result: GameResult,
    /// Why the game ended, in words.
    pub termination: String,
    /// The engine (index) that lost by a fault, and the fault.
    pub fault: Option<(usize, Fault)>,
    /// The game's record: the match's tags, and each engine move's score,
    /// depth and time as its comment.
    pub record: Record,
}

/// Words for the rules' reason of an outcome ("no legal move").
fn reason_words(outcome: &crate::rules::Outcome) -> String {
    let text = outcome.to_string();
    text.split_once(" by ")
        .map_or(text.clone(), |(_, why)| why.to_string())
}

/// Plays one game; `None` when the match was stopped during it. Engines
/// that fault are dropped (killed) so the next game starts them afresh.
pub(super) fn play_game(
    cfg: &MatchConfig,
    job: ScheduledGame,
    engines: &mut [Option<Engine>],
    stop: &AtomicBool,
) -> Option<GameReport> {
    let mut referee = Referee::new(cfg, job);
    let ending = match referee.start_engines(engines) {
        Ok(()) => referee.play(engines, stop)?,
        Err(forfeit) => forfeit,
    };
    Some(GameReport {
        job,
        record: referee.record(&ending),
        result: ending.result,
        termination: ending.termination,
        fault: ending.fault,
    })
}

/// The fault of a sanmill engine that answered `answer` where it owed a
/// removal after `tokens`.
fn owed_removal(answer: &str, tokens: &[Token]) -> Fault {
    Fault::Illegal {
        token: answer.to_string(),
        reason: format!(
            "{} closed a mill: a removal (x<point>) is owed",
            Token::join(tokens)
        ),
    }
}

/// How a game ended.
struct Ending {
    result: GameResult,
    /// Why, in words.
    termination: String,
    /// The engine (index) that lost by a fault, and the fault.
    fault: Option<(usize, Fault)>,
}

/// Both sides' time controls in one game, and the time left on their clocks.
struct GameClocks {
    tc: [TimeControl; 2],
    /// Milliseconds left, for a side on a clock.
    left_ms: [u64; 2],
    /// Longest wait for a move under `depth` or `nodes` limits.
    untimed_limit: Duration,
}

impl GameClocks {
    fn new(cfg: &MatchConfig, job: ScheduledGame) -> GameClocks {
        let tc =
            [Color::White, Color::Black].map(|c| cfg.engines[job.engine(c)].tc.unwrap_or(cfg.tc));
        let left_ms = tc.map(|t| match t {
            TimeControl::Clock { base_ms, .. } => base_ms,
            TimeControl::MoveTime(_) | TimeControl::Depth(_) | TimeControl::Nodes(_) => 0,
        });
        GameClocks {
            tc,
            left_ms,
            untimed_limit: cfg.untimed_limit,
        }
    }

    fn tc(&self, side: Color) -> TimeControl {
        self.tc[side.index()]
    }

    /// The `go` for `side`, and how long it may think (before the margin).
    /// A side on a clock sees its opponent's clock, or its own in its place
    /// when the opponent has none.
    fn go(&self, side: Color) -> (GoArgs, Duration) {
        match self.tc(side) {
            TimeControl::Clock { inc_ms, .. } => {
                let own = (self.left_ms[side.index()], inc_ms);
                let [w, b] = [Color::White, Color::Black].map(|c| match self.tc(c) {
                    TimeControl::Clock { inc_ms, .. } => (self.left_ms[c.index()], inc_ms),
                    TimeControl::MoveTime(_) | TimeControl::Depth(_) | TimeControl::Nodes(_) => own,
                });
                let go = GoArgs {
                    wtime: Some(w.0),
                    btime: Some(b.0),
                    winc: Some(w.1),
                    binc: Some(b.1),
                    ..GoArgs::default()
                };
                (go, Duration::from_millis(own.0))
            }
            TimeControl::MoveTime(ms) => {
                let go = GoArgs {
                    movetime: Some(ms),
                    ..GoArgs::default()
                };
                (go, Duration::from_millis(ms))
            }
            TimeControl::Depth(d) => {
                let go = GoArgs {
                    depth: Some(d),
                    ..GoArgs::default()
                };
                (go, self.untimed_limit)
            }
            TimeControl::Nodes(n) => {
                let go = GoArgs {
                    nodes: Some(n),
                    ..GoArgs::default()
                };
                (go, self.untimed_limit)
            }
        }
    }

    /// The `go` for `side`'s sanmill engine when it has used `used_ms` of
    /// this turn already (asked for its removals), when to send it `stop`,
    /// and how long it may think (before the margin). That family takes
    /// only `movetime` and `depth`: on a clock it is given a thirtieth of
    /// what is left plus the increment per token.
    fn sanmill_go(&self, side: Color, used_ms: u64) -> (GoArgs, Duration, Duration) {
        let movetime = |ms: u64| GoArgs {
            movetime: Some(ms),
            ..GoArgs::default()
        };
        match self.tc(side) {
            TimeControl::Clock { inc_ms, .. } => {
                let left = self.left_ms[side.index()].saturating_sub(used_ms);
                let budget = (left / 30 + inc_ms).min(left);
                (
                    movetime(budget),
                    Duration::from_millis(budget),
                    Duration::from_millis(left),
                )
            }
            TimeControl::MoveTime(ms) => {
                let allowed = Duration::from_millis(ms);
                (movetime(ms), allowed, allowed)
            }
            TimeControl::Depth(d) => {
                let go = GoArgs {
                    depth: Some(d),
                    ..GoArgs::default()
                };
                (go, self.untimed_limit, self.untimed_limit)
            }
            // Refused before the match starts; asked anyway, it gets no limit
            // but the hang timeout.
            TimeControl::Nodes(_) => (GoArgs::default(), self.untimed_limit, self.untimed_limit),
        }
    }

    /// Takes a move's time off `side`'s clock and adds the increment.
    fn charge(&mut self, side: Color, used_ms: u64) {
        if let TimeControl::Clock { inc_ms, .. } = self.tc(side) {
            let left = &mut self.left_ms[side.index()];
            *left = left.saturating_sub(used_ms) + inc_ms;
        }
    }
}

/// One game as the match runner plays it: the engines' moves checked by
/// the rules core, the clocks, and a comment per move for the record.
struct Referee<'a> {
    cfg: &'a MatchConfig,
    job: ScheduledGame,
    game: Game,
    /// Plies of the opening, played before the engines take over.
    book: usize,
    clocks: GameClocks,
    comments: Vec<Option<String>>,
}

impl<'a> Referee<'a> {
    fn new(cfg: &'a MatchConfig, job: ScheduledGame) -> Referee<'a> {
        let game = cfg.openings[job.opening]
            .game(&cfg.rules)
            .expect("openings are checked before the match");
        let book = game.moves().len();
        Referee {
            cfg,
            job,
            game,
            book,
            clocks: GameClocks::new(cfg, job),
            comments: vec![None; book],
        }
    }

    /// `side`'s engine loses by `fault`.
    fn forfeit(&self, side: Color, fault: Fault) -> Ending {
        let i = self.job.engine(side);
        Ending {
            result: GameResult::Win(!side),
            termination: format!("{} ({}) {fault}", side.name(), self.cfg.engines[i].name),
            fault: Some((i, fault)),
        }
    }

    /// Starts each side's engine unless it is running, and announces the
    /// new game to it.
    fn start_engines(&self, engines: &mut [Option<Engine>]) -> Result<(), Ending> {
        let cfg = self.cfg;
        for side in [Color::White, Color::Black] {
            let i = self.job.engine(side);
            let engine = match &mut engines[i] {
                Some(engine) => engine,
                slot @ None => {
                    let started = Engine::start(&cfg.engines[i], &cfg.rules, cfg.handshake_timeout)
                        .map_err(|f| self.forfeit(side, f))?;
                    slot.insert(started)
                }
            };
            if let Err(f) = engine.new_game(cfg.handshake_timeout) {
                engines[i] = None;
                return Err(self.forfeit(side, f));
            }
        }
        Ok(())
    }

    /// Plays moves until the rules end the game, it is adjudicated, or an
    /// engine faults; `None` when the match stops first.
    fn play(&mut self, engines: &mut [Option<Engine>], stop: &AtomicBool) -> Option<Ending> {
        loop {
            if let Some(outcome) = self.game.outcome() {
                return Some(Ending {
                    result: outcome.result,
                    termination: reason_words(&outcome),
                    fault: None,
                });
            }
            let max_plies = self.cfg.max_plies;
            if max_plies > 0 && self.game.moves().len() - self.book >= max_plies {
                return Some(Ending {
                    result: GameResult::Draw,
                    termination: format!("adjudicated a draw after {max_plies} plies"),
                    fault: None,
                });
            }
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let side = self.game.position().side_to_move();
            let i = self.job.engine(side);
            let engine = engines[i].as_mut().expect("started");
            let played = self
                .ask_move(engine, side)
                .and_then(|reply| self.check_move(side, &reply));
            if let Err(f) = played {
                engines[i] = None;
                return Some(self.forfeit(side, f));
            }
        }
    }

    /// Sends the game so far and `side`'s clock, and waits for the move.
    fn ask_move(&self, engine: &mut Engine, side: Color) -> Result<Reply, Fault> {
        let spec = &self.cfg.engines[self.job.engine(side)];
        match spec.proto {
            Proto::Morris(dialect) => {
                let position = PositionArgs::of_game(&self.game, dialect);
                let (go, allowed) = self.clocks.go(side);
                engine.go(position, go, None, allowed + self.cfg.margin)
            }
            Proto::Sanmill => self.ask_sanmill_turn(engine, side),
        }
    }

    /// Asks a sanmill engine for its move, then, while the move closes a
    /// mill, for each removal (the position with the tokens so far, and
    /// `go` again), and joins the tokens into one compound move. A token
    /// that cannot be part of a legal turn here is a fault at once. The
    /// reply has the first answer's score and depth and the whole time.
    fn ask_sanmill_turn(&self, engine: &mut Engine, side: Color) -> Result<Reply, Fault> {
        let mut tokens: Vec<Token> = Vec::new();
        let mut elapsed = Duration::ZERO;
        let mut first: Option<Reply> = None;
        loop {
            let (go, stop_after, allowed) =
                self.clocks.sanmill_go(side, elapsed.as_millis() as u64);
            let moves = self
                .game
                .moves()
                .iter()
                .flat_map(|&mv| Token::split(mv))
                .chain(tokens.iter().copied())
                .map(|t| t.to_string())
                .collect();
            let position = PositionArgs::Setup(Setup::new(Setup::of_game(&self.game).start, moves));
            let reply = engine.go(position, go, Some(stop_after), allowed + self.cfg.margin)?;
            elapsed += reply.elapsed;
            let text = match &reply.best {
                Answer::Move(text) => text.clone(),
                Answer::NoMove(_) | Answer::Draw if tokens.is_empty() => {
                    return Ok(Reply { elapsed, ..reply });
                }
                Answer::NoMove(word) => return Err(owed_removal(word, &tokens)),
                Answer::Draw => return Err(owed_removal("draw", &tokens)),
            };
            let token = Token::parse(&text).map_err(|e| Fault::Illegal {
                token: text.clone(),
                reason: e.to_string(),
            })?;
            match (tokens.is_empty(), token) {
                (true, Token::Removal(_)) => {
                    return Err(Fault::Illegal {
                        token: text,
                        reason: "a removal, but a move is owed (no mill was closed)".into(),
                    });
                }
                (false, Token::Move { .. }) => return Err(owed_removal(&text, &tokens)),
                (true, Token::Move { .. }) | (false, Token::Removal(_)) => tokens.push(token),
            }
            let first = first.get_or_insert(reply);
            match self.removals_owed(&tokens) {
                Ok(true) => {}
                Ok(false) => {
                    return Ok(Reply {
                        best: Answer::Move(Token::join(&tokens)),
                        score: first.score,
                        depth: first.depth,
                        elapsed,
                    });
                }
                Err(reason) => {
                    return Err(Fault::Illegal {
                        token: text,
                        reason,
                    });
                }
            }
        }
    }

    /// Whether the turn begun by `tokens` (a move, then removals) owes
    /// more removals (`false`: it is a whole legal move), or why no legal
    /// move begins with them.
    fn removals_owed(&self, tokens: &[Token]) -> Result<bool, String> {
        let mut legal = MoveList::new();
        self.game.legal_moves(&mut legal);
        let taken = tokens.len() - 1;
        let begins = |m: &Move| {
            tokens.iter().all(|t| match *t {
                Token::Move { from, to } => m.from() == from && m.to() == Some(to),
                Token::Removal(sq) => m.removed().contains(sq),
            })
        };
        let whole = |m: &Move| m.num_removals() == taken;
        if legal.iter().any(|m| begins(m) && !whole(m))
            && !legal.iter().any(|m| begins(m) && whole(m))
        {
            return Ok(true);
        }
        let joined = Token::join(tokens);
        match self.game.position().parse_move(self.game.rules(), &joined) {
            Ok(_) => Ok(false),
            Err(e) if taken == 0 => Err(e.reason.to_string()),
            Err(e) => Err(format!("as {joined}: {}", e.reason)),
        }
    }

    /// Charges `side`'s clock and plays its move if the rules allow it,
    /// with a comment of its score, depth and time.
    fn check_move(&mut self, side: Color, reply: &Reply) -> Result<(), Fault> {
        let used = reply.elapsed.as_millis() as u64;
        self.clocks.charge(side, used);
        let token = match &reply.best {
            Answer::Move(token) => token,
            Answer::NoMove(word) => {
                return Err(Fault::Illegal {
                    token: (*word).into(),
                    reason: "claimed to have no move, but it has legal moves".into(),
                });
            }
            Answer::Draw => {
                return Err(Fault::Illegal {
                    token: "draw".into(),
                    reason: "claimed a draw, but the game goes on under the refereeing rules"
                        .into(),
                });
            }
        };
        self.game.play_text(token)?;
        let secs = format!("{:.3}s", used as f64 / 1000.0);
        self.comments.push(Some(match (reply.score, reply.depth) {
            (Some(s), Some(d)) => format!("{}/{d} {secs}", format_score(s)),
            (Some(s), None) => format!("{} {secs}", format_score(s)),
            (None, _) => secs,
        }));
        Ok(())
    }

    /// The game's record: its moves with their comments, and its tags.
    fn record(&self, ending: &Ending) -> Record {
        let (cfg, job) = (self.cfg, self.job);
        let names = [job.white, job.black].map(|i| cfg.engines[i].name.clone());
        let [tw, tb] = [Color::White, Color::Black].map(|c| self.clocks.tc(c).to_string());
        let date = jiff::Timestamp::now().strftime("%Y.%m.%d").to_string();
        let mut record = Record::from_game(
            &self.game,
            &[
                ("Event", cfg.event.clone()),
                ("Date", date),
                ("Round", job.round.to_string()),
                ("White", names[0].clone()),
                ("Black", names[1].clone()),
            ],
            Some(ending.result),
            &self.comments,
        );
        if tw == tb {
            record.set_tag("TimeControl", &tw);
        } else {
            record.set_tag("WhiteTimeControl", &tw);
            record.set_tag("BlackTimeControl", &tb);
        }
        record.set_tag("Opening", &cfg.openings[job.opening].to_string());
        record.set_tag("Termination", &ending.termination);
        record.set_tag("PlyCount", &self.game.moves().len().to_string());
        record
    }
}
