//! `morris gui`: the server's JSON API over plain HTTP, against the real
//! binary with a `morris` child as the engine.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use morris::rules::{Game, MoveList, Position, Rules, Setup, Variant};
use serde_json::{Value, json};

use crate::common::gui_server;

use gui_server::GuiServer as Gui;

impl Gui {
    fn start() -> Gui {
        Gui::start_with(&[])
    }

    /// Started with these extra arguments.
    fn start_with(args: &[&str]) -> Gui {
        let dir = std::env::temp_dir().join(format!("morris-test-tb-gui-{}", std::process::id()));
        Gui::start_in(args, &dir)
    }

    fn port(&self) -> &str {
        self.addr.split_once(':').unwrap().1
    }

    /// One request, with these extra header lines; the status and body.
    fn raw(
        &self,
        method: &str,
        path: &str,
        host: &str,
        extra: &[&str],
        body: &str,
    ) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let mut request =
            format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
        for line in extra {
            request += &format!("{line}\r\n");
        }
        request += &format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").expect("a header");
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, body.to_string())
    }

    fn json(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let (status, text) = self.raw(method, path, &self.addr, &[], body);
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        (status, value)
    }

    fn get(&self, path: &str) -> Value {
        let (status, value) = self.json("GET", path, "");
        assert_eq!(status, 200, "{value}");
        value
    }

    fn post(&self, path: &str, body: Value) -> Value {
        let (status, value) = self.json("POST", path, &body.to_string());
        assert_eq!(status, 200, "{path} {body}: {value}");
        value
    }

    /// The state once the engine has played the game up to `plies` moves
    /// (or the game is over) and thinks no more.
    fn engine_plays(&self, plies: usize) -> Value {
        self.until(&format!("{plies} plies"), |s| {
            s["thinking"] == false
                && (s["moves"].as_array().unwrap().len() >= plies || !s["over"].is_null())
        })
    }

    /// Polls the state until `done` holds (within 60 s).
    fn until(&self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let state = self.get("/api/state");
            if done(&state) {
                return state;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "never {what}: {state}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The engine processes this server started (its children).
    #[cfg(target_os = "linux")]
    fn children(&self) -> Vec<u32> {
        let me = self.child.id().to_string();
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                    // pid (comm) state ppid ...: comm may hold spaces.
                    let after = &stat[stat.rfind(')').unwrap() + 2..];
                    after.split(' ').nth(1) == Some(me.as_str())
                })
            })
            .collect()
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// The rules core's legal moves of a game, as text.
fn legal(game: &Game) -> Vec<String> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    list.iter().map(|m| m.to_string()).collect()
}

/// Checks the server's state against the rules core's game.
fn check_state(state: &Value, game: &Game) {
    let rules = game.rules();
    assert_eq!(state["fen"], game.position().to_fen(rules));
    assert_eq!(state["setup"], Setup::of_game(game).to_string());
    assert_eq!(strings(&state["legal_moves"]), legal(game));
    assert_eq!(
        strings(&state["moves"]),
        game.moves()
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
    );
    assert_eq!(state["side_to_move"], game.position().side_to_move().name());
    let marks: Vec<String> = game.position().marked().map(|p| p.to_string()).collect();
    assert_eq!(strings(&state["marks"]), marks);
    match game.outcome() {
        Some(o) => assert_eq!(state["over"]["text"], o.to_string()),
        None => assert!(state["over"].is_null(), "{state}"),
    }
}

#[test]
fn plays_a_whole_game_against_the_engine() {
    let gui = Gui::start();
    let page = gui.raw("GET", "/", &gui.addr, &[], "");
    assert_eq!(page.0, 200);
    assert!(page.1.contains("<svg id=\"board\""));
    for asset in ["/style.css", "/app.js", "/board.js", "/favicon.svg"] {
        assert_eq!(gui.raw("GET", asset, &gui.addr, &[], "").0, 200, "{asset}");
    }
    let state = gui.post(
        "/api/new",
        json!({"variant": "nine", "engine": "black", "depth": 1}),
    );
    let mut game = Game::new(Rules::default(), Position::start(&Rules::default()));
    check_state(&state, &game);
    assert_eq!(state["engine"]["to_move"], false);
    let mut seed = 7u64;
    for ply in 0..60 {
        if game.outcome().is_some() {
            break;
        }
        let state = if ply % 2 == 0 {
            // Our move: a legal one picked by a small generator.
            let moves = legal(&game);
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let token = &moves[(seed >> 33) as usize % moves.len()];
            game.play_text(token).unwrap();
            let state = gui.post("/api/move", json!({ "move": token }));
            assert_eq!(state["engine"]["to_move"], game.outcome().is_none());
            state
        } else {
            let state = gui.engine_plays(ply + 1);
            let token = state["last_move"].as_str().unwrap();
            game.play_text(token)
                .unwrap_or_else(|e| panic!("the engine's {token} is illegal: {e}"));
            assert_eq!(state["engine"]["last"]["move"], token);
            assert_eq!(state["engine"]["last"]["depth"], 1);
            state
        };
        check_state(&state, &game);
        assert_eq!(state["last_move"], game.moves().last().unwrap().to_string());
    }
    assert!(
        game.moves().iter().any(|m| m.removals().count() > 0),
        "no mill in {:?}",
        game.moves()
    );
    if game.outcome().is_some() {
        let (status, value) = gui.json("POST", "/api/go", "{}");
        assert_eq!(status, 409, "{value}");
    }
}

