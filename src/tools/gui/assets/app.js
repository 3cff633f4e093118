// The page: talks to the server's JSON API (protocol.md, "The board
// (morris gui)"), builds moves from clicks, drags and typing, and draws
// with board.js. The server plays the engine's turns by itself; the page
// polls the state while the engine thinks or a clock runs.
import {
  drawBoard, drawGhost, drawGraph, evalText, parseMove, pointAt, scoreText, sideTitle as title, svgPoint, whiteShare,
} from "./board.js";

const $ = (id) => document.getElementById(id);

let state = null;
let flipped = false;
// The move being built by clicks: from, to and the removals chosen so far.
let sel = { from: null, to: null, removals: [] };
// Requests sent and the newest whose answer is shown: an older answer
// (a poll overtaken by a move) is not drawn over a newer one.
let sent = 0;
let shown = 0;
let pending = 0;
// Actions (POSTs) sent so far: a poll that overlapped one may have been
// answered before the server applied it, so its answer is dropped.
let posted = 0;
let pollTimer = null;
// A drag in progress: the point it started on, and whether it moved.
let drag = null;
// A drag just ended: the click that follows it is not a click.
let swallowClick = false;
// The server's refusal of the last request, shown until the game moves on
// or a request succeeds (polls redraw the page every 250 ms).
let refusal = null;
// What the board was last drawn from: it is redrawn only when that
// changes, so a poll (every 250 ms, with a clock running) does not replace
// the point under a press before its release.
let drawnKey = null;

function clearSel() {
  sel = { from: null, to: null, removals: [] };
}

// `sel.to` in a removal-only turn (`xg7`): no piece moves, removals follow.
const NO_MOVE = "-";

/** A turn of removals only: the selection starts at the removals. */
function openRemovalTurn() {
  if (sel.from === null && sel.to === null && humanToMove() &&
      state.legal_moves.every((t) => t.startsWith("x"))) {
    sel.to = NO_MOVE;
  }
}

async function api(path, body) {
  const id = ++sent;
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  if (body !== undefined) {
    posted++;
    pending++;
    document.body.dataset.state = "thinking";
  }
  try {
    const response = await fetch(path, options);
    const json = await response.json();
    if (!response.ok) throw new Error(json.error || response.statusText);
    return { id, json };
  } finally {
    if (body !== undefined) pending--;
  }
}

/** Sends a request whose answer is the state, and shows it. */
async function act(path, body) {
  try {
    const { id, json } = await api(path, body);
    if (id > shown) {
      shown = id;
      state = json;
    }
    refusal = null;
    render();
    return true;
  } catch (e) {
    const text = path === "/api/new"
      ? `New game not started: ${e.message} (the current game goes on)`
      : e.message;
    refusal = { text, moves: state ? state.moves.length : 0 };
    render();
    return false;
  }
}

