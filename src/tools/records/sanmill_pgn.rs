//! The other public mill app's (Sanmill's) record dialect: its names of
//! rule sets (the PGN `Variant` tag) and its position string (the `FEN`
//! tag), read and written. Its moves are written as ours are (`d6`,
//! `a1-a4`, `xd7`).

use crate::rules::{Bitboard, Color, Owed, Position, Rules, Square, Variant};

/// Sanmill's rule sets: its stable id, its English name (what it writes
/// in `Variant`), and our preset of the same rules (docs/rules.md 18.2).
const VARIANTS: [(&str, &str, Variant); 13] = [
    ("standard_9mm", "Nine Men's Morris", Variant::NineApp),
    (
        "twelve_mens_morris",
        "Twelve Men's Morris",
        Variant::TwelveApp,
    ),
    ("morabaraba", "Morabaraba", Variant::MorabarabaApp),
    ("dooz", "Dooz", Variant::Dooz),
    ("lasker_morris", "Lasker Morris", Variant::LaskerApp),
    ("russian_mill", "Russian Mill", Variant::OneTime),
    ("cham_gonu", "Cham Gonu", Variant::ChamGonu),
    ("zhi_qi", "Zhi Qi", Variant::ZhiQi),
    ("cheng_san_qi", "Cheng San Qi", Variant::ChengSanQi),
    ("da_san_qi", "Da San Qi", Variant::DaSanQi),
    ("mul_mulan", "Mul-Mulan", Variant::MulMulan),
    ("nerenchi", "Nerenchi", Variant::Nerenchi),
    ("el_filja", "El Filja", Variant::ElFilja),
];

/// Our preset of a Sanmill `Variant` value (its id or its English name,
/// any case).
pub(crate) fn preset_of(name: &str) -> Option<Variant> {
    let name = name.trim();
    VARIANTS
        .iter()
        .find(|(id, title, _)| id.eq_ignore_ascii_case(name) || title.eq_ignore_ascii_case(name))
        .map(|&(_, _, v)| v)
}

/// Sanmill's entry of `rules`, when they are exactly one of its rule sets.
fn entry(rules: &Rules) -> Option<&'static (&'static str, &'static str, Variant)> {
    VARIANTS
        .iter()
        .find(|&&(_, _, v)| v == rules.variant && rules.non_default().is_empty())
}

/// Sanmill's name of `rules`: its English name when they are exactly one
/// of its rule sets, else `Custom` (its word for any other rules).
pub(crate) fn name_of(rules: &Rules) -> &'static str {
    entry(rules).map_or("Custom", |&(_, title, _)| title)
}

/// Sanmill's stable id of `rules` (its puzzles' `ruleVariantId`), when
/// they are exactly one of its rule sets.
pub(crate) fn id_of(rules: &Rules) -> Option<&'static str> {
    entry(rules).map(|&(id, _, _)| id)
}

/// The points of Sanmill's board string: three rings of eight (inner,
/// middle, outer), each from the top middle point clockwise.
const POINTS: [&str; 24] = [
    "d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5", "d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6",
    "d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7",
];

fn square(i: usize) -> Square {
    Square::ALL
        .into_iter()
        .find(|s| s.name() == POINTS[i])
        .expect("the ring points are points")
}

/// A Sanmill position string that this reader does not take.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("Sanmill position string '{text}': {why}")]
pub struct SanmillFenError {
    pub text: String,
    pub why: &'static str,
}

/// Whether `text` has the shape of Sanmill's position string (three
/// rings of eight of `O`, `@`, `*`, `X`), not of ours.
pub(crate) fn is_sanmill_fen(text: &str) -> bool {
    let board = text.split_whitespace().next().unwrap_or("");
    let rings: Vec<&str> = board.split('/').collect();
    rings.len() == 3
        && rings
            .iter()
            .all(|r| r.len() == 8 && r.chars().all(|c| matches!(c, 'O' | '@' | '*' | 'X')))
}

