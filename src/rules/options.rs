//! The rule options of docs/rules.md as one typed value, with the presets, the
//! options by id and a case-insensitive parser for `Name=Value` settings.

use std::fmt;

use super::board::Layout;
use super::color::Color;

/// The rule presets: the four of docs/rules.md 7.1, Sanmill's app rule
/// sets (18.2) and its engine's numbered table (18.3).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    Nine,
    Twelve,
    Morabaraba,
    Lasker,
    /// Sanmill's app versions of the four above (docs/rules.md 18.4).
    NineApp,
    TwelveApp,
    MorabarabaApp,
    LaskerApp,
    Dooz,
    OneTime,
    ChamGonu,
    ZhiQi,
    ChengSanQi,
    DaSanQi,
    MulMulan,
    Nerenchi,
    ElFilja,
    /// Sanmill's engine table, rule sets 0 to 10.
    Table0,
    Table1,
    Table2,
    Table3,
    Table4,
    Table5,
    Table6,
    Table7,
    Table8,
    Table9,
    Table10,
}

impl Variant {
    /// Every preset, the four of docs/rules.md 7.1 first.
    pub const ALL: [Variant; 28] = [
        Variant::Nine,
        Variant::Twelve,
        Variant::Morabaraba,
        Variant::Lasker,
        Variant::NineApp,
        Variant::TwelveApp,
        Variant::MorabarabaApp,
        Variant::LaskerApp,
        Variant::Dooz,
        Variant::OneTime,
        Variant::ChamGonu,
        Variant::ZhiQi,
        Variant::ChengSanQi,
        Variant::DaSanQi,
        Variant::MulMulan,
        Variant::Nerenchi,
        Variant::ElFilja,
        Variant::Table0,
        Variant::Table1,
        Variant::Table2,
        Variant::Table3,
        Variant::Table4,
        Variant::Table5,
        Variant::Table6,
        Variant::Table7,
        Variant::Table8,
        Variant::Table9,
        Variant::Table10,
    ];

    /// The presets of docs/rules.md 7.1.
    pub const PRESETS: [Variant; 4] = [
        Variant::Nine,
        Variant::Twelve,
        Variant::Morabaraba,
        Variant::Lasker,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Nine => "nine",
            Variant::Twelve => "twelve",
            Variant::Morabaraba => "morabaraba",
            Variant::Lasker => "lasker",
            Variant::NineApp => "nine-app",
            Variant::TwelveApp => "twelve-app",
            Variant::MorabarabaApp => "morabaraba-app",
            Variant::LaskerApp => "lasker-app",
            Variant::Dooz => "dooz",
            Variant::OneTime => "onetime",
            Variant::ChamGonu => "chamgonu",
            Variant::ZhiQi => "zhiqi",
            Variant::ChengSanQi => "chengsanqi",
            Variant::DaSanQi => "dasanqi",
            Variant::MulMulan => "mulmulan",
            Variant::Nerenchi => "nerenchi",
            Variant::ElFilja => "elfilja",
            Variant::Table0 => "table0",
            Variant::Table1 => "table1",
            Variant::Table2 => "table2",
            Variant::Table3 => "table3",
            Variant::Table4 => "table4",
            Variant::Table5 => "table5",
            Variant::Table6 => "table6",
            Variant::Table7 => "table7",
            Variant::Table8 => "table8",
            Variant::Table9 => "table9",
            Variant::Table10 => "table10",
        }
    }

    /// The name a player knows the rule set by, for menus.
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Nine => "Nine men's morris",
            Variant::Twelve => "Twelve men's morris",
            Variant::Morabaraba => "Morabaraba",
            Variant::Lasker => "Lasker morris",
            Variant::NineApp => "Nine Men's Morris (Sanmill app)",
            Variant::TwelveApp => "Twelve Men's Morris (Sanmill app)",
            Variant::MorabarabaApp => "Morabaraba (Sanmill app)",
            Variant::LaskerApp => "Lasker Morris (Sanmill app)",
            Variant::Dooz => "Dooz (Iran)",
            Variant::OneTime => "One-Time Mill (Russia)",
            Variant::ChamGonu => "Cham Gonu (Korea)",
            Variant::ZhiQi => "Zhi Qi (southern China)",
            Variant::ChengSanQi => "Cheng San Qi (south-western China)",
            Variant::DaSanQi => "Da San Qi (China)",
            Variant::MulMulan => "Mul-Mulan (Indonesia)",
            Variant::Nerenchi => "Nerenchi (Sri Lanka)",
            Variant::ElFilja => "El Filja (north-west Africa)",
            Variant::Table0 => "Nine Men's Morris (engine table 0)",
            Variant::Table1 => "Twelve Men's Morris (engine table 1)",
            Variant::Table2 => "Dooz (engine table 2)",
            Variant::Table3 => "Morabaraba (engine table 3)",
            Variant::Table4 => "Russian Mill (engine table 4)",
            Variant::Table5 => "Lasker Morris (engine table 5)",
            Variant::Table6 => "Cheng San Qi (engine table 6)",
            Variant::Table7 => "Da San Qi (engine table 7)",
            Variant::Table8 => "Zhi Qi (engine table 8)",
            Variant::Table9 => "El Filja (engine table 9)",
            Variant::Table10 => "Experimental (engine table 10)",
        }
    }
}