function setStatus(text, error = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

function other(side) {
  return side === "white" ? "black" : "white";
}

function atEnd() {
  return state.ply === state.moves.length;
}

function humanToMove() {
  return state && !state.over && atEnd() && !state.engine.to_move && !state.thinking &&
    state.legal_moves.length > 0 && pending === 0;
}

/** `data-state` of the body: what the page is doing now. */
function pageState() {
  if (!state) return "idle";
  if (pending > 0 || state.thinking) return "thinking";
  if (state.over) return "over";
  if (humanToMove()) return "human";
  return "idle";
}

/** The legal moves that fit the clicks so far. */
function candidates() {
  return state.legal_moves.map(parseMove).filter((m) =>
    (sel.from === null || m.from === sel.from) &&
    (sel.to === null || (m.to ?? NO_MOVE) === sel.to) &&
    sel.removals.every((r, i) => m.removals[i] === r));
}

/** The tables' verdict of each legal move, by token. */
function verdicts() {
  const byMove = new Map();
  if (state.tables) for (const m of state.tables.moves) byMove.set(m.move, m);
  return byMove;
}

const RANK = { win: 2, draw: 1, loss: 0 };

/** Of several moves, the best verdict for the mover. */
function bestVerdict(moves, byMove) {
  let best = null;
  for (const m of moves) {
    const v = byMove.get(m.token);
    if (v && (best === null || RANK[v.value] > RANK[best])) best = v.value;
  }
  return best;
}

/** The search lines that belong to the position shown. */
function shownLines() {
  const s = state.search;
  if (s && s.ply === state.ply && s.lines.length > 0) return s.lines;
  return [];
}

function view() {
  const v = {
    flipped, pending: null, targets: new Set(), movable: new Set(), selected: new Set(),
    removable: new Set(), verdicts: new Map(), arrows: [], dragFrom: drag && drag.moved ? drag.from : null,
  };
  const lines = shownLines();
  // The sides alternate along a line, from the side to move.
  const mover = (i) => (i % 2 === 0 ? state.side_to_move : other(state.side_to_move));
  lines.forEach((line, rank) => {
    const pv = line.pv.map(parseMove).filter((m) => m);
    if (rank === 0) pv.slice(0, 3).forEach((m, i) => v.arrows.push({ move: m, cls: `pv${i} by-${mover(i)}` }));
    else if (pv.length > 0) v.arrows.push({ move: pv[0], cls: `alt by-${mover(0)}` });
  });
  if (!humanToMove()) return v;
  openRemovalTurn();
  const byMove = verdicts();
  const moves = candidates();
  const group = (key) => {
    const out = new Map();
    for (const m of moves) {
      const k = key(m);
      if (k === undefined || k === null) continue;
      if (!out.has(k)) out.set(k, []);
      out.get(k).push(m);
    }
    return out;
  };
  if (sel.to !== null) {
    if (sel.to !== NO_MOVE) {
      v.pending = { from: sel.from, to: sel.to };
      v.selected.add(sel.to);
    }
    for (const [p, ms] of group((m) => m.removals[sel.removals.length])) {
      v.removable.add(p);
      const b = bestVerdict(ms, byMove);
      if (b) v.verdicts.set(p, b);
    }
  } else if (sel.from !== null) {
    v.selected.add(sel.from);
    for (const [p, ms] of group((m) => m.to)) {
      v.targets.add(p);
      const b = bestVerdict(ms, byMove);
      if (b) v.verdicts.set(p, b);
    }
  } else {
    for (const [p, ms] of group((m) => m.from)) {
      v.movable.add(p);
      const b = bestVerdict(ms, byMove);
      if (b) v.verdicts.set(p, b);
    }
    for (const [p, ms] of group((m) => (m.from ? null : m.to))) {
      v.targets.add(p);
      const b = bestVerdict(ms, byMove);
      if (b) v.verdicts.set(p, b);
    }
  }
  return v;
}

/** A click on a point (not the click that ends a drag). */
function onPoint(p) {
  if (swallowClick) {
    swallowClick = false;
    return;
  }
  choose(p);
}

/** The point `p` chosen: the next step of the move being built. */
function choose(p) {
  if (!humanToMove()) return;
  openRemovalTurn();
  const all = state.legal_moves.map(parseMove);
  if (sel.to !== null) {
    if (candidates().some((m) => m.removals[sel.removals.length] === p)) sel.removals.push(p);
    else clearSel();
  } else if (sel.from !== null && all.some((m) => m.from === sel.from && m.to === p)) {
    sel.to = p;
  } else if (all.some((m) => m.from === p)) {
    sel = { from: sel.from === p ? null : p, to: null, removals: [] };
  } else if (sel.from === null && all.some((m) => m.from === null && m.to === p)) {
    sel.to = p;
  } else {
    clearSel();
  }
  if (sel.to !== null) {
    const moves = candidates();
    const done = moves.find((m) => m.removals.length === sel.removals.length);
    if (done && moves.every((m) => m.removals.length === sel.removals.length)) {
      clearSel();
      play(done.token);
      return;
    }
  }
  render();
}

async function play(token) {
  if (await act("/api/move", { move: token })) $("move-text").value = "";
}

// Drag and drop: a piece pressed and moved follows the pointer; let go
// over a target, it is the click on its point and then on the target.
function onPointerDown(e) {
  if (!humanToMove() || e.button > 0) return;
  const p = pointAt($("board"), e.clientX, e.clientY, flipped);
  if (!p || sel.to !== null) return;
  if (!state.legal_moves.map(parseMove).some((m) => m.from === p)) return;
  drag = { from: p, hand: false, x: e.clientX, y: e.clientY, moved: false, pointer: e.pointerId };
}

/** A stone dragged from the hand of the side to move: a placement. */
function onHandDown(e, where) {
  const colour = where === "top" ? (flipped ? "white" : "black") : (flipped ? "black" : "white");
  if (!humanToMove() || e.button > 0 || colour !== state.side_to_move) return;
  if (!state.legal_moves.map(parseMove).some((m) => !m.from)) return;
  e.currentTarget.setPointerCapture(e.pointerId);
  drag = { from: null, hand: true, x: e.clientX, y: e.clientY, moved: false, pointer: e.pointerId };
}

function onPointerMove(e) {
  if (!drag || e.pointerId !== drag.pointer) return;
  const board = $("board");
  if (!drag.moved) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
    drag.moved = true;
    if (!drag.hand) board.setPointerCapture(e.pointerId);
    sel = { from: drag.from, to: null, removals: [] };
    render();
  }
  e.preventDefault();
  drawGhost(board, state.side_to_move, svgPoint(board, e.clientX, e.clientY));
}

