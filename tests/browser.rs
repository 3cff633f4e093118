//! `morris gui` in a real browser: headless Chromium, driven over WebDriver,
//! plays a whole game against the engine by clicks on the board, takes
//! back and imports a record, while the page is checked against the rules
//! core after every ply; then what the page tells a player: the banner,
//! the result on the board, coordinates, arrows, analysis lines, the
//! evaluation, the coach, and the phone layout. Screenshots go to
//! `target/gui-screenshots/`.

use crate::common;
use crate::common::gui_server;
use crate::common::tables;
use crate::common::webdriver;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, Locator};
use morris::rules::{
    Color, EndReason, Game, GameResult, Move, MoveList, Outcome, Rules, Setup, Start,
};
use morris::search::{Control, ExactKnowledge, Limits, Searcher, Settings};
use morris::tools::Record;
use serde_json::Value;

use common::Rng;
use gui_server::GuiServer;
use webdriver::Browser;

/// The whole test's bound: a hang fails it instead of stalling the suite.
const TEST_LIMIT: Duration = Duration::from_secs(150);
/// How long one step (a reply, an engine move) may take.
const STEP_LIMIT: Duration = Duration::from_secs(20);
/// The game's rules, as typed into the page: a short draw rule, a bound on
/// the game's length should the engine hold out.
const OPTIONS: &str = "NoCaptureMoves=16";

/// Three against three of the standard rules: White wins by closing
/// a7-d7-g7, else Black closes a1-d1-g1 first (the coach's position).
const THREES: &str = "W1W/3/3/W4B/3/3/B1B w 0 0 0 20";
/// Six against six in the movement phase (the analysis's position).
const SIXES: &str = "WB1/BW1/1BW/W1B1WB/B1W/3/3 w 0 0 0 20";

/// The server, with the three-against-three tables of the standard rules
/// in a folder of this test's own.
fn start_gui() -> (GuiServer, std::path::PathBuf) {
    let dir = tables::made(
        "browser-tables",
        &[(Rules::default(), morris::tablebase::Subspace::new(3, 3))],
    );
    (GuiServer::start_in(&[], &dir), dir)
}

/// What the page shows, read from its DOM in one script.
#[derive(Debug)]
struct Shown {
    state: String,
    fen: String,
    white: Vec<String>,
    black: Vec<String>,
    moves: Vec<String>,
}

/// Reads a `Shown` from the page's DOM; also the function the page's
/// recorder (below) runs after every change of the board.
const READ_PAGE: &str = r##"
const read = () => {
  const points = (colour) => [...document.querySelectorAll(`#board circle.piece.${colour}`)]
    .map((e) => e.getAttribute("data-point")).sort();
  const moves = [...document.querySelectorAll("#moves [data-ply]")];
  moves.forEach((e, i) => {
    if (e.dataset.ply !== String(i + 1)) throw new Error(`ply ${i + 1} has data-ply ${e.dataset.ply}`);
  });
  return {
    state: document.body.dataset.state || "",
    fen: document.getElementById("board").dataset.fen || "",
    white: points("white"),
    black: points("black"),
    moves: moves.map((e) => e.textContent.trim()),
  };
};
"##;

fn shown_of(v: &Value) -> Shown {
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap_or_else(|| panic!("not a list: {v}"))
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    Shown {
        state: v["state"].as_str().unwrap().to_string(),
        fen: v["fen"].as_str().unwrap().to_string(),
        white: strings(&v["white"]),
        black: strings(&v["black"]),
        moves: strings(&v["moves"]),
    }
}

async fn read(c: &Client) -> Shown {
    let v = c
        .execute(&format!("{READ_PAGE} return read();"), vec![])
        .await
        .unwrap();
    shown_of(&v)
}

