//! A deliberately naive implementation of every option of docs/rules.md
//! Part II (Sanmill's rule sets), written from that text alone and
//! sharing nothing with the production move generator: 24 cells in an
//! array, point names, the lines written out as name triples, plain loops.
//!
//! A turn is built action by action exactly as docs/rules.md section 14
//! orders them (placement or move, capture targets, mills, single
//! removals with their owed count, stage change, full board, blocked
//! test), and turns are grouped into tokens as section 13 says. Speed does
//! not matter here; being obviously right does. Comments cite the
//! section of docs/rules.md ("§14.4") each rule comes from.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::rc::Rc;

use super::naive::{NAMES, RANKS, index_of};

/// The three line families of §11.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
    Side,
    Cross,
    Diagonal,
}

/// Every line of §11, end-middle-end, with its family.
pub const LINES: [(Family, [&str; 3]); 20] = [
    (Family::Side, ["a7", "d7", "g7"]),
    (Family::Side, ["g7", "g4", "g1"]),
    (Family::Side, ["a1", "d1", "g1"]),
    (Family::Side, ["a7", "a4", "a1"]),
    (Family::Side, ["b6", "d6", "f6"]),
    (Family::Side, ["f6", "f4", "f2"]),
    (Family::Side, ["b2", "d2", "f2"]),
    (Family::Side, ["b6", "b4", "b2"]),
    (Family::Side, ["c5", "d5", "e5"]),
    (Family::Side, ["e5", "e4", "e3"]),
    (Family::Side, ["c3", "d3", "e3"]),
    (Family::Side, ["c5", "c4", "c3"]),
    (Family::Cross, ["a4", "b4", "c4"]),
    (Family::Cross, ["e4", "f4", "g4"]),
    (Family::Cross, ["d7", "d6", "d5"]),
    (Family::Cross, ["d3", "d2", "d1"]),
    (Family::Diagonal, ["a7", "b6", "c5"]),
    (Family::Diagonal, ["g7", "f6", "e5"]),
    (Family::Diagonal, ["a1", "b2", "c3"]),
    (Family::Diagonal, ["g1", "f2", "e3"]),
];

/// `PlacingMill` (§16.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlacingMill {
    Board,
    Hand,
    HandAgain,
    VictimPicks,
    Mark,
    Tally,
}

/// `Blocked` (§16.10).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlockedRule {
    Loss,
    Draw,
    Pass,
    RemoveMove,
    RemovePass,
    BothRemove,
}

/// `BoardFull` (§14.7).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FullRule {
    Draw,
    Loss,
    FirstLoses,
    RemoveFirst,
    RemoveSecond,
    RemoveOne,
}

/// The seven options of one capture rule K (§16.11).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Capture {
    pub on: bool,
    pub sides: bool,
    pub cross: bool,
    pub diagonals: bool,
    pub placing: bool,
    pub moving: bool,
    pub at_three: bool,
}

impl Capture {
    const OFF: Capture = Capture {
        on: false,
        sides: true,
        cross: true,
        diagonals: true,
        placing: true,
        moving: true,
        at_three: false,
    };

    fn selects(&self, f: Family) -> bool {
        match f {
            Family::Side => self.sides,
            Family::Cross => self.cross,
            Family::Diagonal => self.diagonals,
        }
    }
}

/// Every option of §12 that a Sanmill rule set can take. (`MayPass`,
/// `MillReform`, `FirstPlayer` and `Flying both` are not in Sanmill and
/// are refused by `set`.)
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Opts {
    pub pieces: u32,
    pub diagonals: bool,
    /// `Flying three` (true) or `off`.
    pub flying: bool,
    pub fly_at: u32,
    pub lasker: bool,
    pub remove_per_mill: bool,
    /// `MillRemoval any` (true) or `protected`.
    pub mill_any: bool,
    pub blocked: BlockedRule,
    pub board_full: FullRule,
    pub no_capture_moves: u32,
    pub endgame_moves: u32,
    pub repetition: bool,
    pub min_pieces: u32,
    pub placing_mill: PlacingMill,
    pub defender_first: bool,
    pub one_time_mill: bool,
    /// `MillShuttle banned` (true) or `allowed`.
    pub shuttle_banned: bool,
    pub stop_at_two_empty: bool,
    pub custodian: Capture,
    pub intervention: Capture,
    pub leap: Capture,
    /// `LossCheck removal` (true) or `turn`.
    pub loss_check_removal: bool,
    /// `EndgameWhen either` (true) or `both`.
    pub endgame_either: bool,
}

fn yes_no(v: &str) -> bool {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => true,
        "false" | "off" | "no" | "0" => false,
        _ => panic!("not a yes/no value: {v}"),
    }
}