function onPointerUp(e) {
  if (!drag || e.pointerId !== drag.pointer) return;
  const moved = drag.moved;
  drag = null;
  if (!moved) return;
  swallowClick = true;
  // A click that does not follow (touch) must not be swallowed later.
  setTimeout(() => { swallowClick = false; }, 0);
  const target = pointAt($("board"), e.clientX, e.clientY, flipped);
  if (target && target !== sel.from) choose(target);
  else render();
}

function onPointerCancel() {
  drag = null;
  render();
}

function pad(n) {
  return String(n).padStart(2, "0");
}

function clockText(ms) {
  const s = ms / 1000;
  if (s < 10) return s.toFixed(1);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  return h > 0 ? `${h}:${pad(m % 60)}:${pad(Math.floor(s) % 60)}` : `${m}:${pad(Math.floor(s) % 60)}`;
}

function renderSides() {
  const top = flipped ? "white" : "black";
  const bottom = flipped ? "black" : "white";
  for (const [where, colour] of [["top", top], ["bottom", bottom]]) {
    const box = $(`hand-${where}`);
    box.replaceChildren();
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = `${colour} in hand: ${state.in_hand[colour]}`;
    box.appendChild(label);
    for (let i = 0; i < state.in_hand[colour]; i++) {
      const stone = document.createElement("span");
      stone.className = `stone ${colour}`;
      box.appendChild(stone);
    }
    const clock = $(`clock-${where}`);
    if (state.clock) {
      clock.hidden = false;
      clock.textContent = clockText(state.clock[colour]);
      clock.classList.toggle("running", state.clock.running === colour);
      clock.classList.toggle("flagged", state.clock[colour] === 0);
    } else {
      clock.hidden = true;
    }
  }
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  if (state.moves.length === 0) {
    const empty = document.createElement("p");
    empty.className = "empty";
    empty.textContent = "No moves yet";
    list.appendChild(empty);
  }
  state.moves.forEach((token, i) => {
    if (i % 2 === 0) {
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = `${i / 2 + 1}.`;
      list.appendChild(num);
    }
    const ply = document.createElement("span");
    ply.className = "ply";
    ply.dataset.ply = i + 1;
    ply.textContent = token;
    if (i + 1 === state.ply) ply.classList.add("current");
    if (state.exact[i + 1]?.thrown) {
      ply.classList.add("thrown");
      ply.title = "This move threw its value away (tables or book)";
    }
    ply.addEventListener("click", () => goTo(i + 1));
    list.appendChild(ply);
  });
  const current = list.querySelector(".current");
  if (current && atEnd()) list.scrollTop = list.scrollHeight;
  else if (current) current.scrollIntoView({ block: "nearest" });
}

