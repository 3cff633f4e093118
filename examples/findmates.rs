use morris::rules::{Bitboard, Color, MoveList, Position, Rules, Square};
fn solve(
    pos: &Position,
    rules: &Rules,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
    n: &mut u64,
) -> i32 {
    *n += 1;
    let me = pos.side_to_move();
    if pos.material(me) < 3 {
        return -(1000 - ply);
    }
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    if list.is_empty() {
        return -(1000 - ply);
    }
    if pos.move_count_draw(rules).is_some() || depth == 0 {
        return 0;
    }
    let mut best = -1000;
    for &mv in list.iter() {
        let s = -solve(
            &pos.make(rules, mv),
            rules,
            depth - 1,
            -beta,
            -alpha,
            ply + 1,
            n,
        );
        if s > best {
            best = s;
        }
        if s > alpha {
            alpha = s;
        }
        if alpha >= beta {
            break;
        }
    }
    best
}
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nw: u32 = args[0].parse().unwrap();
    let nb: u32 = args[1].parse().unwrap();
    let want: i32 = args[2].parse().unwrap(); // plies, positive win, negative loss
    let count: usize = args[3].parse().unwrap();
    let rules = Rules::default();
    let mut rng = Rng(0x1234567 + (nw * 100 + nb) as u64 + (want + 50) as u64 * 7919);
    let mut found = 0;
    let mut tries = 0;
    while found < count && tries < 200000 {
        tries += 1;
        let mut sqs: Vec<Square> = Square::ALL.to_vec();
        for i in (1..sqs.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            sqs.swap(i, j);
        }
        let w = sqs[..nw as usize]
            .iter()
            .fold(Bitboard::EMPTY, |b, s| b | s.bit());
        let b = sqs[nw as usize..(nw + nb) as usize]
            .iter()
            .fold(Bitboard::EMPTY, |b, s| b | s.bit());
        let pos = Position::new([w, b], [0, 0], Color::White, 0, 30, [0, 0]);
        let mut n = 0;
        let d = want.unsigned_abs();
        let quick = solve(&pos, &rules, d.saturating_sub(2), -1000, 1000, 0, &mut n);
        if quick != 0 {
            continue;
        }
        let v = solve(&pos, &rules, d, -1000, 1000, 0, &mut n);
        let ok = if want > 0 {
            v == 1000 - want
        } else {
            v == -(1000 + want)
        };
        if ok {
            found += 1;
            println!("{} // {} nodes", pos.to_fen(&rules), n);
        }
    }
}