/// The position of a Sanmill position string, under `rules`. Its fields:
/// the board; the side to move; the phase and the action (`r`: a removal
/// is owed); pieces on the board and in hand, white then black; removals
/// owed by each side; four fields of the last mills and one of the mills
/// formed (rule-set state this reader takes only empty); the plies since
/// the last removal; the move number. Extension fields (captures of
/// other rule sets) are refused.
pub(crate) fn read_fen(text: &str, rules: &Rules) -> Result<Position, SanmillFenError> {
    let err = |why| SanmillFenError {
        text: text.trim().to_string(),
        why,
    };
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 17 {
        return Err(err("it has fewer than 17 fields"));
    }
    if fields[17..]
        .iter()
        .any(|f| !f.eq_ignore_ascii_case("ids:nodes"))
    {
        return Err(err(
            "extension fields (captures of other rule sets) are not read",
        ));
    }
    if !is_sanmill_fen(fields[0]) {
        return Err(err(
            "the board is not three rings of eight of O, @, * and X",
        ));
    }
    let mut pieces = [Bitboard::EMPTY; 2];
    let mut marked = Bitboard::EMPTY;
    for (i, c) in fields[0].chars().filter(|&c| c != '/').enumerate() {
        let bit = square(i).bit();
        match c {
            'O' => pieces[0] |= bit,
            '@' => pieces[1] |= bit,
            'X' => marked |= bit,
            _ => {}
        }
    }
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        _ => return Err(err("the side to move is not w or b")),
    };
    if !matches!(fields[2], "r" | "p" | "n" | "m") {
        return Err(err(
            "the phase is not r, p, n or m (a finished game is not read)",
        ));
    }
    let number = |i: usize| -> Result<u16, SanmillFenError> {
        fields[i]
            .parse()
            .map_err(|_| err("a count is not a number"))
    };
    let (on_board, in_hand) = ([number(4)?, number(6)?], [number(5)?, number(7)?]);
    if on_board != [pieces[0].count() as u16, pieces[1].count() as u16] {
        return Err(err(
            "the counts of pieces on the board disagree with the board",
        ));
    }
    let removals: [i8; 2] = [
        fields[8]
            .parse()
            .map_err(|_| err("a removal count is not a number"))?,
        fields[9]
            .parse()
            .map_err(|_| err("a removal count is not a number"))?,
    ];
    let (mover, other) = match side {
        Color::White => (removals[0], removals[1]),
        Color::Black => (removals[1], removals[0]),
    };
    if mover < 0 || other != 0 {
        return Err(err("only removals owed by the side to move are read"));
    }
    let owed = match (mover, fields[3]) {
        (0, "r") => 1,
        (n, _) => n as u8,
    };
    if fields[10..15].iter().any(|f| *f != "0" && *f != "-1") {
        return Err(err(
            "the last mills and the mills formed (rule-set state) are not read",
        ));
    }
    let clock = number(15)?;
    let fullmove: u32 = fields[16]
        .parse()
        .map_err(|_| err("the move number is not a number"))?;
    let hand = [in_hand[0] as u8, in_hand[1] as u8];
    let position = Position::new(pieces, hand, side, clock, fullmove.max(1), [0; 2])
        .with_rule_set_state(
            marked,
            [Bitboard::EMPTY; 2],
            [None; 2],
            Owed {
                count: owed,
                ..Owed::default()
            },
            None,
        );
    // Checked as our own position strings are.
    Position::from_fen(&position.to_fen(rules), rules)
        .map_err(|_| err("it describes no position of these rules"))
}

/// `position` as Sanmill writes it (in its legacy point ids, which every
/// version reads).
pub(crate) fn write_fen(position: &Position) -> String {
    let mut board = String::new();
    for i in 0..24 {
        if i > 0 && i % 8 == 0 {
            board.push('/');
        }
        let sq = square(i);
        board.push(match position.piece_at(sq) {
            Some(Color::White) => 'O',
            Some(Color::Black) => '@',
            None if position.marked().contains(sq) => 'X',
            None => '*',
        });
    }
    let side = position.side_to_move();
    let placing = position.in_hand(Color::White) + position.in_hand(Color::Black) > 0;
    let owed = position.owed().count;
    let action = if owed > 0 {
        'r'
    } else if placing {
        'p'
    } else {
        's'
    };
    let removals = match side {
        Color::White => [owed, 0],
        Color::Black => [0, owed],
    };
    format!(
        "{board} {} {} {action} {} {} {} {} {} {} 0 0 0 0 0 {} {}",
        if side == Color::White { 'w' } else { 'b' },
        if placing { 'p' } else { 'm' },
        position.pieces(Color::White).count(),
        position.in_hand(Color::White),
        position.pieces(Color::Black).count(),
        position.in_hand(Color::Black),
        removals[0],
        removals[1],
        position.clock(),
        position.fullmove(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_and_names() {
        let rules = Rules::with_settings("nine-app", &[] as &[&str]).unwrap();
        let start = Position::start(&rules);
        let text = write_fen(&start);
        assert_eq!(
            text,
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
        );
        assert_eq!(read_fen(&text, &rules).unwrap(), start);
        // White on d5 (the inner ring's first point) and a7 (the outer's
        // last), Black on e5, White owes a removal.
        let text = "O@******/********/*******O w p r 2 7 1 8 1 0 0 0 0 0 0 0 3";
        let p = read_fen(text, &rules).unwrap();
        assert_eq!(p.to_fen(&rules).split(' ').next(), Some("W2/3/1WB/6/3/3/3"));
        assert_eq!(p.owed().count, 1);
        assert_eq!(write_fen(&p), text);
        assert_eq!(preset_of("nine men's morris"), Some(Variant::NineApp));
        assert_eq!(preset_of("zhi_qi"), Some(Variant::ZhiQi));
        assert_eq!(name_of(&rules), "Nine Men's Morris");
        assert_eq!(name_of(&Rules::default()), "Custom");
        for bad in [
            "O@******/********/*******O w p r 3 7 1 8 1 0 0 0 0 0 0 0 3",
            "O@******/********/******* w p p 2 7 1 8 0 0 0 0 0 0 0 0 3",
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 c:w-1-8",
        ] {
            assert!(read_fen(bad, &rules).is_err(), "{bad}");
        }
    }
}