fn yn(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

impl Opts {
    /// The Sanmill base of §18.1.
    pub fn base() -> Opts {
        Opts {
            pieces: 9,
            diagonals: false,
            flying: true,
            fly_at: 3,
            lasker: false,
            remove_per_mill: false,
            mill_any: false,
            blocked: BlockedRule::Loss,
            board_full: FullRule::FirstLoses,
            no_capture_moves: 100,
            endgame_moves: 0,
            repetition: true,
            min_pieces: 3,
            placing_mill: PlacingMill::Board,
            defender_first: false,
            one_time_mill: false,
            shuttle_banned: false,
            stop_at_two_empty: false,
            custodian: Capture::OFF,
            intervention: Capture::OFF,
            leap: Capture::OFF,
            loss_check_removal: true,
            endgame_either: true,
        }
    }

    /// Applies one `Name=Value` setting, names as §12 writes them.
    pub fn set(&mut self, setting: &str) {
        let (name, value) = setting.split_once('=').expect("Name=Value");
        let v = value.to_ascii_lowercase();
        let num = || v.parse::<u32>().expect("a number");
        for (k, cap) in [
            ("Custodian", &mut self.custodian),
            ("Intervention", &mut self.intervention),
            ("Leap", &mut self.leap),
        ] {
            if let Some(rest) = name.strip_prefix(k) {
                let b = yes_no(&v);
                match rest {
                    "" => cap.on = b,
                    "Sides" => cap.sides = b,
                    "Cross" => cap.cross = b,
                    "Diagonals" => cap.diagonals = b,
                    "Placing" => cap.placing = b,
                    "Moving" => cap.moving = b,
                    "AtThree" => cap.at_three = b,
                    _ => panic!("unknown option {name}"),
                }
                return;
            }
        }
        match name {
            "Pieces" => self.pieces = num(),
            "Diagonals" => self.diagonals = yes_no(&v),
            "Flying" => {
                self.flying = match v.as_str() {
                    "three" => true,
                    "off" => false,
                    _ => panic!("Flying {v}"),
                }
            }
            "FlyAt" => self.fly_at = num(),
            "Lasker" => self.lasker = yes_no(&v),
            "RemovePerMill" => self.remove_per_mill = yes_no(&v),
            "MillRemoval" => {
                self.mill_any = match v.as_str() {
                    "any" => true,
                    "protected" => false,
                    _ => panic!("MillRemoval {v}"),
                }
            }
            "MayPass" | "MillReform" => assert!(!yes_no(&v), "{name} is not in Sanmill"),
            "FirstPlayer" => assert_eq!(v, "white", "Sanmill lets White place first"),
            "Blocked" => {
                self.blocked = match v.as_str() {
                    "loss" => BlockedRule::Loss,
                    "draw" => BlockedRule::Draw,
                    "pass" => BlockedRule::Pass,
                    "removemove" => BlockedRule::RemoveMove,
                    "removepass" => BlockedRule::RemovePass,
                    "bothremove" => BlockedRule::BothRemove,
                    _ => panic!("Blocked {v}"),
                }
            }
            "BoardFull" => {
                self.board_full = match v.as_str() {
                    "draw" => FullRule::Draw,
                    "loss" => FullRule::Loss,
                    "firstloses" => FullRule::FirstLoses,
                    "removefirst" => FullRule::RemoveFirst,
                    "removesecond" => FullRule::RemoveSecond,
                    "removeone" => FullRule::RemoveOne,
                    _ => panic!("BoardFull {v}"),
                }
            }
            "NoCaptureMoves" => self.no_capture_moves = num(),
            "EndgameMoves" => self.endgame_moves = num(),
            "Repetition" => self.repetition = yes_no(&v),
            "MinPieces" => self.min_pieces = num(),
            "PlacingMill" => {
                self.placing_mill = match v.as_str() {
                    "board" => PlacingMill::Board,
                    "hand" => PlacingMill::Hand,
                    "handagain" => PlacingMill::HandAgain,
                    "victimpicks" => PlacingMill::VictimPicks,
                    "mark" => PlacingMill::Mark,
                    "tally" => PlacingMill::Tally,
                    _ => panic!("PlacingMill {v}"),
                }
            }
            "DefenderFirst" => self.defender_first = yes_no(&v),
            "OneTimeMill" => self.one_time_mill = yes_no(&v),
            "MillShuttle" => {
                self.shuttle_banned = match v.as_str() {
                    "banned" => true,
                    "allowed" => false,
                    _ => panic!("MillShuttle {v}"),
                }
            }
            "StopAtTwoEmpty" => self.stop_at_two_empty = yes_no(&v),
            "LossCheck" => {
                self.loss_check_removal = match v.as_str() {
                    "removal" => true,
                    "turn" => false,
                    _ => panic!("LossCheck {v}"),
                }
            }
            "EndgameWhen" => {
                self.endgame_either = match v.as_str() {
                    "either" => true,
                    "both" => false,
                    _ => panic!("EndgameWhen {v}"),
                }
            }
            _ => panic!("unknown option {name}"),
        }
    }

    /// The base of §18.1 with these settings applied in order.
    pub fn with(settings: &[&str]) -> Opts {
        let mut o = Opts::base();
        for s in settings {
            o.set(s);
        }
        o
    }

    /// Every option as `Name=Value`, in an order the production side can
    /// apply one by one (`Pieces` before what is bounded by it).
    pub fn settings(&self) -> Vec<String> {
        let mut out = vec![
            format!("Pieces={}", self.pieces),
            format!("Diagonals={}", yn(self.diagonals)),
            format!("Flying={}", if self.flying { "three" } else { "off" }),
            format!("FlyAt={}", self.fly_at),
            format!("Lasker={}", yn(self.lasker)),
            format!("RemovePerMill={}", yn(self.remove_per_mill)),
            format!(
                "MillRemoval={}",
                if self.mill_any { "any" } else { "protected" }
            ),
            "MayPass=false".to_string(),
            "MillReform=false".to_string(),
            "FirstPlayer=white".to_string(),
        ];
        let blocked = match self.blocked {
            BlockedRule::Loss => "loss",
            BlockedRule::Draw => "draw",
            BlockedRule::Pass => "pass",
            BlockedRule::RemoveMove => "removemove",
            BlockedRule::RemovePass => "removepass",
            BlockedRule::BothRemove => "bothremove",
        };
        let full = match self.board_full {
            FullRule::Draw => "draw",
            FullRule::Loss => "loss",
            FullRule::FirstLoses => "firstloses",
            FullRule::RemoveFirst => "removefirst",
            FullRule::RemoveSecond => "removesecond",
            FullRule::RemoveOne => "removeone",
        };
        let pm = match self.placing_mill {
            PlacingMill::Board => "board",
            PlacingMill::Hand => "hand",
            PlacingMill::HandAgain => "handagain",
            PlacingMill::VictimPicks => "victimpicks",
            PlacingMill::Mark => "mark",
            PlacingMill::Tally => "tally",
        };
        out.push(format!("Blocked={blocked}"));
        out.push(format!("BoardFull={full}"));
        out.push(format!("NoCaptureMoves={}", self.no_capture_moves));
        out.push(format!("EndgameMoves={}", self.endgame_moves));
        out.push(format!("Repetition={}", yn(self.repetition)));
        out.push(format!("MinPieces={}", self.min_pieces));
        out.push(format!("PlacingMill={pm}"));
        out.push(format!("DefenderFirst={}", yn(self.defender_first)));
        out.push(format!("OneTimeMill={}", yn(self.one_time_mill)));
        out.push(format!(
            "MillShuttle={}",
            if self.shuttle_banned {
                "banned"
            } else {
                "allowed"
            }
        ));
        out.push(format!("StopAtTwoEmpty={}", yn(self.stop_at_two_empty)));
        for (k, c) in [
            ("Custodian", self.custodian),
            ("Intervention", self.intervention),
            ("Leap", self.leap),
        ] {
            out.push(format!("{k}={}", yn(c.on)));
            out.push(format!("{k}Sides={}", yn(c.sides)));
            out.push(format!("{k}Cross={}", yn(c.cross)));
            out.push(format!("{k}Diagonals={}", yn(c.diagonals)));
            out.push(format!("{k}Placing={}", yn(c.placing)));
            out.push(format!("{k}Moving={}", yn(c.moving)));
            out.push(format!("{k}AtThree={}", yn(c.at_three)));
        }
        out.push(format!(
            "LossCheck={}",
            if self.loss_check_removal {
                "removal"
            } else {
                "turn"
            }
        ));
        out.push(format!(
            "EndgameWhen={}",
            if self.endgame_either {
                "either"
            } else {
                "both"
            }
        ));
        out
    }
}

/// The app's rule sets of §18.2, as (name, values that differ from the base).
pub const APP_SETS: [(&str, &[&str]); 13] = [
    ("Nine Men's Morris", &[]),
    ("Twelve Men's Morris", &["Pieces=12", "Diagonals=yes"]),
    (
        "Morabaraba",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "BoardFull=draw",
            "EndgameMoves=10",
            "MillShuttle=banned",
        ],
    ),
    (
        "Dooz",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "PlacingMill=hand",
            "BoardFull=removeone",
            "MillRemoval=any",
        ],
    ),
    ("Lasker Morris", &["Pieces=10", "Lasker=yes"]),
    ("One-Time Mill", &["OneTimeMill=yes", "MillRemoval=any"]),
    (
        "Cham Gonu",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "PlacingMill=mark",
            "Flying=off",
            "MillRemoval=any",
        ],
    ),
    (
        "Zhi Qi",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "PlacingMill=mark",
            "BoardFull=removefirst",
            "Flying=off",
            "MillRemoval=any",
        ],
    ),
    ("Cheng San Qi", &["PlacingMill=mark", "Flying=off"]),
    (
        "Da San Qi",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "PlacingMill=mark",
            "DefenderFirst=yes",
            "Flying=off",
            "MillRemoval=any",
            "RemovePerMill=yes",
        ],
    ),
    (
        "Mul-Mulan",
        &[
            "Diagonals=yes",
            "Flying=off",
            "MillRemoval=any",
            "Intervention=yes",
        ],
    ),
    (
        "Nerenchi",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "DefenderFirst=yes",
            "MillRemoval=any",
        ],
    ),
    (
        "El Filja",
        &[
            "Pieces=12",
            "PlacingMill=tally",
            "BoardFull=removefirst",
            "Flying=off",
            "MillRemoval=any",
        ],
    ),
];

