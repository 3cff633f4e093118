// The page: talks to the server's JSON API (protocol.md, "The board
// (morris gui)"), builds moves from clicks and draws with board.js.
import { drawBoard, parseMove } from "./board.js";

const $ = (id) => document.getElementById(id);

let state = null;
let flipped = false;
// The move being built by clicks: from, to and the removals chosen so far.
let sel = { from: null, to: null, removals: [] };
// Bumped by every new game or position, so a running engine loop stops.
let generation = 0;
let busy = false;

async function api(path, body) {
  document.body.dataset.state = "thinking";
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const json = await response.json();
  if (!response.ok) throw new Error(json.error || response.statusText);
  return json;
}

function setStatus(text, error = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

function humanToMove() {
  return state && !state.over && !state.engine.to_move && state.legal_moves.length > 0 && !busy;
}

/** The legal moves that fit the clicks so far. */
function candidates() {
  return state.legal_moves.map(parseMove).filter((m) =>
    (sel.from === null || m.from === sel.from) &&
    (sel.to === null || m.to === sel.to) &&
    sel.removals.every((r, i) => m.removals[i] === r));
}

function view() {
  const v = { flipped, pending: null, targets: new Set(), movable: new Set(), selected: new Set(), removable: new Set() };
  if (!humanToMove()) return v;
  const moves = candidates();
  if (sel.to !== null) {
    v.pending = { from: sel.from, to: sel.to };
    v.selected.add(sel.to);
    for (const m of moves) {
      if (m.removals.length > sel.removals.length) v.removable.add(m.removals[sel.removals.length]);
    }
  } else if (sel.from !== null) {
    v.selected.add(sel.from);
    for (const m of moves) v.targets.add(m.to);
  } else {
    for (const m of moves) {
      if (m.from) v.movable.add(m.from);
      else v.targets.add(m.to);
    }
  }
  return v;
}

function onPoint(p) {
  if (!humanToMove()) return;
  const all = state.legal_moves.map(parseMove);
  if (sel.to !== null) {
    if (candidates().some((m) => m.removals[sel.removals.length] === p)) sel.removals.push(p);
    else sel = { from: null, to: null, removals: [] };
  } else if (sel.from !== null && all.some((m) => m.from === sel.from && m.to === p)) {
    sel.to = p;
  } else if (all.some((m) => m.from === p)) {
    sel = { from: sel.from === p ? null : p, to: null, removals: [] };
  } else if (sel.from === null && all.some((m) => m.from === null && m.to === p)) {
    sel.to = p;
  } else {
    sel = { from: null, to: null, removals: [] };
  }
  if (sel.to !== null) {
    const moves = candidates();
    const done = moves.find((m) => m.removals.length === sel.removals.length);
    if (done && moves.every((m) => m.removals.length === sel.removals.length)) {
      sel = { from: null, to: null, removals: [] };
      play(done.token);
      return;
    }
    setStatus("Click the piece to remove");
  }
  render();
}

async function play(token) {
  try {
    state = await api("/api/move", { move: token });
    $("move-text").value = "";
    render();
    await engineTurns();
  } catch (e) {
    setStatus(e.message, true);
  }
}

/**
 * Asks the engine for one move; the answer counts only while the game is
 * still generation `mine`. False when it failed (the status says why).
 */
async function askEngine(mine) {
  busy = true;
  setStatus(`${state.engine.name} is thinking…`);
  try {
    const next = await api("/api/go", {});
    if (generation === mine) state = next;
    return true;
  } catch (e) {
    setStatus(e.message, true);
    return false;
  } finally {
    busy = false;
  }
}

/** Lets the engine move while it is its turn (every turn when watching). */
async function engineTurns() {
  const mine = generation;
  while (state.engine.to_move && generation === mine) {
    if (!(await askEngine(mine)) || generation !== mine) return;
    render();
  }
}

function render() {
  drawBoard($("board"), state, view(), onPoint);
  const top = flipped ? "white" : "black";
  const bottom = flipped ? "black" : "white";
  for (const [id, colour] of [["hand-top", top], ["hand-bottom", bottom]]) {
    const box = $(id);
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
  }
  $("board").dataset.fen = state.fen;
  document.body.dataset.state = state.over ? "over" : busy ? "thinking" : humanToMove() ? "human" : "idle";
  const list = $("moves");
  list.replaceChildren();
  state.moves.forEach((token, i) => {
    const li = document.createElement("li");
    li.textContent = token;
    li.dataset.ply = i + 1;
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
  if (document.activeElement !== $("fen")) $("fen").value = state.fen;
  if (state.over) setStatus(`Game over: ${state.over.text}`);
  else if (busy) setStatus(`${state.engine.name} is thinking…`);
  else if (sel.to === null) setStatus(`${state.side_to_move} to move`);
}

async function newGame(event) {
  event.preventDefault();
  const side = $("side").value;
  const engine = { white: "black", black: "white", watch: "both", both: "none" }[side];
  const body = {
    variant: $("variant").value,
    options: $("options").value.split(/\s+/).filter((s) => s),
    engine,
  };
  body[$("limit-kind").value] = Number($("limit").value);
  generation++;
  sel = { from: null, to: null, removals: [] };
  try {
    state = await api("/api/new", body);
    flipped = side === "black";
    render();
    await engineTurns();
  } catch (e) {
    setStatus(e.message, true);
  }
}

async function takeBack() {
  generation++;
  sel = { from: null, to: null, removals: [] };
  try {
    state = await api("/api/takeback", { plies: 1 });
    // Back to a move of the player's own, past the engine's.
    if (state.engine.to_move && state.engine.side !== "both" && state.moves.length > 0) {
      state = await api("/api/takeback", { plies: 1 });
    }
    render();
  } catch (e) {
    setStatus(e.message, true);
  }
}

async function engineMove() {
  if (busy || !state || state.over) return;
  generation++;
  if (!(await askEngine(generation))) return;
  render();
  await engineTurns();
}

async function setPosition(event) {
  event.preventDefault();
  generation++;
  sel = { from: null, to: null, removals: [] };
  try {
    state = await api("/api/position", { position: $("fen").value });
    render();
    await engineTurns();
  } catch (e) {
    setStatus(e.message, true);
  }
}

/** Imports a record: its rule tags start a new game, then its moves. */
async function importRecord() {
  const text = $("record-text").value;
  const tags = [...text.matchAll(/^\[(\w+) "(.*)"\]$/gm)];
  const other = ["Event", "Site", "Date", "Round", "White", "Black", "Result", "Termination", "Variant"];
  const variant = (tags.find((t) => t[1] === "Variant") || [0, 0, "nine"])[2];
  const options = tags.filter((t) => !other.includes(t[1])).map((t) => `${t[1]}=${t[2]}`);
  const moves = text.replace(/^\[.*$/gm, "").replace(/\{[^}]*\}/g, " ").split(/\s+/)
    .filter((w) => w && !/^\d+\.+$/.test(w) && !["1-0", "0-1", "1/2-1/2", "*"].includes(w));
  generation++;
  try {
    await api("/api/new", { variant, options, engine: state.engine.side, ...state.engine.strength });
    state = await api("/api/position", { position: `startpos moves ${moves.join(" ")}` });
    render();
  } catch (e) {
    setStatus(e.message, true);
  }
}

$("record-import").addEventListener("click", importRecord);
$("new-form").addEventListener("submit", newGame);
$("fen-form").addEventListener("submit", setPosition);
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (!busy) play($("move-text").value.trim());
});
$("takeback").addEventListener("click", takeBack);
$("go").addEventListener("click", engineMove);
$("flip").addEventListener("click", () => { flipped = !flipped; render(); });
$("limit-kind").addEventListener("change", () => {
  $("limit").value = $("limit-kind").value === "depth" ? 4 : 1000;
});

api("/api/state").then((s) => { state = s; render(); }).catch((e) => setStatus(e.message, true));
