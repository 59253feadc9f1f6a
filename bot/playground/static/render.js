// Renders Discord messages as DOM nodes. Every text goes in with textContent: message text is
// untrusted. Exposes window.PG.render (message → element); its Markdown is markdown.js's PG.md.
"use strict";
window.PG = window.PG || {};
(function (PG) {
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  PG.el = el;

  // A picture's size, when known, keeps its place before it loads: nothing under it jumps.
  function picture(url, alt, cls, size) {
    const img = el("img", cls);
    if (size && size.width && size.height) { img.width = size.width; img.height = size.height; }
    img.src = url; img.alt = alt; img.loading = "lazy";
    return img;
  }

  function embed(e) {
    const box = el("div", "embed");
    if (typeof e.color === "number") box.style.borderLeftColor = "#" + e.color.toString(16).padStart(6, "0");
    const text = el("div", "embed-text");
    if (e.author && e.author.name) text.append(el("div", "embed-author", e.author.name));
    if (e.title) { const t = el("div", "embed-title"); t.append(...PG.mdInline(e.title)); text.append(t); }
    if (e.description) { const d = PG.md(e.description); d.classList.add("embed-desc"); text.append(d); }
    if (e.fields && e.fields.length) {
      const fields = el("div", "embed-fields");
      for (const f of e.fields) {
        const field = el("div", "field" + (f.inline ? " inline" : ""));
        const name = el("div", "field-name"); name.append(...PG.mdInline(f.name || ""));
        field.append(name, PG.md(f.value || ""));
        fields.append(field);
      }
      text.append(fields);
    }
    box.append(text);
    if (e.thumbnail && e.thumbnail.url) box.append(picture(e.thumbnail.url, e.title ? PG.t("picture.thumbnail", {title: e.title}) : PG.t("picture.thumbnail_untitled"), "embed-thumb", e.thumbnail));
    // The attachment's description is the picture's alt text, as Discord's client reads it.
    if (e.image && e.image.url) box.append(picture(e.image.url, e.image.description || PG.t(e.title ? "picture.image" : "picture.image_untitled", {title: e.title, file: e.image.filename || ""}).trim(), "embed-image", e.image));
    if (e.footer && e.footer.text) box.append(el("div", "embed-footer", e.footer.text));
    return box;
  }

  const STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"};

  function button(c, message) {
    const b = el("button", "btn " + (STYLES[c.style] || "secondary"));
    b.type = "button";
    if (c.emoji) b.append(el("span", "emoji", c.emoji.id ? ":" + c.emoji.name + ":" : c.emoji.name));
    if (c.label) b.append(el("span", "label", c.label));
    b.disabled = !!c.disabled;
    if (c.style === 5 && c.url) {
      b.append(el("span", "ext", " ↗"));
      b.addEventListener("click", () => {
        const jump = /^https:\/\/discord\.com\/channels\/(?:\d+|@me)\/(\d+)(?:\/(\d+))?/.exec(c.url);
        if (jump) PG.jump(jump[1], jump[2]);
        else if (/^https?:\/\//.test(c.url)) window.open(c.url, "_blank", "noopener,noreferrer");
      });
    } else {
      b.dataset.customId = c.custom_id || "";
      b.addEventListener("click", () => PG.click(message, c.custom_id, null, b));
    }
    return b;
  }

  function select(c, message) {
    const s = el("select", "menu");
    const placeholder = c.placeholder || PG.t("select_placeholder");
    s.setAttribute("aria-label", placeholder);
    const first = el("option", null, placeholder);
    first.value = ""; first.disabled = true;
    s.append(first);
    let chosen = false;
    const options = c.type === 3 ? (c.options || [])
      : c.type === 5 ? Object.entries(PG.users).map(([id, name]) => ({value: id, label: name})) : [];
    for (const o of options) {
      const opt = el("option", null, (o.emoji && !o.emoji.id ? o.emoji.name + " " : "") + o.label);
      opt.value = o.value;
      if (o.description) opt.title = o.description;
      if (o.default) { opt.selected = true; chosen = true; }
      s.append(opt);
    }
    if (!chosen) first.selected = true;
    s.disabled = !!c.disabled || !options.length;
    s.addEventListener("change", () => { if (s.value) PG.click(message, c.custom_id, [s.value], s); });
    return s;
  }

  function components(message) {
    const box = el("div", "components");
    for (const row of message.components || []) {
      const line = el("div", "row");
      for (const c of row.type === 1 ? row.components || [] : [row]) {
        if (c.type === 2) line.append(button(c, message));
        else if (c.type >= 3 && c.type <= 8) line.append(select(c, message));
        else if (c.type === 10 && c.content) line.append(PG.md(c.content));
      }
      box.append(line);
    }
    return box;
  }

  function colour(id) {
    let h = 0;
    for (const ch of String(id)) h = (h * 31 + ch.charCodeAt(0)) % 360;
    return "hsl(" + h + " 45% 45%)";
  }

  // What Discord draws over a message made through an interaction (interaction_metadata):
  // "@Ana used /sensei move" over a command's answer; a reply bar to the interaction's original
  // response over a follow-up, or to the clicked message over a click's answer.
  function header(it) {
    const who = el("span", "mention", "@" + (PG.users[it.user] || PG.t("someone")));
    const line = el("div", it.reply_to ? "used reply" : "used");
    line.dataset.user = it.user;
    if (it.reply_to) {
      line.dataset.replyTo = it.reply_to;
      line.append(el("span", "reply-bar", "↱ "));
    }
    if (it.command) {
      line.append(...PG.parts("used", {user: who, command: el("span", "cmd", it.command)}));
    } else {
      const to = PG.message ? PG.message(it.reply_to) : null;
      const text = !to ? PG.t("reply_hidden")
        : (to.content || "").replace(/\s+/g, " ").slice(0, 80) || PG.t("reply_attachment");
      line.append(who, " ", el("span", "reply-text", text));
    }
    return line;
  }

  // Discord shows a run of messages by one author under one name and avatar.
  PG.group = function group(node) {
    if (!node || !node.dataset || !node.dataset.author) return;
    const prev = node.previousElementSibling;
    node.classList.toggle("cont", !!prev && prev.dataset.author === node.dataset.author
                          && !node.dataset.alone && !prev.dataset.alone);
  };

  PG.render = function render(m) {
    const node = el("article", "msg" + (m.ephemeral ? " ephemeral" : "") + (m.notice ? " notice" : ""));
    node.id = "m-" + m.id;
    node.dataset.author = m.author.id;
    if (m.interaction || m.ephemeral) node.dataset.alone = "1";
    if (m.content && PG.myId && m.content.includes("<@" + PG.myId + ">")) node.classList.add("mentioned");
    if (m.interaction) node.append(header(m.interaction));
    const avatar = el("div", "avatar", (m.author.name || "?").slice(0, 1).toUpperCase());
    avatar.style.background = m.author.bot ? "#5865f2" : m.notice ? "#ed4245" : colour(m.author.id);
    avatar.setAttribute("aria-hidden", "true");
    const body = el("div", "body");
    const head = el("div", "head");
    head.append(el("span", "author", m.author.name));
    if (m.author.bot) head.append(el("span", "tag", PG.t("app_tag")));
    if (m.edited) head.append(el("span", "edited", PG.t("edited")));
    body.append(head);
    const empty = !m.content && !(m.embeds || []).length && !(m.attachments || []).length && !(m.components || []).length;
    if (m.content) body.append(PG.md(m.content));
    if (empty && m.author.bot) body.append(el("div", "thinking", PG.t("thinking", {bot: m.author.name})));
    for (const e of m.embeds || []) body.append(embed(e));
    for (const a of m.attachments || []) {
      if (a.url && a.type.startsWith("image/")) body.append(picture(a.url, a.description || PG.t("picture", {file: a.filename}), "attachment", a));
      else if (a.url) {
        const file = el("a", "file", "📎 " + a.filename);
        file.href = a.url; file.target = "_blank"; file.rel = "noopener";
        body.append(file);
      }
    }
    if ((m.components || []).length) body.append(components(m));
    body.append(el("div", "failed"));
    const thread = PG.threadOf(m.id);
    if (thread) {
      const a = el("a", "thread-link", "🧵 " + thread.name);
      a.href = "#";
      a.addEventListener("click", (e) => { e.preventDefault(); PG.jump(thread.id); });
      body.append(a);
    }
    if (m.ephemeral) {
      const eph = el("div", "eph");
      eph.append(el("span", null, "👁 " + PG.t("only_you") + " · "));
      const dismiss = el("a", "dismiss", PG.t("dismiss"));
      dismiss.href = "#";
      dismiss.addEventListener("click", (e) => { e.preventDefault(); PG.dismiss(m.id); });
      eph.append(dismiss);
      body.append(eph);
    }
    node.append(avatar, body);
    return node;
  };
})(window.PG);