function renderAnalysis() {
  const lines = $("lines");
  lines.replaceChildren();
  // Scores are the side to move's: White's view for the page.
  const white = (s, side) => s && (side === "white" ? s : s.cp !== undefined ? { cp: -s.cp } : { mate: -s.mate });
  let entries = shownLines().map((l) => ({ ...l, white: white(l.score, state.side_to_move) }));
  const last = state.engine.last;
  if (entries.length === 0 && last && atEnd()) {
    // The engine's move just played, scored before it by the side that made it.
    const mover = state.side_to_move === "white" ? "black" : "white";
    entries = [{ depth: last.depth, white: white(last.score, mover), pv: [last.move] }];
  }
  for (const l of entries) {
    const li = document.createElement("li");
    const facts = [`depth ${l.depth ?? "?"}`];
    if (l.nodes) facts.push(`${l.nodes} nodes`);
    if (l.nps) facts.push(`${Math.round(l.nps / 1000)} kn/s`);
    li.append(`${scoreText(l.white)} (${facts.join(", ")})`);
    // Each move whole on its line; the lines wrap between moves.
    for (const token of l.pv) {
      const mv = document.createElement("span");
      mv.className = "mv";
      mv.textContent = token;
      li.append(" ", mv);
    }
    lines.appendChild(li);
  }
  // The live line's score, else the latest evaluation up to this position.
  let score = entries.length > 0 && entries[0].white && shownLines().length > 0 ? entries[0].white : null;
  for (let i = state.ply; score === null && i >= 0; i--) score = state.evals[i] || null;
  $("evalbar-white").style.height = `${(whiteShare(score) * 100).toFixed(1)}%`;
  const shownEval = $("eval");
  shownEval.hidden = !score;
  if (score) {
    const { side, text } = evalText(score);
    shownEval.textContent = text;
    shownEval.className = side || "";
  }
  const tables = $("tables");
  tables.replaceChildren();
  if (state.tables) {
    const head = document.createElement("p");
    const source = state.tables.source === "book" ? "Opening book" : "Tables";
    head.textContent = `${source}: ${state.side_to_move} to move, ${state.tables.text}`;
    tables.appendChild(head);
    const ul = document.createElement("ul");
    const order = [...state.tables.moves].sort((a, b) =>
      RANK[b.value] - RANK[a.value] || (a.value === "win" ? a.plies - b.plies : b.plies - a.plies));
    for (const m of order) {
      const li = document.createElement("li");
      li.className = `verdict ${m.value}`;
      li.textContent = `${m.move}: ${m.text}`;
      ul.appendChild(li);
    }
    tables.appendChild(ul);
  }
  $("analyse").checked = Boolean(state.analysis);
}

function statusText() {
  if (refusal && refusal.moves === state.moves.length) return [refusal.text, true];
  refusal = null;
  if (state.over && atEnd()) return [`Game over: ${state.over.text}`, false];
  if (!atEnd()) return [`Viewing the position after ply ${state.ply} of ${state.moves.length}`, false];
  if (state.engine.error && state.paused) return [`${state.engine.error} (Engine move starts it afresh)`, true];
  if (state.thinking) {
    const l = state.search && state.search.lines[0];
    return [`${state.engine.name} is thinking…${l ? ` depth ${l.depth}` : ""}`, false];
  }
  if (sel.to !== null) return ["Click the piece to remove", false];
  if (state.engine.to_move && state.paused) return [`${state.side_to_move} to move: the engine waits (Engine move)`, false];
  return [`${state.side_to_move} to move`, false];
}

/** What to do now: placement, move or removal (null once the game is over). */
function task(side) {
  const removal = (sel.to !== null && atEnd()) || (state.legal_moves.length > 0 &&
    state.legal_moves.every((t) => t.startsWith("x")));
  if (removal) return `${title(side)}: remove a ${other(side)} piece`;
  const moves = state.legal_moves.map(parseMove).filter((m) => m);
  const placing = moves.some((m) => !m.from);
  const moving = moves.some((m) => m.from);
  return `${title(side)} to ${placing && moving ? "place or move" : placing ? "place" : "move"}`;
}

/** The game's result with its reason: "Black wins: White has no legal move". */
function resultText() {
  const head = state.over.winner ? `${title(state.over.winner)} wins` : "Draw";
  return [head, state.over.reason];
}

