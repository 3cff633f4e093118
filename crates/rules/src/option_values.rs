//! The values of the rule options that are more than a number or a
//! switch (docs/rules.md Part II): when pieces fly, which mills may be
//! broken, what a blocked player or a full board means, the capture rules;
//! and the presets' names (`Variant`).

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
    pub(super) fn switch_mut(&mut self, switch: CaptureSwitch) -> &mut bool {
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

/// The three capture rules of docs/rules.md 16.11.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CaptureRule {
    Custodian,
    Intervention,
    Leap,
}

impl CaptureRule {
    pub const ALL: [CaptureRule; 3] = [
        CaptureRule::Custodian,
        CaptureRule::Intervention,
        CaptureRule::Leap,
    ];
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

impl CaptureSwitch {
    pub const ALL: [CaptureSwitch; 7] = [
        CaptureSwitch::On,
        CaptureSwitch::Sides,
        CaptureSwitch::Cross,
        CaptureSwitch::Diagonals,
        CaptureSwitch::Placing,
        CaptureSwitch::Moving,
        CaptureSwitch::AtThree,
    ];
}

/// The capture options' names by `CaptureRule` and `CaptureSwitch`, in
/// their declaration order: the rule, then the switch (none for `On`).
pub(super) const CAPTURE_NAMES: [[&str; 7]; 3] = {
    macro_rules! names {
        ($($rule:literal),*; $switches:tt) => { [$(names!(@row $rule $switches)),*] };
        (@row $rule:literal [$($switch:literal),*]) => { [$(concat!($rule, $switch)),*] };
    }
    names!(
        "Custodian", "Intervention", "Leap";
        ["", "Sides", "Cross", "Diagonals", "Placing", "Moving", "AtThree"]
    )
};

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
