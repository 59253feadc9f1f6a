// Sàréná's board in SVG, in the colours of render/sarena.py: 36 circles joined by lines, an arrow
// ring round each circle where a pile arrives flipped, piles of chips whose top face shows its
// colour and its letter (the colour-blind mark, in the page's language), a badge with a pile's
// height, the last move's two circles ringed in blue with an arrow between.
import { el, rgb, text } from "./svg.mjs";
import { tOr } from "./i18n.mjs";

const SIZE = 6, CELL = 88, PAD = 30;
const W = PAD + SIZE * CELL + 10, H = SIZE * CELL + 52;
const FRAME = [35, 39, 46], FRAME_TEXT = [232, 234, 238];
const BOARD_FILL = [233, 218, 184], BOARD_EDGE = [170, 140, 96], LINE = [120, 92, 56];
const SLOT_FILL = [218, 198, 158], SLOT_EDGE = [140, 108, 66], ARROW_MARK = [176, 84, 40];
const CHIP_EDGE = [190, 182, 168], CHIP_RIM = [24, 20, 16], BADGE = [30, 34, 42];
const HIGHLIGHT = [20, 95, 220], CHOICE = [150, 20, 110];
const SLOT_R = 30, CHIP_R = 25, CHIP_STEP = 4, RING_R = 39, ARROW_W = 4.5;
export const FACES = {
  white: [[246, 244, 238], [30, 30, 34]],
  black: [[36, 36, 42], [240, 240, 240]],
  red: [[204, 46, 40], [255, 255, 255]],
  yellow: [[246, 196, 40], [30, 30, 34]],
};
const LETTERS = { white: "W", black: "B", red: "R", yellow: "Y" };

export const letter = (colour) => tOr(`render.sarena.mark.${colour}`, LETTERS[colour] || "?");

function xy(name) {
  if (typeof name !== "string" || name.length !== 2) return null;
  const x = name.charCodeAt(0) - 97, y = name.charCodeAt(1) - 49;
  return x >= 0 && x < SIZE && y >= 0 && y < SIZE ? [x, y] : null;
}

const centre = ([x, y]) => [PAD + x * CELL + CELL / 2, (SIZE - 1 - y) * CELL + CELL / 2 + 10];

function arcArrow(g, cx, cy, r, start, end) {
  const rad = (d) => (d * Math.PI) / 180;
  const p = (d) => [cx + r * Math.cos(rad(d)), cy + r * Math.sin(rad(d))];
  const [sx, sy] = p(start), [ex, ey] = p(end - 8);
  el("path", { d: `M${sx.toFixed(1)} ${sy.toFixed(1)} A${r} ${r} 0 0 1 ${ex.toFixed(1)} ${ey.toFixed(1)}`, fill: "none", stroke: rgb(ARROW_MARK), "stroke-width": ARROW_W }, g);
  const a = rad(end), tip = p(end), tan = [-Math.sin(a), Math.cos(a)], nor = [Math.cos(a), Math.sin(a)];
  const back = ARROW_W * 2.4, half = ARROW_W * 1.1;
  const base = [tip[0] - tan[0] * back, tip[1] - tan[1] * back];
  const pts = [tip, [base[0] + nor[0] * half, base[1] + nor[1] * half], [base[0] - nor[0] * half, base[1] - nor[1] * half]];
  el("polygon", { points: pts.map((q) => q.map((v) => v.toFixed(1)).join(",")).join(" "), fill: rgb(ARROW_MARK) }, g);
}

/** A pile of ``height`` chips whose top shows ``colour``, centred at (cx, cy). */
export function pile(parent, colour, height, cx, cy) {
  const g = el("g", {}, parent);
  const h = Math.min(height, 4), topDy = (-(h - 1) * CHIP_STEP) / 2;
  for (let k = h - 1; k > 0; k--) {
    el("circle", { cx, cy: cy + topDy + k * CHIP_STEP, r: CHIP_R, fill: rgb(CHIP_EDGE), stroke: rgb(CHIP_RIM), "stroke-width": 2 }, g);
  }
  const [fill, ink] = FACES[colour];
  el("circle", { cx, cy: cy + topDy, r: CHIP_R, fill: rgb(fill), stroke: rgb(CHIP_RIM), "stroke-width": 2.5 }, g);
  text(g, cx, cy + topDy + 1, letter(colour), { fill: rgb(ink), "font-size": 24, "font-weight": 700 });
  return g;
}

