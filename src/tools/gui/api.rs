//! The HTTP side: the request checks, the routes, and JSON in and out.
//! Every failure is a 4xx or 5xx answer with `{"error": message}`. A new
//! route goes here, reading its body; what it does is a `Board` method.

use std::io::Read;
use std::sync::Arc;

use serde_json::{Map, Value};
use tiny_http::{Header, Method, Request, Response};

use super::board::{Board, NewGame, TakeBack};
use super::clock::ClockSetting;
use super::error::BoardError;
use super::orders::{EngineSide, MAX_MULTIPV, Strength};
use super::view::{self, Reply};
use crate::rules::{Rules, Variant};

/// The largest request body read.
const MAX_BODY: u64 = 64 * 1024;

const INDEX_HTML: &str = include_str!("assets/index.html");
const STYLE_CSS: &str = include_str!("assets/style.css");
const APP_JS: &str = include_str!("assets/app.js");
const BOARD_JS: &str = include_str!("assets/board.js");
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");

/// A request refused before it reaches the board.
struct Refusal {
    status: u16,
    message: String,
}

impl Refusal {
    fn new(status: u16, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }
}

impl From<BoardError> for Refusal {
    fn from(e: BoardError) -> Refusal {
        Refusal::new(e.status(), e.to_string())
    }
}

/// What a route answers: an asset or JSON.
enum Body {
    Asset(&'static str, &'static str),
    Json(Reply),
}