/// Waits until the page has settled (someone may move, or the game is
/// over) showing more than `plies` moves, or any count when `plies` is
/// None.
async fn settled(c: &Client, plies: Option<usize>) -> Shown {
    let start = Instant::now();
    loop {
        let shown = read(c).await;
        if matches!(shown.state.as_str(), "human" | "over")
            && plies.is_none_or(|n| shown.moves.len() > n)
        {
            return shown;
        }
        assert!(
            start.elapsed() < STEP_LIMIT,
            "the page did not settle past {plies:?} plies: {shown:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The rules core's game of the page's move list.
fn replay(rules: &Rules, moves: &[String]) -> Game {
    Setup::new(Start::Initial, moves.to_vec())
        .game(rules)
        .unwrap_or_else(|e| panic!("the page's moves {moves:?}: {e}"))
}

/// Checks the shown board against the rules core's replay of the shown
/// moves (the first `plies` of them); the game replayed.
fn check_board(rules: &Rules, shown: &Shown, plies: usize) -> Game {
    let game = replay(rules, &shown.moves[..plies]);
    let position = game.position();
    assert_eq!(
        shown.fen,
        position.to_fen(rules),
        "data-fen after {plies} plies"
    );
    for (colour, points) in [(Color::White, &shown.white), (Color::Black, &shown.black)] {
        let mut want: Vec<String> = position.pieces(colour).map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(
            *points,
            want,
            "{colour:?} pieces after {:?}",
            &shown.moves[..plies]
        );
    }
    game
}

/// Installs a recorder of every board the page shows (the one shown now,
/// then each drawn), so that the boards between two of the test's looks
/// (the engine answers at once) are checked too.
async fn record_boards(c: &Client) {
    let script = format!(
        "{READ_PAGE}
        window.shownBoards = [read()];
        new MutationObserver(() => window.shownBoards.push(read()))
          .observe(document.getElementById('board'), {{childList: true, attributes: true}});"
    );
    c.execute(&script, vec![]).await.unwrap();
}

/// Takes the boards recorded since the last call, oldest first.
async fn recorded_boards(c: &Client) -> Vec<Shown> {
    let v = c
        .execute(
            "const b = window.shownBoards; window.shownBoards = []; return b;",
            vec![],
        )
        .await
        .unwrap();
    v.as_array().unwrap().iter().map(shown_of).collect()
}

/// Checks, for every ply count the page drew, the first board it drew with
/// that many moves (the one drawn when the move arrived, before any
/// clicks of the next one); every count in `from..=to` must be there.
fn check_recorded(rules: &Rules, boards: &[Shown], from: usize, to: usize) {
    for n in from..=to {
        let first = boards
            .iter()
            .find(|b| b.moves.len() == n)
            .unwrap_or_else(|| panic!("the page never drew the board after ply {n}"));
        check_board(rules, first, n);
    }
}

async fn click_point(c: &Client, point: &str) {
    c.find(Locator::Css(&format!(".hit[data-point=\"{point}\"]")))
        .await
        .unwrap_or_else(|e| panic!("no point {point}: {e}"))
        .click()
        .await
        .unwrap();
}

/// Presses point `point` for `hold` and lets go, as a person clicks (the
/// page polls the server meanwhile).
async fn press_point(c: &Client, point: &str, hold: Duration) {
    let element = c
        .find(Locator::Css(&format!(".hit[data-point=\"{point}\"]")))
        .await
        .unwrap_or_else(|e| panic!("no point {point}: {e}"));
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Pause { duration: hold })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse).await.unwrap();
}

/// A game both of whose sides are ours, under a running clock, by presses
/// of 150 ms: every move must register, though the page redraws the
/// clocks four times a second.
async fn timed_game_by_held_clicks(c: &Client) {
    let rules = Rules::default();
    fill_new_game(c, "nine", "", "both").await;
    set_field(c, "clock", "600+0").await;
    click(c, "new-game").await;
    let mut shown = settled(c, None).await;
    assert!(shown.moves.is_empty(), "{shown:?}");
    let mut game = replay(&rules, &[]);
    for ply in 0..16 {
        let mv = mill(&game).unwrap_or_else(|| legal(&game)[ply % 3]);
        let points = mv.from().into_iter().chain(mv.to()).chain(mv.removals());
        for p in points {
            press_point(c, p.name(), Duration::from_millis(150)).await;
        }
        game.play(mv);
        shown = settled(c, Some(ply)).await;
        assert_eq!(
            shown.moves.get(ply),
            Some(&mv.to_string()),
            "ply {ply}: a held click was lost ({shown:?})"
        );
        check_board(&rules, &shown, ply + 1);
    }
    set_field(c, "clock", "").await;
}

/// A PlayOK record opened as a file: its moves on the board, the exact
/// values along the game in the graph's strip and the value-losing moves
/// marked, as the built-in book values them; then a Sanmill position
/// string (a puzzle's) set in the position box.
async fn exact_strip_of_an_opened_playok_file(c: &Client) {
    use morris::tablebase::{book, preference};
    let rules = Rules::default();
    let playok = "[Site \"PlayOK\"]\n\n1. 20 5 2. 14 11 3. 22 3 4. 1 4 5. 24 *\n";
    let tokens = ["d2", "d6", "f4", "b4", "a1", "g7", "a7", "b6", "g1"];
    let path = std::env::temp_dir().join(format!("morris-playok-{}.txt", std::process::id()));
    std::fs::write(&path, playok).unwrap();
    c.find(Locator::Id("record-file"))
        .await
        .unwrap()
        .send_keys(path.to_str().unwrap())
        .await
        .unwrap();
    let start = Instant::now();
    let shown = loop {
        let s = settled(c, None).await;
        if s.moves == tokens {
            break s;
        }
        assert!(start.elapsed() < STEP_LIMIT, "not opened: {s:?}");
    };
    check_board(&rules, &shown, tokens.len());
    std::fs::remove_file(&path).unwrap();
    // The book's word on each position and move.
    let book = book::builtin().serving(&rules).unwrap();
    let game = replay(&rules, &shown.moves);
    let mut replayed = replay(&rules, &[]);
    let (mut cells, mut thrown) = (Vec::new(), Vec::new());
    for (i, &mv) in game.moves().iter().enumerate() {
        let pos = *replayed.position();
        let moves = book.moves(&pos, &rules).unwrap();
        let best = moves
            .iter()
            .map(|m| m.probe)
            .max_by_key(|&p| preference(p))
            .unwrap();
        let white = pos.side_to_move() == Color::White;
        let who = match format!("{:?}", best.value).as_str() {
            "Draw" => "draw",
            "Win" if white => "white",
            "Loss" if !white => "white",
            _ => "black",
        };
        cells.push(format!("{i} {who}"));
        if moves.iter().find(|m| m.mv == mv).unwrap().probe.value != best.value {
            thrown.push((i + 1).to_string());
        }
        replayed.play(mv);
    }
    assert!(!thrown.is_empty());
    let strip = c
        .execute(
            "return [...document.querySelectorAll('#graph rect.exact')].map((r) =>              `${r.dataset.ply} ${[...r.classList].find((k) => k.startsWith('exact-')).slice(6)}`);",
            vec![],
        )
        .await
        .unwrap();
    let strip: Vec<String> = strip
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    // The positions the book holds whole (the last one's moves lead past it).
    assert_eq!(strip[..cells.len()], cells[..], "{strip:?}");
    let marked = |selector: &str| {
        let selector = selector.to_string();
        async move {
            let v = c
                .execute(
                    &format!("return [...document.querySelectorAll('{selector}')].map((e) => e.dataset.ply);"),
                    vec![],
                )
                .await
                .unwrap();
            v.as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(marked("#moves .ply.thrown").await, thrown);
    assert_eq!(marked("#graph circle.exact-thrown").await, thrown);

    // A puzzle's start: Sanmill's string of White on d5 and a7, Black on
    // e5, White to place.
    set_field(
        c,
        "fen",
        "O@******/********/*******O w p p 2 7 1 8 0 0 0 0 0 0 0 0 3",
    )
    .await;
    click(c, "fen-set").await;
    let start = Instant::now();
    loop {
        let s = settled(c, None).await;
        if s.fen.starts_with("W2/3/1WB/6/3/3/3 w 7 8") {
            break;
        }
        assert!(
            start.elapsed() < STEP_LIMIT,
            "the Sanmill position was not set: {s:?}"
        );
    }
}

/// Plays `mv` by clicks: its origin, its target, then each removal.
async fn click_move(c: &Client, mv: Move) {
    if let Some(from) = mv.from() {
        click_point(c, from.name()).await;
    }
    if let Some(to) = mv.to() {
        click_point(c, to.name()).await;
    }
    for r in mv.removals() {
        click_point(c, r.name()).await;
    }
}

/// The legal moves of `game`.
fn legal(game: &Game) -> Vec<Move> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    list.iter().copied().collect()
}

/// A move that closes a mill, if there is one: both players of this test
/// take one whenever they can, so mills and removals surely happen.
fn mill(game: &Game) -> Option<Move> {
    legal(game).into_iter().find(|m| m.num_removals() > 0)
}

/// Our move in the game against the engine: a mill if there is one, else
/// the search's choice at depth 3, which beats the engine's depth 1 and so
/// ends the game soon (deterministically: a fresh searcher, one thread).
fn our_move(game: &Game) -> Move {
    mill(game).unwrap_or_else(|| {
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        Searcher::new(Settings::default())
            .search(
                game,
                ExactKnowledge::NONE,
                &limits,
                &Control::default(),
                &mut |_| {},
            )
            .best
            .expect("a legal move")
    })
}

/// Where the screenshots go: `target/gui-screenshots/`.
fn screenshot_dir() -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("gui-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{name} is not a PNG");
    std::fs::write(screenshot_dir().join(name), png).unwrap();
}

async fn set_field(c: &Client, id: &str, text: &str) {
    let field = c.find(Locator::Id(id)).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys(text).await.unwrap();
}

/// A finished game of the rules core's own (mills when there are, else
/// seeded picks), as `morris match` records it.
fn record_of_a_game(seed: u64) -> (Record, Game) {
    let mut game = replay(&Rules::default(), &[]);
    let mut rng = Rng::new(seed);
    while game.outcome().is_none() {
        let mv = mill(&game).unwrap_or_else(|| *rng.pick(&legal(&game)));
        game.play(mv);
    }
    let tags = [
        ("Event", "browser test".to_string()),
        ("White", "A".to_string()),
        ("Black", "B".to_string()),
    ];
    let comments: Vec<Option<String>> = (0..game.moves().len())
        .map(|i| (i % 3 == 0).then(|| format!("+0.{i:02}/1 0.001s")))
        .collect();
    let record = Record::from_game(&game, &tags, game.outcome().map(|o| o.result), &comments);
    (record, game)
}

async fn browser_test(gui: &GuiServer, tables_dir: &std::path::Path, browser: &Browser) {
    let c = &browser.client;
    c.goto(&gui.url()).await.unwrap();
    assert_eq!(c.title().await.unwrap(), "morris");
    let rules = Rules::with_settings("nine", &[OPTIONS]).unwrap();
    let shown = settled(c, None).await;
    assert_eq!(
        c.find_all(Locator::Css("#board .hit")).await.unwrap().len(),
        24
    );
    check_board(&Rules::default(), &shown, 0);
    empty_game_looks_empty(c).await;
    // Nothing but the page's own origin was asked for.
    let url = gui.url();
    let origin = url.trim_end_matches('/');
    let resources = c
        .execute(
            "return performance.getEntriesByType('resource').map((e) => e.name);",
            vec![],
        )
        .await
        .unwrap();
    let resources = resources.as_array().unwrap();
    assert!(!resources.is_empty(), "no resources loaded?");
    for r in resources {
        let r = r.as_str().unwrap();
        assert!(
            r.starts_with(&format!("{origin}/")),
            "{r} is off the page's origin"
        );
    }
    screenshot(c, "start.png").await;

    // A new game as white against the engine at depth 1.
    fill_new_game(c, "nine", OPTIONS, "white").await;
    select(c, "limit-kind", "depth").await;
    set_field(c, "limit", "1").await;
    record_boards(c).await;
    click(c, "new-game").await;

    // The game, by clicks, to its end.
    let mut shown = settled(c, None).await;
    let mut game = check_board(&rules, &shown, shown.moves.len());
    let mut removal_shot = false;
    let mut removal_banner = false;
    let mut human_removals = 0;
    while shown.state == "human" {
        assert!(game.moves().len() < 400, "the game does not end");
        assert_eq!(game.position().side_to_move(), Color::White);
        assert!(
            game.outcome().is_none(),
            "the page lets a finished game go on"
        );
        let mv = our_move(&game);
        human_removals += mv.num_removals();
        let before = shown.moves.len();
        if mv.num_removals() > 0 && !removal_banner {
            // Placed or moved, the mill owes its removal: the banner says so.
            let steps = mv.from().into_iter().chain(mv.to());
            for p in steps {
                click_point(c, p.name()).await;
            }
            assert_eq!(banner(c).await, "White: remove a black piece");
            for r in mv.removals() {
                click_point(c, r.name()).await;
            }
            removal_banner = true;
        } else {
            click_move(c, mv).await;
        }
        shown = settled(c, Some(before)).await;
        assert_eq!(
            shown.moves[before],
            mv.to_string(),
            "the page played another move"
        );
        game = check_board(&rules, &shown, shown.moves.len());
        if !removal_shot && game.moves()[before..].iter().any(|m| m.num_removals() > 0) {
            screenshot(c, "removal.png").await;
            removal_shot = true;
        }
    }
    assert_eq!(shown.state, "over", "{shown:?}");
    let outcome = game
        .outcome()
        .unwrap_or_else(|| panic!("the page ended {:?} early", shown.moves));
    assert!(human_removals > 0, "no mill of ours in {:?}", shown.moves);
    assert!(removal_shot);
    let status = status_line(c).await;
    assert!(
        status.contains(&outcome.to_string()),
        "status {status:?}, outcome {outcome}"
    );
    // The result and its reason on the board, and in the banner.
    let caption = result_caption(c).await;
    assert_eq!(
        caption,
        Some(result_words(outcome, game.position().side_to_move())),
        "outcome {outcome}"
    );
    assert_eq!(Some(banner(c).await), caption);
    check_recorded(&rules, &recorded_boards(c).await, 0, shown.moves.len());
    screenshot(c, "final.png").await;
    let played = shown.moves.clone();
    eprintln!("played {} plies: {outcome}", played.len());

    // Take back: to white's last turn.
    click(c, "takeback").await;
    let start = Instant::now();
    shown = loop {
        let s = settled(c, None).await;
        if s.moves.len() < played.len() {
            break s;
        }
        assert!(start.elapsed() < STEP_LIMIT, "no take-back: {s:?}");
    };
    assert_eq!(shown.state, "human");
    assert_eq!(shown.moves, played[..shown.moves.len()]);
    assert!(played.len() - shown.moves.len() <= 2, "{shown:?}");
    let game = check_board(&rules, &shown, shown.moves.len());
    assert_eq!(game.position().side_to_move(), Color::White);
    assert_eq!(
        result_caption(c).await,
        None,
        "the result outlives its game"
    );
    typed_moves_that_name_no_point(c, &shown).await;

    // A new game the server refuses: its reason stays in view through the
    // polls, and the game in progress is untouched.
    fill_new_game(c, "nine", "Pieces=20", "white").await;
    click(c, "new-game").await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let status = status_line(c).await;
    assert!(
        status.starts_with("New game not started:") && status.contains("Pieces"),
        "status {status:?}"
    );
    let after = settled(c, None).await;
    assert_eq!(
        after.moves, shown.moves,
        "the refused new game changed the game"
    );
    assert_eq!(after.fen, shown.fen);
    check_board(&rules, &after, after.moves.len());

    // Import a record of another whole game.
    let (record, imported) = record_of_a_game(5);
    let text = record.to_text();
    assert_eq!(
        morris::tools::parse_records(&text).unwrap()[0]
            .replay()
            .unwrap()
            .position(),
        imported.position()
    );
    set_field(c, "record-text", &text).await;
    click(c, "record-import").await;
    let tokens: Vec<String> = imported.moves().iter().map(|m| m.to_string()).collect();
    let start = Instant::now();
    shown = loop {
        let s = settled(c, None).await;
        if s.moves == tokens {
            break s;
        }
        assert!(start.elapsed() < STEP_LIMIT, "not imported: {s:?}\n{text}");
    };
    assert_eq!(shown.state, "over");
    check_board(imported.rules(), &shown, tokens.len());

    timed_game_by_held_clicks(c).await;
    exact_strip_of_an_opened_playok_file(c).await;
    rule_set_turns(c).await;
    thinking_banner_and_flipped_coordinates(c).await;
    analysis_arrows_lines_and_evaluation(c).await;
    coach_notes(c, tables_dir).await;

    // No console errors but the answers to the refused new game and the
    // two typed moves, the log being one that catches them.
    let refused = ["/api/new", "/api/move"].map(|path| {
        format!("{path} - Failed to load resource: the server responded with a status of 400")
    });
    let errors: Vec<_> = browser
        .console()
        .await
        .into_iter()
        .filter(|e| e.level == "SEVERE")
        .filter(|e| !refused.iter().any(|r| e.message.contains(r)))
        .collect();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    c.execute("console.error('morris-test-probe')", vec![])
        .await
        .unwrap();
    let probe = browser.console().await;
    assert!(
        probe
            .iter()
            .any(|e| e.level == "SEVERE" && e.message.contains("morris-test-probe")),
        "the console log misses a console.error: {probe:?}"
    );
}

/// The page's status line.
async fn status_line(c: &Client) -> String {
    c.find(Locator::Id("status"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// Chooses `value` in the menu `id`.
async fn select(c: &Client, id: &str, value: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("#{id} has no {value}: {e}"));
}

/// Clicks the element `id`.
async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// The new-game form: rule set, rule options and the side played.
async fn fill_new_game(c: &Client, variant: &str, options: &str, side: &str) {
    select(c, "variant", variant).await;
    set_field(c, "options", options).await;
    select(c, "side", side).await;
}

/// Zhi Qi by clicks, both sides ours (docs/rules.md 19.3): a placing stage
/// that fills the board, a removal-only turn for each side, then a move;
/// and a Cham Gonu mill that marks the piece it takes.
async fn rule_set_turns(c: &Client) {
    for (variant, script) in [
        (
            "zhiqi",
            "a1 a4 a7 b2 b4 b6 c4 c3 c5 d1 d2 d3 d6 d5 e3 d7 e5 e4 f6 f2 g1 f4 g4 g7",
        ),
        ("chamgonu", "a1 b2 a4 b4 a7xb4"),
    ] {
        let rules = Rules::with_settings(variant, &[] as &[&str]).unwrap();
        fill_new_game(c, variant, "", "both").await;
        click(c, "new-game").await;
        let mut shown = settled(c, None).await;
        assert!(shown.moves.is_empty(), "{variant}: {shown:?}");
        let mut game = replay(&rules, &[]);
        let mut tokens: Vec<String> = script.split(' ').map(str::to_string).collect();
        if variant == "zhiqi" {
            // The two removal-only turns: whatever the rules core lists first.
            for _ in 0..2 {
                let played = replay(&rules, &tokens);
                let first = legal(&played)[0];
                assert!(first.to().is_none(), "not a removal-only turn: {first}");
                tokens.push(first.to_string());
            }
        }
        for token in &tokens {
            let mv = game.position().parse_move(&rules, token).unwrap();
            click_move(c, mv).await;
            game.play(mv);
            shown = settled(c, Some(game.moves().len() - 1)).await;
            check_board(&rules, &shown, game.moves().len());
        }
        if variant == "zhiqi" {
            assert!(legal(&game).iter().all(|m| m.from().is_some()));
        } else {
            let marks = c
                .find_all(Locator::Css("#board circle.mark"))
                .await
                .unwrap()
                .len();
            assert_eq!(marks, 1, "the marked b4 is not drawn");
            screenshot(c, "mark.png").await;
        }
    }
}

/// The banner's text.
async fn banner(c: &Client) -> String {
    let v = c
        .execute(
            "return document.getElementById('banner').textContent;",
            vec![],
        )
        .await
        .unwrap();
    v.as_str().unwrap().to_string()
}

/// The result's caption on the board, if it is shown.
async fn result_caption(c: &Client) -> Option<String> {
    let v = c
        .execute(
            "const r = document.getElementById('result');
             return r.hidden || r.getBoundingClientRect().height === 0 ? null : r.textContent;",
            vec![],
        )
        .await
        .unwrap();
    v.as_str().map(str::to_string)
}

/// The words the page is to show for a game's end: who won (or a draw)
/// and why, naming the side it concerns.
fn result_words(outcome: Outcome, to_move: Color) -> String {
    let title = |c: Color| match c {
        Color::White => "White",
        Color::Black => "Black",
    };
    let (head, side) = match outcome.result {
        GameResult::Win(w) => (format!("{} wins", title(w)), title(!w)),
        GameResult::Draw => ("Draw".to_string(), title(to_move)),
    };
    let reason = match outcome.reason {
        EndReason::FewerPieces(n) => format!("{side} has fewer than {n} pieces"),
        EndReason::Blocked => format!("{side} has no legal move"),
        EndReason::BoardFull => "the board is full".into(),
        EndReason::Repetition => "the same position came three times".into(),
        EndReason::EndgameMoves => "the three-piece endgame move limit (EndgameMoves)".into(),
        EndReason::NoCaptureMoves => "the move limit without a removal (NoCaptureMoves)".into(),
    };
    format!("{head}: {reason}")
}

/// The coordinates as drawn: the files left to right along the board's
/// foot and the ranks bottom to top along its side.
async fn coordinates(c: &Client) -> (String, String) {
    let v = c
        .execute(
            "const read = (cls, key, sign) => [...document.querySelectorAll(`#board text.coord.${cls}`)]
               .map((e) => [sign * e.getBoundingClientRect()[key], e.textContent])
               .sort((a, b) => a[0] - b[0]).map((p) => p[1]).join('');
             return [read('file', 'left', 1), read('rank', 'top', -1)];",
            vec![],
        )
        .await
        .unwrap();
    (
        v[0].as_str().unwrap().to_string(),
        v[1].as_str().unwrap().to_string(),
    )
}

/// Before any move: coordinates a-g and 1-7, the banner asks White to
/// place, and the move list and score graph show light placeholders.
async fn empty_game_looks_empty(c: &Client) {
    assert_eq!(
        coordinates(c).await,
        ("abcdefg".to_string(), "1234567".to_string())
    );
    assert_eq!(banner(c).await, "White to place");
    let v = c
        .execute(
            "const moves = document.getElementById('moves');
             const graph = document.getElementById('graph');
             const bg = graph.querySelector('rect');
             const rgb = getComputedStyle(bg).fill.match(/\\d+/g).map(Number);
             return {moves: moves.textContent, graph: graph.textContent,
                     light: rgb.every((x) => x > 200),
                     eval: document.getElementById('eval').hidden};",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(v["moves"], "No moves yet", "{v}");
    assert_eq!(v["graph"], "Scores appear as the engine analyses", "{v}");
    assert_eq!(v["light"], true, "the empty graph is dark: {v}");
    assert_eq!(v["eval"], true, "an evaluation before any: {v}");
}

/// A typed move with a point the board lacks: the page names the point.
async fn typed_moves_that_name_no_point(c: &Client, shown: &Shown) {
    for (token, point) in [("a1-b1", "b1"), ("h9", "h9")] {
        set_field(c, "move-text", token).await;
        click(c, "move-play").await;
        let want = format!("{point} is not a point of the board");
        let start = Instant::now();
        while !status_line(c).await.contains(&want) {
            assert!(
                start.elapsed() < STEP_LIMIT,
                "{token}: status {:?}",
                status_line(c).await
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(banner(c).await.contains(&want), "{}", banner(c).await);
        let after = settled(c, None).await;
        assert_eq!(after.moves, shown.moves, "{token} changed the game");
    }
    set_field(c, "move-text", "").await;
}

/// Polls until `script` (returning a boolean) holds.
async fn until(c: &Client, what: &str, script: &str) {
    let start = Instant::now();
    while c.execute(script, vec![]).await.unwrap() != Value::Bool(true) {
        assert!(start.elapsed() < STEP_LIMIT, "never {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Playing Black against the engine: the board is flipped (coordinates
/// with it), the banner says the engine thinks, then that Black places.
async fn thinking_banner_and_flipped_coordinates(c: &Client) {
    fill_new_game(c, "nine", "", "black").await;
    select(c, "limit-kind", "movetime").await;
    set_field(c, "limit", "1500").await;
    click(c, "new-game").await;
    until(
        c,
        "the engine thinking in the banner",
        "return document.getElementById('banner').textContent === 'Engine is thinking…';",
    )
    .await;
    assert_eq!(
        coordinates(c).await,
        ("gfedcba".to_string(), "7654321".to_string())
    );
    let shown = settled(c, Some(0)).await;
    assert_eq!(shown.moves.len(), 1, "{shown:?}");
    assert_eq!(banner(c).await, "Black to place");
    click(c, "flip").await;
    assert_eq!(
        coordinates(c).await,
        ("abcdefg".to_string(), "1234567".to_string())
    );
    select(c, "limit-kind", "depth").await;
    set_field(c, "limit", "1").await;
}

/// Sets the game to the position `fen` (standard rules, no engine) by the
/// page's position form.
async fn set_position(c: &Client, fen: &str) -> Shown {
    let rules = Rules::default();
    fill_new_game(c, "nine", "", "both").await;
    click(c, "new-game").await;
    settled(c, None).await;
    set_field(c, "fen", fen).await;
    click(c, "fen-set").await;
    let want = Setup::parse(fen)
        .unwrap()
        .game(&rules)
        .unwrap()
        .position()
        .to_fen(&rules);
    let start = Instant::now();
    loop {
        let shown = settled(c, None).await;
        if shown.fen == want {
            return shown;
        }
        assert!(start.elapsed() < STEP_LIMIT, "{fen} not set: {shown:?}");
    }
}

/// An analysis: arrows in the colour of the side that moves, each move
/// of the lines whole on its line at a phone's width, the evaluation
/// legible and naming the side it favours; at that width the moves and
/// the analysis come right after the board, and the new-game form is
/// folded away.
async fn analysis_arrows_lines_and_evaluation(c: &Client) {
    set_position(c, SIXES).await;
    set_field(c, "multipv", "3").await;
    click(c, "analyse").await;
    until(
        c,
        "arrows of two sides and long lines",
        "return document.querySelector('#board g.arrow.pv1') !== null &&
           document.querySelectorAll('#lines li').length === 3 &&
           [...document.querySelectorAll('#lines li')].every((li) => li.querySelectorAll('.mv').length >= 5);",
    )
    .await;
    let v = c
        .execute(
            "const core = (sel) => { const e = document.querySelector(`#board g.arrow.${sel} .core`);
               return e ? getComputedStyle(e).stroke : null; };
             const ev = document.getElementById('eval');
             const style = getComputedStyle(ev);
             return {pv0: core('pv0.by-white'), pv1: core('pv1.by-black'), alt: core('alt.by-white'),
                     eval: ev.hidden ? null : ev.textContent, size: parseFloat(style.fontSize),
                     transform: style.transform, color: style.color, background: style.backgroundColor};",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(v["pv0"], "rgb(255, 255, 255)", "White's first move: {v}");
    assert_eq!(v["pv1"], "rgb(17, 17, 17)", "Black's answer: {v}");
    assert_eq!(v["alt"], "rgb(255, 255, 255)", "White's other moves: {v}");
    let eval = v["eval"]
        .as_str()
        .unwrap_or_else(|| panic!("no evaluation: {v}"));
    let (side, amount) = eval.split_once(' ').unwrap();
    assert!(["White", "Black", "Even"].contains(&side), "{eval}");
    assert!(
        amount.starts_with('+') || amount.starts_with("0.00"),
        "{eval}: the amount is the favoured side's"
    );
    assert!(v["size"].as_f64().unwrap() >= 16.0, "{v}");
    assert_eq!(v["transform"], "none", "{v}");
    assert_ne!(v["color"], v["background"], "{v}");
    screenshot(c, "analysis.png").await;

    c.set_window_size(400, 900).await.unwrap();
    until(
        c,
        "the new-game form folded at a phone's width",
        "return !document.getElementById('new-box').open;",
    )
    .await;
    let v = c
        .execute(
            "const top = (id) => document.getElementById(id).getBoundingClientRect().top;
             const lis = [...document.querySelectorAll('#lines li')];
             const lineHeight = lis[0].querySelector('.mv').getBoundingClientRect().height;
             return {board: document.getElementById('board').getBoundingClientRect().bottom,
                     analysis: top('analysis'), moves: top('moves'), newGame: top('new-box'),
                     folded: !document.getElementById('new-game').checkVisibility(),
                     box: document.getElementById('new-box').getBoundingClientRect().height,
                     broken: [...document.querySelectorAll('#lines .mv')]
                       .filter((e) => e.getClientRects().length !== 1).map((e) => e.textContent),
                     wrapped: lis.some((li) => li.getBoundingClientRect().height > 1.5 * lineHeight),
                     width: document.documentElement.clientWidth};",
            vec![],
        )
        .await
        .unwrap();
    screenshot(c, "phone.png").await;
    let at = |k: &str| v[k].as_f64().unwrap_or_else(|| panic!("{k}: {v}"));
    assert!(at("width") <= 400.0, "{v}");
    assert!(
        at("board") <= at("analysis"),
        "the analysis before the board: {v}"
    );
    assert!(at("analysis") < at("newGame"), "{v}");
    assert!(at("moves") < at("newGame"), "{v}");
    assert_eq!(v["folded"], true, "the new-game form is not folded: {v}");
    assert!(at("box") < 60.0, "the folded form takes room: {v}");
    assert_eq!(
        v["broken"],
        Value::Array(vec![]),
        "moves broken across lines: {v}"
    );
    assert_eq!(v["wrapped"], true, "no line wraps at a phone's width: {v}");
    c.find(Locator::Css("#new-box summary"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert!(
        c.find(Locator::Id("new-game"))
            .await
            .unwrap()
            .is_displayed()
            .await
            .unwrap(),
        "the folded form does not open"
    );
    c.set_window_size(1100, 900).await.unwrap();
    until(
        c,
        "the new-game form open again",
        "return document.getElementById('new-box').open;",
    )
    .await;
    click(c, "analyse").await;
    until(
        c,
        "the analysis off",
        "return document.querySelector('#board g.arrow') === null;",
    )
    .await;
}

/// The coach: a move by clicks that throws a win away gets its note by
/// the board, naming the moves that keep the win; with the coach off the
/// same move gets none.
async fn coach_notes(c: &Client, tables_dir: &std::path::Path) {
    let rules = Rules::default();
    let tb = morris::tablebase::Tablebases::open(tables_dir.join(""), &rules);
    let game = Setup::parse(THREES).unwrap().game(&rules).unwrap();
    let probes = tb.moves(game.position()).unwrap();
    let of = |value| {
        probes
            .iter()
            .filter(move |m| m.probe.value == value)
            .map(|m| m.mv)
    };
    let bad = of(morris::tablebase::Value::Loss)
        .next()
        .expect("a losing move");
    let good = of(morris::tablebase::Value::Win)
        .next()
        .expect("a winning move");
    let note = || async {
        c.execute(
            "const n = document.getElementById('coach-note');
             return n.hidden ? null : n.textContent;",
            vec![],
        )
        .await
        .unwrap()
    };
    set_position(c, THREES).await;
    assert_eq!(note().await, Value::Null);
    click_move(c, bad).await;
    settled(c, Some(0)).await;
    let text = note().await;
    let want = format!("Coach: {bad} turned a win into a loss; {good}");
    assert!(
        text.as_str().is_some_and(|t| t.starts_with(&want)),
        "{text}, not {want}..."
    );
    screenshot(c, "coach.png").await;

    click(c, "coach").await;
    until(
        c,
        "the coach off",
        "return document.getElementById('coach-note').hidden;",
    )
    .await;
    set_position(c, THREES).await;
    click_move(c, bad).await;
    settled(c, Some(0)).await;
    assert_eq!(note().await, Value::Null, "a note with the coach off");
    click(c, "coach").await;
    until(
        c,
        "the coach on",
        "return document.getElementById('coach').checked;",
    )
    .await;
}

#[test]
fn plays_a_game_by_clicks_in_headless_chromium() {
    if !webdriver::available("plays_a_game_by_clicks_in_headless_chromium") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (gui, tables_dir) = start_gui();
    runtime.block_on(async {
        tokio::time::timeout(TEST_LIMIT, async {
            let browser = Browser::start().await;
            browser_test(&gui, &tables_dir, &browser).await;
            browser.close().await;
        })
        .await
        .unwrap_or_else(|_| panic!("the browser test took over {TEST_LIMIT:?}"));
    });
}
