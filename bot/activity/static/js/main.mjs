// Start-up: Discord's SDK (its mock only when the server says it runs in the playground), the
// code exchange for the server's own session, then the table launched or the channel's tables.
import { DiscordSDK, DiscordSDKMock } from "../vendor/discord-sdk.mjs";
import { api, ApiError, Live, setSession } from "./api.mjs";
import { setStrings, t } from "./i18n.mjs";
import { TableView } from "./table.mjs";
import { TablesView } from "./tables.mjs";

const view = document.getElementById("view");
const toastEl = document.getElementById("toast");
const backEl = document.getElementById("back");
let toastTimer = null;

const app = {
  config: null,
  sdk: null,
  session: null,
  live: null,
  current: null,
  tables: null,
  listSeen: false,

  title(words) {
    document.getElementById("title").textContent = words;
  },

  toast(message, kind = "error") {
    toastEl.textContent = message;
    toastEl.className = kind;
    toastEl.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toastEl.hidden = true; }, kind === "error" ? 6000 : 3500);
  },

  show(section) {
    view.replaceChildren(section);
  },

  async openTable(id) {
    const table = new TableView(app, id);
    app.current = table;
    backEl.hidden = false;
    app.show(table.root);
    try {
      await table.load();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      app.toast(error.message);
    }
    app.live.watch([id]);
  },

  async openList() {
    app.current = null;
    backEl.hidden = true;
    if (!app.tables) app.tables = new TablesView(app);
    app.show(app.tables.root);
    app.live.watch([], true);
    try {
      await app.tables.load();
      // Launched from a game's thread: that game opens at once (the list is one tap back).
      const open = app.tables.data && app.tables.data.open;
      if (open && !app.listSeen) { app.listSeen = true; await app.openTable(open); return; }
      app.listSeen = true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      app.toast(error.message);
    }
  },

  /** A session that expired or was refused: authorize again, silently when Discord lets us. */
  async reauth() {
    await authenticate();
    if (app.current) await app.current.load().catch(() => {});
  },
};

function makeSdk(config) {
  if (!config.mock) return new DiscordSDK(config.client_id);
  // The playground: Discord's own mock of the SDK, given the launch the playground made (its
  // instance, channel and a one-time code the stand-in exchanges like Discord's OAuth2 would).
  const query = new URLSearchParams(location.search);
  const code = new URLSearchParams(location.hash.slice(1)).get("code") || "";
  history.replaceState(null, "", location.pathname + location.search);
  const sdk = new DiscordSDKMock(config.client_id, query.get("guild_id"), query.get("channel_id"), null);
  if (query.get("instance_id")) sdk.instanceId = query.get("instance_id");
  let used = false;
  sdk._updateCommandMocks({
    authorize: async () => {
      if (used) throw new Error(t("activity.error.relaunch"));
      used = true;
      return { code };
    },
    authenticate: async ({ access_token }) => ({ access_token, user: {}, scopes: ["identify"], expires: "", application: {} }),
  });
  return sdk;
}

/** The code exchange; when the server is busy (429) or Discord is (503) the code was not
 * spent, so the same one is sent again after the wait the server asked for. */
async function signIn(body, tries = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api("POST", "/api/session", body);
    } catch (error) {
      const busy = error instanceof ApiError && (error.status === 429 || error.status === 503);
      if (!busy || attempt >= tries) throw error;
      document.getElementById("boot").textContent = error.message;
      await new Promise((done) => setTimeout(done, Math.min(error.retryAfter || 2, 30) * 1000));
    }
  }
}

async function authenticate() {
  const config = app.config;
  const { code } = await app.sdk.commands.authorize({
    client_id: config.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify", "guilds"],
  });
  const answer = await signIn({ code, instance_id: app.sdk.instanceId });
  app.session = answer;
  setSession(answer.session);
  setStrings(answer.strings);
  document.documentElement.lang = answer.lang || "en";
  await app.sdk.commands.authenticate({ access_token: answer.access_token });
  document.getElementById("who").textContent = (answer.user && answer.user.name) || "";
  return answer;
}

async function boot() {
  const boot = document.getElementById("boot");
  const guess = (navigator.language || "en").slice(0, 2);
  try {
    app.config = await api("GET", "/api/config");
    const lang = (app.config.languages || []).includes(guess) ? guess : "en";
    setStrings(await api("GET", `/api/strings/${lang}`).catch(() => ({})));
    boot.textContent = t("activity.connecting");
    app.sdk = makeSdk(app.config);
  } catch (error) {
    boot.textContent = error instanceof ApiError ? error.message : t("activity.error.outside");
    return;
  }
  try {
    await app.sdk.ready();
    const session = await authenticate();
    app.live = new Live({
      state: (id, state) => { if (app.current && app.current.id === id) app.current.setState(state); },
      tables: (data) => { if (!app.current && app.tables) app.tables.set(data); },
      expired: () => app.reauth().then(() => app.live.start()).catch(() => app.toast(t("activity.error.session"))),
      status: (up) => document.body.classList.toggle("offline", !up),
      error: (error) => error.message && app.toast(error.message),
    });
    app.live.start();
    backEl.textContent = "← " + t("activity.tables.title");
    backEl.addEventListener("click", () => app.openList());
    if (session.table) {
      app.listSeen = true;
      await app.openTable(session.table);
    }
    else await app.openList();
    document.body.dataset.ready = "1";
  } catch (error) {
    boot.textContent = error instanceof ApiError ? error.message : t("activity.error.auth");
    if (!(error instanceof ApiError)) console.error(error);
  }
}

boot();