/// When players may move a piece to any empty point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flying {
    Off,
    /// A player with at most `FlyAt` pieces and none in hand.
    Three,
    /// Both players, once neither has pieces in hand and either is down to `FlyAt`.
    Both,
}

impl Flying {
    pub const ALL: [Flying; 3] = [Flying::Off, Flying::Three, Flying::Both];

    pub const fn name(self) -> &'static str {
        match self {
            Flying::Off => "off",
            Flying::Three => "three",
            Flying::Both => "both",
        }
    }
}

/// Which opponent pieces a mill may remove.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MillRemoval {
    /// Not from a mill unless every opponent piece is in one.
    Protected,
    /// Never from a mill; the removal is lost if all are in mills.
    Never,
    Any,
}

impl MillRemoval {
    pub const ALL: [MillRemoval; 3] =
        [MillRemoval::Protected, MillRemoval::Never, MillRemoval::Any];

    pub const fn name(self) -> &'static str {
        match self {
            MillRemoval::Protected => "protected",
            MillRemoval::Never => "never",
            MillRemoval::Any => "any",
        }
    }
}

/// What a player with no legal move (docs/rules.md 14.8: a blocked player) gets.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Blocked {
    Loss,
    Draw,
    /// The opponent moves instead.
    Pass,
    /// The blocked player removes a piece next to one of theirs, then moves.
    RemoveMove,
    /// The blocked player removes a piece, then the opponent moves.
    RemovePass,
    /// The blocked player removes, then the opponent removes, then the
    /// blocked player moves.
    BothRemove,
}

impl Blocked {
    pub const ALL: [Blocked; 6] = [
        Blocked::Loss,
        Blocked::Draw,
        Blocked::Pass,
        Blocked::RemoveMove,
        Blocked::RemovePass,
        Blocked::BothRemove,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Blocked::Loss => "loss",
            Blocked::Draw => "draw",
            Blocked::Pass => "pass",
            Blocked::RemoveMove => "removemove",
            Blocked::RemovePass => "removepass",
            Blocked::BothRemove => "bothremove",
        }
    }

    /// Whether a blocked player removes (and a blocked remover's removals
    /// are restricted, docs/rules.md 14.4 case b).
    pub const fn removes(self) -> bool {
        matches!(
            self,
            Blocked::RemoveMove | Blocked::RemovePass | Blocked::BothRemove
        )
    }
}

/// What a board filled by the placing stage leads to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardFull {
    Draw,
    /// A loss for the player to move.
    Loss,
    /// A loss for the first player.
    FirstLoses,
    /// The first player removes, then the second, then the first moves.
    RemoveFirst,
    /// The second player removes, then the first, then the second moves.
    RemoveSecond,
    /// One player removes (the first, the second with `DefenderFirst`),
    /// then the other moves.
    RemoveOne,
}

impl BoardFull {
    pub const ALL: [BoardFull; 6] = [
        BoardFull::Draw,
        BoardFull::Loss,
        BoardFull::FirstLoses,
        BoardFull::RemoveFirst,
        BoardFull::RemoveSecond,
        BoardFull::RemoveOne,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            BoardFull::Draw => "draw",
            BoardFull::Loss => "loss",
            BoardFull::FirstLoses => "firstloses",
            BoardFull::RemoveFirst => "removefirst",
            BoardFull::RemoveSecond => "removesecond",
            BoardFull::RemoveOne => "removeone",
        }
    }
}

/// What a mill closed by a placement does (docs/rules.md 16.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlacingMill {
    Board,
    Hand,
    HandAgain,
    /// Offered as "the victim picks", played exactly as `Board`.
    VictimPicks,
    Mark,
    Tally,
}

impl PlacingMill {
    pub const ALL: [PlacingMill; 6] = [
        PlacingMill::Board,
        PlacingMill::Hand,
        PlacingMill::HandAgain,
        PlacingMill::VictimPicks,
        PlacingMill::Mark,
        PlacingMill::Tally,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            PlacingMill::Board => "board",
            PlacingMill::Hand => "hand",
            PlacingMill::HandAgain => "handagain",
            PlacingMill::VictimPicks => "victimpicks",
            PlacingMill::Mark => "mark",
            PlacingMill::Tally => "tally",
        }
    }
}

/// Whether a mill closed by moving F to T may be reopened by T to F and
/// closed again at once (docs/rules.md 16.7).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MillShuttle {
    Allowed,
    Banned,
}

impl MillShuttle {
    pub const ALL: [MillShuttle; 2] = [MillShuttle::Allowed, MillShuttle::Banned];

    pub const fn name(self) -> &'static str {
        match self {
            MillShuttle::Allowed => "allowed",
            MillShuttle::Banned => "banned",
        }
    }
}

