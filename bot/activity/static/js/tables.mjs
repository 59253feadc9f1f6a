// The channel's tables (opened from the Entry Point command): open one, or start a new game.
import { api, ApiError } from "./api.mjs";
import { t } from "./i18n.mjs";
import { gameName, node } from "./table.mjs";

export class TablesView {
  constructor(app) {
    this.app = app;
    this.data = null;
    this.root = node("section", { class: "tables" });
  }

  async load() {
    this.set(await api("GET", "/api/tables"));
  }

  set(data) {
    this.data = data;
    this.render();
  }

  async start(game) {
    try {
      const answer = await api("POST", "/api/tables", { game });
      this.app.toast(t("activity.tables.started", { game: gameName(game) }), "info");
      if (answer && answer.table) await this.load();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.app.toast(error.message);
    }
  }

  render() {
    const data = this.data || { tables: [], games: [] };
    this.app.title(t("activity.tables.title"));
    this.root.replaceChildren();
    const list = node("ul", { class: "table-list" }, this.root);
    if (!data.tables.length) node("li", { class: "muted" }, list, t("activity.tables.none"));
    for (const table of data.tables) {
      const li = node("li", { "data-table": table.id, "data-game": table.game }, list);
      const text = node("div", {}, li);
      node("strong", {}, text, gameName(table.game));
      node("span", { class: "tag" }, text, t(`activity.tables.status.${table.status}`));
      if (table.status === "playing" && table.seat !== null && table.seat !== undefined && table.to_move === table.seat) {
        node("span", { class: "tag turn" }, text, t("activity.status.your_turn"));
      }
      node("div", { class: "muted" }, text, (table.names || []).join(" · "));
      const open = node("button", { type: "button", class: "primary" }, li, t("activity.tables.open"));
      open.addEventListener("click", () => this.app.openTable(table.id));
    }
    node("h2", {}, this.root, t("activity.tables.new"));
    if (data.private) {
      // A DM or group chat: the bot cannot post a lobby there; the game's command can.
      node("p", { class: "hint", "data-private": "1" }, this.root, t("activity.tables.start_in_chat"));
      return;
    }
    const games = node("div", { class: "new-games" }, this.root);
    for (const game of data.games || ["narabi", "sensei", "sarena"]) {
      const b = node("button", { type: "button", "data-game": game }, games, gameName(game));
      b.addEventListener("click", () => this.start(game));
    }
    node("p", { class: "hint" }, this.root, t("activity.tables.new_hint"));
  }
}
