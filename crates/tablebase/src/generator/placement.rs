//! Which placement sectors a game needs, in the order they are solved.
//!
//! From sector `m-t+a-b` (side to move first) a placement leads to
//! `t-k-(m+1)+b-(a-1)` (k stones removed, as many as the mills the
//! placement can close), and under `Lasker`, or with an empty hand, a
//! slide leads to `t-k-m+b-a`. A sector whose side to move has fewer than
//! 3 stones in all ends the game; one with both hands empty is a movement
//! subspace. A placement always empties a hand by one, so sectors solved
//! by fewer stones in hand, then fewer on the board, come after all they
//! lead into (a `Lasker` slide without removal stays in the pair
//! `m-t+a-b` / `t-m+b-a`, solved together).

use std::collections::BTreeSet;

use crate::format::index::Indexer;
use crate::generator::plan::max_removals;
use crate::sector::Sector;
use morris_rules::Rules;

/// Most stones a move leaving the mover with `stones` on the board can
/// remove: a mill needs 3 of them, two mills through one point 5, three
/// (with diagonals) 7.
fn removals(rules: &Rules, stones: u8) -> u8 {
    let mills = match stones {
        0..=2 => 0,
        3..=4 => 1,
        5..=6 => 2,
        _ if rules.diagonals => 3,
        _ => 2,
    };
    mills.min(max_removals(rules))
}

/// The sectors the moves from `s` lead to, as seen by the opponent who
/// then moves, except those where the game is over; the pair's own
/// partner (`s.swapped()`, by a slide that removes nothing) included.
pub fn children(rules: &Rules, s: Sector) -> Vec<Sector> {
    let mut out = Vec::new();
    if s.mine as usize + s.theirs as usize >= 24 {
        return out;
    }
    let mut add = |board: u8, hand_after: u8, k: u8| {
        if k > s.theirs {
            return;
        }
        let child = Sector::with_hands(s.theirs - k, board, s.theirs_hand, hand_after);
        // The side to move there keeps at least 3 stones in all; a full
        // board after a placement ends the game (`BoardFull`).
        let full = child.mine as usize + child.theirs as usize == 24 && !child.placing();
        if child.mine_material() >= 3 && !full {
            out.push(child);
        }
    };
    if s.mine_hand > 0 {
        for k in 0..=removals(rules, s.mine + 1) {
            add(s.mine + 1, s.mine_hand - 1, k);
        }
    }
    if (s.mine_hand == 0 || rules.lasker) && s.mine > 0 {
        for k in 0..=removals(rules, s.mine) {
            add(s.mine, s.mine_hand, k);
        }
    }
    out
}

/// The tables a game needs.
pub struct Plan {
    /// Placement sectors in solving order, each pair together.
    pub pairs: Vec<Vec<Sector>>,
    /// The movement subspaces they lead into.
    pub movement: Vec<Sector>,
}

impl Plan {
    /// Every placement sector, in solving order.
    pub fn sectors(&self) -> impl Iterator<Item = Sector> + '_ {
        self.pairs.iter().flatten().copied()
    }
}

/// The placement sectors reachable from the start of a game under `rules`
/// (`Pieces` in each hand), and the movement subspaces they lead into.
pub fn plan(rules: &Rules) -> Plan {
    let start = Sector::with_hands(0, 0, rules.pieces, rules.pieces);
    let mut seen = BTreeSet::from([start]);
    let mut stack = vec![start];
    while let Some(s) = stack.pop() {
        if !s.placing() {
            continue;
        }
        for c in children(rules, s) {
            if seen.insert(c) {
                stack.push(c);
            }
        }
    }
    let movement = seen.iter().copied().filter(|s| !s.placing()).collect();
    let key = |s: &Sector| {
        (
            s.mine_hand + s.theirs_hand,
            s.mine + s.theirs,
            (*s).max(s.swapped()),
            *s != (*s).max(s.swapped()),
        )
    };
    let mut placing: Vec<Sector> = seen.into_iter().filter(|s| s.placing()).collect();
    placing.sort_by_key(key);
    let mut pairs: Vec<Vec<Sector>> = Vec::new();
    for s in placing {
        match pairs.last_mut() {
            Some(pair) if rules.lasker && pair[0] == s.swapped() => pair.push(s),
            _ => pairs.push(vec![s]),
        }
    }
    Plan { pairs, movement }
}