/// When the piece-count loss is checked (docs/rules.md 14.9).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LossCheck {
    /// docs/rules.md Part I: before the side to move plays.
    Turn,
    /// Sanmill: after each single removal, for its victim.
    Removal,
}

impl LossCheck {
    pub const ALL: [LossCheck; 2] = [LossCheck::Turn, LossCheck::Removal];

    pub const fn name(self) -> &'static str {
        match self {
            LossCheck::Turn => "turn",
            LossCheck::Removal => "removal",
        }
    }
}

/// When `EndgameMoves` replaces `NoCaptureMoves` (docs/rules.md 16.13).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndgameWhen {
    /// Both players have exactly three pieces, board plus hand.
    Both,
    /// At least one player has exactly three pieces on the board.
    Either,
}

impl EndgameWhen {
    pub const ALL: [EndgameWhen; 2] = [EndgameWhen::Both, EndgameWhen::Either];

    pub const fn name(self) -> &'static str {
        match self {
            EndgameWhen::Both => "both",
            EndgameWhen::Either => "either",
        }
    }
}

/// One capture rule (custodian, intervention or leap, docs/rules.md 16.11).
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
    fn switch_mut(&mut self, switch: CaptureSwitch) -> &mut bool {
        match switch {
            CaptureSwitch::On => &mut self.on,
            CaptureSwitch::Sides => &mut self.sides,
            CaptureSwitch::Cross => &mut self.cross,
            CaptureSwitch::Diagonals => &mut self.diagonals,
            CaptureSwitch::Placing => &mut self.placing,
            CaptureSwitch::Moving => &mut self.moving,
            CaptureSwitch::AtThree => &mut self.at_three,
        }
    }

    /// Off, with every line and phase switch on.
    pub const OFF: Capture = Capture {
        on: false,
        sides: true,
        cross: true,
        diagonals: true,
        placing: true,
        moving: true,
        at_three: false,
    };
}

/// Every rule option in force for a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// The preset these rules started from (for display; the fields rule).
    pub variant: Variant,
    pub pieces: u8,
    pub diagonals: bool,
    pub flying: Flying,
    pub fly_at: u8,
    pub lasker: bool,
    pub remove_per_mill: bool,
    pub mill_removal: MillRemoval,
    pub may_pass: bool,
    pub mill_reform: bool,
    pub blocked: Blocked,
    pub board_full: BoardFull,
    pub endgame_moves: u16,
    pub no_capture_moves: u16,
    pub repetition: bool,
    pub first_player: Color,
    /// The rule-set options of docs/rules.md Part II.
    pub min_pieces: u8,
    pub placing_mill: PlacingMill,
    pub defender_first: bool,
    pub one_time_mill: bool,
    pub mill_shuttle: MillShuttle,
    pub stop_at_two_empty: bool,
    pub custodian: Capture,
    pub intervention: Capture,
    pub leap: Capture,
    pub loss_check: LossCheck,
    pub endgame_when: EndgameWhen,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::preset(Variant::Nine)
    }
}

/// How a front end sets an option (the UCI option types).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    Check,
    Spin { min: u16, max: u16 },
    Combo(&'static [&'static str]),
}

impl OptionKind {
    /// What a value of this kind must be, in words (for error messages).
    pub fn expected(self) -> String {
        match self {
            OptionKind::Check => "true or false (also on/off, yes/no, 1/0)".to_string(),
            OptionKind::Spin { min, max } => format!("a whole number from {min} to {max}"),
            OptionKind::Combo(values) => format!("one of {}", values.join(", ")),
        }
    }
}

/// A combo kind whose values are the names of `$all`, in order.
macro_rules! combo {
    ($all:expr) => {
        OptionKind::Combo(
            &const {
                let mut names = [""; $all.len()];
                let mut i = 0;
                while i < names.len() {
                    names[i] = $all[i].name();
                    i += 1;
                }
                names
            },
        )
    };
}

/// The three capture rules of docs/rules.md 16.11.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CaptureRule {
    Custodian,
    Intervention,
    Leap,
}

/// The seven options of each capture rule (`Custodian`, `CustodianSides`, ...).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CaptureSwitch {
    On,
    Sides,
    Cross,
    Diagonals,
    Placing,
    Moving,
    AtThree,
}

/// One rule option, named as docs/rules.md spells it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RuleOptionId {
    Variant,
    Pieces,
    Diagonals,
    Flying,
    FlyAt,
    Lasker,
    RemovePerMill,
    MillRemoval,
    MayPass,
    MillReform,
    Blocked,
    BoardFull,
    EndgameMoves,
    NoCaptureMoves,
    Repetition,
    FirstPlayer,
    MinPieces,
    PlacingMill,
    DefenderFirst,
    OneTimeMill,
    MillShuttle,
    StopAtTwoEmpty,
    LossCheck,
    EndgameWhen,
    Capture(CaptureRule, CaptureSwitch),
}