#[test]
fn refuses_illegal_moves_with_the_rules_message() {
    let gui = Gui::start();
    let before = gui.get("/api/state");
    let rules = Rules::default();
    for token in ["d2-d3", "d2xa1", "a1 a4"] {
        let expected = Position::start(&rules)
            .parse_move(&rules, token)
            .unwrap_err()
            .to_string();
        let (status, value) = gui.json("POST", "/api/move", &json!({ "move": token }).to_string());
        assert_eq!(status, 400, "{token}");
        assert_eq!(value["error"], expected);
    }
    // A move the notation cannot read names the point the board lacks.
    for (token, point) in [("a1-b1", "b1"), ("h9", "h9"), ("Z9", "Z9"), ("d2xa8", "a8")] {
        let (status, value) = gui.json("POST", "/api/move", &json!({ "move": token }).to_string());
        assert_eq!(status, 400, "{token}");
        assert_eq!(
            value["error"],
            format!("move '{token}': {point} is not a point of the board")
        );
    }
    assert_eq!(gui.get("/api/state"), before);
    let (status, value) = gui.json("POST", "/api/move", "{}");
    assert_eq!(
        (status, value["error"].as_str()),
        (400, Some("missing field 'move'"))
    );
}

#[test]
fn sets_and_returns_position_strings_and_takes_back() {
    let gui = Gui::start();
    let rules = Rules::default();
    let game = Setup::parse("d2 d6 f4 b4 b2 f2")
        .unwrap()
        .game(&rules)
        .unwrap();
    let fen = game.position().to_fen(&rules);
    let state = gui.post("/api/position", json!({ "position": fen }));
    assert_eq!(state["fen"], fen);
    assert_eq!(state["setup"], fen);
    assert_eq!(gui.get("/api/position"), json!({"fen": fen, "setup": fen}));
    let (status, value) = gui.json(
        "POST",
        "/api/position",
        &json!({"position": "3/3/x"}).to_string(),
    );
    assert_eq!(status, 400, "{value}");
    assert_eq!(gui.get("/api/position")["fen"], fen);

    let state = gui.post(
        "/api/position",
        json!({"position": "startpos moves d2 d6 f4 b4"}),
    );
    assert_eq!(strings(&state["moves"]), ["d2", "d6", "f4", "b4"]);
    let state = gui.post("/api/takeback", json!({"plies": 2}));
    assert_eq!(strings(&state["moves"]), ["d2", "d6"]);
    assert_eq!(state["last_move"], "d6");
    let state = gui.post("/api/takeback", json!({}));
    assert_eq!(strings(&state["moves"]), ["d2"]);
    let state = gui.post("/api/takeback", json!({"plies": 10}));
    assert!(strings(&state["moves"]).is_empty());
    assert_eq!(state["fen"], Position::start(&rules).to_fen(&rules));
}

#[test]
fn new_game_takes_presets_options_and_limits() {
    let gui = Gui::start();
    let state = gui.post(
        "/api/new",
        json!({"variant": "twelve", "options": ["Flying=off"], "engine": "white", "movetime": 50}),
    );
    assert_eq!(state["rules"]["diagonals"], true);
    assert_eq!(state["in_hand"]["white"], 12);
    assert_eq!(strings(&state["rules"]["options"]), ["Flying=off"]);
    assert_eq!(state["engine"]["to_move"], true);
    assert_eq!(state["engine"]["strength"], json!({"movetime": 50}));
    let state = gui.engine_plays(1);
    assert_eq!(strings(&state["moves"]).len(), 1);
    let (status, value) = gui.json(
        "POST",
        "/api/new",
        &json!({"variant": "eleven"}).to_string(),
    );
    assert_eq!(status, 400, "{value}");
    let (status, value) = gui.json("POST", "/api/new", &json!({"engine": "red"}).to_string());
    assert_eq!(status, 400, "{value}");
    for body in [
        json!({"depth": 0}),
        json!({"skill": 21}),
        json!({"depth": 3, "skill": 5}),
        json!({"clock": "fast"}),
    ] {
        let (status, value) = gui.json("POST", "/api/new", &body.to_string());
        assert_eq!(status, 400, "{body}: {value}");
        assert!(value["error"].is_string(), "{value}");
    }
    // A game without a limit keeps the last one.
    let state = gui.post("/api/new", json!({"engine": "none"}));
    assert_eq!(state["engine"]["strength"], json!({"movetime": 50}));
}