export function draw(svg, view, ui) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.dataset.flip = "0";
  el("rect", { x: 0, y: 0, width: W, height: H, fill: rgb(FRAME) }, svg);
  el("rect", { x: PAD - 6, y: 4, width: SIZE * CELL + 12, height: SIZE * CELL + 12, rx: 16, fill: rgb(BOARD_FILL), stroke: rgb(BOARD_EDGE), "stroke-width": 3 }, svg);
  const lines = el("g", { stroke: rgb(LINE), "stroke-width": 5, "pointer-events": "none" }, svg);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const [cx, cy] = centre([x, y]);
      if (x + 1 < SIZE) el("line", { x1: cx, y1: cy, x2: cx + CELL, y2: cy }, lines);
      if (y + 1 < SIZE) el("line", { x1: cx, y1: cy, x2: cx, y2: cy - CELL }, lines);
    }
  }
  const labels = el("g", { fill: rgb(FRAME_TEXT), "font-size": 18, "font-weight": 700, "pointer-events": "none" }, svg);
  for (let i = 0; i < SIZE; i++) text(labels, PAD / 2 - 2, centre([0, i])[1], String(i + 1));
  const last = view.last_move || {};
  const src = xy(last.from), dst = xy(last.to);
  const sources = ui.sources || new Map();
  const circles = el("g", {}, svg);
  const badges = [];
  for (const circle of view.board || []) {
    const at = [circle.x, circle.y], [cx, cy] = centre(at);
    const g = el("g", { "data-place": circle.square, class: "circle" }, circles);
    el("rect", { x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL, fill: "transparent" }, g);
    if (circle.arrow) {
      el("circle", { cx, cy, r: RING_R + 1.2 * ARROW_W, fill: rgb(BOARD_FILL) }, g);
      arcArrow(g, cx, cy, RING_R, 200, 340);
      arcArrow(g, cx, cy, RING_R, 20, 160);
    }
    const marked = (src && src[0] === at[0] && src[1] === at[1]) || (dst && dst[0] === at[0] && dst[1] === at[1]);
    el("circle", { cx, cy, r: SLOT_R, fill: rgb(SLOT_FILL), stroke: rgb(marked ? HIGHLIGHT : SLOT_EDGE), "stroke-width": marked ? 6 : 3 }, g);
    if (circle.height > 0 && FACES[circle.top]) {
      const piece = el("g", { "data-piece": circle.square }, g);
      pile(piece, circle.top, circle.height, cx, cy);
      if (circle.height >= 2) badges.push([circle.height, cx + CHIP_R - 3, cy - ((Math.min(circle.height, 4) - 1) * CHIP_STEP) / 2 - CHIP_R + 6, piece]);
    }
  }
  if (src && dst) {
    const [sx, sy] = centre(src), [ex, ey] = centre(dst);
    const dx = Math.sign(ex - sx), dy = Math.sign(ey - sy);
    if (Math.abs(dx) + Math.abs(dy) === 1) {
      const g = el("g", { "pointer-events": "none" }, svg);
      const length = CELL - SLOT_R - 8, tip = [sx + dx * length, sy + dy * length];
      const head = 20, half = 14, base = [tip[0] - dx * head, tip[1] - dy * head], nx = -dy, ny = dx;
      const pts = (grow) => [[tip[0] + dx * grow, tip[1] + dy * grow], [base[0] - dx * grow + nx * (half + grow), base[1] - dy * grow + ny * (half + grow)], [base[0] - dx * grow - nx * (half + grow), base[1] - dy * grow - ny * (half + grow)]].map((q) => q.join(",")).join(" ");
      el("line", { x1: sx, y1: sy, x2: base[0], y2: base[1], stroke: "white", "stroke-width": 13 }, g);
      el("polygon", { points: pts(4), fill: "white" }, g);
      el("circle", { cx: sx, cy: sy, r: 11, fill: "white" }, g);
      el("line", { x1: sx, y1: sy, x2: base[0], y2: base[1], stroke: rgb(HIGHLIGHT), "stroke-width": 8 }, g);
      el("polygon", { points: pts(0), fill: rgb(HIGHLIGHT) }, g);
      el("circle", { cx: sx, cy: sy, r: 8, fill: rgb(HIGHLIGHT) }, g);
    }
  }
  for (const [height, bx, by, piece] of badges) {
    el("circle", { cx: bx, cy: by, r: 14, fill: rgb(BADGE), stroke: "rgb(250,250,250)", "stroke-width": 2, "pointer-events": "none" }, piece);
    text(piece, bx, by + 1, String(height), { fill: "white", "font-size": 19, "font-weight": 700, "pointer-events": "none" });
  }
  // Choices: a thin ring round each pile that may move; the chosen pile's thick violet ring and
  // a ring and arrowhead on each circle it may go to (render/sarena.py's private step).
  const over = el("g", { "pointer-events": "none" }, svg);
  const byName = new Map((view.board || []).map((c) => [c.square, c]));
  if (!ui.selected) {
    for (const name of sources.keys()) {
      const c = byName.get(name);
      if (!c) continue;
      const [cx, cy] = centre([c.x, c.y]);
      el("circle", { cx, cy, r: SLOT_R + 7, fill: "none", stroke: rgb(CHOICE), "stroke-width": 2.5, "stroke-dasharray": "7 5" }, over);
    }
  } else if (byName.has(ui.selected)) {
    const s = byName.get(ui.selected), [scx, scy] = centre([s.x, s.y]);
    el("circle", { cx: scx, cy: scy, r: SLOT_R + 10, fill: "none", stroke: rgb(CHOICE), "stroke-width": 6 }, over);
    for (const name of ui.targets || []) {
      const c = byName.get(name);
      if (!c) continue;
      const [cx, cy] = centre([c.x, c.y]);
      el("circle", { cx, cy, r: SLOT_R + 8, fill: "none", stroke: rgb(CHOICE), "stroke-width": 4 }, over);
      const dx = Math.sign(cx - scx), dy = Math.sign(cy - scy);
      const mx = (scx + cx) / 2, my = (scy + cy) / 2, nx = -dy, ny = dx;
      const pts = [[mx + dx * 9, my + dy * 9], [mx - dx * 7 + nx * 10, my - dy * 7 + ny * 10], [mx - dx * 7 - nx * 10, my - dy * 7 - ny * 10]];
      el("polygon", { points: pts.map((q) => q.join(",")).join(" "), fill: rgb(CHOICE), stroke: "white", "stroke-width": 2 }, over);
    }
  }
  const letters = el("g", { fill: rgb(FRAME_TEXT), "font-size": 18, "font-weight": 700, "pointer-events": "none" }, svg);
  for (let i = 0; i < SIZE; i++) text(letters, centre([i, 0])[0], H - 16, "abcdef"[i]);
}