impl RuleOptionId {
    /// Every rule option, in the order of docs/rules.md 2, then 12.
    pub const ALL: [RuleOptionId; 45] = [
        RuleOptionId::Variant,
        RuleOptionId::Pieces,
        RuleOptionId::Diagonals,
        RuleOptionId::Flying,
        RuleOptionId::FlyAt,
        RuleOptionId::Lasker,
        RuleOptionId::RemovePerMill,
        RuleOptionId::MillRemoval,
        RuleOptionId::MayPass,
        RuleOptionId::MillReform,
        RuleOptionId::Blocked,
        RuleOptionId::BoardFull,
        RuleOptionId::EndgameMoves,
        RuleOptionId::NoCaptureMoves,
        RuleOptionId::Repetition,
        RuleOptionId::FirstPlayer,
        RuleOptionId::MinPieces,
        RuleOptionId::PlacingMill,
        RuleOptionId::DefenderFirst,
        RuleOptionId::OneTimeMill,
        RuleOptionId::MillShuttle,
        RuleOptionId::StopAtTwoEmpty,
        RuleOptionId::LossCheck,
        RuleOptionId::EndgameWhen,
        RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::On),
        RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Sides),
        RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Cross),
        RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Diagonals),
        RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Placing),
        RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Moving),
        RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::AtThree),
        RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::On),
        RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Sides),
        RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Cross),
        RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Diagonals),
        RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Placing),
        RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Moving),
        RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::AtThree),
        RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::On),
        RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Sides),
        RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Cross),
        RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Diagonals),
        RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Placing),
        RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Moving),
        RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::AtThree),
    ];

    pub const fn name(self) -> &'static str {
        match self {
            RuleOptionId::Variant => "Variant",
            RuleOptionId::Pieces => "Pieces",
            RuleOptionId::Diagonals => "Diagonals",
            RuleOptionId::Flying => "Flying",
            RuleOptionId::FlyAt => "FlyAt",
            RuleOptionId::Lasker => "Lasker",
            RuleOptionId::RemovePerMill => "RemovePerMill",
            RuleOptionId::MillRemoval => "MillRemoval",
            RuleOptionId::MayPass => "MayPass",
            RuleOptionId::MillReform => "MillReform",
            RuleOptionId::Blocked => "Blocked",
            RuleOptionId::BoardFull => "BoardFull",
            RuleOptionId::EndgameMoves => "EndgameMoves",
            RuleOptionId::NoCaptureMoves => "NoCaptureMoves",
            RuleOptionId::Repetition => "Repetition",
            RuleOptionId::FirstPlayer => "FirstPlayer",
            RuleOptionId::MinPieces => "MinPieces",
            RuleOptionId::PlacingMill => "PlacingMill",
            RuleOptionId::DefenderFirst => "DefenderFirst",
            RuleOptionId::OneTimeMill => "OneTimeMill",
            RuleOptionId::MillShuttle => "MillShuttle",
            RuleOptionId::StopAtTwoEmpty => "StopAtTwoEmpty",
            RuleOptionId::LossCheck => "LossCheck",
            RuleOptionId::EndgameWhen => "EndgameWhen",
            RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::On) => "Custodian",
            RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Sides) => "CustodianSides",
            RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Cross) => "CustodianCross",
            RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Diagonals) => {
                "CustodianDiagonals"
            }
            RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Placing) => {
                "CustodianPlacing"
            }
            RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::Moving) => {
                "CustodianMoving"
            }
            RuleOptionId::Capture(CaptureRule::Custodian, CaptureSwitch::AtThree) => {
                "CustodianAtThree"
            }
            RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::On) => "Intervention",
            RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Sides) => {
                "InterventionSides"
            }
            RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Cross) => {
                "InterventionCross"
            }
            RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Diagonals) => {
                "InterventionDiagonals"
            }
            RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Placing) => {
                "InterventionPlacing"
            }
            RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::Moving) => {
                "InterventionMoving"
            }
            RuleOptionId::Capture(CaptureRule::Intervention, CaptureSwitch::AtThree) => {
                "InterventionAtThree"
            }
            RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::On) => "Leap",
            RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Sides) => "LeapSides",
            RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Cross) => "LeapCross",
            RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Diagonals) => "LeapDiagonals",
            RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Placing) => "LeapPlacing",
            RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::Moving) => "LeapMoving",
            RuleOptionId::Capture(CaptureRule::Leap, CaptureSwitch::AtThree) => "LeapAtThree",
        }
    }

    pub const fn kind(self) -> OptionKind {
        match self {
            RuleOptionId::Variant => combo!(Variant::ALL),
            RuleOptionId::Pieces | RuleOptionId::FlyAt => OptionKind::Spin { min: 3, max: 12 },
            RuleOptionId::MinPieces => OptionKind::Spin { min: 3, max: 5 },
            RuleOptionId::Diagonals
            | RuleOptionId::Lasker
            | RuleOptionId::RemovePerMill
            | RuleOptionId::MayPass
            | RuleOptionId::MillReform
            | RuleOptionId::Repetition
            | RuleOptionId::DefenderFirst
            | RuleOptionId::OneTimeMill
            | RuleOptionId::StopAtTwoEmpty
            | RuleOptionId::Capture(..) => OptionKind::Check,
            RuleOptionId::Flying => combo!(Flying::ALL),
            RuleOptionId::MillRemoval => combo!(MillRemoval::ALL),
            RuleOptionId::Blocked => combo!(Blocked::ALL),
            RuleOptionId::BoardFull => combo!(BoardFull::ALL),
            RuleOptionId::EndgameMoves | RuleOptionId::NoCaptureMoves => {
                OptionKind::Spin { min: 0, max: 1000 }
            }
            RuleOptionId::FirstPlayer => combo!(Color::BOTH),
            RuleOptionId::PlacingMill => combo!(PlacingMill::ALL),
            RuleOptionId::MillShuttle => combo!(MillShuttle::ALL),
            RuleOptionId::LossCheck => combo!(LossCheck::ALL),
            RuleOptionId::EndgameWhen => combo!(EndgameWhen::ALL),
        }
    }

    /// The option with this name (any case), if there is one.
    pub fn find(name: &str) -> Option<RuleOptionId> {
        RuleOptionId::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for RuleOptionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An option's value, spelled as its kind spells values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RuleValue {
    Check(bool),
    Spin(u16),
    /// The value's name, as the option's combo lists it.
    Combo(&'static str),
}

impl fmt::Display for RuleValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleValue::Check(b) => write!(f, "{b}"),
            RuleValue::Spin(n) => write!(f, "{n}"),
            RuleValue::Combo(name) => f.write_str(name),
        }
    }
}