/// The engine's numbered table of §18.3 (those that differ from the app).
pub const ENGINE_SETS: [(&str, &[&str]); 7] = [
    (
        "Dooz (engine table)",
        &["Pieces=12", "Diagonals=yes", "PlacingMill=hand"],
    ),
    (
        "Morabaraba (engine table)",
        &["Pieces=12", "Diagonals=yes", "RemovePerMill=yes"],
    ),
    ("Russian Mill (engine table)", &["OneTimeMill=yes"]),
    ("Cheng San Qi (engine table)", &["Flying=off"]),
    (
        "Da San Qi (engine table)",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "PlacingMill=mark",
            "DefenderFirst=yes",
            "Flying=off",
            "MillRemoval=any",
        ],
    ),
    (
        "Zhi Qi (engine table)",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "BoardFull=removefirst",
            "Blocked=removemove",
        ],
    ),
    (
        "Experimental (engine table)",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "DefenderFirst=yes",
            "MillRemoval=any",
            "BoardFull=removesecond",
            "Flying=off",
        ],
    ),
];

/// The options of a named rule set of §18.2 or §18.3.
pub fn named(name: &str) -> Opts {
    let (_, row) = APP_SETS
        .iter()
        .chain(ENGINE_SETS.iter())
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no rule set named {name}"));
    Opts::with(row)
}

/// What a point holds (§11: live pieces, marks, empty points).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Cell {
    Empty,
    Live(usize),
    Mark,
}

/// Removals owed by the player to move (§14.4).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Owed {
    pub n: u32,
    /// Custodian set C, intervention set I, leap set L.
    pub c: Vec<usize>,
    pub i: Vec<usize>,
    pub l: Vec<usize>,
    /// A tally own-removal (§16.2).
    pub own: bool,
    /// Ordered by `Blocked removemove`/`bothremove` (§14.4 case a).
    pub blocked_targeting: bool,
}

impl Owed {
    fn plain(n: u32) -> Owed {
        Owed {
            n,
            ..Owed::default()
        }
    }

    /// c of §14.4: 1 for a custodian set, |I|, |L|.
    fn worth(&self) -> u32 {
        (!self.c.is_empty()) as u32 + self.i.len() as u32 + self.l.len() as u32
    }

    fn has_targets(&self) -> bool {
        !self.c.is_empty() || !self.i.is_empty() || !self.l.is_empty()
    }
}

/// Who won; `None` in `State::over` while the game goes on.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Res {
    Win(usize),
    Draw,
}

/// Things that happened in a turn, to choose interesting positions.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Events {
    pub mark: bool,
    pub hand_removal: bool,
    pub custodian: bool,
    pub intervention: bool,
    pub leap: bool,
    pub removal_only: bool,
    pub stage_change: bool,
    pub blocked: bool,
    pub full_board: bool,
    pub tally: bool,
    pub lost_removal: bool,
}

/// The whole state of a game under the naive rules.
#[derive(Clone, Debug)]
pub struct State {
    pub opts: Opts,
    /// Lines as point indices with their family (only the diagonals
    /// when `Diagonals`), and adjacency derived from them.
    pub lines: Rc<Vec<(Family, [usize; 3])>>,
    pub adjacent: Rc<Vec<Vec<usize>>>,
    pub cells: [Cell; 24],
    pub hand: [u32; 2],
    /// The player to act: 0 = White (first player), 1 = Black.
    pub side: usize,
    pub placing_stage: bool,
    /// Removals owed by `side`.
    pub owed: Option<Owed>,
    /// Further removal-only turns owed, in order, as (player, removals).
    pub queue: Vec<(usize, Owed)>,
    /// Who has the turn once `owed` and `queue` are done.
    pub after: usize,
    /// Phase of the turn in progress (§11): true = placing.
    pub turn_placing: bool,
    /// `OneTimeMill` spent points per player (§16.6).
    pub spent: [[bool; 24]; 2],
    /// `MillShuttle` memory (F, T) per player (§16.7).
    pub shuttle: [Option<(usize, usize)>; 2],
    pub over: Option<Res>,
    /// Whether the draw rules of §14.10 apply (perft ignores them).
    pub draws: bool,
    /// Plies since the last placement or removal (§14.10).
    pub counter: u32,
    /// Repetition records: (board, player to move) after quiet moves.
    pub records: Vec<([Cell; 24], usize)>,
    /// What the last turn did, and who took it.
    pub events: Events,
    pub taker: usize,
}