/// The sectors solving `pair` reads (every child outside the pair).
pub fn dependencies(rules: &Rules, pair: &[Sector]) -> Vec<Sector> {
    let mut deps: Vec<Sector> = pair
        .iter()
        .flat_map(|&s| children(rules, s))
        .filter(|c| !pair.contains(c))
        .collect();
    deps.sort();
    deps.dedup();
    deps
}

/// Slots of a sector's table (canonical positions plus padding).
pub fn slots(s: Sector) -> u64 {
    Indexer::new(s.mine as usize, s.theirs as usize).size()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::PathBuf;
    use std::sync::OnceLock;

    use super::*;
    use crate::format::file::HEADER_LEN;
    use crate::format::index::apply_sym;
    use crate::generator::exits::through;
    use crate::generator::generate::{GenerateOptions, Phase, generate_game};
    use crate::generator::verify;
    use crate::probe::tables::{Tablebases, preference};
    use crate::value::{Probe, Value};
    use morris_rules::{Bitboard, Color, GameResult, MoveList, Position, RuleOptions};

    /// The three-stone game without move-count draws.
    fn rules() -> Rules {
        Rules::new(RuleOptions {
            pieces: 3,
            endgame_moves: 0,
            no_capture_moves: 0,
            ..*Rules::default()
        })
    }

    /// Its tables, made once for these tests.
    fn tables() -> &'static PathBuf {
        static DIR: OnceLock<PathBuf> = OnceLock::new();
        DIR.get_or_init(|| {
            let dir = std::env::temp_dir().join(format!("morris-placement-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            let options = GenerateOptions {
                threads: 2,
                wdl: false,
                ..GenerateOptions::default()
            };
            generate_game(&dir, &rules(), Phase::All, &options).unwrap();
            dir
        })
    }

    #[test]
    fn sectors_parse_and_display() {
        let s = Sector::parse("4-3+2-2").unwrap();
        assert_eq!(s, Sector::with_hands(4, 3, 2, 2));
        assert_eq!(s.to_string(), "4-3+2-2");
        assert_eq!(Sector::parse("5-4").unwrap().to_string(), "5-4");
        assert_eq!(
            Sector::parse("0-1+9-8").unwrap().swapped(),
            Sector::with_hands(1, 0, 8, 9)
        );
        for bad in [
            "4-3+2",
            "4-3+x-1",
            "2-0+0-3",
            "13-3",
            "12-12+1-0",
            "4-3+2-2+1",
        ] {
            assert!(Sector::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_three_stone_game_plan() {
        let plan = plan(&rules());
        let names: Vec<String> = plan.sectors().map(|s| s.to_string()).collect();
        assert_eq!(
            names,
            [
                "2-3+1-0", "2-2+1-1", "1-2+2-1", "1-1+2-2", "0-1+3-2", "0-0+3-3"
            ]
        );
        assert_eq!(plan.movement, [Sector::new(3, 3)]);
    }

    /// The value of a placement position by plain game-tree search over
    /// the rules core's moves, down to the movement tables.
    fn brute(
        pos: &Position,
        rules: &Rules,
        tbs: &Tablebases,
        memo: &mut HashMap<u64, Probe>,
    ) -> Probe {
        if pos.in_hand(Color::White) + pos.in_hand(Color::Black) == 0 {
            return tbs.probe(pos).expect("movement tables");
        }
        if let Some(&p) = memo.get(&pos.hash()) {
            return p;
        }
        let mut list = MoveList::new();
        pos.legal_moves(rules, &mut list);
        let me = pos.side_to_move();
        let mut best: Option<Probe> = None;
        for &mv in list.iter() {
            let next = pos.make(rules, mv);
            let child = match next.outcome_without_history(rules, true) {
                Some(end) => match end.result {
                    GameResult::Win(c) if c == me => Probe {
                        value: Value::Loss,
                        plies: 0,
                    },
                    GameResult::Win(_) => Probe {
                        value: Value::Win,
                        plies: 0,
                    },
                    GameResult::Draw => Probe::DRAW,
                },
                None => brute(&next, rules, tbs, memo),
            };
            let p = through(child, mv.num_removals() > 0);
            if best.is_none_or(|b| preference(p) > preference(b)) {
                best = Some(p);
            }
        }
        let best = best.expect("a placement always has a move");
        memo.insert(pos.hash(), best);
        best
    }

    #[test]
    fn placement_values_match_a_brute_force_and_every_symmetry() {
        let rules = rules();
        let tbs = Tablebases::open(tables(), &rules);
        let start = Position::start(&rules);
        let mut memo = HashMap::new();
        let value = brute(&start, &rules, &tbs, &mut memo);
        assert_eq!(tbs.probe(&start), Some(value));
        // Every placement position reached from the start, under each symmetry.
        let mut seen = vec![start];
        let mut keys = std::collections::HashSet::from([start.hash()]);
        let mut stack = vec![start];
        let mut list = MoveList::new();
        while let Some(pos) = stack.pop() {
            pos.legal_moves(&rules, &mut list);
            for &mv in list.iter() {
                let next = pos.make(&rules, mv);
                let placing = next.in_hand(Color::White) + next.in_hand(Color::Black) > 0;
                if placing
                    && next.outcome_without_history(&rules, true).is_none()
                    && keys.insert(next.hash())
                {
                    seen.push(next);
                    stack.push(next);
                }
            }
        }
        assert!(seen.len() > 1000, "{}", seen.len());
        for pos in &seen {
            let want = brute(pos, &rules, &tbs, &mut memo);
            let (w, b) = (pos.pieces(Color::White).0, pos.pieces(Color::Black).0);
            for s in 0..16 {
                let image = Position::new(
                    [Bitboard(apply_sym(s, w)), Bitboard(apply_sym(s, b))],
                    [pos.in_hand(Color::White), pos.in_hand(Color::Black)],
                    pos.side_to_move(),
                    0,
                    1,
                    [0, 0],
                );
                assert_eq!(tbs.probe(&image), Some(want), "{}", image.to_fen(&rules));
            }
            // The moves' values agree with the position's.
            let moves = tbs.moves(pos).unwrap();
            let best = moves.iter().map(|m| m.probe).max_by_key(|&p| preference(p));
            assert_eq!(best, Some(want));
        }
    }

    #[test]
    fn verify_catches_a_flipped_byte_in_a_placement_table() {
        let rules = rules();
        let copy = tables().with_extension("flipped");
        let _ = std::fs::remove_dir_all(&copy);
        let tbs = Tablebases::open(tables(), &rules);
        let sector = Sector::with_hands(2, 3, 1, 0);
        let from = tbs.table_path(sector);
        let to = Tablebases::open(&copy, &rules).table_path(sector);
        let movement = Tablebases::open(&copy, &rules).table_path(Sector::new(3, 3));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(tbs.table_path(Sector::new(3, 3)), movement).unwrap();
        let mut bytes = std::fs::read(&from).unwrap();
        bytes[HEADER_LEN + 1000] ^= 4;
        std::fs::write(&to, bytes).unwrap();
        let checked = verify::verify(&copy, &rules, 2, None, |_| {}).unwrap();
        let row = checked.iter().find(|c| c.subspace == sector).unwrap();
        assert!(!row.ok());
        assert!(
            checked
                .iter()
                .filter(|c| c.subspace != sector)
                .all(|c| c.ok())
        );
        let _ = std::fs::remove_dir_all(&copy);
    }
}