/// Answers one request; a client gone before the answer is only logged.
pub(super) fn answer(board: &Arc<Board>, port: u16, mut request: Request) {
    let (status, body) = match route(board, port, &mut request) {
        Ok(body) => (200, body),
        Err(r) => (
            r.status,
            Body::Json(Reply::Error(view::Error { error: r.message })),
        ),
    };
    let (content_type, text) = match body {
        Body::Asset(content_type, text) => (content_type, text.to_string()),
        // The one place the board's JSON is written.
        Body::Json(reply) => (
            "application/json",
            serde_json::to_string(&reply).expect("the views serialise"),
        ),
    };
    let response = Response::from_string(text)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header(
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self'; script-src 'self'",
        ));
    if let Err(e) = request.respond(response) {
        log::debug!("gui: answering: {e}");
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

fn header_value<'a>(request: &'a Request, name: &'static str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

/// The loopback names of this server: the only acceptable `Host`s.
fn is_own_host(host: &str, port: u16) -> bool {
    ["127.0.0.1", "localhost"]
        .iter()
        .any(|name| host.eq_ignore_ascii_case(&format!("{name}:{port}")))
}

fn check_origin(request: &Request, port: u16) -> Result<(), Refusal> {
    let host = header_value(request, "Host").unwrap_or("");
    if !is_own_host(host, port) {
        return Err(Refusal::new(
            403,
            format!("Host '{host}' refused: only 127.0.0.1:{port} or localhost:{port}"),
        ));
    }
    if *request.method() == Method::Post
        && let Some(origin) = header_value(request, "Origin")
        && !origin
            .strip_prefix("http://")
            .is_some_and(|h| is_own_host(h, port))
    {
        return Err(Refusal::new(
            403,
            format!("Origin '{origin}' refused: not this page"),
        ));
    }
    Ok(())
}

/// A JSON call: reads the request's body if it takes one, answers JSON.
type Call = fn(&Arc<Board>, &mut Request) -> Result<Reply, Refusal>;

/// What a route answers.
enum Action {
    /// A page asset: its content type and text.
    Asset(&'static str, &'static str),
    Call(Call),
}

/// The methods a route takes on its path, and its answer.
struct Route {
    methods: &'static [Method],
    path: &'static str,
    action: Action,
}

/// An asset is read and checked for by `HEAD`.
const READ: &[Method] = &[Method::Get, Method::Head];
const GET: &[Method] = &[Method::Get];
const POST: &[Method] = &[Method::Post];

/// Every route, each once: a path not here is answered 404, a method
/// that none of its path's routes takes 405.
const ROUTES: &[Route] = &[
    asset("/", "text/html; charset=utf-8", INDEX_HTML),
    asset("/index.html", "text/html; charset=utf-8", INDEX_HTML),
    asset("/style.css", "text/css; charset=utf-8", STYLE_CSS),
    asset("/app.js", "text/javascript; charset=utf-8", APP_JS),
    asset("/board.js", "text/javascript; charset=utf-8", BOARD_JS),
    asset("/favicon.svg", "image/svg+xml", FAVICON_SVG),
    asset("/favicon.ico", "image/svg+xml", FAVICON_SVG),
    call(GET, "/api/state", |board, _| Ok(board.state().into())),
    call(GET, "/api/position", |board, _| {
        let state = board.state();
        Ok(Reply::Position(view::Position {
            fen: state.fen,
            setup: state.setup,
        }))
    }),
    call(GET, "/api/record", |board, _| {
        Ok(Reply::Record(view::Record {
            record: board.record(),
        }))
    }),
    call(GET, "/api/variants", |_, _| {
        Ok(Reply::Variants(view::Variants {
            variants: Variant::ALL
                .iter()
                .map(|v| view::VariantName {
                    name: v.name(),
                    title: v.title(),
                })
                .collect(),
        }))
    }),
    call(POST, "/api/new", |board, request| {
        Ok(board.new_game(new_game(&read_json(request)?)?).into())
    }),
    call(POST, "/api/move", |board, request| {
        let body = read_json(request)?;
        let token = string_field(&body, "move")?.ok_or_else(|| missing("move"))?;
        Ok(board.play(token)?.into())
    }),
    call(POST, "/api/go", |board, request| {
        let body = read_json(request)?;
        Ok(board
            .go(bool_field(&body, "wait")?.unwrap_or(false))?
            .into())
    }),
    call(POST, "/api/stop", |board, request| {
        read_json(request)?;
        Ok(board.stop().into())
    }),
    call(POST, "/api/takeback", |board, request| {
        let body = read_json(request)?;
        let back = match (count_field(&body, "plies")?, count_field(&body, "to")?) {
            (Some(_), Some(_)) => return Err(bad("give 'plies' or 'to', not both")),
            (Some(n), None) => TakeBack::Plies(n),
            (None, Some(ply)) => TakeBack::To(ply),
            (None, None) => TakeBack::Plies(1),
        };
        Ok(board.take_back(back).into())
    }),
    call(POST, "/api/position", |board, request| {
        let body = read_json(request)?;
        let position = string_field(&body, "position")?.ok_or_else(|| missing("position"))?;
        Ok(board.set_position(position)?.into())
    }),
    call(POST, "/api/view", |board, request| {
        let body = read_json(request)?;
        Ok(board
            .view(count_field(&body, "ply")?.ok_or_else(|| missing("ply"))?)
            .into())
    }),
    call(POST, "/api/analysis", |board, request| {
        let body = read_json(request)?;
        let on = bool_field(&body, "on")?.ok_or_else(|| missing("on"))?;
        let lines = number_field(&body, "multipv")?.unwrap_or(1);
        if lines > u64::from(MAX_MULTIPV) {
            return Err(bad(format!("'multipv' is at most {MAX_MULTIPV}")));
        }
        Ok(board.analyse(on.then_some(lines as u32)).into())
    }),
    call(POST, "/api/coach", |board, request| {
        let body = read_json(request)?;
        let enabled = bool_field(&body, "enabled")?.ok_or_else(|| missing("enabled"))?;
        Ok(board.coach(enabled).into())
    }),
    call(POST, "/api/record", |board, request| {
        let body = read_json(request)?;
        let record = string_field(&body, "record")?.ok_or_else(|| missing("record"))?;
        Ok(board.import_record(record)?.into())
    }),
];

const fn asset(path: &'static str, content_type: &'static str, text: &'static str) -> Route {
    Route {
        methods: READ,
        path,
        action: Action::Asset(content_type, text),
    }
}

const fn call(methods: &'static [Method], path: &'static str, call: Call) -> Route {
    Route {
        methods,
        path,
        action: Action::Call(call),
    }
}

fn route(board: &Arc<Board>, port: u16, request: &mut Request) -> Result<Body, Refusal> {
    check_origin(request, port)?;
    let path = request.url().split('?').next().unwrap_or("").to_string();
    let method = request.method().clone();
    let mut on_path = ROUTES.iter().filter(|r| r.path == path).peekable();
    if on_path.peek().is_none() {
        return Err(Refusal::new(404, format!("no such page: {path}")));
    }
    let Some(route) = on_path.find(|r| r.methods.contains(&method)) else {
        return Err(Refusal::new(
            405,
            format!("{method} is not allowed on {path}"),
        ));
    };
    match route.action {
        Action::Asset(content_type, text) => Ok(Body::Asset(content_type, text)),
        Action::Call(call) => call(board, request).map(Body::Json),
    }
}

fn bad(message: impl Into<String>) -> Refusal {
    Refusal::new(400, message)
}

fn missing(field: &str) -> Refusal {
    bad(format!("missing field '{field}'"))
}

/// The body as a JSON object; an empty body is an empty object.
fn read_json(request: &mut Request) -> Result<Map<String, Value>, Refusal> {
    let mut text = String::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_string(&mut text)
        .map_err(|e| bad(format!("unreadable body: {e}")))?;
    if text.len() as u64 > MAX_BODY {
        return Err(Refusal::new(413, format!("body over {MAX_BODY} bytes")));
    }
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(bad("the body must be a JSON object")),
        Err(e) => Err(bad(format!("bad JSON: {e}"))),
    }
}

