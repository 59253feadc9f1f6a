// Narabi's table in SVG, in the colours of render/narabi.py: white and dark stone cards (a blank
// is an empty ring), the cards of the seat to move on the turn colour, the last switch as a
// blue arrow both ways. The ring is laid out seat after seat, one row each, so that every card
// stays a finger wide on a phone; a condition shows on a card only for its owner (sent for this
// seat alone) or for everyone once the game is over.
import { el, rgb, text } from "./svg.mjs";
import { tOr } from "./i18n.mjs";

const CARD_W = 80, CARD_H = 106, GAP = 14, PILL = 40, ROW_GAP = 18, SIDE = 16;
const BG = [54, 63, 77], RING = [74, 85, 102], PANEL = [40, 47, 58], TEXT = [236, 239, 244];
const WHITE = { face: [246, 242, 231], edge: [110, 100, 80], ink: [28, 28, 32] };
const DARK = { face: [22, 23, 28], edge: [160, 168, 182], ink: [246, 242, 231] };
const ACTIVE = [255, 202, 40], ACTIVE_INK = [30, 26, 10], SWITCH = [64, 200, 255];
const CHOSEN = [120, 16, 100], TARGET = [255, 120, 215];

export const conditionLabel = (id) => tOr(`render.narabi.condition.${id}`, String(id));