#[test]
fn refuses_foreign_hosts_and_origins_and_bad_requests() {
    let gui = Gui::start();
    gui.post("/api/new", json!({"engine": "none"}));
    let port = gui.port();
    let own = format!("localhost:{port}");
    assert_eq!(gui.raw("GET", "/api/state", &own, &[], "").0, 200);
    for host in [
        "evil.example",
        &format!("evil.example:{port}"),
        "127.0.0.1:1",
    ] {
        let (status, body) = gui.raw("GET", "/", host, &[], "");
        assert_eq!(status, 403, "{host}");
        assert!(body.contains("refused"), "{body}");
    }
    let post = |origin: &str| {
        gui.raw(
            "POST",
            "/api/move",
            &gui.addr,
            &[&format!("Origin: {origin}")],
            r#"{"move":"d2"}"#,
        )
        .0
    };
    assert_eq!(post("http://evil.example"), 403);
    assert_eq!(post("null"), 403);
    assert_eq!(post(&format!("http://localhost:{port}")), 200);

    for (body, message) in [
        ("{\"move\":", "bad JSON"),
        ("[1, 2]", "must be a JSON object"),
        ("{\"move\": 3}", "'move' must be a string"),
    ] {
        let (status, value) = gui.json("POST", "/api/move", body);
        assert_eq!(status, 400, "{body}");
        assert!(
            value["error"].as_str().unwrap().contains(message),
            "{value}"
        );
    }
    assert_eq!(gui.json("GET", "/nothing", "").0, 404);
    assert_eq!(gui.json("GET", "/api/move", "").0, 405);
    assert_eq!(gui.json("POST", "/app.js", "").0, 405);
    // Still serving.
    assert_eq!(gui.get("/api/state")["moves"], json!(["d2"]));
}

