//! The values of the rule options that are more than a number or a
//! switch (docs/rules.md Part II): when pieces fly, which mills may be
//! broken, what a blocked player or a full board means, the capture rules;
//! and the presets' names (`Variant`).

/// When players may move a piece to any empty point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flying {
    /// Nobody ever flies.
    Off,
    /// A player with at most `FlyAt` pieces and none in hand.
    Three,
    /// Both players, once neither has pieces in hand and either is down to `FlyAt`.
    Both,
}

impl Flying {
    /// Every value, in the order the option's combo lists them.
    pub const ALL: [Flying; 3] = [Flying::Off, Flying::Three, Flying::Both];

    /// The value's name, as docs/rules.md, `setoption`, `--option` and game
    /// records write it (read in any case).
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
    /// Any opponent piece, in a mill or not.
    Any,
}

impl MillRemoval {
    /// Every value, in the order the option's combo lists them.
    pub const ALL: [MillRemoval; 3] =
        [MillRemoval::Protected, MillRemoval::Never, MillRemoval::Any];

    /// The value's name, as docs/rules.md, `setoption`, `--option` and game
    /// records write it (read in any case).
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
    /// The blocked player loses (docs/rules.md 6.2).
    Loss,
    /// The game is drawn.
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
    /// Every value, in the order the option's combo lists them.
    pub const ALL: [Blocked; 6] = [
        Blocked::Loss,
        Blocked::Draw,
        Blocked::Pass,
        Blocked::RemoveMove,
        Blocked::RemovePass,
        Blocked::BothRemove,
    ];

    /// The value's name, as docs/rules.md, `setoption`, `--option` and game
    /// records write it (read in any case).
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
    /// The game is drawn (docs/rules.md 6.3).
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
    /// Every value, in the order the option's combo lists them.
    pub const ALL: [BoardFull; 6] = [
        BoardFull::Draw,
        BoardFull::Loss,
        BoardFull::FirstLoses,
        BoardFull::RemoveFirst,
        BoardFull::RemoveSecond,
        BoardFull::RemoveOne,
    ];

    /// The value's name, as docs/rules.md, `setoption`, `--option` and game
    /// records write it (read in any case).
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
    /// The player removes opponent pieces from the board, as in Part I.
    Board,
    /// The mill takes pieces from the opponent's hand, unwritten (from the
    /// board once that hand is empty), and the opponent plays next.
    Hand,
    /// As `Hand`, but a mill served wholly from the hand gives the same
    /// player another turn.
    HandAgain,
    /// Offered as "the victim picks", played exactly as `Board`.
    VictimPicks,
    /// A removal in a placing-phase turn marks the piece instead: it stays
    /// as a dead piece until the stage change empties every marked point.
    Mark,
    /// A placement's mill removes nothing; at the stage change each player
    /// removes as many pieces as the count of both players' complete lines
    /// gives (docs/rules.md 16.2's table).
    Tally,
}

impl PlacingMill {
    /// Every value, in the order the option's combo lists them.
    pub const ALL: [PlacingMill; 6] = [
        PlacingMill::Board,
        PlacingMill::Hand,
        PlacingMill::HandAgain,
        PlacingMill::VictimPicks,
        PlacingMill::Mark,
        PlacingMill::Tally,
    ];

    /// The value's name, as docs/rules.md, `setoption`, `--option` and game
    /// records write it (read in any case).
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
    /// No move is forbidden by this rule.
    Allowed,
    /// After a mill closed by moving F to T, the move back from T to F is
    /// forbidden while the piece on T stands in a mill and the move would
    /// complete a line through F (spent lines left out).
    Banned,
}

impl MillShuttle {
    /// Every value, in the order the option's combo lists them.
    pub const ALL: [MillShuttle; 2] = [MillShuttle::Allowed, MillShuttle::Banned];

    /// The value's name, as docs/rules.md, `setoption`, `--option` and game
    /// records write it (read in any case).
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
    /// Every value, in the order the option's combo lists them.
    pub const ALL: [LossCheck; 2] = [LossCheck::Turn, LossCheck::Removal];

    /// The value's name, as docs/rules.md, `setoption`, `--option` and game
    /// records write it (read in any case).
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
    /// Every value, in the order the option's combo lists them.
    pub const ALL: [EndgameWhen; 2] = [EndgameWhen::Both, EndgameWhen::Either];

    /// The value's name, as docs/rules.md, `setoption`, `--option` and game
    /// records write it (read in any case).
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
    /// Whether the rule acts at all (the option `K` of docs/rules.md 16.11
    /// itself, such as `Custodian`).
    pub on: bool,
    /// Whether it works on the 12 sides of the squares (`KSides`).
    pub sides: bool,
    /// Whether it works on the 4 cross lines (`KCross`).
    pub cross: bool,
    /// Whether it works on the 4 diagonals, when `Diagonals` is on
    /// (`KDiagonals`).
    pub diagonals: bool,
    /// Whether it acts on placements (`KPlacing`); a `Lasker` slide in a
    /// placing-phase turn needs this and `moving`. Leap ignores it.
    pub placing: bool,
    /// Whether it acts on moves in moving-phase turns (`KMoving`).
    pub moving: bool,
    /// Whether it acts only while the mover has at most three pieces on the
    /// board (`KAtThree`): for custodian and intervention in moving-phase
    /// turns only, for leap always.
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
    /// Custodian: a piece arriving at one end of a line, the mover's piece
    /// at the other, takes the opponent's piece in the middle.
    Custodian,
    /// Intervention: a piece arriving in the middle of a line takes the
    /// opponent's pieces at both ends.
    Intervention,
    /// Leap: a piece jumping from one end of a line to the other takes the
    /// opponent's piece in the middle.
    Leap,
}

