use morris::rules::{Game, Position, Rules};
use morris::search::{Control, Limits, Searcher, Settings};
use std::time::Duration;
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = Rules::default();
    let mut game = Game::new(rules, Position::start(&rules));
    let ms: u64 = args.first().map_or(1000, |v| v.parse().unwrap());
    for m in args.iter().skip(1) {
        game.play_text(m).unwrap();
    }
    let mut s = Searcher::new(Settings::default());
    let limits = Limits {
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    };
    let out = s.search(&game, &limits, &Control::default(), &mut |i| {
        println!(
            "depth {} sel {} score {:?} nodes {} nps {} hash {} time {} pv {}",
            i.depth,
            i.seldepth,
            i.score,
            i.nodes,
            i.nps,
            i.hashfull,
            i.time_ms,
            i.pv.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
    });
    println!("{:?}", out);
}
