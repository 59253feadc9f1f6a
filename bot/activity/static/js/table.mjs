// One table: the board, whose turn it is, the seat's own private part, the controls. Every
// state comes from the server (GET, the live socket, the answer to a move); the page keeps only
// what the player is touching and, in Sensei, the turn being planned.
import { api, ApiError, nonce } from "./api.mjs";
import { t, tOr } from "./i18n.mjs";
import { el } from "./svg.mjs";
import { Picker } from "./pick.mjs";
import * as sensei from "./sensei.mjs";
import * as narabi from "./narabi.mjs";
import * as sarena from "./sarena.mjs";

const BOARDS = { sensei, narabi, sarena };

export function node(tag, attrs = {}, parent = null, words = null) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) n.setAttribute(k, v === true ? "" : String(v));
  if (words !== null) n.textContent = words;
  if (parent) parent.appendChild(n);
  return n;
}

export const gameName = (game) => tOr(`${game}.name`, game);

export class TableView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.state = null;
    this.plan = [];      // Sensei: the actions planned, not yet sent
    this.answers = [];   // Sensei: the server's board and targets after each planned action
    this.askMode = false;
    this.busy = false;
    this.confirming = null;
    this.root = node("section", { class: "table", "data-table": id });
    const boardCol = node("div", { class: "board-col" }, this.root);
    this.svg = el("svg", { class: "board", role: "group", "aria-label": "" }, boardCol);
    const side = node("aside", { class: "side" }, this.root);
    this.statusEl = node("p", { class: "status", "aria-live": "polite" }, side);
    this.playersEl = node("ul", { class: "players" }, side);
    this.privateEl = node("div", { class: "private" }, side);
    this.controlsEl = node("div", { class: "controls" }, side);
    this.hintEl = node("p", { class: "hint" }, side);
    this.questionsEl = node("div", { class: "questions" }, side);
    this.picker = new Picker(this.svg, {
      sources: () => this.sources(),
      pick: (from, to) => this.pick(from, to),
      redraw: () => this.drawBoard(),
    });
  }

  async load() {
    const state = await api("GET", `/api/tables/${this.id}`);
    this.setState(state, true);
  }

  /** A newer state (or the same version after a refusal) replaces what is shown. */
  setState(state, force = false) {
    if (!state) return;
    if (this.state && state.version < this.state.version && !force) return;
    const moved = !this.state || state.version !== this.state.version || force;
    this.state = state;
    if (moved) {
      this.plan = [];
      this.answers = [];
      this.picker.selected = null;
      if (!(state.legal && state.legal.asking)) this.askMode = false;
    }
    this.render();
  }

  /** The board as shown: the state, or in Sensei the board after the plan so far. */
  shown() {
    const s = this.state;
    if (this.plan.length && this.answers.length === this.plan.length) return this.answers[this.answers.length - 1];
    return { public: s.public, legal: s.legal, last: s.last };
  }

  /** place -> the places it may go, as the server sent them (nothing when it is not our move);
   * a piece with nowhere to go is not offered. */
  sources() {
    return new Map([...this.allSources()].filter(([, targets]) => targets && targets.length));
  }

  allSources() {
    const s = this.state;
    if (!s || this.busy || s.status !== "playing") return new Map();
    const { legal, public: view } = this.shown();
    if (s.game === "narabi" && this.askMode) {
      // Asking: touch a teammate's card, then the card you ask about switching it with.
      const owner = new Map();
      (view.rows || []).forEach((row, seat) => row.forEach((c) => owner.set(String(c.id), seat)));
      const out = new Map();
      for (const [id, seat] of owner) {
        if (seat === s.seat) continue;
        out.set(id, [...owner].filter(([, other]) => other !== seat).map(([other]) => other));
      }
      return out;
    }
    if (!legal) return new Map();
    if (s.game === "sensei") {
      if (!legal.open) return new Map();
      return new Map(Object.entries(legal.pieces || {}).map(([from, p]) => [from, p.to || []]));
    }
    if (s.game === "narabi") return new Map(Object.entries(legal.switches || {}).map(([id, to]) => [id, to.map(String)]));
    if (s.game === "sarena") return new Map(Object.entries(legal.moves || {}));
    return new Map();
  }

  names() {
    const s = this.state;
    return (s.seats || []).map((seat, i) => `${i + 1} · ${seat.name || (s.names || [])[i] || ""}`);
  }

  async pick(from, to) {
    const s = this.state;
    if (s.game === "narabi" && this.askMode) return this.ask(Number(from), Number(to));
    if (s.game === "sensei") return this.planAction(from, to);
    if (s.game === "narabi") return this.commit([{ type: "switch", card: Number(from), target: Number(to) }]);
    return this.commit([{ type: "move", from, to }]);
  }

  async call(method, path, body) {
    this.busy = true;
    this.render();
    try {
      return await api(method, path, body);
    } catch (error) {
      await this.refused(error);
      return null;
    } finally {
      this.busy = false;
    }
  }

  async refused(error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) {
      this.app.toast(error.message);
      await this.app.reauth();
      return;
    }
    this.app.toast(error.message);
    if (error.code === "stale") await this.load().catch(() => {});
  }

  async planAction(from, to) {
    const kind = (this.shown().legal.pieces[from] || {}).kind || "stone";
    const plan = [...this.plan, { type: kind, from, to }];
    const answer = await this.call("POST", `/api/tables/${this.id}/plan`, { version: this.state.version, plan });
    if (answer && answer.version === this.state.version) {
      this.plan = plan;
      this.answers.push(answer);
    }
    this.render();
  }

  undo() {
    this.plan.pop();
    this.answers.pop();
    this.picker.selected = null;
    this.render();
  }

  async commit(actions) {
    const answer = await this.call("POST", `/api/tables/${this.id}/actions`, { version: this.state.version, nonce: nonce(), actions });
    if (answer && answer.state) this.setState(answer.state, true);
    else this.render();
  }

  async ask(card, other) {
    const answer = await this.call("POST", `/api/tables/${this.id}/ask`, { card, other });
    if (answer) {
      this.askMode = false;
      this.app.toast(t("activity.narabi.asked"), "info");
    }
    this.render();
  }

  async answer(question, yes) {
    const answer = await this.call("POST", `/api/tables/${this.id}/answer`, { question, answer: yes });
    if (answer) this.app.toast(t("activity.narabi.answered"), "info");
    this.render();
  }

  // ---------------------------------------------------------------------------- drawing

  render() {
    const s = this.state;
    if (!s) return;
    this.root.className = `table game-${s.game}${s.seat === null || s.seat === undefined ? " spectator" : ""}${this.busy ? " busy" : ""}`;
    this.root.dataset.version = String(s.version);
    this.root.dataset.yourTurn = s.your_turn ? "1" : "0";
    this.root.dataset.status = s.status;
    this.root.dataset.planned = String(this.plan.length);
    this.app.title(gameName(s.game));
    this.drawBoard();
    this.drawStatus();
    this.drawPlayers();
    this.drawPrivate();
    this.drawControls();
    this.drawQuestions();
  }

  drawBoard() {
    const s = this.state;
    const shown = this.shown();
    const sources = this.sources();
    const selected = this.picker.selected && sources.has(this.picker.selected) ? this.picker.selected : null;
    this.picker.selected = selected;
    const ui = { sources, selected, targets: selected ? sources.get(selected) : [], last: shown.last || [], names: this.names() };
    if (s.game === "sensei") ui.flip = s.seat === 1;
    if (s.game === "narabi") {
      ui.mine = new Map(((s.private && s.private.cards) || []).filter((c) => c.condition).map((c) => [c.id, narabi.conditionLabel(c.condition)]));
    }
    const board = BOARDS[s.game];
    if (board) board.draw(this.svg, shown.public || {}, ui);
    // What may be touched, said in the markup too (for assistive tools and the browser tests).
    for (const n of this.svg.querySelectorAll("[data-place]")) {
      const place = n.getAttribute("data-place");
      n.classList.toggle("source", !selected && sources.has(place));
      n.classList.toggle("selected", place === selected);
      n.classList.toggle("target", ui.targets.includes(place));
      // What may be touched can be reached with Tab and named by a screen reader.
      const live = n.classList.contains("source") || n.classList.contains("target") || place === selected;
      if (live) {
        n.setAttribute("tabindex", "0");
        n.setAttribute("role", "button");
        n.setAttribute("aria-label", this.placeName(place));
      }
    }
    this.svg.setAttribute("aria-label", this.statusText());
  }

  /** A place as a person says it: a square's name, or a Narabi card's number and colour. */
  placeName(place) {
    return this.state.game === "narabi" ? this.cardText(Number(place)) : place;
  }

  statusText() {
    const s = this.state;
    if (s.status === "lobby") return t("activity.status.lobby");
    if (s.status !== "playing" || (s.public && s.public.finished)) return (s.result && s.result.text) || this.resultText();
    if (s.your_turn) return t("activity.status.your_turn");
    const name = s.to_move !== null && s.to_move !== undefined ? ((s.seats || [])[s.to_move] || {}).name || String(s.to_move + 1) : "";
    return t("activity.status.to_move", { name });
  }

  /** The result in one line, from the public result (the server may send its own text). */
  resultText() {
    const s = this.state, result = (s.public && s.public.result) || s.result;
    if (!result) return t("activity.status.over");
    const name = (seat) => ((s.seats || [])[seat] || {}).name || String(seat + 1);
    if (s.game === "narabi") {
      const reason = tOr(`render.narabi.reason.${result.reason}`, result.reason || "");
      const rating = (result.details || {}).rating;
      const head = t(result.winners && result.winners.length ? "activity.result.solved" : "activity.result.lost");
      return [head, reason, rating ? tOr(`render.narabi.rating.${rating}`, rating) : ""].filter(Boolean).join(" · ");
    }
    const winners = result.winners || [];
    if (result.draw || !winners.length) return t("activity.result.draw");
    if (winners.length === 1) return t("activity.result.wins", { name: name(winners[0]) });
    return t("activity.result.shared", { names: winners.map(name).join(", ") });
  }

  /** Why a Sensei game ended, in words (the result's reason and details). */
  reasonText() {
    const s = this.state, result = (s.public && s.public.result) || s.result;
    if (!result || !result.reason) return "";
    const d = result.details || {};
    const name = (seat) => ((s.seats || [])[seat] || {}).name || String(seat + 1);
    const winner = (result.winners || [])[0];
    const loser = d.loser ?? (winner === undefined ? undefined : 1 - winner);
    const words = tOr(`activity.reason.sensei.${result.reason}`, "", {
      winner: winner === undefined ? "" : name(winner), loser: loser === undefined ? "" : name(loser),
      square: d.square || "", barrier: (d.barrier || []).join(" "), touching: (d.touching || []).join(" "),
    });
    return d.both ? `${words} ${t("activity.reason.sensei.both")}` : words;
  }

  async rematch() {
    const answer = await this.call("POST", `/api/tables/${this.id}/rematch`, {});
    if (!answer || !answer.table) { this.render(); return; }
    if (answer.table.status === "lobby") this.app.toast(t("activity.rematch_opened"), "info");
    await this.app.openTable(answer.table.id);
  }

  drawStatus() {
    const s = this.state, v = (this.shown().public) || {};
    this.statusEl.replaceChildren();
    node("strong", {}, this.statusEl, this.statusText());
    let detail = "";
    if (s.game === "sensei" && s.status === "playing" && !v.finished) {
      const legal = this.shown().legal;
      // The turn being played is the table's, not the planned board's (a full plan closes
      // the turn on the server's trial copy).
      detail = t("activity.sensei.turn", { turn: (s.public && s.public.turn) || 1 });
      if (s.your_turn && this.plan.length && legal && !legal.open) {
        detail += " · " + t("activity.sensei.planned");
      } else if (s.your_turn && legal) {
        detail += " · " + t("activity.sensei.stones_left", { count: legal.stone_moves_left ?? 0 });
        if (legal.character_move_left) detail += " · " + t("activity.sensei.character_left");
      }
    } else if (s.game === "sensei" && v.finished) {
      detail = this.reasonText();
    } else if (s.game === "narabi" && s.public) {
      detail = t("activity.narabi.switches", { turn: s.public.turn ?? 0, max: s.public.max_turns ?? 0 });
    } else if (s.game === "sarena" && s.public) {
      detail = t("activity.sarena.move", { move: s.public.move ?? 1 });
    }
    if (detail) node("span", { class: "detail" }, this.statusEl, detail);
  }

  drawPlayers() {
    const s = this.state;
    this.playersEl.replaceChildren();
    const finished = s.public && s.public.finished;
    (s.seats || []).forEach((seat, i) => {
      const li = node("li", { class: i === s.to_move && !finished ? "turn" : null }, this.playersEl);
      if (s.game === "sensei" && i < 2) {
        const mark = el("svg", { viewBox: "0 0 76 76", class: "mark", "aria-hidden": "true" }, li);
        sensei.stone(mark, i, false, 38, 38);
      }
      node("span", { class: "name" }, li, `${i + 1} · ${seat.name || ""}`);
      if (seat.you || i === s.seat) node("span", { class: "tag" }, li, t("activity.you"));
      if (seat.ai) node("span", { class: "tag" }, li, t("activity.ai", { level: seat.ai }));
      if (i === s.to_move && !finished) node("span", { class: "tag turn" }, li, t("activity.to_move"));
      // Sàréná's colours are public once the game is over: each seat's chip beside its name.
      const colours = finished && s.game === "sarena" && s.public.result && s.public.result.colours;
      if (colours && sarena.FACES[colours[i]]) {
        const chip = el("svg", { viewBox: "0 0 60 60", class: "mark", role: "img", "aria-label": t(`activity.sarena.colour.${colours[i]}`) }, li);
        sarena.pile(chip, colours[i], 1, 30, 30);
      }
    });
  }

  drawPrivate() {
    const s = this.state;
    this.privateEl.replaceChildren();
    if (s.seat === null || s.seat === undefined) {
      node("p", { class: "muted" }, this.privateEl, t("activity.spectator"));
      return;
    }
    const p = s.private || {};
    if (s.game === "sarena" && p.colour && sarena.FACES[p.colour]) {
      const row = node("p", { class: "secret" }, this.privateEl);
      node("span", {}, row, t("activity.sarena.your_colour"));
      const chip = el("svg", { viewBox: "0 0 60 60", class: "mark" }, row);
      sarena.pile(chip, p.colour, 1, 30, 30);
      node("strong", {}, row, t(`activity.sarena.colour.${p.colour}`));
    }
    if (s.game === "narabi" && p.cards) {
      node("p", { class: "muted" }, this.privateEl, t("activity.narabi.your_cards"));
      const list = node("ul", { class: "secret cards" }, this.privateEl);
      const texts = p.texts || {};
      for (const c of p.cards) {
        const li = node("li", {}, list);
        node("strong", {}, li, `${c.number ?? "○"} ${t(`activity.narabi.colour.${c.colour}`)}`);
        node("span", {}, li, " — " + (texts[String(c.id)] || tOr(`narabi.condition.${c.condition}`, narabi.conditionLabel(c.condition))));
        // "on your left/right" means nothing in a list of seats: the player is named too
        if (Number.isInteger(c.seat_named)) node("span", { class: "seat-named" }, li, ` → ${this.names()[c.seat_named] || ""}`);
      }
    }
  }

  button(label, onClick, { kind = "", disabled = false, id = null } = {}) {
    const b = node("button", { type: "button", class: kind, disabled: disabled || this.busy, "data-action": id }, this.controlsEl, label);
    b.addEventListener("click", onClick);
    return b;
  }

  /** A button that asks again before it acts (resign, abandon): no browser dialog in Discord. */
  confirmButton(id, label, again, run) {
    const armed = this.confirming === id;
    return this.button(armed ? again : label, () => {
      if (this.confirming === id) { this.confirming = null; run(); return; }
      this.confirming = id;
      this.render();
      setTimeout(() => { if (this.confirming === id) { this.confirming = null; this.render(); } }, 5000);
    }, { kind: armed ? "danger" : "ghost", id });
  }

  drawControls() {
    const s = this.state;
    this.controlsEl.replaceChildren();
    const seated = s.seat !== null && s.seat !== undefined;
    const playing = s.status === "playing" && !(s.public && s.public.finished);
    let hint = "";
    if (seated && playing && s.game === "sensei") {
      const legal = this.shown().legal;
      if (s.your_turn) {
        this.button(t("activity.sensei.undo"), () => this.undo(), { disabled: !this.plan.length, id: "undo" });
        const canSend = this.plan.length > 0 || (legal && legal.can_send);
        this.button(t("activity.sensei.send"), () => this.commit(this.plan.length ? this.plan : [{ type: "end_turn" }]), { kind: "primary", disabled: !canSend, id: "send" });
        hint = legal && legal.open ? t("activity.hint.sensei") : t("activity.hint.sensei_send");
      }
      const offer = s.public.draw_offer;
      if (offer !== null && offer !== undefined && offer !== s.seat) {
        this.button(t("activity.sensei.accept_draw"), () => this.commit([{ type: "accept_draw" }]), { id: "accept_draw" });
        this.button(t("activity.sensei.decline_draw"), () => this.commit([{ type: "decline_draw" }]), { id: "decline_draw" });
      } else if (s.your_turn && (offer === null || offer === undefined) && !this.plan.length) {
        this.button(t("activity.sensei.offer_draw"), () => this.commit([{ type: "offer_draw" }]), { kind: "ghost", id: "offer_draw" });
      }
      this.confirmButton("resign", t("activity.resign"), t("activity.resign_confirm"), () => this.commit([{ type: "resign" }]));
    } else if (seated && playing && s.game === "narabi") {
      if (s.legal && s.legal.asking) {
        this.button(this.askMode ? t("activity.narabi.ask_cancel") : t("activity.narabi.ask"), () => {
          this.askMode = !this.askMode;
          this.picker.selected = null;
          this.render();
        }, { kind: this.askMode ? "primary" : "", id: "ask" });
      }
      if (s.your_turn) hint = this.askMode ? t("activity.hint.narabi_ask") : t("activity.hint.narabi");
      this.confirmButton("resign", t("activity.narabi.abandon"), t("activity.narabi.abandon_confirm"), () => this.commit([{ type: "resign" }]));
    } else if (seated && playing && s.game === "sarena") {
      if (s.your_turn) hint = t("activity.hint.sarena");
      this.confirmButton("resign", t("activity.resign"), t("activity.resign_confirm"), () => this.commit([{ type: "resign" }]));
    }
    if (seated && !playing && s.status === "finished") {
      this.button(t("activity.rematch"), () => this.rematch(), { kind: "primary", id: "rematch" });
    }
    if (s.status === "lobby") hint = t("activity.lobby_hint");
    this.hintEl.textContent = hint;
  }

  cardText(id) {
    for (const row of (this.state.public && this.state.public.rows) || []) {
      for (const c of row) if (c.id === id) return `${c.number ?? "○"} (${t(`activity.narabi.colour.${c.colour}`)})`;
    }
    return "?";
  }

  drawQuestions() {
    const s = this.state;
    this.questionsEl.replaceChildren();
    const questions = (s.questions || []).slice(-6);
    if (s.game !== "narabi" || !questions.length) return;
    node("p", { class: "muted" }, this.questionsEl, t("activity.narabi.questions"));
    const list = node("ul", {}, this.questionsEl);
    const name = (seat) => ((s.seats || [])[seat] || {}).name || String(seat + 1);
    for (const q of questions) {
      const li = node("li", { "data-question": q.id }, list);
      node("span", {}, li, t("activity.narabi.question", { asker: name(q.asker), asked: name(q.asked), card: this.cardText(q.card), other: this.cardText(q.other) }));
      if (q.answer === true || q.answer === false) {
        node("strong", {}, li, " → " + t(q.answer ? "activity.yes" : "activity.no"));
      } else if (q.you_answer || (q.asked === s.seat && s.seat !== null && s.seat !== undefined)) {
        const yes = node("button", { type: "button", class: "small", "data-answer": "yes" }, li, t("activity.yes"));
        const no = node("button", { type: "button", class: "small", "data-answer": "no" }, li, t("activity.no"));
        yes.addEventListener("click", () => this.answer(q.id, true));
        no.addEventListener("click", () => this.answer(q.id, false));
      }
    }
  }
}
