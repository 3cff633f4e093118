// The board as SVG: lines, points, coordinates, pieces and highlights,
// arrows of the engine's line, and the score graph. Knows nothing of the server;
// app.js gives it the state and what to highlight.

const SVG = "http://www.w3.org/2000/svg";

/** The 24 points, in the notation's names. */
export const POINTS = [
  "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3",
  "d5", "d6", "d7", "e3", "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
];

// The lines drawn: the three rings, the four cross lines and, on boards
// with diagonals, the four corner diagonals.
const RINGS = [["a1", "g7"], ["b2", "f6"], ["c3", "e5"]];
const CROSS = [["a4", "c4"], ["e4", "g4"], ["d1", "d3"], ["d5", "d7"]];
const DIAGONALS = [["a1", "c3"], ["g1", "e3"], ["a7", "c5"], ["g7", "e5"]];

/** Board coordinates of a point (a1 bottom left, or top right flipped). */
function xy(point, flipped) {
  let file = point.charCodeAt(0) - 97;
  let rank = point.charCodeAt(1) - 49;
  if (flipped) {
    file = 6 - file;
    rank = 6 - rank;
  }
  return [50 + 100 * file, 650 - 100 * rank];
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

/** The point under a pointer at client coordinates, or null. */
export function pointAt(svg, clientX, clientY, flipped) {
  const at = svgPoint(svg, clientX, clientY);
  if (!at) return null;
  let best = null;
  let bestDist = 50 * 50;
  for (const p of POINTS) {
    const [x, y] = xy(p, flipped);
    const d = (x - at.x) ** 2 + (y - at.y) ** 2;
    if (d < bestDist) {
      best = p;
      bestDist = d;
    }
  }
  return best;
}

/** Client coordinates in the board's own units. */
export function svgPoint(svg, clientX, clientY) {
  const ctm = svg.getScreenCTM();
  if (!ctm) return null;
  const pt = svg.createSVGPoint();
  pt.x = clientX;
  pt.y = clientY;
  return pt.matrixTransform(ctm.inverse());
}

/**
 * A mark drawn twice, a wide casing under a narrow core, in a group that
 * fades as one: it stands out on the wood and on pieces of either colour.
 */
function cased(svg, name, attrs, cls) {
  const g = el("g", { class: cls }, svg);
  el(name, { ...attrs, class: "casing" }, g);
  el(name, { ...attrs, class: "core" }, g);
}

/** An arrow from one point to another, or a ring on a placement. */
function arrow(svg, move, f, cls) {
  // A removal-only turn has nothing to point at; its removals are not drawn.
  if (!move.to) return;
  const [x2, y2] = xy(move.to, f);
  if (move.from) {
    const [x1, y1] = xy(move.from, f);
    const len = Math.hypot(x2 - x1, y2 - y1);
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    // Stop short of the target's centre; a head of two strokes.
    const ex = x2 - ux * 22;
    const ey = y2 - uy * 22;
    const hx = ex - ux * 26;
    const hy = ey - uy * 26;
    cased(svg, "path", {
      d: `M${x1 + ux * 20} ${y1 + uy * 20}L${ex} ${ey}` +
        `M${hx - uy * 18} ${hy + ux * 18}L${ex} ${ey}L${hx + uy * 18} ${hy - ux * 18}`,
    }, `arrow ${cls}`);
  } else {
    cased(svg, "circle", { cx: x2, cy: y2, r: 24 }, `arrow ${cls}`);
  }
  for (const r of move.removals) {
    const [cx, cy] = xy(r, f);
    cased(svg, "path", {
      d: `M${cx - 16} ${cy - 16}L${cx + 16} ${cy + 16}M${cx + 16} ${cy - 16}L${cx - 16} ${cy + 16}`,
    }, `arrow removal ${cls}`);
  }
}

const FILES = "abcdefg";
const RANKS = "1234567";

/** Files under the board and ranks left of it, where the flip puts them. */
function coordinates(svg, f) {
  for (const file of FILES) {
    const [x] = xy(`${file}1`, f);
    el("text", { class: "coord file", x, y: 712 }, svg).textContent = file;
  }
  for (const rank of RANKS) {
    const [, y] = xy(`a${rank}`, f);
    el("text", { class: "coord rank", x: -10, y }, svg).textContent = rank;
  }
}

/**
 * Draws the board into `svg`. `view`: flipped, pending (a move chosen
 * but for its removals: from, to), sets of point names: targets,
 * movable, selected, removable, mills; `verdicts`: point → "win" |
 * "draw" | "loss" for the targets; `arrows`: moves with a class;
 * `dragFrom`: the point whose piece is being dragged. `onPoint(name)` on
 * a click.
 */
export function drawBoard(svg, state, view, onPoint) {
  svg.replaceChildren();
  svg.setAttribute("data-fen", state.fen);
  const f = view.flipped;
  for (const [a, b] of RINGS) {
    const [x1, y1] = xy(a, f);
    const [x2, y2] = xy(b, f);
    el("rect", {
      class: "line", x: Math.min(x1, x2), y: Math.min(y1, y2),
      width: Math.abs(x2 - x1), height: Math.abs(y2 - y1),
    }, svg);
  }
  const segments = state.rules.diagonals ? CROSS.concat(DIAGONALS) : CROSS;
  for (const [a, b] of segments) {
    const [x1, y1] = xy(a, f);
    const [x2, y2] = xy(b, f);
    el("line", { class: "line", x1, y1, x2, y2 }, svg);
  }
  coordinates(svg, f);
  const owner = new Map();
  for (const colour of ["white", "black"]) {
    for (const p of state.pieces[colour]) owner.set(p, colour);
  }
  // A move chosen up to its removals is shown made.
  if (view.pending) {
    if (view.pending.from) owner.delete(view.pending.from);
    owner.set(view.pending.to, state.side_to_move);
  }
  const marks = new Set(state.marks);
  const last = parseMove(state.last_move);
  const mills = new Set(state.mills.white.concat(state.mills.black));
  for (const p of POINTS) {
    const [cx, cy] = xy(p, f);
    el("circle", { class: "point", cx, cy, r: 10 }, svg);
    if (last && (p === last.to || p === last.from)) {
      el("circle", { class: "last", cx, cy, r: 42 }, svg);
    }
    if (owner.has(p)) {
      if (mills.has(p) && !view.pending) el("circle", { class: "mill-ring", cx, cy, r: 37 }, svg);
      const piece = el("circle", { class: `piece ${owner.get(p)}`, cx, cy, r: 32, "data-point": p }, svg);
      if (p === view.dragFrom) piece.classList.add("dragged");
    }
    // A marked point (PlacingMill mark): a dead piece, nobody's.
    if (marks.has(p)) el("circle", { class: "mark", cx, cy, r: 26 }, svg);
    if (last && last.removals.includes(p)) {
      el("path", { class: "removed", d: `M${cx - 18} ${cy - 18}L${cx + 18} ${cy + 18}M${cx + 18} ${cy - 18}L${cx - 18} ${cy + 18}` }, svg);
    }
    if (view.selected.has(p)) el("circle", { class: "selected", cx, cy, r: 38 }, svg);
    else if (view.movable.has(p)) el("circle", { class: `movable ${view.verdicts.get(p) || ""}`, cx, cy, r: 38 }, svg);
    if (view.removable.has(p)) el("circle", { class: `removable ${view.verdicts.get(p) || ""}`, cx, cy, r: 38 }, svg);
    if (view.targets.has(p)) el("circle", { class: `target ${view.verdicts.get(p) || ""}`, cx, cy, r: 16 }, svg);
  }
  for (const a of view.arrows) arrow(svg, a.move, f, a.cls);
  for (const p of POINTS) {
    const [cx, cy] = xy(p, f);
    const hit = el("circle", { class: "hit", cx, cy, r: 45, "data-point": p }, svg);
    const title = el("title", {}, hit);
    title.textContent = p;
    hit.addEventListener("click", () => onPoint(p));
  }
}

/** The dragged piece's image, following the pointer (never a `piece`). */
export function drawGhost(svg, colour, at) {
  let ghost = svg.querySelector(".ghost");
  if (!at) {
    if (ghost) ghost.remove();
    return;
  }
  if (!ghost) ghost = el("circle", { class: `ghost ${colour}`, r: 32 }, svg);
  ghost.setAttribute("cx", at.x);
  ghost.setAttribute("cy", at.y);
}

/**
 * A move token's parts: from (or null), to (null in a removal-only turn,
 * `xg7`), removals; null if not a move.
 */
export function parseMove(token) {
  const m = token && /^(?:(?:([a-g][1-7])-)?([a-g][1-7]))?((?:x[a-g][1-7])*)$/.exec(token);
  if (!m || (!m[2] && !m[3])) return null;
  const removals = m[3] ? m[3].slice(1).split("x") : [];
  return { from: m[1] || null, to: m[2] || null, removals, token };
}

/** A score `{cp}` or `{mate}` as White's share of the bar, 0..1. */
export function whiteShare(score) {
  if (!score) return 0.5;
  if (score.mate !== undefined) return score.mate > 0 ? 1 : score.mate < 0 ? 0 : 0.5;
  return 1 / (1 + Math.exp(-score.cp / 250));
}

/** A score as text: pieces with two decimals, or M3 / -M3. */
export function scoreText(score) {
  if (!score) return "";
  if (score.mate !== undefined) return score.mate < 0 ? `-M${-score.mate}` : `+M${score.mate}`;
  const v = score.cp / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

/** "White", "Black": a side at the start of a sentence. */
export function sideTitle(side) {
  return side === "white" ? "White" : "Black";
}

/**
 * A score (White's view) as the side it favours and by how much, as that
 * side sees it: `{side: "white" | "black" | null, text: "Black +1.20"}`.
 */
export function evalText(score) {
  const v = score.mate !== undefined ? score.mate : score.cp;
  if (v === 0) return { side: null, text: `Even ${scoreText(score)}` };
  const side = v > 0 ? "white" : "black";
  const own = score.mate !== undefined ? { mate: Math.abs(v) } : { cp: Math.abs(v) };
  return { side, text: `${sideTitle(side)} ${scoreText(own)}` };
}

/**
 * The score graph: one point per position (White's view), the position
 * viewed marked, and along its foot the exact values (`exact`, where the
 * tables or the book know them); `onPly(n)` on a click.
 */
export function drawGraph(svg, evals, ply, onPly, exact = []) {
  svg.replaceChildren();
  const w = 300;
  const h = 80;
  const n = Math.max(evals.length - 1, 1);
  const x = (i) => (i / n) * w;
  const y = (s) => h - whiteShare(s) * h;
  if (!evals.some((s) => s)) {
    el("rect", { class: "graph-empty", x: 0, y: 0, width: w, height: h }, svg);
    el("text", { class: "graph-placeholder", x: w / 2, y: h / 2 }, svg).textContent =
      "Scores appear as the engine analyses";
    if (!exact.some((e) => e.value || e.thrown)) {
      svg.onclick = null;
      return;
    }
  } else {
    el("rect", { class: "graph-bg", x: 0, y: 0, width: w, height: h }, svg);
    el("line", { class: "graph-mid", x1: 0, y1: h / 2, x2: w, y2: h / 2 }, svg);
    let d = "";
    evals.forEach((s, i) => {
      if (!s) return;
      d += `${d ? "L" : "M"}${x(i).toFixed(1)} ${y(s).toFixed(1)}`;
    });
    if (d) el("path", { class: "graph-line", d }, svg);
    evals.forEach((s, i) => {
      if (s) el("circle", { class: "graph-dot", cx: x(i), cy: y(s), r: 2.5 }, svg);
    });
  }
  // The exact values along the game: a strip at the foot coloured by who
  // wins (the tables' or the book's word), a mark where a move threw its
  // mover's value away.
  const step = w / (n + 1);
  exact.forEach((e, i) => {
    if (e.value) {
      const cell = el("rect", {
        class: `exact exact-${e.value}`, x: x(i) - step / 2, y: h - 6, width: step, height: 6,
      }, svg);
      cell.dataset.ply = i;
    }
    if (e.thrown) {
      const mark = el("circle", { class: "exact-thrown", cx: x(i), cy: h - 10, r: 3 }, svg);
      mark.dataset.ply = i;
    }
  });
  el("line", { class: "graph-now", x1: x(ply), y1: 0, x2: x(ply), y2: h }, svg);
  svg.onclick = (e) => {
    const at = svgPoint(svg, e.clientX, e.clientY);
    if (at) onPly(Math.max(0, Math.min(evals.length - 1, Math.round((at.x / w) * n))));
  };
}