impl State {
    /// The start: empty board, full hands, White to place (§16.14).
    pub fn new(opts: Opts) -> State {
        let lines: Vec<(Family, [usize; 3])> = LINES
            .iter()
            .filter(|(f, _)| *f != Family::Diagonal || opts.diagonals)
            .map(|(f, l)| (*f, [index_of(l[0]), index_of(l[1]), index_of(l[2])]))
            .collect();
        let mut adjacent = vec![Vec::new(); 24];
        for (_, l) in &lines {
            for (a, b) in [(l[0], l[1]), (l[1], l[2])] {
                adjacent[a].push(b);
                adjacent[b].push(a);
            }
        }
        State {
            opts,
            lines: Rc::new(lines),
            adjacent: Rc::new(adjacent),
            cells: [Cell::Empty; 24],
            hand: [opts.pieces; 2],
            side: 0,
            placing_stage: true,
            owed: None,
            queue: Vec::new(),
            after: 0,
            turn_placing: true,
            spent: [[false; 24]; 2],
            shuttle: [None, None],
            over: None,
            draws: true,
            counter: 0,
            records: Vec::new(),
            events: Events::default(),
            taker: 0,
        }
    }

    // ----- board facts -------------------------------------------------

    pub fn on_board(&self, c: usize) -> u32 {
        self.cells.iter().filter(|&&x| x == Cell::Live(c)).count() as u32
    }

    /// Pieces of `c` on the board plus in hand (§14.9; marks do not count).
    pub fn material(&self, c: usize) -> u32 {
        self.on_board(c) + self.hand[c]
    }

    fn complete(&self, l: &[usize; 3], c: usize) -> bool {
        l.iter().all(|&p| self.cells[p] == Cell::Live(c))
    }

    /// A line is spent for `c` when its three points are in c's set (§16.6).
    pub fn spent_line(&self, l: &[usize; 3], c: usize) -> bool {
        self.opts.one_time_mill && l.iter().all(|&p| self.spent[c][p])
    }

    /// The piece on p is in a mill: on a complete line of its owner,
    /// spent or not (§11, §16.5).
    fn in_mill(&self, p: usize) -> bool {
        let Cell::Live(c) = self.cells[p] else {
            return false;
        };
        self.lines
            .iter()
            .any(|(_, l)| l.contains(&p) && self.complete(l, c))
    }

    /// `MillRemoval protected` on the live pieces of `victim`: those not
    /// in a mill, or all when every one is in a mill (§14.4).
    fn protected_ok(&self, p: usize, victim: usize) -> bool {
        if self.opts.mill_any || !self.in_mill(p) {
            return true;
        }
        (0..24).all(|q| self.cells[q] != Cell::Live(victim) || self.in_mill(q))
    }

    /// Complete, non-spent lines of `c` through p: the mills closed by a
    /// piece arriving on p (§14.2 step 3, §14.3 step 3).
    fn mills_at(&self, p: usize, c: usize) -> Vec<[usize; 3]> {
        self.lines
            .iter()
            .map(|(_, l)| *l)
            .filter(|l| l.contains(&p) && self.complete(l, c) && !self.spent_line(l, c))
            .collect()
    }

    fn can_fly(&self, c: usize) -> bool {
        self.opts.flying && self.hand[c] == 0 && self.on_board(c) <= self.opts.fly_at
    }

    /// §16.7: the one move T-to-F forbidden by c's memory (F, T).
    pub fn shuttle_forbids(&self, c: usize, from: usize, to: usize) -> bool {
        if !self.opts.shuttle_banned {
            return false;
        }
        let Some((f, t)) = self.shuttle[c] else {
            return false;
        };
        if from != t || to != f {
            return false;
        }
        let on_line = self
            .lines
            .iter()
            .any(|(_, l)| l.contains(&t) && self.complete(l, c) && !self.spent_line(l, c));
        let mut after = self.clone();
        after.cells[from] = Cell::Empty;
        after.cells[to] = Cell::Live(c);
        on_line && !after.mills_at(to, c).is_empty()
    }

    /// §14.8: all 24 points live, or no fly and no piece with an empty
    /// adjacent point it may go to. Leaps are not considered.
    pub fn is_blocked(&self, c: usize) -> bool {
        if self.cells.iter().all(|x| matches!(x, Cell::Live(_))) {
            return true;
        }
        let can_fly = self.opts.flying && self.on_board(c) <= self.opts.fly_at;
        if can_fly {
            return false;
        }
        for f in 0..24 {
            if self.cells[f] != Cell::Live(c) {
                continue;
            }
            for &t in &self.adjacent[f] {
                if self.cells[t] == Cell::Empty && !self.shuttle_forbids(c, f, t) {
                    return false;
                }
            }
        }
        true
    }

    // ----- actions -----------------------------------------------------

