//! Sectors: the stones on the board and in hand of each side that a
//! table holds, and the position a slot's stone sets make in one.

use morris_rules::{Bitboard, Color, Position};

/// A sector name that `Sector::parse` refuses.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SectorError {
    /// The text (held here) is not two numbers `w-b`, optionally followed
    /// by `+x-y`, each 0 to 255.
    #[error("expected a sector like 5-4 or 5-4+2-3, not '{0}'")]
    Syntax(String),
    /// The counts of the text (held here) are out of range: one above 12,
    /// fewer than 3 or more than 12 stones a side in all, or more than 24
    /// on the board.
    #[error("sector {0}: each side has 3 to 12 stones (board plus hand), at most 24 on the board")]
    StoneCount(String),
}

/// A sector: stones on the board of the side to move and of the other
/// side, then stones in hand of each. A sector with both hands 0 is a
/// movement-phase subspace (shown `4-3`); the others are placement
/// sectors (shown `4-3+2-2`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Sector {
    /// Stones on the board of the side to move.
    pub mine: u8,
    /// Stones on the board of the other side.
    pub theirs: u8,
    /// Stones in hand of the side to move.
    pub mine_hand: u8,
    /// Stones in hand of the other side.
    pub theirs_hand: u8,
}

/// A movement-phase sector (both hands empty).
pub type Subspace = Sector;

impl Sector {
    /// The movement-phase sector `mine-theirs`.
    pub fn new(mine: u8, theirs: u8) -> Sector {
        Sector::with_hands(mine, theirs, 0, 0)
    }

    /// The sector `mine-theirs+mine_hand-theirs_hand`, its counts
    /// unchecked (`parse` checks a name's).
    pub fn with_hands(mine: u8, theirs: u8, mine_hand: u8, theirs_hand: u8) -> Sector {
        Sector {
            mine,
            theirs,
            mine_hand,
            theirs_hand,
        }
    }

    /// Whether this is a placement sector (some stones in hand).
    pub fn placing(self) -> bool {
        self.mine_hand + self.theirs_hand > 0
    }

    /// The sector the opponent moves in after a move that neither places
    /// nor removes.
    pub fn swapped(self) -> Sector {
        Sector::with_hands(self.theirs, self.mine, self.theirs_hand, self.mine_hand)
    }

    /// Stones of the side to move, board plus hand.
    pub(crate) fn mine_material(self) -> u8 {
        self.mine + self.mine_hand
    }

    fn theirs_material(self) -> u8 {
        self.theirs + self.theirs_hand
    }

    /// Parses `5-4` (a movement subspace, 3 to 12 stones a side) or
    /// `5-4+2-3` (board counts 0 to 12, hands 0 to 12, at least 3
    /// stones a side in all, and at most 24 on the board).
    pub fn parse(text: &str) -> Result<Sector, SectorError> {
        let bad = || SectorError::Syntax(text.to_string());
        let pair = |t: &str| -> Result<(u8, u8), SectorError> {
            let (a, b) = t.split_once('-').ok_or_else(bad)?;
            let a: u8 = a.trim().parse().map_err(|_| bad())?;
            let b: u8 = b.trim().parse().map_err(|_| bad())?;
            Ok((a, b))
        };
        let (board, hands) = match text.split_once('+') {
            Some((board, hands)) => (pair(board)?, pair(hands)?),
            None => (pair(text)?, (0, 0)),
        };
        let s = Sector::with_hands(board.0, board.1, hands.0, hands.1);
        let counts = [s.mine, s.theirs, s.mine_hand, s.theirs_hand];
        if counts.iter().any(|&c| c > 12)
            || s.mine_material() < 3
            || s.theirs_material() < 3
            || s.mine_material() > 12
            || s.theirs_material() > 12
            || s.mine as usize + s.theirs as usize > 24
        {
            return Err(SectorError::StoneCount(text.to_string()));
        }
        Ok(s)
    }
}

impl std::fmt::Display for Sector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.mine, self.theirs)?;
        if self.placing() {
            write!(f, "+{}-{}", self.mine_hand, self.theirs_hand)?;
        }
        Ok(())
    }
}

/// The position with `mine` to move against `theirs`, in the movement phase.
pub fn position(mine: u32, theirs: u32) -> Position {
    sector_position(Sector::new(0, 0), mine, theirs)
}

/// The position with `mine` to move against `theirs` and the hands of
/// sector `s` (White to move, clock 0).
pub fn sector_position(s: Sector, mine: u32, theirs: u32) -> Position {
    Position::new(
        [Bitboard(mine), Bitboard(theirs)],
        [s.mine_hand, s.theirs_hand],
        Color::White,
        0,
        1,
        [0, 0],
    )
}