/// One option and its value; displays as `Name=Value`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RuleSetting {
    pub option: RuleOptionId,
    pub value: RuleValue,
}

impl fmt::Display for RuleSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.option, self.value)
    }
}

/// A rejected option setting.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RulesError {
    #[error("unknown rule option '{0}'")]
    UnknownOption(String),
    /// A value the option's kind does not take.
    #[error("option {option} takes {}, not '{value}'", .option.kind().expected())]
    BadValue { option: RuleOptionId, value: String },
    #[error("FlyAt ({fly_at}) must be at most Pieces ({pieces})")]
    FlyAtAbovePieces { fly_at: u8, pieces: u8 },
    #[error("expected Name=Value, got '{0}'")]
    NotASetting(String),
    #[error("MinPieces ({min_pieces}) must be at most Pieces ({pieces})")]
    MinPiecesAbovePieces { min_pieces: u8, pieces: u8 },
    /// `MayPass` and `MillReform` are not played together with the rule-set
    /// options of docs/rules.md Part II (Sanmill has neither; section 20).
    #[error(
        "MayPass and MillReform are not supported together with the rule-set options of docs/rules.md Part II (Sanmill has neither)"
    )]
    Unsupported,
}

/// Reads a yes/no value as docs/rules.md 8.9 allows it.
pub fn parse_bool(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

fn bad_value(option: RuleOptionId, value: &str) -> RulesError {
    RulesError::BadValue {
        option,
        value: value.to_string(),
    }
}

fn check(option: RuleOptionId, value: &str) -> Result<bool, RulesError> {
    parse_bool(value).ok_or_else(|| bad_value(option, value))
}

fn spin(option: RuleOptionId, value: &str) -> Result<u16, RulesError> {
    let range = match option.kind() {
        OptionKind::Spin { min, max } => min..=max,
        OptionKind::Check | OptionKind::Combo(_) => unreachable!("{option} is not a spin"),
    };
    value
        .parse()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| bad_value(option, value))
}

/// The value of `all` named `value` (any case).
fn combo<T: Copy>(
    option: RuleOptionId,
    all: &[T],
    name: fn(T) -> &'static str,
    value: &str,
) -> Result<T, RulesError> {
    all.iter()
        .copied()
        .find(|&v| name(v).eq_ignore_ascii_case(value))
        .ok_or_else(|| bad_value(option, value))
}