#[test]
#[cfg(target_os = "linux")]
fn shuts_its_engine_down_when_it_exits() {
    let mut gui = Gui::start();
    gui.post("/api/new", json!({"engine": "white", "depth": 1}));
    gui.engine_plays(1);
    // An analysis, which ends only when stopped, runs at the signal.
    gui.post("/api/analysis", json!({"on": true}));
    gui.until("an analysis line", |s| {
        s["search"]["lines"]
            .as_array()
            .is_some_and(|l| !l.is_empty())
    });
    let engines = gui.children();
    assert_eq!(engines.len(), 1, "{engines:?}");
    let status = Command::new("kill")
        .args(["-TERM", &gui.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let start = Instant::now();
    while gui.child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "morris gui did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in engines {
        let path = format!("/proc/{pid}");
        let start = Instant::now();
        while std::path::Path::new(&path).exists() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "engine {pid} still runs"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// `--engine cmd=...` of one of the match tests' fake engines.
fn fake_engine(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines");
    format!("cmd={}", dir.join(name).display())
}

#[test]
fn a_failed_engine_is_reported_and_restarted() {
    // Plays its first move, then exits at its second `go`.
    let gui = Gui::start_with(&["--engine", &fake_engine("crash.sh")]);
    gui.post("/api/new", json!({"engine": "white", "depth": 1}));
    let state = gui.engine_plays(1);
    assert_eq!(strings(&state["moves"]).len(), 1);
    assert_eq!(state["engine"]["name"], "crash.sh");
    gui.post("/api/move", json!({"move": "d6"}));
    let state = gui.until("the crash", |s| !s["engine"]["error"].is_null());
    assert_eq!(
        state["engine"]["error"],
        "engine crash.sh crashed: exited with code 3"
    );
    assert_eq!(state["paused"], true);
    assert_eq!(strings(&state["moves"]).len(), 2);
    // A fresh process, whose first move comes before its crash.
    let state = gui.post("/api/go", json!({"wait": true}));
    assert_eq!(strings(&state["moves"]).len(), 3);
    assert!(state["engine"]["error"].is_null(), "{state}");

    let gui = Gui::start_with(&["--engine", &fake_engine("illegal.sh")]);
    // Its second move is a slide in the placement phase.
    gui.post("/api/new", json!({"engine": "white", "depth": 1}));
    gui.engine_plays(1);
    let before = gui.post("/api/move", json!({"move": "d6"}));
    let after = gui.until("the fault", |s| !s["engine"]["error"].is_null());
    assert!(
        after["engine"]["error"]
            .as_str()
            .unwrap()
            .starts_with("engine illegal.sh illegal move 'a1-a4'"),
        "{after}"
    );
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["fen"], before["fen"]);
    // A move asked for with `go` waits for it; its failure is the answer.
    gui.post("/api/new", json!({"engine": "none", "depth": 1}));
    let state = gui.post("/api/go", json!({"wait": true}));
    assert_eq!(strings(&state["moves"]).len(), 1);
    assert_eq!(state["engine"]["to_move"], false);
    gui.post("/api/move", json!({"move": "d6"}));
    let (status, value) = gui.json("POST", "/api/go", r#"{"wait": true}"#);
    assert_eq!(status, 502, "{value}");
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .starts_with("engine illegal.sh illegal move 'a1-a4'"),
        "{value}"
    );
}

#[test]
fn answers_while_the_engine_thinks_and_drops_stale_moves() {
    let gui = Gui::start();
    let state = gui.post("/api/new", json!({"engine": "white", "movetime": 3000}));
    assert_eq!(state["thinking"], true, "{state}");
    // The page is answered at once while the engine thinks.
    let asked = Instant::now();
    let state = gui.get("/api/state");
    assert!(asked.elapsed() < Duration::from_secs(1));
    assert_eq!(state["thinking"], true, "{state}");
    assert_eq!(state["search"]["kind"], "play");
    // Lines come in while it searches.
    gui.until("an info line", |s| {
        s["search"]["lines"]
            .as_array()
            .is_some_and(|l| !l.is_empty())
    });
    // Stopped: its move is not played, and it waits for `go`.
    let state = gui.post("/api/stop", json!({}));
    assert_eq!(state["thinking"], false);
    assert_eq!(state["paused"], true);
    std::thread::sleep(Duration::from_millis(300));
    assert!(strings(&gui.get("/api/state")["moves"]).is_empty());

    // A new game while it thinks: the old search's move never lands.
    gui.post("/api/new", json!({"engine": "white", "movetime": 1500}));
    let state = gui.post("/api/new", json!({"engine": "none"}));
    assert_eq!(state["thinking"], false);
    std::thread::sleep(Duration::from_millis(2000));
    let state = gui.get("/api/state");
    assert!(strings(&state["moves"]).is_empty(), "{state}");
    assert!(state["search"].is_null(), "{state}");

    // A take back while it thinks: the same.
    gui.post("/api/new", json!({"engine": "black", "movetime": 1500}));
    gui.post("/api/move", json!({"move": "d2"}));
    let state = gui.post("/api/takeback", json!({}));
    assert!(strings(&state["moves"]).is_empty());
    std::thread::sleep(Duration::from_millis(2000));
    assert!(strings(&gui.get("/api/state")["moves"]).is_empty());
    // And the engine still plays afterwards.
    gui.post("/api/move", json!({"move": "d2"}));
    let state = gui.engine_plays(2);
    assert_eq!(strings(&state["moves"]).len(), 2);
}

#[test]
fn engine_against_engine_plays_on_by_itself() {
    let gui = Gui::start();
    gui.post("/api/new", json!({"engine": "both", "depth": 1}));
    let state = gui.until("six moves", |s| {
        s["moves"].as_array().unwrap().len() >= 6 || !s["over"].is_null()
    });
    let moves = strings(&state["moves"]);
    let game = Setup::new(morris::rules::Start::Initial, moves)
        .game(&Rules::default())
        .unwrap();
    assert!(game.moves().len() >= 6);
    let state = gui.post("/api/stop", json!({}));
    let n = state["moves"].as_array().unwrap().len();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(gui.get("/api/state")["moves"].as_array().unwrap().len(), n);
}

#[test]
fn views_earlier_positions_and_plays_from_them_only_when_cut() {
    let gui = Gui::start();
    gui.post("/api/new", json!({"engine": "none"}));
    let line = ["d2", "d6", "f4", "b4", "b2"];
    for m in line {
        gui.post("/api/move", json!({ "move": m }));
    }
    let rules = Rules::default();
    let at = |n: usize| {
        Setup::parse(&line[..n].join(" "))
            .unwrap()
            .game(&rules)
            .unwrap()
    };
    let state = gui.post("/api/view", json!({"ply": 2}));
    assert_eq!(state["ply"], 2);
    assert_eq!(state["fen"], at(2).position().to_fen(&rules));
    assert_eq!(strings(&state["legal_moves"]), legal(&at(2)));
    assert_eq!(state["last_move"], "d6");
    assert_eq!(strings(&state["moves"]), line);
    // No move while an earlier position is viewed.
    let (status, value) = gui.json("POST", "/api/move", r#"{"move": "a1"}"#);
    assert_eq!(status, 409, "{value}");
    assert!(value["error"].as_str().unwrap().contains("viewing"));
    let state = gui.post("/api/view", json!({"ply": 0}));
    assert!(state["last_move"].is_null());
    assert_eq!(state["fen"], Position::start(&rules).to_fen(&rules));
    // Past the end: the end.
    let state = gui.post("/api/view", json!({"ply": 99}));
    assert_eq!(state["ply"], 5);
    check_state(&state, &at(5));
    // Cut the game at ply 3 and play on from there.
    gui.post("/api/view", json!({"ply": 3}));
    let state = gui.post("/api/takeback", json!({"to": 3}));
    check_state(&state, &at(3));
    assert_eq!(state["ply"], 3);
    let state = gui.post("/api/move", json!({"move": "g7"}));
    assert_eq!(strings(&state["moves"]), ["d2", "d6", "f4", "g7"]);
    let (status, _) = gui.json("POST", "/api/view", r#"{"ply": -1}"#);
    assert_eq!(status, 400);
}

#[test]
fn analyses_the_viewed_position_with_several_lines() {
    let gui = Gui::start();
    gui.post("/api/new", json!({"engine": "none"}));
    for m in ["d2", "d6", "f4"] {
        gui.post("/api/move", json!({ "move": m }));
    }
    let state = gui.post("/api/analysis", json!({"on": true, "multipv": 3}));
    assert_eq!(state["analysis"], json!({"multipv": 3}));
    assert_eq!(state["search"]["kind"], "analysis");
    assert_eq!(state["thinking"], false);
    let rules = Rules::default();
    let game = Setup::parse("d2 d6 f4").unwrap().game(&rules).unwrap();
    let state = gui.until("three lines at depth 3", |s| {
        let lines = s["search"]["lines"].as_array().unwrap();
        lines.len() == 3 && lines.iter().all(|l| l["depth"].as_u64() >= Some(3))
    });
    let lines = state["search"]["lines"].as_array().unwrap();
    let legal = legal(&game);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["multipv"], i + 1);
        assert!(l["score"].is_object(), "{l}");
        assert!(l["nodes"].as_u64().unwrap() > 0, "{l}");
        let first = l["pv"][0].as_str().unwrap();
        assert!(legal.iter().any(|m| m == first), "{first}");
        // The rest of the line is playable too.
        let mut g = game.clone();
        for m in strings(&l["pv"]) {
            g.play_text(&m).unwrap();
        }
    }
    let firsts: Vec<&Value> = lines.iter().map(|l| &l["pv"][0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2],
        "{firsts:?}"
    );
    // The first line's score is the position's evaluation, White's view.
    assert!(state["evals"][3].is_object(), "{state}");
    // The analysis follows the position viewed.
    let state = gui.post("/api/view", json!({"ply": 1}));
    assert_eq!(state["search"]["ply"], 1);
    gui.until("a line of ply 1", |s| {
        s["search"]["lines"]
            .as_array()
            .is_some_and(|l| !l.is_empty())
    });
    // A finished game's last position is not analysed.
    let state = gui.post(
        "/api/position",
        json!({"position": "W1W/3/3/B5/3/3/B1B w 0 0 0 20"}),
    );
    assert!(!state["over"].is_null(), "{state}");
    assert_eq!(state["over"]["reason"], "White has fewer than 3 pieces");
    assert_eq!(state["analysis"], json!({"multipv": 3}));
    assert!(state["search"].is_null(), "{state}");
    let state = gui.post("/api/analysis", json!({"on": false}));
    assert!(state["search"].is_null());
    assert!(state["analysis"].is_null());
    let (status, _) = gui.json("POST", "/api/analysis", r#"{"on": true, "multipv": 99}"#);
    assert_eq!(status, 400);
}

#[test]
fn plays_at_a_skill_level_and_takes_limits_from_the_engine_settings() {
    let morris = format!("cmd={}", env!("CARGO_BIN_EXE_morris"));
    let gui = Gui::start_with(&["--engine", &morris, "depth=2"]);
    let state = gui.get("/api/state");
    assert_eq!(state["engine"]["strength"], json!({"depth": 2}));
    assert!(state["clock"].is_null());
    let state = gui.post("/api/new", json!({"engine": "white", "skill": 3}));
    assert_eq!(state["engine"]["strength"], json!({"skill": 3}));
    let state = gui.engine_plays(1);
    let moves = strings(&state["moves"]);
    assert_eq!(moves.len(), 1);
    assert!(
        legal(&Game::new(
            Rules::default(),
            Position::start(&Rules::default())
        ))
        .contains(&moves[0])
    );

    let gui = Gui::start_with(&["--engine", &morris, "tc=60+1"]);
    let state = gui.get("/api/state");
    assert_eq!(state["clock"]["white"], 60000);
    assert_eq!(state["clock"]["inc"], 1000);
}

#[test]
fn keeps_clocks_and_flags_a_side_out_of_time() {
    let gui = Gui::start();
    let state = gui.post(
        "/api/new",
        json!({"engine": "black", "depth": 1, "clock": "30+2"}),
    );
    assert_eq!(state["clock"]["white"], 30000);
    assert_eq!(state["clock"]["running"], "white");
    std::thread::sleep(Duration::from_millis(200));
    let state = gui.post("/api/move", json!({"move": "d2"}));
    // White used some time and got its increment.
    let white = state["clock"]["white"].as_u64().unwrap();
    assert!((31000..32000).contains(&white), "{state}");
    let state = gui.engine_plays(2);
    let black = state["clock"]["black"].as_u64().unwrap();
    assert!(black > 30000 && black <= 32000, "{state}");
    assert_eq!(state["clock"]["running"], "white");

    let state = gui.post("/api/new", json!({"engine": "none", "clock": "0.3"}));
    assert_eq!(state["clock"]["inc"], 0);
    let state = gui.until("a flag", |s| !s["over"].is_null());
    assert_eq!(state["over"]["result"], "0-1");
    assert_eq!(state["over"]["text"], "0-1 black wins on time");
    assert_eq!(state["over"]["reason"], "White ran out of time");
    assert_eq!(state["clock"]["white"], 0);
    assert!(state["clock"]["running"].is_null());
    let (status, value) = gui.json("POST", "/api/move", r#"{"move": "d2"}"#);
    assert_eq!(status, 409, "{value}");
    let record = gui.get("/api/record")["record"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(record.contains("on time"), "{record}");
}

#[test]
fn exports_and_imports_game_records() {
    let gui = Gui::start();
    gui.post(
        "/api/new",
        json!({"variant": "twelve", "options": ["Flying=off"], "engine": "black", "depth": 1}),
    );
    for _ in 0..4 {
        let state = gui.get("/api/state");
        let token = state["legal_moves"][0].as_str().unwrap().to_string();
        let n = gui.post("/api/move", json!({ "move": token }))["moves"]
            .as_array()
            .unwrap()
            .len();
        gui.engine_plays(n + 1);
    }
    let state = gui.get("/api/state");
    let text = gui.get("/api/record")["record"]
        .as_str()
        .unwrap()
        .to_string();
    let records = morris::tools::parse_records(&text).unwrap();
    assert_eq!(records.len(), 1);
    let game = records[0].replay().unwrap();
    assert!(game.rules().diagonals);
    check_state(&state, &game);
    // The engine's moves carry its score.
    assert!(records[0].moves[1].comment.is_some(), "{text}");

    let other = Gui::start();
    let imported = other.post("/api/record", json!({ "record": text }));
    check_state(&imported, &game);
    assert_eq!(imported["rules"], state["rules"]);
    assert_eq!(imported["ply"], 8);
    assert_eq!(imported["thinking"], false);
    // Exported again, the same game.
    let again = other.get("/api/record")["record"]
        .as_str()
        .unwrap()
        .to_string();
    let replayed = morris::tools::parse_records(&again).unwrap()[0]
        .replay()
        .unwrap();
    assert_eq!(replayed.moves(), game.moves());

    let (status, value) = other.json(
        "POST",
        "/api/record",
        &json!({"record": "[Variant \"nine\"]\n\n1. d2 d2 *\n"}).to_string(),
    );
    assert_eq!(status, 400, "{value}");
    assert!(
        value["error"].as_str().unwrap().starts_with("line 3"),
        "{value}"
    );
    assert_eq!(other.get("/api/state")["moves"], imported["moves"]);
}

use crate::common::tables;

#[test]
fn shows_the_tables_value_of_every_move() {
    let rules = Rules::default();
    let dir = tables::made(
        "gui-tables",
        &[(rules, morris::tablebase::Subspace::new(3, 3))],
    );
    let gui = Gui::start_in(&[], &dir);
    let fen = "W1W/3/3/W4B/3/3/B1B w 0 0 0 20";
    let state = gui.post("/api/position", json!({ "position": fen }));
    let tables = &state["tables"];
    assert!(tables.is_object(), "{state}");
    let tb = morris::tablebase::Tablebases::open(dir.join(""), &rules);
    let pos = Setup::parse(fen).unwrap().game(&rules).unwrap();
    let expected = tb.moves(pos.position()).unwrap();
    let moves = tables["moves"].as_array().unwrap();
    assert_eq!(moves.len(), expected.len());
    assert_eq!(moves.len(), legal(&pos).len());
    for (got, want) in moves.iter().zip(&expected) {
        assert_eq!(got["move"], want.mv.to_string());
        assert_eq!(got["text"], want.probe.to_string());
    }
    // A move that wins at once is a win in one ply.
    for m in moves {
        if m["value"] == "win" && m["plies"] == 1 {
            assert!(m["move"].as_str().unwrap().contains('x'), "{m}");
        }
    }
    assert_eq!(tables["source"], "tables");
    // In the placement phase, past the built-in book's 9 plies, there are
    // none.
    let past_the_book = "startpos moves a1 g7 b4 f4 c5 e5 d6 d2 e3 c4";
    let state = gui.post("/api/position", json!({ "position": past_the_book }));
    assert_eq!(state["ply"], 10, "{state}");
    assert!(state["tables"].is_null(), "{state}");
}

/// Under the built-in books' rules (the default ones and the published
/// solutions') the opening's values come from them, each move's as the
/// book gives it, with no tables at all.
#[test]
fn shows_the_book_value_of_every_opening_move() {
    book_values_shown(&[]);
    book_values_shown(&["EndgameMoves=0", "NoCaptureMoves=0"]);
}

fn book_values_shown(options: &[&str]) {
    let gui = Gui::start();
    let state = gui.post(
        "/api/new",
        json!({"variant": "nine", "options": options, "engine": "none"}),
    );
    let tables = &state["tables"];
    assert_eq!(tables["source"], "book", "{options:?}: {state}");
    let rules = Rules::with_settings("nine", options).unwrap();
    let start = Setup::parse("startpos").unwrap().game(&rules).unwrap();
    let book = morris::tablebase::book::builtin()
        .serving(&rules)
        .expect("a built-in book");
    let expected = book.moves(start.position(), &rules).unwrap();
    let moves = tables["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 24);
    for (got, want) in moves.iter().zip(&expected) {
        assert_eq!(got["move"], want.mv.to_string());
        assert_eq!(got["text"], want.probe.to_string());
    }
    assert_eq!(tables["value"], "draw");
}

#[test]
fn offers_every_rule_set_with_marks_and_removal_only_turns() {
    let gui = Gui::start();
    let listed = gui.get("/api/variants");
    let names: Vec<&str> = listed["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    let all: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    assert_eq!(names, all);

    // Zhi Qi, docs/rules.md 19.3: a placing stage without a mill fills the
    // board; then White removes, Black removes (removal-only turns), and
    // White moves.
    let rules = Rules::with_settings("zhiqi", &[] as &[&str]).unwrap();
    let mut game = Game::new(rules, Position::start(&rules));
    gui.post("/api/new", json!({"variant": "zhiqi", "engine": "none"}));
    let white = "a1 a7 b4 c4 c5 d2 d6 e3 e5 f6 g1 g4".split(' ');
    let black = "a4 b2 b6 c3 d1 d3 d5 d7 e4 f2 f4 g7".split(' ');
    for (w, b) in white.zip(black) {
        for token in [w, b] {
            game.play_text(token).unwrap();
            check_state(&gui.post("/api/move", json!({ "move": token })), &game);
        }
    }
    for _ in 0..2 {
        let moves = legal(&game);
        assert!(moves.iter().all(|m| m.starts_with('x')), "{moves:?}");
        let token = moves[0].clone();
        game.play_text(&token).unwrap();
        check_state(&gui.post("/api/move", json!({ "move": token })), &game);
    }
    assert!(legal(&game).iter().all(|m| m.contains('-')));

    // Cham Gonu: a mill in the placing stage marks the piece it takes.
    let rules = Rules::with_settings("chamgonu", &[] as &[&str]).unwrap();
    let mut game = Game::new(rules, Position::start(&rules));
    gui.post("/api/new", json!({"variant": "chamgonu", "engine": "none"}));
    for token in ["a1", "b2", "a4", "b4", "a7xb4"] {
        game.play_text(token).unwrap();
        check_state(&gui.post("/api/move", json!({ "move": token })), &game);
    }
    assert_eq!(gui.get("/api/state")["marks"], json!(["b4"]));
}

/// The coach (on by default) names a move of the player that throws a
/// win away, with the moves that keep it, until the player's next move;
/// a move that keeps the win gets no note, nor any move with the coach
/// off.
#[test]
fn the_coach_names_a_move_that_throws_a_win_away() {
    let rules = Rules::default();
    let dir = tables::made(
        "gui-coach-tables",
        &[(rules, morris::tablebase::Subspace::new(3, 3))],
    );
    let gui = Gui::start_in(&[], &dir);
    // White wins by closing a7-d7-g7; else Black closes a1-d1-g1 first.
    let fen = "W1W/3/3/W4B/3/3/B1B w 0 0 0 20";
    let tb = morris::tablebase::Tablebases::open(dir.join(""), &rules);
    let game = Setup::parse(fen).unwrap().game(&rules).unwrap();
    let probes = tb.moves(game.position()).unwrap();
    let with = |value: morris::tablebase::Value| -> Vec<String> {
        probes
            .iter()
            .filter(|m| m.probe.value == value)
            .map(|m| m.mv.to_string())
            .collect()
    };
    let wins = with(morris::tablebase::Value::Win);
    let losses = with(morris::tablebase::Value::Loss);
    assert!(!wins.is_empty() && !losses.is_empty(), "{probes:?}");
    let bad = &losses[0];

    gui.post("/api/new", json!({"engine": "none"}));
    let state = gui.post("/api/position", json!({ "position": fen }));
    assert_eq!(state["coach"], json!({"enabled": true, "note": null}));
    let state = gui.post("/api/move", json!({ "move": bad }));
    let note = &state["coach"]["note"];
    assert_eq!(note["ply"], 1, "{state}");
    assert_eq!(note["move"], bad.as_str());
    assert_eq!(
        (&note["before"], &note["after"]),
        (&json!("win"), &json!("loss"))
    );
    assert_eq!(strings(&note["better"]), wins);
    assert_eq!(note["source"], "tables");
    let text = note["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("{bad} turned a win into a loss; {}", wins[0])),
        "{text}"
    );
    assert!(text.ends_with(" the win"), "{text}");
    // Taken back, the note goes with the move.
    let state = gui.post("/api/takeback", json!({}));
    assert!(state["coach"]["note"].is_null(), "{state}");
    // A move that keeps the win: no note.
    let state = gui.post("/api/move", json!({ "move": wins[0] }));
    assert!(state["coach"]["note"].is_null(), "{state}");

    // Against the engine, the note stays through its reply.
    gui.post("/api/new", json!({"engine": "black", "depth": 1}));
    gui.post("/api/position", json!({ "position": fen }));
    let state = gui.post("/api/move", json!({ "move": bad }));
    assert_eq!(state["coach"]["note"]["move"], bad.as_str(), "{state}");
    let state = gui.engine_plays(2);
    assert_eq!(strings(&state["moves"]).len(), 2, "{state}");
    assert_eq!(state["coach"]["note"]["move"], bad.as_str(), "{state}");

    // Switched off: no note, and none dropped in later.
    let state = gui.post("/api/coach", json!({"enabled": false}));
    assert_eq!(state["coach"], json!({"enabled": false, "note": null}));
    gui.post("/api/new", json!({"engine": "none"}));
    gui.post("/api/position", json!({ "position": fen }));
    let state = gui.post("/api/move", json!({ "move": bad }));
    assert_eq!(state["coach"], json!({"enabled": false, "note": null}));
    let state = gui.post("/api/coach", json!({"enabled": true}));
    assert_eq!(state["coach"], json!({"enabled": true, "note": null}));

    assert_eq!(gui.json("GET", "/api/coach", "").0, 405);
    let (status, value) = gui.json("POST", "/api/coach", "{}");
    assert_eq!(
        (status, value["error"].as_str()),
        (400, Some("missing field 'enabled'"))
    );
    let (status, _) = gui.json("POST", "/api/coach", r#"{"enabled": "no"}"#);
    assert_eq!(status, 400);
}

/// The keys of `doc` and `served`, compared wherever both are objects: the
/// names that live in protocol.md's example and in the server's types.
fn same_keys(path: &str, doc: &Value, served: &Value, wrong: &mut Vec<String>) {
    let (Some(doc), Some(served)) = (doc.as_object(), served.as_object()) else {
        return;
    };
    let keys = |o: &serde_json::Map<String, Value>| {
        let mut k: Vec<String> = o.keys().cloned().collect();
        k.sort();
        k
    };
    if keys(doc) != keys(served) {
        wrong.push(format!(
            "{path}: protocol.md has {:?}, the server sends {:?}",
            keys(doc),
            keys(served)
        ));
    }
    for (k, v) in doc {
        if let Some(s) = served.get(k) {
            same_keys(&format!("{path}.{k}"), v, s, wrong);
        }
    }
}

#[test]
fn protocol_md_shows_the_state_the_server_sends() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    let board = &doc[doc.find("## The board").expect("a board section")..];
    let start = board.find("```json\n").expect("an example state") + "```json\n".len();
    let example: Value =
        serde_json::from_str(&board[start..start + board[start..].find("```").unwrap()])
            .expect("the example state is JSON");
    let gui = Gui::start();
    let state = gui.post(
        "/api/new",
        json!({"variant": "nine", "engine": "none", "clock": "300+2"}),
    );
    let mut wrong = Vec::new();
    same_keys("state", &example, &state, &mut wrong);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every key path below `prefix` of `value`'s objects, and which of them
/// are objects themselves.
fn key_paths(prefix: &str, value: &Value, paths: &mut BTreeMap<String, bool>) {
    if let Some(object) = value.as_object() {
        for (k, v) in object {
            let path = format!("{prefix}.{k}");
            let is_object = v.is_object();
            let known = paths.entry(path.clone()).or_insert(false);
            *known |= is_object;
            key_paths(&path, v, paths);
        }
    }
}

/// The `state.a` and `state.a.b` paths that app.js reads: the field names
/// live in the server's types and in the page's code, and a rename on one
/// side alone would leave the page reading `undefined`.
fn app_js_paths() -> Vec<(usize, Vec<String>)> {
    let js = include_str!("../src/tools/gui/assets/app.js");
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut paths = Vec::new();
    for (n, line) in js.lines().enumerate() {
        let mut rest = line;
        let mut before = ' ';
        while let Some(at) = rest.find("state.") {
            let prev = rest[..at].chars().next_back().unwrap_or(before);
            let tail = &rest[at + "state.".len()..];
            if !(prev.is_ascii_alphanumeric() || prev == '_' || prev == '.') {
                let first = ident(tail);
                let mut path = vec![first.clone()];
                if let Some(sub) = tail[first.len()..].strip_prefix('.') {
                    path.push(ident(sub));
                }
                paths.push((n + 1, path));
            }
            before = '.';
            rest = tail;
        }
    }
    paths
}

#[test]
fn app_js_reads_only_keys_the_server_sends() {
    let gui = Gui::start();
    let mut sent = BTreeMap::new();
    // A clock, and the book's values of the opening.
    let state = gui.post(
        "/api/new",
        json!({"variant": "nine", "options": ["EndgameMoves=0", "NoCaptureMoves=0"],
               "engine": "none", "clock": "300+2"}),
    );
    assert!(
        state["tables"].is_object() && state["clock"].is_object(),
        "{state}"
    );
    key_paths("state", &state, &mut sent);
    // A search with its lines.
    gui.post("/api/move", json!({"move": "d2"}));
    gui.post("/api/analysis", json!({"on": true, "multipv": 1}));
    let state = gui.until("a line", |s| {
        s["search"]["lines"]
            .as_array()
            .is_some_and(|l| !l.is_empty())
    });
    key_paths("state", &state, &mut sent);
    // A game over.
    let state = gui.post(
        "/api/position",
        json!({"position": "W1W/3/3/B5/3/3/B1B w 0 0 0 20"}),
    );
    assert!(state["over"].is_object(), "{state}");
    key_paths("state", &state, &mut sent);

    let read = app_js_paths();
    assert!(read.len() > 50, "app.js reads the state: {read:?}");
    let mut wrong = Vec::new();
    for (line, path) in &read {
        let top = format!("state.{}", path[0]);
        match sent.get(&top) {
            None => wrong.push(format!("app.js:{line} reads {top}")),
            Some(true) if path.len() > 1 => {
                let sub = format!("{top}.{}", path[1]);
                if !sent.contains_key(&sub) {
                    wrong.push(format!("app.js:{line} reads {sub}"));
                }
            }
            Some(_) => {}
        }
    }
    assert!(
        wrong.is_empty(),
        "keys the server never sends:\n{}",
        wrong.join("\n")
    );
}
