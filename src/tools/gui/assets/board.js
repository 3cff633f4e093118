// The board as SVG: lines, points, pieces and highlights. Knows nothing of
// the server; app.js gives it the state and what to highlight.

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

/**
 * Draws the board into `svg`. `view`: flipped, pending (a move chosen
 * but for its removals: from, to), and sets of point names: targets,
 * movable, selected, removable; `onPoint(name)` on a click.
 */
export function drawBoard(svg, state, view, onPoint) {
  svg.replaceChildren();
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
  const owner = new Map();
  for (const colour of ["white", "black"]) {
    for (const p of state.pieces[colour]) owner.set(p, colour);
  }
  // A move chosen up to its removals is shown made.
  if (view.pending) {
    if (view.pending.from) owner.delete(view.pending.from);
    owner.set(view.pending.to, state.side_to_move);
  }
  const last = parseMove(state.last_move);
  for (const p of POINTS) {
    const [cx, cy] = xy(p, f);
    el("circle", { class: "point", cx, cy, r: 10 }, svg);
    if (last && (p === last.to || p === last.from)) {
      el("circle", { class: "last", cx, cy, r: 40 }, svg);
    }
    if (owner.has(p)) {
      el("circle", { class: `piece ${owner.get(p)}`, cx, cy, r: 32, "data-point": p }, svg);
    }
    if (last && last.removals.includes(p)) {
      el("path", { class: "removed", d: `M${cx - 18} ${cy - 18}L${cx + 18} ${cy + 18}M${cx + 18} ${cy - 18}L${cx - 18} ${cy + 18}` }, svg);
    }
    if (view.selected.has(p)) el("circle", { class: "selected", cx, cy, r: 38 }, svg);
    else if (view.movable.has(p)) el("circle", { class: "movable", cx, cy, r: 38 }, svg);
    if (view.removable.has(p)) el("circle", { class: "removable", cx, cy, r: 38 }, svg);
    if (view.targets.has(p)) el("circle", { class: "target", cx, cy, r: 16 }, svg);
    const hit = el("circle", { class: "hit", cx, cy, r: 45, "data-point": p }, svg);
    const title = el("title", {}, hit);
    title.textContent = p;
    hit.addEventListener("click", () => onPoint(p));
  }
}

/** A move token's parts: from (or null), to, removals; null if not a move. */
export function parseMove(token) {
  const m = token && /^(?:([a-g][1-7])-)?([a-g][1-7])((?:x[a-g][1-7])*)$/.exec(token);
  if (!m) return null;
  const removals = m[3] ? m[3].slice(1).split("x") : [];
  return { from: m[1] || null, to: m[2], removals, token };
}