    /// The placements and moves of the player to move, who owes nothing
    /// (§14.1): (None, to) or (Some(from), to).
    pub fn base_actions(&self) -> Vec<(Option<usize>, usize)> {
        let me = self.side;
        let opp = 1 - me;
        let mut out = Vec::new();
        let empty: Vec<usize> = (0..24).filter(|&p| self.cells[p] == Cell::Empty).collect();
        let mine: Vec<usize> = (0..24)
            .filter(|&p| self.cells[p] == Cell::Live(me))
            .collect();
        let mut moves = Vec::new();
        if self.hand[me] > 0 {
            for &t in &empty {
                out.push((None, t));
            }
            if self.opts.lasker {
                for &f in &mine {
                    for &t in &self.adjacent[f] {
                        if self.cells[t] == Cell::Empty {
                            moves.push((f, t));
                        }
                    }
                }
            }
        } else if self.can_fly(me) {
            for &f in &mine {
                for &t in &empty {
                    moves.push((f, t));
                }
            }
        } else {
            for &f in &mine {
                for &t in &self.adjacent[f] {
                    if self.cells[t] == Cell::Empty {
                        moves.push((f, t));
                    }
                }
            }
            // Leap moves (§16.11): not flying, LeapMoving, LeapAtThree,
            // and the jumped piece passes mill protection.
            let lp = self.opts.leap;
            if lp.on && lp.moving && (!lp.at_three || self.on_board(me) <= 3) {
                for (fam, l) in self.lines.iter() {
                    if !lp.selects(*fam) {
                        continue;
                    }
                    for (a, b) in [(l[0], l[2]), (l[2], l[0])] {
                        if self.cells[a] == Cell::Live(me)
                            && self.cells[l[1]] == Cell::Live(opp)
                            && self.cells[b] == Cell::Empty
                            && self.protected_ok(l[1], opp)
                        {
                            moves.push((a, b));
                        }
                    }
                }
            }
        }
        for (f, t) in moves {
            if !self.shuttle_forbids(me, f, t) && !out.contains(&(Some(f), t)) {
                out.push((Some(f), t));
            }
        }
        out
    }

    /// Custodian targets of a piece of `me` arriving on t (§16.11), after
    /// mill protection.
    fn custodian_targets(&self, t: usize, me: usize) -> Vec<usize> {
        let opp = 1 - me;
        let mut out = Vec::new();
        for (fam, l) in self.lines.iter() {
            if !self.opts.custodian.selects(*fam) {
                continue;
            }
            let other = if l[0] == t {
                l[2]
            } else if l[2] == t {
                l[0]
            } else {
                continue;
            };
            if self.cells[other] == Cell::Live(me)
                && self.cells[l[1]] == Cell::Live(opp)
                && self.protected_ok(l[1], opp)
                && !out.contains(&l[1])
            {
                out.push(l[1]);
            }
        }
        out
    }

    /// Intervention targets (§16.11): the first selected line, cross
    /// before sides before diagonals, with t in the middle and opponent
    /// pieces at both ends; then mill protection on that line only.
    fn intervention_targets(&self, t: usize, me: usize) -> Vec<usize> {
        let opp = 1 - me;
        for fam in [Family::Cross, Family::Side, Family::Diagonal] {
            if !self.opts.intervention.selects(fam) {
                continue;
            }
            for (f, l) in self.lines.iter() {
                if *f == fam
                    && l[1] == t
                    && self.cells[l[0]] == Cell::Live(opp)
                    && self.cells[l[2]] == Cell::Live(opp)
                {
                    return [l[0], l[2]]
                        .into_iter()
                        .filter(|&p| self.protected_ok(p, opp))
                        .collect();
                }
            }
        }
        Vec::new()
    }

    /// Capture targets of an arrival on t (§14.2 step 2, §14.3 step 2):
    /// `phase_ok(K)` says whether rule K acts in this turn.
    fn capture_targets(
        &self,
        t: usize,
        me: usize,
        phase_ok: impl Fn(&Capture) -> bool,
    ) -> (Vec<usize>, Vec<usize>) {
        let c = if self.opts.custodian.on && phase_ok(&self.opts.custodian) {
            self.custodian_targets(t, me)
        } else {
            Vec::new()
        };
        let i = if self.opts.intervention.on && phase_ok(&self.opts.intervention) {
            self.intervention_targets(t, me)
        } else {
            Vec::new()
        };
        (c, i)
    }

    /// §14.2: a placement on `to`.
    fn place(&mut self, to: usize) {
        let me = self.side;
        let opp = 1 - me;
        // 1. the piece goes to P
        self.cells[to] = Cell::Live(me);
        self.hand[me] -= 1;
        self.counter = 0;
        self.records.clear();
        // 2. capture targets: KPlacing; AtThree never in placing turns
        let (c, i) = self.capture_targets(to, me, |k| k.placing);
        // 3. mills
        let mills = self.mills_at(to, me);
        let k = mills.len() as u32;
        let m = if self.opts.remove_per_mill {
            k
        } else {
            k.min(1)
        };
        let mut owed = Owed {
            c,
            i,
            ..Owed::default()
        };
        let capture_worth = owed.worth();
        if k >= 1 {
            // 4. record the mill, then by PlacingMill
            self.record_mills(me, &mills);
            self.shuttle[me] = None;
            match self.opts.placing_mill {
                PlacingMill::Board | PlacingMill::VictimPicks | PlacingMill::Mark => {
                    owed.n = m + if self.opts.remove_per_mill {
                        capture_worth
                    } else {
                        0
                    };
                    self.owe(owed, opp);
                }
                PlacingMill::Hand | PlacingMill::HandAgain => {
                    let r = m.min(self.hand[opp]);
                    self.hand[opp] -= r;
                    if r > 0 {
                        self.events.hand_removal = true;
                    }
                    if m > r {
                        self.owe(Owed::plain(m - r), opp);
                    } else if self.opts.placing_mill == PlacingMill::HandAgain {
                        self.side = me;
                    } else {
                        self.side = opp;
                    }
                }
                PlacingMill::Tally => self.side = opp,
            }
        } else if capture_worth > 0 {
            // 5. captures without a mill
            owed.n = capture_worth;
            self.owe(owed, opp);
        } else {
            // 6.
            self.side = opp;
        }
    }

