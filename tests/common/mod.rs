//! Shared test helpers: a naive reference implementation of the rules and a
//! small seeded random number generator. Not every test file uses all of it.
#![allow(dead_code)]

pub mod engine;
pub mod game_tables;
pub mod gui_server;
pub mod naive;
pub mod naive_clock;
pub mod naive_sets;
pub mod naive_solve;
pub mod sets_harness;
pub mod tables;
pub mod webdriver;

/// A small seeded generator (splitmix64), so every failure reproduces from
/// the seed printed with it.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A FEN from the white and black points (space-separated names), side
/// (`'w'`/`'b'`), pieces in hand, clock and move number.
pub fn fen_of(
    white: &str,
    black: &str,
    side: char,
    hands: [u32; 2],
    clock: u32,
    fullmove: u32,
) -> String {
    let mut g = naive::NaiveGame::new(morris::rules::Rules::default());
    for (c, list) in [white, black].iter().enumerate() {
        for name in list.split_whitespace() {
            let i = naive::index_of(name);
            assert!(g.cells[i].is_none(), "{name} given twice");
            g.cells[i] = Some(c);
        }
    }
    g.side = if side == 'w' { 0 } else { 1 };
    g.hand = hands;
    g.clock = clock;
    g.fullmove = fullmove;
    g.fen()
}

/// Runs `morris` with `args` and the environment `vars`, `stdin` written
/// to its input; its output.
pub fn morris_with_input(
    args: &[&str],
    vars: &[(&str, &std::ffi::OsStr)],
    stdin: &str,
) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_morris"));
    command.args(args);
    run_with_input(command, vars, stdin)
}

/// Runs `scripts/NAME` with `MORRIS` naming the binary under test, the
/// environment `vars` and `stdin` written to its input; its output.
pub fn script(name: &str, vars: &[(&str, &std::ffi::OsStr)], stdin: &str) -> std::process::Output {
    let mut command = std::process::Command::new("bash");
    command
        .arg(format!("{}/scripts/{name}", env!("CARGO_MANIFEST_DIR")))
        .env("MORRIS", env!("CARGO_BIN_EXE_morris"));
    run_with_input(command, vars, stdin)
}

fn run_with_input(
    mut command: std::process::Command,
    vars: &[(&str, &std::ffi::OsStr)],
    stdin: &str,
) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command
        .envs(vars.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The built-in book's value of `pos` (its best move's) and the moves
/// that keep it, sorted by their text.
pub fn book_values(
    pos: &morris::rules::Position,
    rules: &morris::rules::Rules,
) -> (morris::tablebase::Probe, Vec<String>) {
    use morris::tablebase::{book, preference};
    let book = book::builtin().serving(rules).expect("a built-in book");
    let moves = book.moves(pos, rules).expect("in the book");
    let best = moves
        .iter()
        .map(|m| m.probe)
        .max_by_key(|&p| preference(p))
        .unwrap();
    let mut keeping: Vec<String> = moves
        .iter()
        .filter(|m| m.probe.value == best.value)
        .map(|m| m.mv.to_string())
        .collect();
    keeping.sort();
    (best, keeping)
}