/** The banner by the board: whose turn it is and what to do, or the end. */
function renderBanner() {
  const banner = $("banner");
  const side = state.side_to_move;
  let text;
  let look = side;
  if (state.over && atEnd()) {
    text = resultText().join(": ");
    look = "over";
  } else if (!atEnd()) {
    text = `${task(side)} (the position after ply ${state.ply} of ${state.moves.length})`;
  } else if (state.thinking || (state.engine.to_move && !state.paused && !state.engine.error)) {
    text = "Engine is thinking…";
    look = "thinking";
  } else if (state.engine.to_move) {
    text = `${task(side)}: the engine waits (Engine move)`;
  } else {
    text = task(side);
  }
  banner.className = look;
  banner.replaceChildren(text);
  if (refusal) {
    const why = document.createElement("span");
    why.className = "refusal";
    why.textContent = refusal.text;
    banner.appendChild(why);
  }
  const result = $("result");
  result.hidden = !(state.over && atEnd());
  if (!result.hidden) {
    const [head, reason] = resultText();
    const strong = document.createElement("strong");
    strong.textContent = `${head}:`;
    result.replaceChildren(strong, ` ${reason}`);
  }
  const note = state.coach.note;
  $("coach-note").hidden = !note;
  if (note) $("coach-note").textContent = `Coach: ${note.text}`;
  $("coach").checked = state.coach.enabled;
}

function render() {
  if (!state) return;
  const v = view();
  const key = JSON.stringify(
    [state.fen, state.pieces, state.marks, state.last_move, state.mills, state.rules.diagonals,
      state.side_to_move, v],
    (_, x) => (x instanceof Set || x instanceof Map ? [...x] : x));
  if (key !== drawnKey) {
    drawBoard($("board"), state, v, onPoint);
    drawnKey = key;
  }
  renderSides();
  renderMoves();
  renderAnalysis();
  drawGraph($("graph"), state.evals, state.ply, goTo, state.exact);
  if (document.activeElement !== $("fen")) $("fen").value = state.fen;
  const [text, error] = statusText();
  setStatus(text, error);
  renderBanner();
  const early = !atEnd();
  $("branch").hidden = !early;
  if (early) $("branch").textContent = `Play from here (drops ${state.moves.length - state.ply} later moves)`;
  $("stop").disabled = !state.search;
  $("go").disabled = Boolean(state.over) || !atEnd();
  $("takeback").disabled = state.moves.length === 0;
  document.body.dataset.state = pageState();
  schedulePoll();
}

/** Polls while the engine thinks or analyses, or a clock runs. */
function schedulePoll() {
  clearTimeout(pollTimer);
  const live = state.search || (state.clock && state.clock.running);
  if (!live) return;
  pollTimer = setTimeout(async () => {
    if (pending > 0) return; // the action's answer polls again
    const before = posted;
    try {
      const { id, json } = await api("/api/state");
      if (id > shown && posted === before) {
        shown = id;
        state = json;
      }
      render();
    } catch (e) {
      setStatus(e.message, true);
    }
  }, 250);
}

function goTo(ply) {
  if (!state) return;
  clearSel();
  act("/api/view", { ply: Math.max(0, Math.min(state.moves.length, ply)) });
}

const LIMIT_DEFAULTS = { depth: 4, movetime: 1000, skill: 10 };

async function newGame(event) {
  event.preventDefault();
  const side = $("side").value;
  const engine = { white: "black", black: "white", watch: "both", both: "none" }[side];
  const body = {
    variant: $("variant").value,
    options: $("options").value.split(/\s+/).filter((s) => s),
    engine,
    clock: $("clock").value.trim(),
  };
  body[$("limit-kind").value] = Number($("limit").value);
  clearSel();
  if (await act("/api/new", body)) {
    flipped = side === "black";
    render();
  }
}

/** Back to a move of the player's own: past the engine's reply too. */
async function takeBack() {
  clearSel();
  const side = state.engine.side;
  const lastMover = state.turn === "white" ? "black" : "white";
  const engineMoved = side === "both" || side === lastMover;
  const plies = engineMoved && side !== "both" && state.moves.length >= 2 ? 2 : 1;
  await act("/api/takeback", { plies });
}

/** Fills the form from the game's settings (the first game's come from --engine). */
function fillForm() {
  const strength = state.engine.strength;
  for (const kind of ["depth", "movetime", "skill"]) {
    if (strength[kind] !== undefined) {
      $("limit-kind").value = kind;
      $("limit").value = strength[kind];
    }
  }
  if (state.clock) $("clock").value = `${state.clock.base / 1000}+${state.clock.inc / 1000}`;
  $("variant").value = state.rules.variant;
  $("options").value = state.rules.options.join(" ");
}

