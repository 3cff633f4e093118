//! An engine as a child process: starting it, the handshake, and asking it
//! for moves, with every wait bounded so a hung engine cannot stall a match.

use std::io::{BufRead, BufReader, Write};
use std::process::{self, Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use super::engine_spec::{EngineSpec, Proto, full_strength};
use crate::protocol::wire::sanmill::{Best, SanmillLine};
use crate::protocol::wire::{
    BestMove, Command, Declaration, EngineLine, GoArgs, InfoLine, PositionArgs, READY_OK,
};
use crate::rules::{MoveError, Rules, Variant};
use crate::search::Score;

/// Why an engine lost a game.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Fault {
    /// The program could not be started.
    #[error("could not be started: {0}")]
    Start(String),
    /// No `uciok`/`gbgpok` or `readyok` in time.
    #[error("failed the handshake: {0}")]
    Handshake(String),
    /// The process exited or closed its output.
    #[error("crashed: {0}")]
    Crash(String),
    /// No `bestmove` within the time allowed plus the margin.
    #[error("lost on time: no move within {allowed_ms} ms")]
    Timeout {
        /// How long it waited: the time allowed plus the margin, in
        /// milliseconds.
        allowed_ms: u64,
    },
    /// A `bestmove` that is not a legal move here.
    #[error("illegal move '{token}': {reason}")]
    Illegal {
        /// What the engine answered (`draw` for a claimed draw).
        token: String,
        /// Why that is no legal move here.
        reason: String,
    },
    /// A `bestmove` line without a move.
    #[error("malformed reply '{0}'")]
    Malformed(String),
}

/// An engine's move that the rules core refused.
impl From<MoveError> for Fault {
    fn from(e: MoveError) -> Fault {
        Fault::Illegal {
            token: e.token,
            reason: e.reason.to_string(),
        }
    }
}

/// What an engine answered instead of a move, or its move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Answer {
    /// The move token, as sent (for a sanmill engine, one turn token).
    Move(String),
    /// No move (`bestmove (none)`, `bestmove none`): the word as the fault
    /// names it.
    NoMove(&'static str),
    /// A sanmill engine's `bestmove draw`.
    Draw,
}

/// An engine's answer to `go`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Reply {
    pub best: Answer,
    /// From the last `info` line that had them.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed: Duration,
}

/// Someone watching a search: sees its `info` lines, and may stop it.
pub(crate) struct Watch<'a> {
    pub on_info: &'a mut dyn FnMut(&InfoLine),
    pub stop: &'a AtomicBool,
}

/// How often a watched search looks at its stop flag.
const WATCH_TICK: Duration = Duration::from_millis(20);
/// How long an engine stopped by its watcher has to answer.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// A running engine process.
pub(crate) struct Engine {
    name: String,
    proto: Proto,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Longest wait for `readyok`.
    sync_timeout: Duration,
    /// The sanmill time options last sent (`MoveTime` seconds,
    /// `SkillLevel`), so each is sent only when it changes.
    sanmill_limits: Option<(u64, Option<String>)>,
    /// The sanmill `SkillLevel` of searches without a depth: the user's,
    /// else the maximum the engine declared.
    sanmill_skill: Option<String>,
}

enum WaitError {
    Timeout,
    Closed,
}

