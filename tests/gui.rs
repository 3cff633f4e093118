//! `morris gui`: the server's JSON API over plain HTTP, against the real
//! binary with a `morris` child as the engine.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use morris::rules::{Game, MoveList, Position, Rules, Setup};
use serde_json::{Value, json};

/// A running `morris gui`, killed when dropped.
struct Gui {
    child: Child,
    /// `127.0.0.1:PORT`.
    addr: String,
}

impl Gui {
    fn start() -> Gui {
        Gui::start_with(&[])
    }

    /// Started with these extra arguments.
    fn start_with(args: &[&str]) -> Gui {
        let dir = std::env::temp_dir().join(format!("morris-test-tb-gui-{}", std::process::id()));
        let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
            .args(["gui", "--port", "0"])
            .args(args)
            .env("MORRIS", env!("CARGO_BIN_EXE_morris"))
            .env("MORRIS_TB_DIR", dir)
            .env("MORRIS_TB_AUTO", "0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not a URL: {line:?}"))
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        Gui { child, addr }
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

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
    for asset in ["/style.css", "/app.js", "/board.js"] {
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
            let state = gui.post("/api/go", json!({}));
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
    for token in ["d2-d3", "z9", "d2xa1"] {
        let expected = Position::start(&rules)
            .parse_move(&rules, token)
            .unwrap_err()
            .to_string();
        let (status, value) = gui.json("POST", "/api/move", &json!({ "move": token }).to_string());
        assert_eq!(status, 400, "{token}");
        assert_eq!(value["error"], expected);
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
    let state = gui.post("/api/go", json!({}));
    assert_eq!(strings(&state["moves"]).len(), 1);
    let (status, value) = gui.json(
        "POST",
        "/api/new",
        &json!({"variant": "eleven"}).to_string(),
    );
    assert_eq!(status, 400, "{value}");
    let (status, value) = gui.json("POST", "/api/new", &json!({"engine": "red"}).to_string());
    assert_eq!(status, 400, "{value}");
    let (status, value) = gui.json("POST", "/api/new", &json!({"depth": 0}).to_string());
    assert_eq!(status, 400, "{value}");
}

#[test]
fn refuses_foreign_hosts_and_origins_and_bad_requests() {
    let gui = Gui::start();
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
    gui.post("/api/go", json!({}));
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
    gui.post("/api/new", json!({"engine": "both", "depth": 1}));
    let state = gui.post("/api/go", json!({}));
    assert_eq!(strings(&state["moves"]).len(), 1);
    assert_eq!(state["engine"]["name"], "crash.sh");
    let (status, value) = gui.json("POST", "/api/go", "{}");
    assert_eq!(status, 502, "{value}");
    assert_eq!(
        value["error"],
        "engine crash.sh crashed: exited with code 3"
    );
    // A fresh process, whose first move comes before its crash.
    let state = gui.post("/api/go", json!({}));
    assert_eq!(strings(&state["moves"]).len(), 2);

    let gui = Gui::start_with(&["--engine", &fake_engine("illegal.sh")]);
    // Its second move is a slide in the placement phase.
    gui.post("/api/new", json!({"engine": "both", "depth": 1}));
    let before = gui.post("/api/go", json!({}));
    let (status, value) = gui.json("POST", "/api/go", "{}");
    assert_eq!(status, 502, "{value}");
    assert!(
        value["error"]
            .as_str()
            .unwrap()
            .starts_with("engine illegal.sh illegal move 'a1-a4'"),
        "{value}"
    );
    assert_eq!(gui.get("/api/state"), before);
}
