// Sensei's board in SVG, in the colours of render/sensei.py: green discs and red rounded
// squares (the sides differ by shape too), the character as a figurine, the last turn's squares
// framed and its moves as arrows (a character's jump dashed, blue), the turn being planned in
// white. The board turns round for the red seat, so a player's home row is at the bottom.
import { arrow, el, hop, rgb, text } from "./svg.mjs";

export const CELL = 76;
const EDGE = 26;
const SIZE = CELL * 7 + 2 * EDGE;
const FRAME = [35, 39, 46];
const FRAME_TEXT = [232, 234, 238];
const SIDES = {
  plain: { square: [233, 214, 172], alt: [226, 205, 160], line: [112, 86, 50] },
  storm: { square: [200, 212, 222], alt: [190, 203, 215], line: [76, 92, 110] },
};
const HOME_TINT = [[46, 158, 79], [214, 69, 59]];
export const SEAT_FILL = [[40, 160, 78], [222, 68, 56]];
const SEAT_DARK = [[10, 52, 24], [84, 16, 12]];
const SEAT_LIGHT = [[120, 214, 142], [255, 150, 136]];
const STONE_ARROW = [255, 176, 0];
const JUMP_ARROW = [40, 150, 255];
const CURRENT_ARROW = [255, 255, 255];
// the turn being planned: the choice colour, never the last turn's (it is not sent yet)
const PLANNED_ARROW = [170, 120, 255];
const LAST_MOVE = [150, 62, 0];
const CHOICE = [88, 38, 196];
const PIECE_RIM = 0.44;

const blend = (a, b, f) => a.map((x, i) => Math.round(x + (b[i] - x) * f));

function xy(name) {
  if (typeof name !== "string" || name.length !== 2) return null;
  const x = name.charCodeAt(0) - 97, y = name.charCodeAt(1) - 49;
  return x >= 0 && x < 7 && y >= 0 && y < 7 ? [x, y] : null;
}

function corner(name, flip) {
  const [x, y] = xy(name);
  return flip ? [EDGE + (6 - x) * CELL, EDGE + y * CELL] : [EDGE + x * CELL, EDGE + (6 - y) * CELL];
}

function centre(name, flip) {
  const [l, t] = corner(name, flip);
  return [l + CELL / 2, t + CELL / 2];
}

function figure(g, cx, cy, body, edge) {
  const s = CELL, left = cx - s / 2, top = cy - s / 2, c = cx, w = 3;
  const robe = [[c - s * 0.2, top + s * 0.74], [c - s * 0.07, top + s * 0.4], [c + s * 0.07, top + s * 0.4], [c + s * 0.2, top + s * 0.74]];
  el("polygon", { points: robe.map((p) => p.join(",")).join(" "), fill: rgb(body), stroke: rgb(edge), "stroke-width": w, "stroke-linejoin": "round" }, g);
  el("rect", { x: c - s * 0.23, y: top + s * 0.68, width: s * 0.46, height: s * 0.11, rx: s * 0.04, fill: rgb(body), stroke: rgb(edge), "stroke-width": w }, g);
  el("circle", { cx: c, cy: top + s * 0.29, r: s * 0.115, fill: rgb(body), stroke: rgb(edge), "stroke-width": w }, g);
  return left;
}

/** A stone of ``seat`` (a character on it when ``character``) centred at (cx, cy). */
export function stone(parent, seat, character, cx, cy, scale = 1) {
  const g = el("g", scale === 1 ? {} : { transform: `translate(${cx} ${cy}) scale(${scale}) translate(${-cx} ${-cy})` }, parent);
  const fill = SEAT_FILL[seat], dark = SEAT_DARK[seat], light = SEAT_LIGHT[seat];
  if (seat === 0) {
    el("circle", { cx: cx + 3, cy: cy + 3, r: CELL * 0.4, fill: "rgba(0,0,0,0.35)" }, g);
    el("circle", { cx, cy, r: CELL * 0.4 - 2, fill: rgb(fill), stroke: rgb(dark), "stroke-width": 4 }, g);
    el("circle", { cx, cy, r: CELL * 0.27, fill: "none", stroke: rgb(light), "stroke-width": 3 }, g);
  } else {
    const r = CELL * 0.36, i = CELL * 0.235;
    el("rect", { x: cx - r + 3, y: cy - r + 3, width: 2 * r, height: 2 * r, rx: CELL * 0.09, fill: "rgba(0,0,0,0.35)" }, g);
    el("rect", { x: cx - r + 2, y: cy - r + 2, width: 2 * r - 4, height: 2 * r - 4, rx: CELL * 0.09, fill: rgb(fill), stroke: rgb(dark), "stroke-width": 4 }, g);
    el("rect", { x: cx - i, y: cy - i, width: 2 * i, height: 2 * i, rx: CELL * 0.04, fill: "none", stroke: rgb(light), "stroke-width": 3 }, g);
  }
  if (character) {
    if (seat === 0) figure(g, cx, cy, [255, 250, 230], [12, 12, 12]);
    else figure(g, cx, cy, [22, 22, 26], [255, 250, 230]);
  }
  return g;
}

