// Building SVG from script (the page's CSP allows no inline markup or style attributes).
const NS = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

export function text(parent, x, y, words, attrs = {}) {
  const node = el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  node.textContent = words;
  return node;
}

export const rgb = (c, alpha) => (alpha === undefined ? `rgb(${c.join(",")})` : `rgba(${c.join(",")},${alpha})`);

export const ARROW_EDGE = [20, 20, 24];

/** render/arrows.py's arrow: a coloured shaft and head on a dark rim, ends trimmed, dashed for
 * a jump. */
export function arrow(parent, [sx, sy], [ex, ey], { colour, width, dashed = false, trimStart = 0, trimEnd = 0, alpha = 225 / 255 }) {
  const length = Math.hypot(ex - sx, ey - sy);
  if (length <= trimStart + trimEnd + 4) return null;
  const ux = (ex - sx) / length, uy = (ey - sy) / length;
  sx += ux * trimStart; sy += uy * trimStart;
  ex -= ux * trimEnd; ey -= uy * trimEnd;
  const head = width * 2.6, px = -uy, py = ux;
  const shaftEnd = [ex - ux * head * 0.9, ey - uy * head * 0.9];
  const g = el("g", { "pointer-events": "none", opacity: alpha.toFixed(3) }, parent);
  const shaft = { x1: sx, y1: sy, x2: shaftEnd[0], y2: shaftEnd[1] };
  const dash = dashed ? `${(width * 2.2).toFixed(1)} ${(width * 1.4).toFixed(1)}` : null;
  el("line", { ...shaft, stroke: rgb(ARROW_EDGE), "stroke-width": width + 4, "stroke-dasharray": dashed ? `${(width * 2.2 + 4).toFixed(1)} ${(width * 1.4 - 4).toFixed(1)}` : null }, g);
  el("line", { ...shaft, stroke: rgb(colour), "stroke-width": width, "stroke-dasharray": dash }, g);
  const tip = [[ex, ey],
    [ex - ux * head + px * head * 0.62, ey - uy * head + py * head * 0.62],
    [ex - ux * head - px * head * 0.62, ey - uy * head - py * head * 0.62]];
  el("polygon", { points: tip.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), fill: rgb(colour), stroke: rgb(ARROW_EDGE), "stroke-width": 2 }, g);
  return g;
}

/** A jump to a neighbouring square: a straight arrow there would be all head (a tiny
 * triangle), so it hops over the shared edge as a dashed arc, its head at the target's rim. */
export function hop(parent, [sx, sy], [ex, ey], { colour, width, bend, trimStart = 0, trimEnd = 0, alpha = 225 / 255, towards = null }) {
  const length = Math.hypot(ex - sx, ey - sy);
  if (!length) return null;
  let px = -(ey - sy) / length, py = (ex - sx) / length;
  const mx = (sx + ex) / 2, my = (sy + ey) / 2;
  // it bulges towards ``towards`` (the board's middle), never off the board's edge
  if (towards && (towards[0] - mx) * px + (towards[1] - my) * py < 0) { px = -px; py = -py; }
  const cx = mx + px * bend, cy = my + py * bend;
  const toward = (x, y, d) => {
    const l = Math.hypot(cx - x, cy - y) || 1;
    return [x + ((cx - x) / l) * d, y + ((cy - y) / l) * d];
  };
  const [ax, ay] = toward(sx, sy, trimStart);
  const [bx, by] = toward(ex, ey, trimEnd);
  const tl = Math.hypot(bx - cx, by - cy) || 1;
  const ux = (bx - cx) / tl, uy = (by - cy) / tl;
  const head = width * 2.6, nx = -uy, ny = ux;
  const end = [bx - ux * head * 0.9, by - uy * head * 0.9];
  const d = `M ${ax.toFixed(1)} ${ay.toFixed(1)} Q ${cx.toFixed(1)} ${cy.toFixed(1)} ${end[0].toFixed(1)} ${end[1].toFixed(1)}`;
  const g = el("g", { "pointer-events": "none", opacity: alpha.toFixed(3) }, parent);
  el("path", { d, fill: "none", stroke: rgb(ARROW_EDGE), "stroke-width": width + 4, "stroke-linecap": "round" }, g);
  el("path", { d, fill: "none", stroke: rgb(colour), "stroke-width": width, "stroke-dasharray": `${(width * 2.2).toFixed(1)} ${(width * 1.4).toFixed(1)}` }, g);
  const tip = [[bx, by],
    [bx - ux * head + nx * head * 0.62, by - uy * head + ny * head * 0.62],
    [bx - ux * head - nx * head * 0.62, by - uy * head - ny * head * 0.62]];
  el("polygon", { points: tip.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), fill: rgb(colour), stroke: rgb(ARROW_EDGE), "stroke-width": 2 }, g);
  return g;
}
