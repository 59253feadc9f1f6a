// One gesture per action on any board: touch a piece then one of its targets (tap–tap), or drag
// the piece onto a target. The board says which places can be touched (``sources``: place →
// its targets, as the server sent them); the page itself knows no rule.
export const stats = { gestures: 0, actions: 0 };
// Counted where anyone can read them (the browser tests report gestures per action).
window.activityStats = stats;

const DRAG = 10; // px the pointer must travel before a press becomes a drag

function placeAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  const node = hit && hit.closest ? hit.closest("[data-place]") : null;
  return node ? node.getAttribute("data-place") : null;
}

export class Picker {
  /**
   * svg: the board; options.sources(): Map place -> targets; options.pick(from, to);
   * options.redraw(): draws again with .selected
   */
  constructor(svg, options) {
    this.svg = svg;
    this.options = options;
    this.selected = null;
    this.press = null;
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    svg.addEventListener("pointerup", (e) => this.up(e));
    svg.addEventListener("pointercancel", () => this.cancel());
    // The keyboard: Tab to a piece or a target, Enter or Space touches it.
    svg.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      const node = e.target.closest ? e.target.closest("[data-place]") : null;
      if (!node) return;
      e.preventDefault();
      this.tap(node.getAttribute("data-place"), true);
    });
  }

  /** A touch of ``place`` that is not the start of a drag: pick, select or let go. */
  tap(place, keyboard = false) {
    if (this.selected && place && this.targets().includes(place)) {
      const from = this.selected;
      this.selected = null;
      stats.actions += 1;
      this.options.pick(from, place);
      return true;
    }
    if (place && this.options.sources().has(place)) {
      stats.gestures += 1;
      if (this.selected !== place) this.select(place);
      if (keyboard) this.svg.querySelector("[data-place].target")?.focus();
      return true;
    }
    if (this.selected) this.select(null);
    return false;
  }

  targets(place = this.selected) {
    return (place && this.options.sources().get(place)) || [];
  }

  select(place) {
    this.selected = place;
    this.options.redraw();
  }

  down(e) {
    if (e.button !== undefined && e.button > 0) return;
    const place = placeAt(e.clientX, e.clientY);
    const wasTarget = !!(this.selected && place && this.targets().includes(place));
    if (!this.tap(place) || wasTarget) return;
    // a piece was pressed: it may become a drag
    this.press = { place, x: e.clientX, y: e.clientY, id: e.pointerId, dragging: false };
    try { this.svg.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer */ }
    e.preventDefault();
  }

  move(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId) return;
    const dx = e.clientX - press.x, dy = e.clientY - press.y;
    if (!press.dragging && Math.hypot(dx, dy) < DRAG) return;
    press.dragging = true;
    const piece = this.svg.querySelector(`[data-piece="${press.place}"]`);
    if (piece) {
      const scale = this.svg.viewBox.baseVal.width / this.svg.getBoundingClientRect().width;
      const flip = this.svg.dataset.flip === "1" ? -1 : 1;
      piece.setAttribute("transform", `translate(${dx * scale * flip} ${dy * scale * flip})`);
      piece.classList.add("dragged");
    }
  }

  up(e) {
    const press = this.press;
    if (!press || press.id !== e.pointerId) return;
    this.press = null;
    if (!press.dragging) return; // a tap: the piece stays selected, its targets shown
    const piece = this.svg.querySelector(`[data-piece="${press.place}"]`);
    if (piece) piece.style.visibility = "hidden"; // so the point finds what lies under it
    const place = placeAt(e.clientX, e.clientY);
    if (piece) { piece.style.visibility = ""; piece.removeAttribute("transform"); piece.classList.remove("dragged"); }
    if (place && this.targets(press.place).includes(place)) {
      this.selected = null;
      stats.actions += 1;
      this.options.pick(press.place, place);
    } else {
      this.options.redraw();
    }
  }

  cancel() {
    this.press = null;
    this.options.redraw();
  }
}