fn string_field<'a>(body: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, Refusal> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(format!("'{name}' must be a string"))),
    }
}

fn bool_field(body: &Map<String, Value>, name: &str) -> Result<Option<bool>, Refusal> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(bad(format!("'{name}' must be true or false"))),
    }
}

/// A whole number, zero allowed (a ply, a count of plies).
fn count_field(body: &Map<String, Value>, name: &str) -> Result<Option<usize>, Refusal> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(|n| Some(n.min(usize::MAX as u64) as usize))
            .ok_or_else(|| bad(format!("'{name}' must be a whole number"))),
    }
}

fn number_field(body: &Map<String, Value>, name: &str) -> Result<Option<u64>, Refusal> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|&n| n > 0)
            .map(Some)
            .ok_or_else(|| bad(format!("'{name}' must be a positive whole number"))),
    }
}

/// `{"variant", "options": ["Name=Value"], "engine": side, "depth" |
/// "movetime" | "nodes" | "skill", "clock": "SECONDS+INC"}`, each
/// optional; with no limit the board's last one is kept.
fn new_game(body: &Map<String, Value>) -> Result<NewGame, Refusal> {
    let variant = string_field(body, "variant")?.unwrap_or("nine");
    let options = match body.get("options") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad("'options' must be a list of \"Name=Value\" strings"))?,
        Some(_) => return Err(bad("'options' must be a list of \"Name=Value\" strings")),
    };
    let rules = Rules::with_settings(variant, &options).map_err(BoardError::from)?;
    let side = string_field(body, "engine")?.unwrap_or("black");
    let engine_side = EngineSide::from_name(side).ok_or_else(|| {
        bad(format!(
            "'engine' must be white, black, both or none, not '{side}'"
        ))
    })?;
    let skill = match body.get("skill") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|&n| n <= 20)
                .ok_or_else(|| bad("'skill' must be a whole number from 0 to 20"))?
                as u8,
        ),
    };
    let limits = [
        number_field(body, "depth")?.map(|d| Strength::Depth(d.min(u32::MAX as u64) as u32)),
        number_field(body, "movetime")?.map(Strength::MoveTime),
        number_field(body, "nodes")?.map(Strength::Nodes),
        skill.map(Strength::Skill),
    ];
    let mut given = limits.into_iter().flatten();
    let strength = given.next();
    if given.next().is_some() {
        return Err(bad(
            "give one of 'depth', 'movetime', 'nodes' and 'skill', not several",
        ));
    }
    let clock = string_field(body, "clock")?
        .filter(|text| !text.trim().is_empty())
        .map(ClockSetting::parse)
        .transpose()
        .map_err(BoardError::from)?;
    Ok(NewGame {
        rules,
        engine_side,
        strength,
        clock,
    })
}