impl Engine {
    /// Starts the engine, completes the handshake within `timeout`, then
    /// sends its options and the rule options that differ from the default.
    /// A sanmill engine is told `MoveTimeMs 0` first (its Rust member's own
    /// cap, which would cut even depth searches short), and no rule
    /// options: its option names are its own, and the referee applies ours.
    pub(crate) fn start(
        spec: &EngineSpec,
        rules: &Rules,
        timeout: Duration,
    ) -> Result<Engine, Fault> {
        let mut cmd = process::Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| Fault::Start(format!("{}: {e}", spec.cmd.display())))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        let name = spec.name.clone();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                log::debug!("{name} > {line}");
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            name: spec.name.clone(),
            proto: spec.proto,
            child,
            stdin,
            lines: rx,
            sync_timeout: timeout,
            sanmill_limits: None,
            sanmill_skill: None,
        };
        let hello = Command::Hello(spec.proto.dialect());
        engine
            .send(&hello)
            .map_err(|_| engine.handshake_fault(hello.keyword()))?;
        let ok = spec.proto.dialect().hello_ok();
        let mut declared = Vec::new();
        engine
            .wait_for(
                |l| {
                    declared.extend(Declaration::parse(l));
                    l == ok
                },
                timeout,
            )
            .map_err(|e| engine.wait_fault(e, ok, timeout))?;
        if spec.proto == Proto::Sanmill {
            engine.set_option("MoveTimeMs", "0")?;
            let strength = full_strength(&declared, &spec.options);
            for (name, value) in &strength {
                engine.set_option(name, value)?;
            }
            let user = spec
                .options
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("SkillLevel"));
            engine.sanmill_skill = user.map(|(_, v)| v.clone()).or_else(|| {
                strength
                    .iter()
                    .find(|(n, _)| *n == "SkillLevel")
                    .map(|(_, v)| v.clone())
            });
        }
        for (name, value) in &spec.options {
            engine.set_option(name, value)?;
        }
        if let Proto::Morris(_) = spec.proto {
            if rules.variant != Variant::Nine {
                engine.set_option("Variant", rules.variant.name())?;
            }
            for setting in rules.non_default() {
                engine.set_option(&setting.option.to_string(), &setting.value.to_string())?;
            }
        }
        engine.sync(timeout)?;
        Ok(engine)
    }

    /// Announces a new game and waits until the engine is ready for it.
    pub(crate) fn new_game(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(&Command::NewGame(self.proto.dialect()))?;
        self.sync(timeout)
    }

    /// Sends `position` and `go` and waits up to `limit` for the
    /// `bestmove`, keeping the last score and depth `info` lines gave. With
    /// `stop_after`, sends `stop` once that time has passed without an
    /// answer, then waits for the answer to it (and for `readyok`, so that a
    /// late second answer cannot be taken for the next move's).
    pub(crate) fn go(
        &mut self,
        position: PositionArgs,
        go: GoArgs,
        stop_after: Option<Duration>,
        limit: Duration,
    ) -> Result<Reply, Fault> {
        self.go_watched(position, go, stop_after, limit, None)
    }

    /// `go` with a watcher: every `info` line is passed to it as it comes,
    /// and once its flag is set the engine is sent `stop` and given
    /// `STOP_GRACE` for its answer (a search started with `go infinite`
    /// ends only so).
    pub(crate) fn go_watched(
        &mut self,
        position: PositionArgs,
        go: GoArgs,
        stop_after: Option<Duration>,
        mut limit: Duration,
        mut watch: Option<Watch<'_>>,
    ) -> Result<Reply, Fault> {
        if self.proto == Proto::Sanmill {
            self.set_sanmill_limits(&go)?;
        }
        self.send(&Command::Position(position))?;
        self.send(&Command::Go(go))?;
        let start = Instant::now();
        let mut stop_at = stop_after;
        let mut stopped = false;
        let (mut score, mut depth) = (None, None);
        let best = loop {
            let wait = stop_at.unwrap_or(limit).min(limit);
            let mut left = wait.saturating_sub(start.elapsed());
            if watch.is_some() {
                left = left.min(WATCH_TICK);
            }
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout)
                    if !stopped
                        && watch
                            .as_ref()
                            .is_some_and(|w| w.stop.load(AtomicOrdering::Relaxed)) =>
                {
                    stopped = true;
                    stop_at = None;
                    limit = limit.min(start.elapsed() + STOP_GRACE);
                    self.send(&Command::Stop)?;
                    continue;
                }
                Err(RecvTimeoutError::Timeout) if start.elapsed() < wait => continue,
                Err(RecvTimeoutError::Timeout) if stop_at.is_some() => {
                    stop_at = None;
                    stopped = true;
                    self.send(&Command::Stop)?;
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Fault::Timeout {
                        allowed_ms: limit.as_millis() as u64,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crash()),
            };
            let malformed = || Fault::Malformed(line.trim().to_string());
            let info = match self.proto {
                Proto::Morris(_) => match EngineLine::parse(&line).map_err(|_| malformed())? {
                    EngineLine::Info(info) => Some(info),
                    EngineLine::BestMove(BestMove::Move { best, .. }) => break Answer::Move(best),
                    EngineLine::BestMove(BestMove::Null) => break Answer::NoMove("(none)"),
                    EngineLine::Other => None,
                },
                Proto::Sanmill => match SanmillLine::parse(&line).map_err(|_| malformed())? {
                    SanmillLine::Info { depth: d, score: s } => Some(InfoLine {
                        depth: d,
                        score: s.map(Score::Cp),
                        ..InfoLine::default()
                    }),
                    SanmillLine::Answer {
                        depth: d,
                        score: s,
                        best,
                    } => {
                        score = s.map(Score::Cp).or(score);
                        depth = d.or(depth);
                        break match best {
                            Best::Move(token) => Answer::Move(token),
                            Best::None => Answer::NoMove("none"),
                            Best::Draw => Answer::Draw,
                        };
                    }
                    SanmillLine::Other => None,
                },
            };
            if let Some(info) = info {
                score = info.score.or(score);
                depth = info.depth.or(depth);
                if let Some(w) = watch.as_mut() {
                    (w.on_info)(&info);
                }
            }
        };
        let elapsed = start.elapsed();
        if stopped {
            self.sync(self.sync_timeout)?;
        }
        Ok(Reply {
            best,
            score,
            depth,
            elapsed,
        })
    }

    /// The C++ sanmill member ignores `go`'s arguments: its time per move
    /// is `MoveTime` in whole seconds (rounded up; 0: no limit) and its
    /// depth `SkillLevel` (without a depth: the full-strength one). Sent
    /// when they change.
    fn set_sanmill_limits(&mut self, go: &GoArgs) -> Result<(), Fault> {
        let skill = go
            .depth
            .map(|d| d.to_string())
            .or_else(|| self.sanmill_skill.clone());
        let limits = (go.movetime.map_or(0, |ms| ms.div_ceil(1000)), skill);
        if self.sanmill_limits.as_ref() == Some(&limits) {
            return Ok(());
        }
        self.set_option("MoveTime", &limits.0.to_string())?;
        if let Some(skill) = &limits.1 {
            self.set_option("SkillLevel", skill)?;
        }
        self.sanmill_limits = Some(limits);
        Ok(())
    }

    /// Sends `setoption` (between searches).
    pub(crate) fn set_option(&mut self, name: &str, value: &str) -> Result<(), Fault> {
        self.send(&Command::SetOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        })
    }

    fn send(&mut self, command: &Command) -> Result<(), Fault> {
        log::debug!("{} < {command}", self.name);
        writeln!(self.stdin, "{command}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| self.crash())
    }

    /// `isready` until `readyok`, which may share its line with output
    /// another thread of the engine was writing at the same moment (the
    /// C++ sanmill member's analysis: `readyok0.00% : 0.00% : 0.00%`).
    fn sync(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(&Command::IsReady)?;
        self.wait_for(|l| l.contains(READY_OK), timeout)
            .map_err(|e| self.wait_fault(e, READY_OK, timeout))
    }

    fn wait_for(
        &mut self,
        mut done: impl FnMut(&str) -> bool,
        timeout: Duration,
    ) -> Result<(), WaitError> {
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) if done(line.trim()) => return Ok(()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(WaitError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(WaitError::Closed),
            }
        }
    }

    fn wait_fault(&mut self, e: WaitError, expected: &str, timeout: Duration) -> Fault {
        match e {
            WaitError::Timeout => {
                Fault::Handshake(format!("no '{expected}' within {} ms", timeout.as_millis()))
            }
            WaitError::Closed => self.handshake_fault(expected),
        }
    }

    fn handshake_fault(&mut self, expected: &str) -> Fault {
        match self.crash() {
            Fault::Crash(how) => Fault::Handshake(format!("{how} before '{expected}'")),
            other => other,
        }
    }

    /// The fault for a closed pipe, with the exit status when there is one.
    fn crash(&mut self) -> Fault {
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Fault::Crash(match status.code() {
                    Some(code) => format!("exited with code {code}"),
                    None => format!("ended by a signal ({status})"),
                });
            }
            thread::sleep(Duration::from_millis(10));
        }
        Fault::Crash("closed its output".into())
    }
}

impl Drop for Engine {
    /// Asks the engine to quit, and kills it if it has not after a moment.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "{}", Command::Quit).and_then(|_| self.stdin.flush());
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
