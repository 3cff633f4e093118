//! An engine as a child process: starting it, the handshake, and asking it
//! for moves, with every wait bounded so a hung engine cannot stall a match.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{self, Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use crate::protocol::wire::sanmill::{Best, SanmillLine};
use crate::protocol::wire::{
    BestMove, Command, Declaration, DeclaredKind, Dialect, EngineLine, GoArgs, InfoLine,
    PositionArgs, READY_OK,
};
use crate::rules::{MoveError, Rules, Variant};
use crate::search::Score;

/// How long an engine may think.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TimeControl {
    /// A clock per game, with an increment per move.
    Clock {
        base_ms: u64,
        inc_ms: u64,
    },
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
}

/// A time control that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TimeControlError {
    #[error("time control '{0}': expected SECONDS[+INCREMENT]")]
    Syntax(String),
    #[error("time control '{0}': the base time must be positive")]
    NoBaseTime(String),
}

impl TimeControl {
    /// Reads `SECONDS[+INCREMENT]`, e.g. `10+0.1` or `60`.
    pub fn parse_clock(text: &str) -> Result<TimeControl, TimeControlError> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .map(|v| (v * 1000.0).round() as u64)
                .ok_or_else(|| TimeControlError::Syntax(text.to_string()))
        };
        let base_ms = secs(base)?;
        if base_ms == 0 {
            return Err(TimeControlError::NoBaseTime(text.to_string()));
        }
        Ok(TimeControl::Clock {
            base_ms,
            inc_ms: secs(inc)?,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock { base_ms, inc_ms } => {
                write!(f, "{}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
            }
            TimeControl::MoveTime(ms) => write!(f, "movetime {ms}"),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

/// The protocol an engine of a match speaks: ours in either dialect, or
/// that of the other public mill engine family, which only the match runner
/// speaks (see `protocol::wire::sanmill`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proto {
    Morris(Dialect),
    Sanmill,
}

impl Proto {
    /// The `proto=` setting: `uci`, `gbgp` or `sanmill`.
    pub fn from_name(name: &str) -> Option<Proto> {
        match name {
            "sanmill" => Some(Proto::Sanmill),
            _ => Dialect::from_name(name).map(Proto::Morris),
        }
    }

    /// The dialect of the handshake and `ucinewgame`: a sanmill engine
    /// speaks UCI's.
    pub fn dialect(self) -> Dialect {
        match self {
            Proto::Morris(dialect) => dialect,
            Proto::Sanmill => Dialect::Uci,
        }
    }
}

/// One engine of a match, as given by `--engine key=value ...`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: Proto,
    /// `setoption` values sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// This engine's own time control, overriding the match's.
    pub tc: Option<TimeControl>,
}

/// The keys `--engine` takes, for the help text and error messages.
const ENGINE_KEYS: &str = "cmd=PROGRAM (required), name=NAME, arg=ARGUMENT (repeatable), \
     dir=WORKING_DIR, proto=uci|gbgp|sanmill, option.NAME=VALUE (repeatable), \
     tc=SECONDS[+INC], movetime=MS, depth=N, nodes=N";

/// An engine setting that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EngineSpecError {
    #[error("engine setting '{0}' is not key=value ({ENGINE_KEYS})", ENGINE_KEYS = ENGINE_KEYS)]
    NotKeyValue(String),
    #[error("engine setting {key} needs {what}, not '{value}'")]
    NotANumber {
        key: String,
        what: &'static str,
        value: String,
    },
    #[error("proto must be uci, gbgp or sanmill, not '{0}'")]
    Proto(String),
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    #[error("unknown engine setting '{0}' ({ENGINE_KEYS})", ENGINE_KEYS = ENGINE_KEYS)]
    UnknownKey(String),
    #[error("an engine needs cmd=PROGRAM ({ENGINE_KEYS})", ENGINE_KEYS = ENGINE_KEYS)]
    NoCommand,
}

impl EngineSpec {
    /// Reads an engine's `key=value` settings.
    pub fn parse(items: &[String]) -> Result<EngineSpec, EngineSpecError> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: PathBuf::new(),
            args: Vec::new(),
            dir: None,
            proto: Proto::Morris(Dialect::Uci),
            options: Vec::new(),
            tc: None,
        };
        for item in items {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| EngineSpecError::NotKeyValue(item.clone()))?;
            let number = |what: &'static str| {
                value.parse().map_err(|_| EngineSpecError::NotANumber {
                    key: key.to_string(),
                    what,
                    value: value.to_string(),
                })
            };
            match key {
                "cmd" => spec.cmd = PathBuf::from(value),
                "name" => spec.name = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "proto" => {
                    spec.proto = Proto::from_name(value)
                        .ok_or_else(|| EngineSpecError::Proto(value.to_string()))?
                }
                "tc" => spec.tc = Some(TimeControl::parse_clock(value)?),
                "movetime" => spec.tc = Some(TimeControl::MoveTime(number("milliseconds")?)),
                "depth" => spec.tc = Some(TimeControl::Depth(number("a depth")? as u32)),
                "nodes" => spec.tc = Some(TimeControl::Nodes(number("a node count")?)),
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_string(), value.to_string()))
                    }
                    _ => return Err(EngineSpecError::UnknownKey(key.to_string())),
                },
            }
        }
        if spec.cmd.as_os_str().is_empty() {
            return Err(EngineSpecError::NoCommand);
        }
        // A relative path means relative to where the match is started, not
        // to the engine's working directory.
        if spec.cmd.components().count() > 1
            && spec.cmd.is_relative()
            && let Ok(cwd) = std::env::current_dir()
        {
            spec.cmd = cwd.join(&spec.cmd);
        }
        if spec.name.is_empty() {
            spec.name = spec
                .cmd
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| "engine".into());
        }
        Ok(spec)
    }
}

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
    Timeout { allowed_ms: u64 },
    /// A `bestmove` that is not a legal move here.
    #[error("illegal move '{token}': {reason}")]
    Illegal { token: String, reason: String },
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
pub enum Answer {
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
pub struct Reply {
    pub best: Answer,
    /// From the last `info` line that had them.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub elapsed: Duration,
}

/// Someone watching a search: sees its `info` lines, and may stop it.
pub struct Watch<'a> {
    pub on_info: &'a mut dyn FnMut(&InfoLine),
    pub stop: &'a AtomicBool,
}

