//! What the player asked of the engine: which sides it plays and how
//! strongly, and whether it is paused, made to move once for the side to
//! move, or analysing. Kept apart from the scheduler that acts on them
//! (`scheduler.rs`) so that a new engine setting of the page is one field
//! and one method here; the scheduler only reads them.

use serde::Serialize;

use crate::rules::Color;
use crate::tools::matches::engine_spec::TimeControl;

/// The most lines an analysis shows.
pub(super) const MAX_MULTIPV: u32 = 8;

/// Which sides the engine plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum EngineSide {
    White,
    Black,
    /// Engine against engine: it plays every move.
    Both,
    None,
}

impl EngineSide {
    pub(super) fn from_name(name: &str) -> Option<EngineSide> {
        match name {
            "white" => Some(EngineSide::White),
            "black" => Some(EngineSide::Black),
            "both" => Some(EngineSide::Both),
            "none" => Some(EngineSide::None),
            _ => None,
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            EngineSide::White => "white",
            EngineSide::Black => "black",
            EngineSide::Both => "both",
            EngineSide::None => "none",
        }
    }

    pub(super) fn plays(self, side: Color) -> bool {
        match self {
            EngineSide::White => side == Color::White,
            EngineSide::Black => side == Color::Black,
            EngineSide::Both => true,
            EngineSide::None => false,
        }
    }
}

/// How strongly the engine plays: its depth, time per move or skill
/// level (the engine's `Skill` option, at `scheduler::SKILL_MOVETIME` a
/// move). Its JSON is `{"depth": N}` and the like.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Strength {
    Depth(u32),
    MoveTime(u64),
    Nodes(u64),
    Skill(u8),
}

impl Strength {
    /// The default of `--engine`'s limit keys (`depth=`, `movetime=`,
    /// `nodes=`); a clock (`tc=`) is the game's clock instead.
    pub(super) fn of_time_control(tc: TimeControl) -> Option<Strength> {
        match tc {
            TimeControl::Depth(d) => Some(Strength::Depth(d)),
            TimeControl::MoveTime(ms) => Some(Strength::MoveTime(ms)),
            TimeControl::Nodes(n) => Some(Strength::Nodes(n)),
            TimeControl::Clock { .. } => None,
        }
    }
}

/// What a search is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Kind {
    /// A move of the game, played when it comes.
    Play,
    /// `go infinite` on the position viewed, until stopped.
    Analysis,
}

/// The engine's orders: its sides and strength, and what it is to do now.
pub(super) struct Orders {
    side: EngineSide,
    strength: Strength,
    /// No engine move starts by itself (set by `stop`, a failure, an
    /// import); `go` clears it.
    paused: bool,
    /// The engine plays the side to move once even if it is not its side.
    force: bool,
    /// Analysis lines wanted; none when analysis is off.
    analysis: Option<u32>,
}

impl Orders {
    /// The engine playing Black at `strength`, not paused.
    pub(super) fn new(strength: Strength) -> Orders {
        Orders {
            side: EngineSide::Black,
            strength,
            paused: false,
            force: false,
            analysis: None,
        }
    }

    pub(super) fn engine_side(&self) -> EngineSide {
        self.side
    }

    pub(super) fn strength(&self) -> Strength {
        self.strength
    }

    pub(super) fn paused(&self) -> bool {
        self.paused
    }

    /// The engine is to play the side to move, whichever side that is.
    pub(super) fn forced(&self) -> bool {
        self.force
    }

    /// The analysis lines wanted; none when analysis is off.
    pub(super) fn analysis(&self) -> Option<u32> {
        self.analysis
    }

    /// A new game's sides and strength (none: the last game's); the
    /// engine plays its turns again.
    pub(super) fn new_game(&mut self, side: EngineSide, strength: Option<Strength>) {
        self.side = side;
        self.strength = strength.unwrap_or(self.strength);
        self.paused = false;
    }

    /// A move was played or the game changed: a move the engine was made
    /// to play for the side to move is played or void.
    pub(super) fn end_force(&mut self) {
        self.force = false;
    }

    /// Turns the analysis on (with that many lines, at most
    /// `MAX_MULTIPV`) or off; an analysis pauses the play.
    pub(super) fn analyse(&mut self, lines: Option<u32>) {
        self.analysis = lines.map(|n| n.clamp(1, MAX_MULTIPV));
        if self.analysis.is_some() {
            self.paused = true;
            self.force = false;
        }
    }

    /// The engine stops: no play starts by itself, no analysis (`stop`,
    /// or a failure of the engine).
    pub(super) fn stop(&mut self) {
        self.paused = true;
        self.force = false;
        self.analysis = None;
    }

    /// No engine move starts by itself until `go` (an imported game).
    pub(super) fn pause(&mut self) {
        self.paused = true;
    }

    /// The engine plays the side to move now, and its turns after it.
    pub(super) fn go(&mut self) {
        self.paused = false;
        self.force = true;
        self.analysis = None;
    }
}