    /// §14.3: a move from `from` to `to` (slide, flight or leap). Returns
    /// whether it was quiet (closed no mill, captured nothing).
    fn move_piece(&mut self, from: usize, to: usize) -> bool {
        let me = self.side;
        let opp = 1 - me;
        let placing_turn = self.turn_placing;
        // 1.
        self.cells[from] = Cell::Empty;
        self.cells[to] = Cell::Live(me);
        self.counter += 1;
        // 2. captures: KMoving; a Lasker slide in a placing-phase turn
        // also needs KPlacing; AtThree only in moving-phase turns (§16.11)
        let few = self.on_board(me) <= 3;
        let (c, i) = self.capture_targets(to, me, |k| {
            k.moving && (!placing_turn || k.placing) && (placing_turn || !k.at_three || few)
        });
        let lp = self.opts.leap;
        let mut l = Vec::new();
        if lp.on && lp.moving && !placing_turn && (!lp.at_three || few) {
            for (fam, line) in self.lines.iter() {
                let ends = (line[0] == from && line[2] == to) || (line[2] == from && line[0] == to);
                if lp.selects(*fam)
                    && ends
                    && self.cells[line[1]] == Cell::Live(opp)
                    && self.protected_ok(line[1], opp)
                {
                    l.push(line[1]);
                }
            }
        }
        // 3. mills
        let mills = self.mills_at(to, me);
        let k = mills.len() as u32;
        let m = if self.opts.remove_per_mill {
            k
        } else {
            k.min(1)
        };
        if !l.is_empty() {
            // 4. a leap target voids everything else
            self.events.leap = true;
            self.owe(
                Owed {
                    n: 1,
                    l,
                    ..Owed::default()
                },
                opp,
            );
            false
        } else if k >= 1 {
            // 5. mills: m removals, captures stay available
            self.record_mills(me, &mills);
            self.shuttle[me] = Some((from, to));
            self.owe(
                Owed {
                    n: m,
                    c,
                    i,
                    ..Owed::default()
                },
                opp,
            );
            false
        } else if !c.is_empty() || !i.is_empty() {
            // 6. captures only
            let owed = Owed {
                c,
                i,
                ..Owed::default()
            };
            self.owe(
                Owed {
                    n: owed.worth(),
                    ..owed
                },
                opp,
            );
            false
        } else {
            // 7. quiet
            self.shuttle[me] = None;
            self.side = opp;
            true
        }
    }

    /// The points of the closed lines join the spent set (§16.6).
    fn record_mills(&mut self, me: usize, mills: &[[usize; 3]]) {
        if self.opts.one_time_mill {
            for l in mills {
                for &p in l {
                    self.spent[me][p] = true;
                }
            }
        }
    }

    /// The player to move now owes `owed`; then `next` has the turn.
    fn owe(&mut self, owed: Owed, next: usize) {
        if !owed.c.is_empty() {
            self.events.custodian = true;
        }
        if !owed.i.is_empty() {
            self.events.intervention = true;
        }
        self.owed = Some(owed);
        self.after = next;
    }

    /// Whether a removal by the player to move now is under
    /// blocked-removal targeting (§14.4 cases a and b).
    fn blocked_targeting(&self, owed: &Owed) -> bool {
        owed.blocked_targeting
            || (!self.turn_placing
                && matches!(
                    self.opts.blocked,
                    BlockedRule::RemoveMove | BlockedRule::RemovePass | BlockedRule::BothRemove
                )
                && self.is_blocked(self.side))
    }