function onKey(e) {
  const tag = document.activeElement && document.activeElement.tagName;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || !state) return;
  const moves = { Home: 0, End: state.moves.length, ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1 };
  if (e.key in moves && !e.altKey && !e.ctrlKey && !e.metaKey) {
    e.preventDefault();
    goTo(moves[e.key]);
  } else if (e.key === "Escape") {
    clearSel();
    render();
  } else if (e.key === "f" && !e.ctrlKey && !e.metaKey) {
    flipped = !flipped;
    render();
  }
}

$("new-form").addEventListener("submit", newGame);
$("fen-form").addEventListener("submit", (event) => {
  event.preventDefault();
  clearSel();
  act("/api/position", { position: $("fen").value });
});
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const token = $("move-text").value.trim();
  if (token && pending === 0) play(token);
});
$("takeback").addEventListener("click", takeBack);
$("go").addEventListener("click", () => act("/api/go", {}));
$("stop").addEventListener("click", () => act("/api/stop", {}));
$("branch").addEventListener("click", () => {
  const dropped = state.moves.length - state.ply;
  act("/api/takeback", { to: state.ply }).then((ok) => {
    if (ok) setStatus(`Dropped the ${dropped} later moves: play on from here`);
  });
});
$("flip").addEventListener("click", () => { flipped = !flipped; render(); });
$("coach").addEventListener("change", () => act("/api/coach", { enabled: $("coach").checked }));
// On a phone the new-game form starts folded, below the game.
const narrow = window.matchMedia("(max-width: 600px)");
const foldNewGame = () => { $("new-box").open = !narrow.matches; };
narrow.addEventListener("change", foldNewGame);
foldNewGame();
for (const [id, ply] of [["nav-first", () => 0], ["nav-prev", () => state.ply - 1], ["nav-next", () => state.ply + 1], ["nav-last", () => state.moves.length]]) {
  $(id).addEventListener("click", () => state && goTo(ply()));
}
$("limit-kind").addEventListener("change", () => {
  $("limit").value = LIMIT_DEFAULTS[$("limit-kind").value];
});
const analysis = () => act("/api/analysis", { on: $("analyse").checked, multipv: Number($("multipv").value) || 1 });
$("analyse").addEventListener("change", analysis);
$("multipv").addEventListener("change", () => { if ($("analyse").checked) analysis(); });
$("record-export").addEventListener("click", async () => {
  try {
    const { json } = await api("/api/record");
    $("record-text").value = json.record;
    setStatus("The game's record is in the box below");
  } catch (e) {
    setStatus(e.message, true);
  }
});
$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (!file) return;
  $("record-text").value = await file.text();
  $("record-import").click();
});
$("record-import").addEventListener("click", () => {
  clearSel();
  act("/api/record", { record: $("record-text").value });
});
const board = $("board");
board.addEventListener("pointerdown", onPointerDown);
board.addEventListener("pointermove", onPointerMove);
board.addEventListener("pointerup", onPointerUp);
board.addEventListener("pointercancel", onPointerCancel);
for (const where of ["top", "bottom"]) {
  const hand = $(`hand-${where}`);
  hand.addEventListener("pointerdown", (e) => onHandDown(e, where));
  hand.addEventListener("pointermove", onPointerMove);
  hand.addEventListener("pointerup", onPointerUp);
  hand.addEventListener("pointercancel", onPointerCancel);
}
document.addEventListener("keydown", onKey);

// Every rule set the server knows, after the four docs/rules.md 7.1 presets of
// the page itself.
api("/api/variants").then(({ json }) => {
  const menu = $("variant");
  const known = new Set([...menu.options].map((o) => o.value));
  for (const v of json.variants) {
    if (known.has(v.name)) continue;
    const option = document.createElement("option");
    option.value = v.name;
    option.textContent = v.title;
    menu.appendChild(option);
  }
  if (state) menu.value = state.rules.variant;
}).catch((e) => setStatus(e.message, true));

api("/api/state").then(({ id, json }) => {
  shown = id;
  state = json;
  fillForm();
  render();
}).catch((e) => setStatus(e.message, true));