impl Rules {
    pub const fn preset(variant: Variant) -> Rules {
        let base = Rules {
            variant,
            pieces: 9,
            diagonals: false,
            flying: Flying::Three,
            fly_at: 3,
            lasker: false,
            remove_per_mill: false,
            mill_removal: MillRemoval::Protected,
            may_pass: false,
            mill_reform: false,
            blocked: Blocked::Loss,
            board_full: BoardFull::Draw,
            endgame_moves: 10,
            no_capture_moves: 100,
            repetition: true,
            first_player: Color::White,
            min_pieces: 3,
            placing_mill: PlacingMill::Board,
            defender_first: false,
            one_time_mill: false,
            mill_shuttle: MillShuttle::Allowed,
            stop_at_two_empty: false,
            custodian: Capture::OFF,
            intervention: Capture::OFF,
            leap: Capture::OFF,
            loss_check: LossCheck::Turn,
            endgame_when: EndgameWhen::Both,
        };
        // The Sanmill base (docs/rules.md 18.1) and its twelve-piece board.
        let sanmill = Rules {
            board_full: BoardFull::FirstLoses,
            endgame_moves: 0,
            loss_check: LossCheck::Removal,
            endgame_when: EndgameWhen::Either,
            ..base
        };
        let twelve = Rules {
            pieces: 12,
            diagonals: true,
            ..sanmill
        };
        let no_fly = Flying::Off;
        let any = MillRemoval::Any;
        match variant {
            Variant::Nine => base,
            Variant::Twelve => Rules {
                pieces: 12,
                diagonals: true,
                ..base
            },
            Variant::Morabaraba => Rules {
                pieces: 12,
                diagonals: true,
                remove_per_mill: true,
                ..base
            },
            Variant::Lasker => Rules {
                pieces: 10,
                lasker: true,
                ..base
            },
            Variant::NineApp | Variant::Table0 => sanmill,
            Variant::TwelveApp | Variant::Table1 => twelve,
            Variant::MorabarabaApp => Rules {
                board_full: BoardFull::Draw,
                endgame_moves: 10,
                mill_shuttle: MillShuttle::Banned,
                ..twelve
            },
            Variant::Dooz => Rules {
                placing_mill: PlacingMill::Hand,
                board_full: BoardFull::RemoveOne,
                mill_removal: any,
                ..twelve
            },
            Variant::LaskerApp | Variant::Table5 => Rules {
                pieces: 10,
                lasker: true,
                ..sanmill
            },
            Variant::OneTime => Rules {
                one_time_mill: true,
                mill_removal: any,
                ..sanmill
            },
            Variant::ChamGonu => Rules {
                placing_mill: PlacingMill::Mark,
                flying: no_fly,
                mill_removal: any,
                ..twelve
            },
            Variant::ZhiQi => Rules {
                placing_mill: PlacingMill::Mark,
                board_full: BoardFull::RemoveFirst,
                flying: no_fly,
                mill_removal: any,
                ..twelve
            },
            Variant::ChengSanQi => Rules {
                placing_mill: PlacingMill::Mark,
                flying: no_fly,
                ..sanmill
            },
            Variant::DaSanQi => Rules {
                placing_mill: PlacingMill::Mark,
                defender_first: true,
                flying: no_fly,
                mill_removal: any,
                remove_per_mill: true,
                ..twelve
            },
            Variant::MulMulan => Rules {
                diagonals: true,
                flying: no_fly,
                mill_removal: any,
                intervention: Capture {
                    on: true,
                    ..Capture::OFF
                },
                ..sanmill
            },
            Variant::Nerenchi => Rules {
                defender_first: true,
                mill_removal: any,
                ..twelve
            },
            Variant::ElFilja | Variant::Table9 => Rules {
                pieces: 12,
                placing_mill: PlacingMill::Tally,
                board_full: BoardFull::RemoveFirst,
                flying: no_fly,
                mill_removal: any,
                ..sanmill
            },
            Variant::Table2 => Rules {
                placing_mill: PlacingMill::Hand,
                ..twelve
            },
            Variant::Table3 => Rules {
                remove_per_mill: true,
                ..twelve
            },
            Variant::Table4 => Rules {
                one_time_mill: true,
                ..sanmill
            },
            Variant::Table6 => Rules {
                flying: no_fly,
                ..sanmill
            },
            Variant::Table7 => Rules {
                placing_mill: PlacingMill::Mark,
                defender_first: true,
                flying: no_fly,
                mill_removal: any,
                ..twelve
            },
            Variant::Table8 => Rules {
                board_full: BoardFull::RemoveFirst,
                blocked: Blocked::RemoveMove,
                ..twelve
            },
            Variant::Table10 => Rules {
                defender_first: true,
                mill_removal: any,
                board_full: BoardFull::RemoveSecond,
                flying: no_fly,
                ..twelve
            },
        }
    }

    /// Whether these rules use a rule-set option of docs/rules.md Part II
    /// beyond `MinPieces` and `EndgameWhen`: such rules are played turn by
    /// turn as its section 14 says (`rules::turns`), the others by the plain
    /// generator of Part I (docs/rules.md 20).
    #[inline]
    pub fn extended(&self) -> bool {
        !matches!(self.blocked, Blocked::Loss | Blocked::Draw)
            || !matches!(self.board_full, BoardFull::Draw | BoardFull::Loss)
            || self.placing_mill as u8 != PlacingMill::Board as u8
            || self.defender_first
            || self.one_time_mill
            || self.mill_shuttle as u8 != MillShuttle::Allowed as u8
            || self.stop_at_two_empty
            || self.custodian.on
            || self.intervention.on
            || self.leap.on
            || self.loss_check as u8 != LossCheck::Turn as u8
    }

    /// The settings of one capture rule.
    #[inline]
    pub fn capture(&self, rule: CaptureRule) -> &Capture {
        match rule {
            CaptureRule::Custodian => &self.custodian,
            CaptureRule::Intervention => &self.intervention,
            CaptureRule::Leap => &self.leap,
        }
    }