/// How often a watched search looks at its stop flag.
const WATCH_TICK: Duration = Duration::from_millis(20);
/// How long an engine stopped by its watcher has to answer.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// A running engine process.
pub struct Engine {
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

/// The strength options of the other engine family, each with the value
/// that plays at full strength (`None`: the maximum the engine declares).
/// Their defaults are their weakest play (`SkillLevel` 1 is depth 1).
const SANMILL_STRENGTH: [(&str, Option<&str>); 3] = [
    ("SkillLevel", None),
    ("IDSEnabled", Some("true")),
    ("DrawOnHumanExperience", Some("false")),
];

/// What the match header says of a sanmill engine's strength settings.
pub fn strength_note(spec: &EngineSpec) -> Option<String> {
    if spec.proto != Proto::Sanmill {
        return None;
    }
    let set: Vec<String> = SANMILL_STRENGTH
        .into_iter()
        .filter(|(name, _)| {
            !spec
                .options
                .iter()
                .any(|(u, _)| u.eq_ignore_ascii_case(name))
        })
        .map(|(name, value)| match value {
            Some(v) => format!("{name} {v}"),
            None => format!("{name} at its maximum"),
        })
        .collect();
    Some(if set.is_empty() {
        format!("{}: strength options as given", spec.name)
    } else {
        format!(
            "{}: full strength: {} (those it declares; option.NAME=VALUE overrides)",
            spec.name,
            set.join(", ")
        )
    })
}

/// The full-strength settings for an engine that declared `declared`,
/// but for those the user sets (`user`).
fn full_strength(
    declared: &[Declaration],
    user: &[(String, String)],
) -> Vec<(&'static str, String)> {
    SANMILL_STRENGTH
        .into_iter()
        .filter(|(name, _)| !user.iter().any(|(u, _)| u.eq_ignore_ascii_case(name)))
        .filter_map(|(name, value)| {
            let d = declared
                .iter()
                .find(|d| d.name.eq_ignore_ascii_case(name))?;
            match (value, &d.kind) {
                (None, DeclaredKind::Spin { max, .. }) => Some((name, max.to_string())),
                (Some(v), DeclaredKind::Check { .. }) => Some((name, v.to_string())),
                _ => None,
            }
        })
        .collect()
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
    pub fn start(spec: &EngineSpec, rules: &Rules, timeout: Duration) -> Result<Engine, Fault> {
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
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(&Command::NewGame(self.proto.dialect()))?;
        self.sync(timeout)
    }

    /// Sends `position` and `go` and waits up to `limit` for the
    /// `bestmove`, keeping the last score and depth `info` lines gave. With
    /// `stop_after`, sends `stop` once that time has passed without an
    /// answer, then waits for the answer to it (and for `readyok`, so that a
    /// late second answer cannot be taken for the next move's).
    pub fn go(
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
    pub fn go_watched(
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
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Fault> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_engine_settings() {
        let items: Vec<String> = [
            "cmd=/bin/engine",
            "name=A",
            "option.Hash=32",
            "option.Move Overhead=10",
            "proto=gbgp",
            "tc=5+0.05",
            "arg=--fast",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let spec = EngineSpec::parse(&items).unwrap();
        assert_eq!(spec.name, "A");
        assert_eq!(spec.proto, Proto::Morris(Dialect::Gbgp));
        let sanmill = EngineSpec::parse(&["cmd=x".into(), "proto=sanmill".into()]).unwrap();
        assert_eq!(sanmill.proto, Proto::Sanmill);
        assert!(EngineSpec::parse(&["cmd=x".into(), "proto=sanmil".into()]).is_err());
        assert_eq!(spec.options[1], ("Move Overhead".into(), "10".into()));
        assert_eq!(
            spec.tc,
            Some(TimeControl::Clock {
                base_ms: 5000,
                inc_ms: 50
            })
        );
        assert!(EngineSpec::parse(&["name=x".into()]).is_err());
        assert!(EngineSpec::parse(&["cmd=x".into(), "colour=red".into()]).is_err());
        let plain = EngineSpec::parse(&["cmd=/usr/bin/morris".into()]).unwrap();
        assert_eq!(plain.name, "morris");
    }
}