impl CaptureRule {
    /// The three rules, in the order of their options (`Custodian` first).
    pub const ALL: [CaptureRule; 3] = [
        CaptureRule::Custodian,
        CaptureRule::Intervention,
        CaptureRule::Leap,
    ];
}

/// The seven options of each capture rule (`Custodian`, `CustodianSides`, ...).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CaptureSwitch {
    /// The rule itself (`Custodian`): sets [`Capture::on`].
    On,
    /// `CustodianSides` and the like: sets [`Capture::sides`].
    Sides,
    /// `CustodianCross` and the like: sets [`Capture::cross`].
    Cross,
    /// `CustodianDiagonals` and the like: sets [`Capture::diagonals`].
    Diagonals,
    /// `CustodianPlacing` and the like: sets [`Capture::placing`].
    Placing,
    /// `CustodianMoving` and the like: sets [`Capture::moving`].
    Moving,
    /// `CustodianAtThree` and the like: sets [`Capture::at_three`].
    AtThree,
}

impl CaptureSwitch {
    /// The seven switches, in the order of each rule's options.
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
    /// Nine men's morris, the standard game of docs/rules.md Part I (the
    /// default).
    Nine,
    /// Twelve men's morris: 12 pieces and the diagonals (docs/rules.md 7.1).
    Twelve,
    /// Morabaraba: `Twelve` with `RemovePerMill` (docs/rules.md 7.1).
    Morabaraba,
    /// Lasker morris: 10 pieces and `Lasker` (docs/rules.md 7.1).
    Lasker,
    /// Sanmill's Nine Men's Morris: the Sanmill base of docs/rules.md 18.1,
    /// which differs from `Nine` as 18.4 says.
    NineApp,
    /// Sanmill's Twelve Men's Morris: the base with 12 pieces and the
    /// diagonals (docs/rules.md 18.2).
    TwelveApp,
    /// Sanmill's Morabaraba: `TwelveApp` with `BoardFull draw`,
    /// `EndgameMoves` 10 and `MillShuttle banned` (docs/rules.md 18.2).
    MorabarabaApp,
    /// Sanmill's Lasker Morris: the base with 10 pieces and `Lasker`
    /// (docs/rules.md 18.2).
    LaskerApp,
    /// Dooz (Iran): `TwelveApp` with `PlacingMill hand`, `BoardFull
    /// removeone` and `MillRemoval any` (docs/rules.md 18.2).
    Dooz,
    /// One-Time Mill, the app's "Russian Mill": the base with `OneTimeMill`
    /// and `MillRemoval any` (docs/rules.md 18.2).
    OneTime,
    /// Cham Gonu (Korea): `TwelveApp` with `PlacingMill mark`, `Flying off`
    /// and `MillRemoval any` (docs/rules.md 18.2).
    ChamGonu,
    /// Zhi Qi (southern China): `ChamGonu` with `BoardFull removefirst`
    /// (docs/rules.md 18.2).
    ZhiQi,
    /// Cheng San Qi (south-western China): the base with `PlacingMill mark`
    /// and `Flying off` (docs/rules.md 18.2).
    ChengSanQi,
    /// Da San Qi (China): `ChamGonu` with `DefenderFirst` and
    /// `RemovePerMill` (docs/rules.md 18.2).
    DaSanQi,
    /// Mul-Mulan (Indonesia): the base with the diagonals, `Flying off`,
    /// `MillRemoval any` and `Intervention` (docs/rules.md 18.2).
    MulMulan,
    /// Nerenchi (Sri Lanka): `TwelveApp` with `DefenderFirst` and
    /// `MillRemoval any` (docs/rules.md 18.2).
    Nerenchi,
    /// El Filja (north-west Africa): the base with 12 pieces, `PlacingMill
    /// tally`, `BoardFull removefirst`, `Flying off` and `MillRemoval any`
    /// (docs/rules.md 18.2).
    ElFilja,
    /// Rule set 0 of Sanmill's engine table (docs/rules.md 18.3), Nine
    /// Men's Morris: the same options as `NineApp`.
    Table0,
    /// Engine table rule set 1, Twelve Men's Morris: as `TwelveApp`.
    Table1,
    /// Engine table rule set 2, Dooz: `TwelveApp` with `PlacingMill hand`
    /// only.
    Table2,
    /// Engine table rule set 3, Morabaraba: `TwelveApp` with
    /// `RemovePerMill`.
    Table3,
    /// Engine table rule set 4, Russian Mill: the base with `OneTimeMill`
    /// only.
    Table4,
    /// Engine table rule set 5, Lasker Morris: as `LaskerApp`.
    Table5,
    /// Engine table rule set 6, Cheng San Qi: the base with `Flying off`
    /// only.
    Table6,
    /// Engine table rule set 7, Da San Qi: as `DaSanQi` without
    /// `RemovePerMill`.
    Table7,
    /// Engine table rule set 8, Zhi Qi: `TwelveApp` with `BoardFull
    /// removefirst` and `Blocked removemove`.
    Table8,
    /// Engine table rule set 9, El Filja: as `ElFilja`.
    Table9,
    /// Engine table rule set 10, Experimental: `TwelveApp` with
    /// `DefenderFirst`, `MillRemoval any`, `BoardFull removesecond` and
    /// `Flying off`.
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

    /// The preset's name, as the `Variant` option, `--variant` and game
    /// records write it (read in any case).
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