    /// The points the player to move may remove now (§14.4).
    pub fn removal_candidates(&self) -> Vec<usize> {
        let Some(owed) = &self.owed else {
            return Vec::new();
        };
        let me = self.side;
        let mut out: Vec<usize> = Vec::new();
        for &p in owed.c.iter().chain(&owed.i).chain(&owed.l) {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        if owed.n <= owed.worth() {
            return out;
        }
        let victim = if owed.own { me } else { 1 - me };
        let bt = self.blocked_targeting(owed);
        for p in 0..24 {
            if self.cells[p] != Cell::Live(victim) || out.contains(&p) {
                continue;
            }
            let ok = if bt {
                owed.own
                    || self.adjacent[p]
                        .iter()
                        .any(|&q| self.cells[q] == Cell::Live(me))
            } else {
                self.protected_ok(p, victim)
            };
            if ok {
                out.push(p);
            }
        }
        out
    }

    /// §14.4: removing the piece on p.
    fn remove(&mut self, p: usize) {
        let me = self.side;
        let mut owed = self.owed.take().expect("a removal is owed");
        // 1. which capture sets survive, and the count
        if owed.i.contains(&p) {
            owed.c.clear();
            owed.l.clear();
            owed.n = owed.i.len() as u32;
        } else if owed.c.contains(&p) {
            owed.i.clear();
            owed.l.clear();
            owed.n = 1;
        } else if owed.l.contains(&p) {
            owed.c.clear();
            owed.i.clear();
            owed.n = 1;
        } else if owed.has_targets() {
            let c = owed.worth();
            owed.c.clear();
            owed.i.clear();
            owed.l.clear();
            if self.opts.remove_per_mill && owed.n > c {
                owed.n -= c;
            }
        }
        // 2. the piece leaves, or is marked
        let victim = if owed.own { me } else { 1 - me };
        assert_eq!(self.cells[p], Cell::Live(victim), "removing {}", NAMES[p]);
        if self.opts.placing_mill == PlacingMill::Mark && self.turn_placing && !owed.own {
            self.cells[p] = Cell::Mark;
            self.events.mark = true;
        } else {
            self.cells[p] = Cell::Empty;
        }
        owed.n -= 1;
        owed.c.retain(|&q| q != p);
        owed.i.retain(|&q| q != p);
        owed.l.retain(|&q| q != p);
        self.counter = 0;
        self.records.clear();
        // 3. piece-count loss (§14.9)
        if self.opts.loss_check_removal && self.material(victim) < self.opts.min_pieces {
            self.over = Some(Res::Win(1 - victim));
            return;
        }
        // 4.
        if owed.n == 0 {
            self.duty_done();
        } else {
            self.owed = Some(owed);
        }
    }

    /// The owed removals are done (or lost): the next removal-only turn
    /// in the queue, or the turn of `after` (§14.4 step 4).
    fn duty_done(&mut self) {
        self.owed = None;
        if self.queue.is_empty() {
            self.side = self.after;
        } else {
            let (player, owed) = self.queue.remove(0);
            self.side = player;
            self.owed = Some(owed);
        }
    }

    /// §14.5: after the last action of a turn.
    fn end_of_turn(&mut self, placing_turn: bool) {
        if self.over.is_some() {
            return;
        }
        // 1. stage change
        if placing_turn && self.placing_stage {
            let empties = self.cells.iter().filter(|&&c| c == Cell::Empty).count();
            if self.hand == [0, 0] {
                self.stage_change();
            } else if self.opts.stop_at_two_empty && self.opts.pieces == 12 && empties <= 2 {
                self.hand = [0, 0];
                self.stage_change();
            }
        }
        // docs/rules.md 6.1's piece-count check before the player to move plays
        // (§14.9, LossCheck turn), before the full board and blocked tests
        if !self.opts.loss_check_removal {
            for c in [self.side, 1 - self.side] {
                if self.material(c) < self.opts.min_pieces {
                    self.over = Some(Res::Win(1 - c));
                    return;
                }
            }
        }
        // 2. full board (§14.7)
        let full = self.cells.iter().all(|x| matches!(x, Cell::Live(_)));
        if !self.placing_stage && self.opts.pieces == 12 && self.owed.is_none() && full {
            self.events.full_board = true;
            let first = if self.opts.defender_first { 1 } else { 0 };
            match self.opts.board_full {
                FullRule::FirstLoses => self.over = Some(Res::Win(1)),
                FullRule::Draw => self.over = Some(Res::Draw),
                FullRule::Loss => self.over = Some(Res::Win(1 - self.side)),
                FullRule::RemoveFirst => self.removal_turns(0, &[Owed::plain(1)], 1, 0),
                FullRule::RemoveSecond => self.removal_turns(1, &[Owed::plain(1)], 0, 1),
                FullRule::RemoveOne => {
                    self.side = first;
                    self.owe(Owed::plain(1), 1 - first);
                }
            }
            if self.over.is_some() || self.owed.is_some() {
                return;
            }
        }
        // 3. blocked test
        self.blocked_test();
    }

    /// `a` owes one removal, then `b` owes one (each a removal-only
    /// turn), then `next` has the turn.
    fn removal_turns(&mut self, a: usize, owed: &[Owed], b: usize, next: usize) {
        self.side = a;
        self.owed = Some(owed[0].clone());
        self.queue = vec![(b, owed[0].clone())];
        self.after = next;
    }

    /// §14.6.
    fn stage_change(&mut self) {
        self.events.stage_change = true;
        // 1.
        self.placing_stage = false;
        for c in self.cells.iter_mut() {
            if *c == Cell::Mark {
                *c = Cell::Empty;
            }
        }
        // 3. who moves (or removes) first
        let pm = self.opts.placing_mill;
        let mover = if self.opts.defender_first {
            1
        } else if pm == PlacingMill::Hand
            || (pm == PlacingMill::HandAgain && self.opts.remove_per_mill)
            || (self.opts.lasker && pm != PlacingMill::Mark && pm != PlacingMill::Tally)
        {
            self.side
        } else {
            0
        };
        self.side = mover;
        // 2. tally removals (§16.2): counts for the first player (w) and
        // the second (b); the mover removes first
        if pm == PlacingMill::Tally {
            self.events.tally = true;
            let count = |c: usize| {
                self.lines
                    .iter()
                    .filter(|(_, l)| self.complete(l, c))
                    .count() as u32
            };
            let (w, b) = (count(0), count(1));
            let (nw, nb, own) = if w == 0 && b == 0 {
                (1, 1, true)
            } else if b == 0 {
                (2, 1, false)
            } else if w == 0 {
                (1, 2, false)
            } else if w == b {
                (w, b, false)
            } else if w > b {
                (b + 1, b, false)
            } else {
                (w, w + 1, false)
            };
            let owed = |n| Owed {
                n,
                own,
                ..Owed::default()
            };
            let ns = [nw, nb];
            self.owed = Some(owed(ns[mover]));
            self.queue = vec![(1 - mover, owed(ns[1 - mover]))];
            self.after = mover;
        }
    }

    /// §14.8 and §16.10: the blocked test of the player to move.
    fn blocked_test(&mut self) {
        if self.over.is_some() || self.owed.is_some() {
            return;
        }
        let p = self.side;
        if self.hand[p] > 0 || !self.is_blocked(p) {
            return;
        }
        self.events.blocked = true;
        let bt = Owed {
            n: 1,
            blocked_targeting: true,
            ..Owed::default()
        };
        match self.opts.blocked {
            BlockedRule::Loss => self.over = Some(Res::Win(1 - p)),
            BlockedRule::Draw => self.over = Some(Res::Draw),
            BlockedRule::Pass => {
                // the opponent is not tested; no action at all ends the game
                self.side = 1 - p;
                if self.base_actions().is_empty() {
                    self.over = Some(Res::Draw);
                }
            }
            BlockedRule::RemoveMove => self.owe(bt, p),
            BlockedRule::RemovePass => self.owe(Owed::plain(1), 1 - p),
            BlockedRule::BothRemove => {
                self.removal_turns(p, &[bt], 1 - p, p);
            }
        }
    }

    /// Owed removals with nothing removable are lost, and the turn ends
    /// as if they had been made (§13, last paragraph).
    fn settle(&mut self) {
        let mut guard = 0;
        while self.over.is_none() && self.owed.is_some() && self.removal_candidates().is_empty() {
            self.events.lost_removal = true;
            let placing_turn = self.turn_placing;
            self.duty_done();
            self.end_of_turn(placing_turn);
            guard += 1;
            assert!(guard < 100, "lost removals without end");
        }
    }

    /// The draw rules of §14.10 after a quiet move turn.
    fn quiet_move_draws(&mut self) {
        if !self.draws || self.over.is_some() {
            return;
        }
        if self.opts.repetition {
            let key = (self.cells, self.side);
            self.records.push(key);
            if self.records.iter().filter(|k| **k == key).count() >= 3 {
                self.over = Some(Res::Draw);
                return;
            }
        }
        let mut limits = Vec::new();
        let n = self.opts.no_capture_moves;
        if n > 0 {
            limits.push(n);
        }
        let e = self.opts.endgame_moves;
        let endgame = if self.opts.endgame_either {
            self.on_board(0) == 3 || self.on_board(1) == 3
        } else {
            self.material(0) == 3 && self.material(1) == 3
        };
        if e > 0 && endgame && (n == 0 || e < n) {
            limits.push(e);
        }
        if limits.iter().any(|&l| self.counter >= l) {
            self.over = Some(Res::Draw);
        }
    }

    // ----- turns and tokens (§13) ---------------------------------------

    /// Every turn of the player to move, one per distinct token, sorted
    /// by token: (token, state after the turn).
    pub fn turns(&self) -> Vec<(String, State)> {
        if self.over.is_some() {
            return Vec::new();
        }
        let mut start = self.clone();
        start.events = Events::default();
        start.turn_placing = start.hand[start.side] > 0;
        let taker = start.side;
        start.taker = taker;
        // (base text, removals in order, state)
        let mut done: Vec<(String, Vec<usize>, State)> = Vec::new();
        if start.owed.is_some() {
            start.events.removal_only = true;
            start.removals(taker, String::new(), Vec::new(), &mut done);
        } else {
            for (from, to) in start.base_actions() {
                let mut s = start.clone();
                let (base, quiet) = match from {
                    None => {
                        s.place(to);
                        (NAMES[to].to_string(), false)
                    }
                    Some(f) => {
                        let q = s.move_piece(f, to);
                        (format!("{}-{}", NAMES[f], NAMES[to]), q)
                    }
                };
                if s.turn_continues(taker) {
                    s.removals(taker, base, Vec::new(), &mut done);
                } else {
                    s.end_of_turn(start.turn_placing);
                    if quiet {
                        s.quiet_move_draws();
                    }
                    s.settle();
                    done.push((base, Vec::new(), s));
                }
            }
        }
        // One token per (base, set of removed points), removals in the
        // smallest valid order compared as text.
        // The states stay where they are put: they are large, and only
        // the tokens are sorted.
        let mut index: HashMap<(String, Vec<usize>), usize> = HashMap::with_capacity(done.len());
        let mut names_of: Vec<Vec<&str>> = Vec::with_capacity(done.len());
        let mut states: Vec<Option<State>> = Vec::with_capacity(done.len());
        for (base, seq, s) in done {
            let mut set = seq.clone();
            set.sort();
            let names: Vec<&str> = seq.iter().map(|&p| NAMES[p]).collect();
            match index.entry((base, set)) {
                Entry::Occupied(e) => {
                    let k = *e.get();
                    assert_eq!(
                        states[k].as_ref().map(State::key),
                        Some(s.key()),
                        "two orders of {} x{names:?} give different states",
                        e.key().0
                    );
                    if names < names_of[k] {
                        names_of[k] = names;
                    }
                }
                Entry::Vacant(e) => {
                    e.insert(states.len());
                    names_of.push(names);
                    states.push(Some(s));
                }
            }
        }
        let mut tokens: Vec<(String, usize)> = index
            .into_iter()
            .map(|((base, _), k)| {
                let mut t = base;
                for n in &names_of[k] {
                    t.push('x');
                    t.push_str(n);
                }
                (t, k)
            })
            .collect();
        tokens.sort_unstable();
        tokens
            .into_iter()
            .map(|(t, k)| (t, states[k].take().expect("each state once")))
            .collect()
    }

    /// Whether the turn of `taker` goes on: they still owe a removal and
    /// the game is not over (§13).
    fn turn_continues(&self, taker: usize) -> bool {
        self.over.is_none() && self.side == taker && self.owed.is_some()
    }

    /// Every sequence of single removals that completes the turn.
    fn removals(
        &self,
        taker: usize,
        base: String,
        seq: Vec<usize>,
        done: &mut Vec<(String, Vec<usize>, State)>,
    ) {
        let cands = self.removal_candidates();
        if cands.is_empty() {
            // the remaining removals are lost (§13)
            let mut s = self.clone();
            s.settle();
            done.push((base, seq, s));
            return;
        }
        for p in cands {
            let mut s = self.clone();
            s.remove(p);
            let mut seq2 = seq.clone();
            seq2.push(p);
            if s.turn_continues(taker) {
                s.removals(taker, base.clone(), seq2, done);
            } else {
                s.end_of_turn(self.turn_placing);
                s.settle();
                done.push((base.clone(), seq2, s));
            }
        }
    }

    /// Everything that decides the future of the game except the draw
    /// records and the events (to compare two removal orders).
    pub fn key(&self) -> String {
        format!(
            "{:?} {:?} {} {} {:?} {:?} {} {:?} {:?} {:?} {}",
            self.cells,
            self.hand,
            self.side,
            self.placing_stage,
            self.owed,
            self.queue,
            self.after,
            self.spent,
            self.shuttle,
            self.over,
            self.counter
        )
    }

    /// Plays the turn with this token; panics if there is none.
    pub fn play(&mut self, token: &str) {
        let next = self
            .turns()
            .into_iter()
            .find(|(t, _)| t == token)
            .unwrap_or_else(|| panic!("naive: {token} is not a turn here"))
            .1;
        *self = next;
    }

    /// Perft in our convention (§13): leaves `depth` turns deep; a node
    /// where the game is over or no turn exists has no children. The
    /// draw rules are ignored.
    pub fn perft(&self, depth: u32) -> u64 {
        let mut s = self.clone();
        s.draws = false;
        s.records.clear();
        s.perft_inner(depth)
    }

    fn perft_inner(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let turns = self.turns();
        if depth == 1 {
            return turns.len() as u64;
        }
        turns.iter().map(|(_, s)| s.perft_inner(depth - 1)).sum()
    }

    /// The board as protocol.md's FEN writes its first field: `W`, `B`,
    /// digits for runs of empty points, and `*` for a marked point (the
    /// naive side's own spelling, compared after normalising).
    pub fn board_text(&self) -> String {
        board_text(|p| match self.cells[p] {
            Cell::Empty => None,
            Cell::Live(0) => Some('W'),
            Cell::Live(_) => Some('B'),
            Cell::Mark => Some('*'),
        })
    }
}

/// A FEN board field from what each point holds (`None` = empty).
pub fn board_text(at: impl Fn(usize) -> Option<char>) -> String {
    let mut out = String::new();
    for (r, names) in RANKS.iter().enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut run = 0;
        for n in names.iter() {
            match at(index_of(n)) {
                None => run += 1,
                Some(ch) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(ch);
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
    }
    out
}

/// The live pieces of a FEN board field: `W`/`B` per point, anything
/// else (a mark in whatever spelling) as not live, digits as empty runs.
pub fn live_of_board_field(field: &str) -> [Option<usize>; 24] {
    let mut out = [None; 24];
    let ranks: Vec<&str> = field.split('/').collect();
    assert_eq!(ranks.len(), 7, "board field {field}");
    for (r, text) in ranks.iter().enumerate() {
        let mut i = 0;
        for ch in text.chars() {
            match ch {
                'W' => {
                    out[index_of(RANKS[r][i])] = Some(0);
                    i += 1;
                }
                'B' => {
                    out[index_of(RANKS[r][i])] = Some(1);
                    i += 1;
                }
                d if d.is_ascii_digit() => i += d.to_digit(10).unwrap() as usize,
                _ => i += 1,
            }
        }
        assert_eq!(i, RANKS[r].len(), "rank {r} of {field}");
    }
    out
}