/** A card face at (x, y) (its top-left corner). */
export function card(parent, c, x, y, label) {
  const look = c.colour === "white" ? WHITE : DARK;
  const g = el("g", {}, parent);
  el("rect", { x, y, width: CARD_W, height: CARD_H, rx: 14, fill: rgb(look.face), stroke: rgb(look.edge), "stroke-width": 3 }, g);
  const middle = y + (label ? 36 : CARD_H / 2);
  const size = label ? 44 : 58;
  if (c.number === null || c.number === undefined) {
    el("circle", { cx: x + CARD_W / 2, cy: middle, r: size * 0.3, fill: "none", stroke: rgb(look.edge), "stroke-width": 4 }, g);
  } else {
    text(g, x + CARD_W / 2, middle + 2, String(c.number), { fill: rgb(look.ink), "font-size": size, "font-weight": 700 });
  }
  if (label) {
    el("rect", { x: x + 4, y: y + CARD_H - 34, width: CARD_W - 8, height: 28, rx: 7, fill: rgb(ACTIVE) }, g);
    const size = label.length > 7 ? 15 : 19;
    const words = text(g, x + CARD_W / 2, y + CARD_H - 20, label, { fill: rgb(ACTIVE_INK), "font-size": size });
    if (label.length * size * 0.6 > CARD_W - 14) { // only a long label is pressed to the tag's width
      words.setAttribute("textLength", String(CARD_W - 14));
      words.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
  return g;
}

export function layout(view) {
  const rows = view.rows || [];
  const per = Math.max(1, ...rows.map((r) => r.length));
  const width = Math.max(360, SIDE * 2 + per * CARD_W + (per - 1) * GAP);
  const where = new Map();
  rows.forEach((row, seat) => {
    const top = SIDE + seat * (PILL + CARD_H + ROW_GAP) + PILL;
    const left = (width - (row.length * CARD_W + (row.length - 1) * GAP)) / 2;
    row.forEach((c, k) => where.set(c.id, { x: left + k * (CARD_W + GAP), y: top, seat, index: k }));
  });
  return { width, height: SIDE * 2 + rows.length * (PILL + CARD_H + ROW_GAP) - ROW_GAP, where };
}

/**
 * ui: {seat, names: [label per seat], mine: Map id -> condition label, sources: Map, selected,
 *      targets: [], toMove}
 */
export function draw(svg, view, ui) {
  svg.replaceChildren();
  const { width, height, where } = layout(view);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.dataset.flip = "0";
  el("rect", { x: 0, y: 0, width, height, rx: 18, fill: rgb(BG) }, svg);
  const finished = !!view.finished;
  const toMove = finished ? null : view.to_move;
  const sources = ui.sources || new Map();
  // The last switch's arrow goes under the seats' names: crossing rows on a phone it would
  // otherwise cover the name of a seat between (or beside) the two cards.
  const under = el("g", { "data-layer": "switch" }, svg);
  (view.rows || []).forEach((row, seat) => {
    const top = SIDE + seat * (PILL + CARD_H + ROW_GAP);
    const active = seat === toMove;
    const label = (active ? "▶ " : "") + (ui.names[seat] || String(seat + 1));
    const pillW = Math.min(width - 2 * SIDE, 28 + label.length * 12);
    el("rect", { x: (width - pillW) / 2, y: top + 2, width: pillW, height: PILL - 10, rx: 15, fill: rgb(active ? ACTIVE : PANEL), stroke: rgb(active ? ACTIVE : RING), "stroke-width": 2 }, svg);
    const name = text(svg, width / 2, top + 17, label, { fill: rgb(active ? ACTIVE_INK : TEXT), "font-size": 19, "font-weight": 700, "data-seat-name": seat });
    if (label.length * 12 > pillW - 20) {
      name.setAttribute("textLength", String(pillW - 20));
      name.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    if (seat > 0) el("line", { x1: SIDE, y1: top - ROW_GAP / 2, x2: width - SIDE, y2: top - ROW_GAP / 2, stroke: rgb(RING), "stroke-width": 2 }, svg);
  });
  const last = view.last_switch;
  if (last && where.has(last.card) && where.has(last.target)) {
    // An arrow both ways under the cards (as render/narabi.py draws it), seen between them.
    const p = where.get(last.card), q = where.get(last.target);
    const g = el("g", { "pointer-events": "none", "data-switch": "1" }, under);
    const a = [p.x + CARD_W / 2, p.y + CARD_H / 2], b = [q.x + CARD_W / 2, q.y + CARD_H / 2];
    // Its heads stop where the line leaves each card (plus the glow round the mover's cards).
    const edge = (from, to) => {
      const dx = to[0] - from[0], dy = to[1] - from[1];
      const f = Math.min((CARD_W / 2 + 12) / Math.abs(dx || 1e-9), (CARD_H / 2 + 12) / Math.abs(dy || 1e-9));
      return [from[0] + dx * f, from[1] + dy * f];
    };
    const s = edge(a, b), e = edge(b, a);
    el("line", { x1: s[0], y1: s[1], x2: e[0], y2: e[1], stroke: "rgba(20,20,24,0.85)", "stroke-width": 11 }, g);
    el("line", { x1: s[0], y1: s[1], x2: e[0], y2: e[1], stroke: rgb(SWITCH), "stroke-width": 6 }, g);
    for (const [tip, tail] of [[s, e], [e, s]]) {
      const ang = Math.atan2(tip[1] - tail[1], tip[0] - tail[0]), size = 24;
      const l = [tip[0] - size * Math.cos(ang - 0.45), tip[1] - size * Math.sin(ang - 0.45)];
      const r = [tip[0] - size * Math.cos(ang + 0.45), tip[1] - size * Math.sin(ang + 0.45)];
      el("polygon", { points: [tip, l, r].map((v) => v.join(",")).join(" "), fill: rgb(SWITCH), stroke: "rgb(20,20,24)", "stroke-width": 2 }, g);
    }
  }
  const cards = el("g", {}, svg);
  (view.rows || []).forEach((row, seat) => {
    for (const c of row) {
      const at = where.get(c.id);
      const g = el("g", { "data-place": String(c.id), class: "card" }, cards);
      if (seat === toMove) el("rect", { x: at.x - 9, y: at.y - 9, width: CARD_W + 17, height: CARD_H + 17, rx: 22, fill: rgb(ACTIVE) }, g);
      else el("rect", { x: at.x - 6, y: at.y - 6, width: CARD_W + 12, height: CARD_H + 12, fill: "transparent" }, g);
      const condition = finished && c.condition ? conditionLabel(c.condition) : ui.mine.get(c.id) || null;
      const face = el("g", { "data-piece": String(c.id) }, g);
      card(face, c, at.x, at.y, condition);
    }
  });
  if (last && where.has(last.card) && where.has(last.target)) {
    // ...and both cards framed in the switch colour, over them, so the pair is told at once.
    const g = el("g", { "pointer-events": "none" }, svg);
    for (const id of [last.card, last.target]) {
      const at = where.get(id);
      el("rect", { x: at.x - 3, y: at.y - 3, width: CARD_W + 6, height: CARD_H + 6, rx: 16, fill: "none", stroke: rgb(SWITCH), "stroke-width": 5 }, g);
    }
  }
  const over = el("g", { "pointer-events": "none" }, svg);
  const frame = (id, colour, widthPx, dashed, cls = null) => {
    const at = where.get(Number(id));
    if (!at) return;
    el("rect", { x: at.x - 1, y: at.y - 1, width: CARD_W + 2, height: CARD_H + 2, rx: 15, fill: "none", stroke: rgb(colour), "stroke-width": widthPx, "stroke-dasharray": dashed ? "8 6" : null, class: cls }, over);
  };
  if (!ui.selected) for (const id of sources.keys()) frame(id, TARGET, 3, true);
  else {
    frame(ui.selected, CHOSEN, 7, false);
    for (const id of ui.targets || []) frame(id, TARGET, 6, false);
  }
}