function frameSquare(g, name, flip, colour, width = 6) {
  const [l, t] = corner(name, flip);
  el("rect", { x: l - 3 + width / 2, y: t - 3 + width / 2, width: CELL + 6 - width, height: CELL + 6 - width, fill: "none", stroke: rgb(colour), "stroke-width": width, "pointer-events": "none" }, g);
}

/**
 * Draw ``view`` (public view, possibly after a plan) into ``svg``.
 * ui: {flip, last: [{from,to,kind,ongoing}], sources: Map, selected, targets: []}
 */
export function draw(svg, view, ui) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${SIZE} ${SIZE}`);
  svg.dataset.flip = "0"; // the board is drawn turned, the pointer moves are not
  const flip = !!ui.flip;
  const side = SIDES[(view.options || {}).board] || SIDES.plain;
  const board = view.board || {};
  el("rect", { x: 0, y: 0, width: SIZE, height: SIZE, fill: rgb(FRAME) }, svg);
  const squares = el("g", {}, svg);
  for (let x = 0; x < 7; x++) {
    for (let y = 0; y < 7; y++) {
      const name = "abcdefg"[x] + (y + 1);
      let fill = (x + y) % 2 ? side.square : side.alt;
      if (y === 0) fill = blend(fill, HOME_TINT[0], 0.22);
      else if (y === 6) fill = blend(fill, HOME_TINT[1], 0.22);
      const [l, t] = corner(name, flip);
      // A square with a piece is touched through its piece (drawn above it): one place, one node.
      el("rect", { x: l, y: t, width: CELL, height: CELL, fill: rgb(fill), "data-place": board[name] ? null : name, class: "square" }, squares);
    }
  }
  for (let i = 0; i <= 7; i++) {
    el("line", { x1: EDGE + i * CELL, y1: EDGE, x2: EDGE + i * CELL, y2: EDGE + 7 * CELL, stroke: rgb(side.line), "stroke-width": 3, "pointer-events": "none" }, svg);
    el("line", { x1: EDGE, y1: EDGE + i * CELL, x2: EDGE + 7 * CELL, y2: EDGE + i * CELL, stroke: rgb(side.line), "stroke-width": 3, "pointer-events": "none" }, svg);
  }
  const labels = el("g", { fill: rgb(FRAME_TEXT), "font-size": 17, "font-weight": 700, "pointer-events": "none" }, svg);
  for (let i = 0; i < 7; i++) {
    const col = flip ? 6 - i : i, row = flip ? i : 6 - i;
    const cx = EDGE + i * CELL + CELL / 2, cy = EDGE + i * CELL + CELL / 2;
    for (const yy of [EDGE / 2, SIZE - EDGE / 2]) text(labels, cx, yy, "abcdefg"[col]);
    for (const xx of [EDGE / 2, SIZE - EDGE / 2]) text(labels, xx, cy, String(row + 1));
  }
  for (const name of view.pits || []) {
    if (!xy(name)) continue;
    const [cx, cy] = centre(name, flip);
    el("circle", { cx, cy, r: CELL * 0.43, fill: "url(#pit)", stroke: "rgb(40,48,58)", "stroke-width": 3, "pointer-events": "none" }, svg);
  }
  const defs = el("defs", {}, svg);
  const pit = el("radialGradient", { id: "pit" }, defs);
  el("stop", { offset: "0%", "stop-color": "rgb(8,10,14)" }, pit);
  el("stop", { offset: "100%", "stop-color": "rgb(84,96,110)" }, pit);

  const marks = el("g", {}, svg);
  const last = ui.last || [];
  for (const move of last) {
    if (move.ongoing || !xy(move.from) || !xy(move.to)) continue;
    frameSquare(marks, move.from, flip, LAST_MOVE);
    frameSquare(marks, move.to, flip, LAST_MOVE);
  }
  const arrows = el("g", {}, svg);
  for (const move of last) {
    if (!xy(move.from) || !xy(move.to)) continue;
    const a = centre(move.from, flip), b = centre(move.to, flip);
    const jump = move.kind === "character";
    const short = Math.hypot(b[0] - a[0], b[1] - a[1]) < CELL * 1.5;
    const startTrim = jump ? (short ? 0.12 : 0.3) : 0;
    const endTrim = board[move.to] ? PIECE_RIM : short ? 0.24 : 0.3;
    const colour = move.planned ? PLANNED_ARROW : move.ongoing ? CURRENT_ARROW : jump ? JUMP_ARROW : STONE_ARROW;
    const neighbour = Math.hypot(b[0] - a[0], b[1] - a[1]) < CELL * 1.5;
    const drawn = jump && neighbour
      ? hop(arrows, a, b, { colour, width: 8, bend: CELL * 1.3, trimStart: CELL * 0.4, trimEnd: CELL * PIECE_RIM, towards: [SIZE / 2, SIZE / 2] })
      : arrow(arrows, a, b, {
        colour, width: jump ? 8 : 9, dashed: jump, trimStart: CELL * startTrim, trimEnd: CELL * endTrim,
      });
    if (drawn) {
      drawn.dataset.kind = move.kind;
      if (move.planned) drawn.dataset.planned = "1";
      else if (!move.ongoing) drawn.dataset.last = "1";
    }
    if (move.planned) {
      // where the planned piece now stands: a dashed frame in the plan's colour
      const [l, t] = corner(move.to, flip);
      el("rect", { x: l + 3, y: t + 3, width: CELL - 6, height: CELL - 6, fill: "none", stroke: rgb(PLANNED_ARROW), "stroke-width": 4, "stroke-dasharray": "10 6", "pointer-events": "none", "data-planned": "1" }, marks);
    }
  }
  const sources = ui.sources || new Map();
  const pieces = el("g", {}, svg);
  for (const [name, piece] of Object.entries(board)) {
    if (!xy(name)) continue;
    const [cx, cy] = centre(name, flip);
    const g = el("g", { "data-piece": name, "data-place": name, class: sources.has(name) ? "piece movable" : "piece" }, pieces);
    el("rect", { x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL, fill: "transparent" }, g);
    stone(g, piece.seat, !!piece.character, cx, cy);
  }
  // What can be touched now: a faint ring round each piece that can move, a violet frame round
  // the chosen one, a dot on each empty square it may reach and a ring round each stone it may
  // jump onto (render/sensei.py's private step, drawn the same way).
  const over = el("g", { "pointer-events": "none" }, svg);
  if (!ui.selected) {
    for (const name of sources.keys()) {
      if (!xy(name)) continue;
      const [l, t] = corner(name, flip);
      el("rect", { x: l + 4, y: t + 4, width: CELL - 8, height: CELL - 8, rx: 8, fill: "none", stroke: rgb(CHOICE), "stroke-width": 3, "stroke-dasharray": "7 6" }, over);
    }
  } else if (xy(ui.selected)) {
    frameSquare(over, ui.selected, flip, CHOICE);
    for (const name of ui.targets || []) {
      if (!xy(name)) continue;
      const [cx, cy] = centre(name, flip);
      if (board[name]) {
        el("circle", { cx, cy, r: CELL / 2 - 4, fill: "none", stroke: rgb(CHOICE), "stroke-width": 5 }, over);
      } else {
        el("circle", { cx, cy, r: CELL * 0.14 + 3, fill: "white" }, over);
        el("circle", { cx, cy, r: CELL * 0.14, fill: rgb(CHOICE) }, over);
      }
    }
  }
  const result = view.result || {};
  if (result.reason === "barrier") {
    for (const name of (result.details || {}).barrier || []) if (xy(name)) frameSquare(over, name, flip, [150, 0, 120]);
  }
}