    fn capture_mut(&mut self, rule: CaptureRule) -> &mut Capture {
        match rule {
            CaptureRule::Custodian => &mut self.custodian,
            CaptureRule::Intervention => &mut self.intervention,
            CaptureRule::Leap => &mut self.leap,
        }
    }

    /// The adjacency and mill tables these rules play on.
    #[inline]
    pub fn layout(&self) -> &'static Layout {
        if self.diagonals {
            &Layout::DIAGONAL
        } else {
            &Layout::PLAIN
        }
    }

    /// Sets one option by name and value, both case-insensitive. `Variant`
    /// resets every option to the preset. On error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RulesError> {
        let option =
            RuleOptionId::find(name).ok_or_else(|| RulesError::UnknownOption(name.to_string()))?;
        self.set_option(option, value)
    }

    /// Sets one option to a value read case-insensitively, as [`Rules::set`].
    pub fn set_option(&mut self, option: RuleOptionId, value: &str) -> Result<(), RulesError> {
        let value = value.trim();
        let mut next = *self;
        match option {
            RuleOptionId::Variant => {
                next = Rules::preset(combo(option, &Variant::ALL, Variant::name, value)?)
            }
            RuleOptionId::Pieces => next.pieces = spin(option, value)? as u8,
            RuleOptionId::Diagonals => next.diagonals = check(option, value)?,
            RuleOptionId::Flying => next.flying = combo(option, &Flying::ALL, Flying::name, value)?,
            RuleOptionId::FlyAt => next.fly_at = spin(option, value)? as u8,
            RuleOptionId::Lasker => next.lasker = check(option, value)?,
            RuleOptionId::RemovePerMill => next.remove_per_mill = check(option, value)?,
            RuleOptionId::MillRemoval => {
                next.mill_removal = combo(option, &MillRemoval::ALL, MillRemoval::name, value)?
            }
            RuleOptionId::MayPass => next.may_pass = check(option, value)?,
            RuleOptionId::MillReform => next.mill_reform = check(option, value)?,
            RuleOptionId::Blocked => {
                next.blocked = combo(option, &Blocked::ALL, Blocked::name, value)?
            }
            RuleOptionId::BoardFull => {
                next.board_full = combo(option, &BoardFull::ALL, BoardFull::name, value)?
            }
            RuleOptionId::EndgameMoves => next.endgame_moves = spin(option, value)?,
            RuleOptionId::NoCaptureMoves => next.no_capture_moves = spin(option, value)?,
            RuleOptionId::Repetition => next.repetition = check(option, value)?,
            RuleOptionId::FirstPlayer => {
                next.first_player = combo(option, &Color::BOTH, Color::name, value)?
            }
            RuleOptionId::MinPieces => next.min_pieces = spin(option, value)? as u8,
            RuleOptionId::PlacingMill => {
                next.placing_mill = combo(option, &PlacingMill::ALL, PlacingMill::name, value)?
            }
            RuleOptionId::DefenderFirst => next.defender_first = check(option, value)?,
            RuleOptionId::OneTimeMill => next.one_time_mill = check(option, value)?,
            RuleOptionId::MillShuttle => {
                next.mill_shuttle = combo(option, &MillShuttle::ALL, MillShuttle::name, value)?
            }
            RuleOptionId::StopAtTwoEmpty => next.stop_at_two_empty = check(option, value)?,
            RuleOptionId::LossCheck => {
                next.loss_check = combo(option, &LossCheck::ALL, LossCheck::name, value)?
            }
            RuleOptionId::EndgameWhen => {
                next.endgame_when = combo(option, &EndgameWhen::ALL, EndgameWhen::name, value)?
            }
            RuleOptionId::Capture(rule, switch) => {
                *next.capture_mut(rule).switch_mut(switch) = check(option, value)?
            }
        }
        if next.fly_at > next.pieces {
            return Err(RulesError::FlyAtAbovePieces {
                fly_at: next.fly_at,
                pieces: next.pieces,
            });
        }
        if next.min_pieces > next.pieces {
            return Err(RulesError::MinPiecesAbovePieces {
                min_pieces: next.min_pieces,
                pieces: next.pieces,
            });
        }
        if next.extended() && (next.may_pass || next.mill_reform) {
            return Err(RulesError::Unsupported);
        }
        *self = next;
        Ok(())
    }

    /// The rules of a preset named as `Variant` takes it, then `Name=Value`
    /// settings applied in order: what every tool's `--variant`/`--option`
    /// pair means.
    pub fn with_settings(variant: &str, settings: &[impl AsRef<str>]) -> Result<Rules, RulesError> {
        let mut rules = Rules::default();
        rules.set_option(RuleOptionId::Variant, variant)?;
        for s in settings {
            rules.apply(s.as_ref())?;
        }
        Ok(rules)
    }

    /// Applies one `Name=Value` setting.
    pub fn apply(&mut self, setting: &str) -> Result<(), RulesError> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| RulesError::NotASetting(setting.to_string()))?;
        self.set(name.trim(), value)
    }

    /// The current value of an option.
    pub fn get(&self, option: RuleOptionId) -> RuleValue {
        match option {
            RuleOptionId::Variant => RuleValue::Combo(self.variant.name()),
            RuleOptionId::Pieces => RuleValue::Spin(self.pieces.into()),
            RuleOptionId::Diagonals => RuleValue::Check(self.diagonals),
            RuleOptionId::Flying => RuleValue::Combo(self.flying.name()),
            RuleOptionId::FlyAt => RuleValue::Spin(self.fly_at.into()),
            RuleOptionId::Lasker => RuleValue::Check(self.lasker),
            RuleOptionId::RemovePerMill => RuleValue::Check(self.remove_per_mill),
            RuleOptionId::MillRemoval => RuleValue::Combo(self.mill_removal.name()),
            RuleOptionId::MayPass => RuleValue::Check(self.may_pass),
            RuleOptionId::MillReform => RuleValue::Check(self.mill_reform),
            RuleOptionId::Blocked => RuleValue::Combo(self.blocked.name()),
            RuleOptionId::BoardFull => RuleValue::Combo(self.board_full.name()),
            RuleOptionId::EndgameMoves => RuleValue::Spin(self.endgame_moves),
            RuleOptionId::NoCaptureMoves => RuleValue::Spin(self.no_capture_moves),
            RuleOptionId::Repetition => RuleValue::Check(self.repetition),
            RuleOptionId::FirstPlayer => RuleValue::Combo(self.first_player.name()),
            RuleOptionId::MinPieces => RuleValue::Spin(self.min_pieces.into()),
            RuleOptionId::PlacingMill => RuleValue::Combo(self.placing_mill.name()),
            RuleOptionId::DefenderFirst => RuleValue::Check(self.defender_first),
            RuleOptionId::OneTimeMill => RuleValue::Check(self.one_time_mill),
            RuleOptionId::MillShuttle => RuleValue::Combo(self.mill_shuttle.name()),
            RuleOptionId::StopAtTwoEmpty => RuleValue::Check(self.stop_at_two_empty),
            RuleOptionId::LossCheck => RuleValue::Combo(self.loss_check.name()),
            RuleOptionId::EndgameWhen => RuleValue::Combo(self.endgame_when.name()),
            RuleOptionId::Capture(rule, switch) => {
                let mut capture = *self.capture(rule);
                RuleValue::Check(*capture.switch_mut(switch))
            }
        }
    }

    /// The options other than `Variant` that differ from this rules' preset.
    pub fn non_default(&self) -> Vec<RuleSetting> {
        let preset = Rules::preset(self.variant);
        RuleOptionId::ALL
            .into_iter()
            .filter(|&o| o != RuleOptionId::Variant && self.get(o) != preset.get(o))
            .map(|option| RuleSetting {
                option,
                value: self.get(option),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_rules_md() {
        let m = Rules::preset(Variant::Morabaraba);
        assert!(m.diagonals && m.remove_per_mill && m.pieces == 12);
        let l = Rules::preset(Variant::Lasker);
        assert!(l.lasker && l.pieces == 10 && !l.diagonals);
        let t = Rules::preset(Variant::Twelve);
        assert!(t.diagonals && !t.remove_per_mill);
    }

    #[test]
    fn set_is_case_insensitive_and_validates() {
        let mut r = Rules::default();
        r.set("millremoval", "NEVER").unwrap();
        assert_eq!(r.mill_removal, MillRemoval::Never);
        r.apply("MayPass=on").unwrap();
        assert!(r.may_pass);
        let before = r;
        for (name, value, message) in [
            (
                "Pieces",
                "13",
                "option Pieces takes a whole number from 3 to 12, not '13'",
            ),
            ("Bogus", "1", "unknown rule option 'Bogus'"),
            (
                "flying",
                " sometimes",
                "option Flying takes one of off, three, both, not 'sometimes'",
            ),
            (
                "Repetition",
                "maybe",
                "option Repetition takes true or false (also on/off, yes/no, 1/0), not 'maybe'",
            ),
            ("FlyAt", "10", "FlyAt (10) must be at most Pieces (9)"),
        ] {
            assert_eq!(r.set(name, value).unwrap_err().to_string(), message);
        }
        assert_eq!(
            r.apply("Pieces").unwrap_err().to_string(),
            "expected Name=Value, got 'Pieces'"
        );
        assert_eq!(r, before, "a rejected setting changes nothing");
        r.set("Variant", "twelve").unwrap();
        assert_eq!(r, Rules::preset(Variant::Twelve));
        assert!(r.non_default().is_empty());
        r.set("EndgameMoves", "0").unwrap();
        let changed: Vec<String> = r.non_default().iter().map(|s| s.to_string()).collect();
        assert_eq!(changed, ["EndgameMoves=0"]);
    }
}
