// The page's state: who I am, the channels, the messages I may see (kept live by server-sent
// events), the message box with its command suggestions, and clicks sent to the server.
"use strict";
(function (PG) {
  const el = PG.el, t = PG.t;
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const me = params.get("as") || "";
  const messages = new Map();          // id -> shaped message I may see
  const dismissed = new Set(JSON.parse(sessionStorage.getItem("dismissed:" + me) || "[]"));
  let channels = {main: {id: "", name: "games"}, threads: [], dm: null, group: null};
  let current = null, lastAction = 0, notices = 0, commands = [];
  // Messages this page clicked or whose command it typed: a thread opened from one of them
  // (a thread has its starting message's id) is this person's table, worth following into.
  const mine = new Set();
  const unread = new Set();
  PG.users = {};
  PG.myId = null;
  PG.clicked = 0;  // clicks the page's handler took (a test tells a missed click by it)

  const key = (id) => String(id).startsWith("n") ? BigInt(id.slice(1).split("-")[0]) * 2n + 1n : BigInt(id) * 2n;
  PG.channelName = (id) => id === channels.main.id ? channels.main.name
    : id === channels.dm ? "Tabletop" : channels.group && id === channels.group.id ? channels.group.name
    : (channels.threads.find((th) => th.id === id) || {name: t("unknown_channel")}).name;
  PG.threadOf = (id) => channels.threads.find((th) => th.id === id);
  PG.message = (id) => messages.get(id);

  async function post(path, body) {
    body.as = me;
    try {
      const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                   body: JSON.stringify(body)});
      return r.ok ? await r.json() : {error: t("error.refused", {status: String(r.status)})};
    } catch (e) {
      return {error: t("error.no_answer")};
    }
  }

  PG.click = async function (message, customId, values, control) {
    lastAction = Date.now();
    mine.add(String(message.id));
    PG.clicked += 1;
    const node = document.getElementById("m-" + message.id);
    const failed = node && node.querySelector(".failed");
    if (failed) failed.textContent = "";
    control.disabled = true;
    control.classList.add("loading");
    const answer = await post("/api/click", {message: message.id, custom_id: customId, values: values});
    control.classList.remove("loading");
    control.disabled = false;  // answered: clickable again, as on Discord
    if (answer.error) {
      const now = document.getElementById("m-" + message.id);
      const box = now && now.querySelector(".failed");
      if (box) box.textContent = answer.error;
    }
  };

  PG.dismiss = function (id) {
    dismissed.add(id);
    sessionStorage.setItem("dismissed:" + me, JSON.stringify([...dismissed]));
    const node = document.getElementById("m-" + id);
    if (node) { const next = node.nextElementSibling; node.remove(); PG.group(next); }
  };

  PG.jump = function (channelId, messageId) {
    if (channelId !== current) open(channelId);
    const node = messageId && document.getElementById("m-" + messageId);
    if (node) {
      node.scrollIntoView({block: "center"});
      node.classList.add("flash");
      setTimeout(() => node.classList.remove("flash"), 1500);
    }
  };

  function notice(text) {
    const id = "n" + [...messages.keys()].reduce((a, k) => (key(k) > a ? key(k) : a), 0n) / 2n + "-" + (++notices);
    upsert({id: id, channel_id: current, notice: true, ephemeral: true, content: text,
            author: {id: "0", name: "Discord", bot: false}, embeds: [], components: [], attachments: []});
  }

  // -- messages ------------------------------------------------------------------------------
  function nearBottom() {
    const box = $("messages");
    return box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  }

  function upsert(m) {
    if (dismissed.has(m.id)) return;
    messages.set(m.id, m);
    if (m.channel_id !== current) {
      if (!m.edited) { unread.add(m.channel_id); sidebar(); }
      return;
    }
    const stick = nearBottom();
    const node = PG.render(m);
    const old = document.getElementById("m-" + m.id);
    if (old) old.replaceWith(node);
    else {
      const box = $("messages");
      const after = [...box.children].find((c) => c.id && key(c.id.slice(2)) > key(m.id));
      box.insertBefore(node, after || null);
    }
    PG.group(node);
    PG.group(node.nextElementSibling);
    if (stick) $("messages").scrollTop = $("messages").scrollHeight;
  }

  function open(channelId) {
    current = channelId;
    unread.delete(channelId);
    const box = $("messages");
    box.replaceChildren();
    if (channelId === channels.main.id) box.append(welcome());
    [...messages.values()].filter((m) => m.channel_id === channelId)
      .sort((a, b) => (key(a.id) < key(b.id) ? -1 : 1))
      .forEach((m) => { const node = PG.render(m); box.append(node); PG.group(node); });
    const name = PG.channelName(channelId);
    const dm = channelId === channels.dm;
    $("title").textContent = (dm ? "@" : "# ") + name;
    $("box").placeholder = dm ? t("box.dm", {user: name}) : t("box.channel", {channel: name});
    document.body.classList.remove("nav-open");
    sidebar();
    box.scrollTop = box.scrollHeight;
  }

  function welcome() {
    const head = el("div", "welcome");
    head.append(el("div", "welcome-title", t("welcome.title", {channel: channels.main.name})),
                el("div", null, t("welcome.text", {sensei: "/sensei start ai:hard", narabi: "/narabi start ai:easy",
                                                   playing_as: t("playing_as")})));
    return head;
  }

  function item(list, id, label, cls) {
    const li = el("li", cls);
    const a = el("a", "chan" + (id === current ? " active" : "") + (unread.has(id) ? " unread" : ""), label);
    a.href = "#";
    a.title = label;
    a.dataset.channel = id;
    a.addEventListener("click", (e) => { e.preventDefault(); open(id); });
    li.append(a);
    list.append(li);
  }

  function sidebar() {
    const list = $("channels");
    list.replaceChildren();
    item(list, channels.main.id, "# " + channels.main.name);
    for (const th of channels.threads) item(list, th.id, "🧵 " + th.name, "thread");
    const dms = $("dms");
    dms.replaceChildren();
    if (channels.group) item(dms, channels.group.id, "👥 " + channels.group.name);
    if (channels.dm) item(dms, channels.dm, "@ Tabletop");
    else if (!channels.group) dms.append(el("li", "empty", t("no_direct_messages")));
  }

  function seats() {
    const select = $("seat");
    select.replaceChildren();
    const names = Object.entries(PG.users).filter(([id]) => id !== "900000000000000001").map(([, n]) => n);
    for (const name of names.sort()) {
      const o = el("option", null, name);
      o.value = name;
      o.selected = PG.users[PG.myId] === name;
      select.append(o);
    }
    const other = el("option", null, t("another_player"));
    other.value = "";
    select.append(other);
    $("me-avatar").textContent = (PG.users[PG.myId] || "?").slice(0, 1).toUpperCase();
  }

  $("seat").addEventListener("change", (e) => {
    const name = e.target.value || (window.prompt(t("play_as_prompt")) || "").trim();
    if (name) location.search = "?as=" + encodeURIComponent(name);
    else seats();
  });
  $("menu").addEventListener("click", () => document.body.classList.toggle("nav-open"));

  function handle(event) {
    if (event.type === "state") {
      PG.myId = event.me.id;
      PG.users = event.users;
      channels = event.channels;
      channels.main.id = channels.main.id || "";
      messages.clear();
      for (const m of event.messages) if (!dismissed.has(m.id)) messages.set(m.id, m);
      seats();
      open(current || channels.main.id);
    } else if (event.type === "message") upsert(event.message);
    else if (event.type === "delete") {
      messages.delete(event.id);
      const node = document.getElementById("m-" + event.id);
      if (node) node.remove();
    } else if (event.type === "users") { PG.users = event.users; seats(); }
    else if (event.type === "channels") {
      const known = new Set(channels.threads.map((th) => th.id));
      channels = event.channels;
      // Only a thread opened from a message this page acted on, or a table where this person
      // sits, is followed: someone else's table, opened at the same moment, stays in the
      // sidebar.
      const fresh = channels.threads.filter((th) => !known.has(th.id) && (th.seated || mine.has(String(th.id))));
      if (fresh.length && Date.now() - lastAction < 15000 && current === channels.main.id) open(fresh[fresh.length - 1].id);
      else if (current === channels.main.id) open(current); // thread links under lobbies
      else sidebar();
    } else if (event.type === "activity") PG.openActivity(event.url);
    else if (event.type === "reload") location.reload();
    else if (event.type === "closed") { $("status").textContent = t("status.stopped"); $("status").className = "status"; PG.source.close(); }
  }

  function connect() {
    const source = PG.source = new EventSource("/api/events?as=" + encodeURIComponent(me));
    source.onopen = () => { $("status").textContent = t("status.live"); $("status").className = "status live"; };
    source.onerror = () => { $("status").textContent = t("status.reconnecting"); $("status").className = "status"; };
    source.onmessage = (e) => handle(JSON.parse(e.data));
  }

  // -- the message box -------------------------------------------------------------------------
  const box = $("box");
  const MAX = 2000;

  function suggestions() {
    const list = $("suggest");
    list.replaceChildren();
    const text = box.value;
    const found = [];
    if (text.startsWith("/") && !text.includes("\n")) {
      const typed = text.slice(1).replace(/\s+/g, " ").toLowerCase();
      const entry = commands.filter((c) => typed.startsWith(c.path + " ")).sort((a, b) => b.path.length - a.path.length)[0];
      if (entry) {
        const last = typed.slice(entry.path.length + 1).split(" ").pop();
        const colon = last.indexOf(":");
        for (const o of entry.options) {
          if (colon < 0 && o.name.startsWith(last) && !typed.includes(" " + o.name + ":"))
            found.push({fill: text.slice(0, text.length - last.length) + o.name + ":", label: o.name + ":", help: (o.required ? t("required") + " · " : "") + o.description});
          if (colon >= 0 && last.slice(0, colon) === o.name)
            for (const c of o.choices) {
              const typedValue = last.slice(colon + 1);
              // As in Discord, a choice shows its name; the value is what is sent.
              if (String(c.value).toLowerCase().startsWith(typedValue) || String(c.name).toLowerCase().startsWith(typedValue))
                found.push({fill: text.slice(0, text.length - last.length) + o.name + ":" + c.value + " ", label: o.name + ": " + c.name, help: o.description});
            }
        }
      } else {
        for (const c of commands) if (c.path.startsWith(typed))
          found.push({fill: "/" + c.path + " ", label: "/" + c.path, help: c.description});
      }
    }
    // Discord lists up to 25 options or choices.
    for (const s of found.slice(0, 25)) {
      const li = el("li", "suggestion");
      li.setAttribute("role", "option");
      li.append(el("span", "cmd", s.label), el("span", "help", s.help));
      li.addEventListener("mousedown", (e) => { e.preventDefault(); box.value = s.fill; box.focus(); changed(); });
      list.append(li);
    }
    list.hidden = !found.length;
    return found;
  }

  function changed() {
    const n = box.value.length;
    const count = $("count");
    count.textContent = n > MAX - 200 ? String(MAX - n) : "";
    count.classList.toggle("over", n > MAX);
    box.style.height = "auto";
    box.style.height = Math.min(box.scrollHeight, 200) + "px";
    suggestions();
  }

  async function send() {
    const text = box.value;
    if (!text.trim()) return;
    if (text.length > MAX) {
      notice(t("error.too_long", {count: text.length, limit: MAX}));
      return;
    }
    box.value = "";
    changed();
    lastAction = Date.now();
    const answer = await post("/api/command", {text: text, channel: current});
    if (answer.error) notice(answer.error);
    else if (answer.message) {
      mine.add(String(answer.message));
      // Its thread may have been announced before this answer came back.
      if (current === channels.main.id && PG.threadOf(String(answer.message))) open(String(answer.message));
    }
  }

  box.addEventListener("input", changed);
  box.addEventListener("keydown", (e) => {
    if (e.key === "Tab") {
      const found = suggestions();
      if (found.length) { e.preventDefault(); box.value = found[0].fill; changed(); }
    } else if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); send(); }
    else if (e.key === "Escape") $("suggest").hidden = true;
  });
  $("composer").addEventListener("submit", (e) => { e.preventDefault(); send(); });

  fetch("/api/commands").then((r) => r.json()).then((list) => { commands = list; });
  connect();
})(window.PG);
