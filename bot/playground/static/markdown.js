// Discord's Markdown, parsed as Discord's client parses it: with simple-markdown (vendored, the
// parser the client is built on) and its emphasis, escape, link and code rules, plus the rules
// Discord adds (spoilers, fenced code, > and >>> quotes, # headers, -# subtext, lists, mentions,
// timestamps, custom emoji). The tree becomes DOM nodes built with textContent and text nodes
// only: message text is untrusted. Exposes PG.md (a message body) and PG.mdInline (an embed
// title or field name: no block syntax).
"use strict";
window.PG = window.PG || {};
(function (PG, SM) {
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // Quotes, headers, subtext and lists exist only where a line starts.
  function lineStart(prev) { return prev === "" || prev.endsWith("\n"); }
  function blockAllowed(state, prev) { return !state.noBlocks && lineStart(prev); }
  const inner = (capture, parse, state) => ({content: parse(capture[1], state)});

  const D = SM.defaultRules;
  let order = 0;
  const rules = {
    codeBlock: {
      order: order++,
      // The line break after a block belongs to it (Discord starts the next line under it).
      match: (source) => /^```(?:([a-z0-9_+\-.#]+?)\n)?\n*([^\n][\s\S]*?)\n*```\n?/i.exec(source),
      parse: (capture) => ({lang: (capture[1] || "").trim(), content: capture[2]}),
    },
    blockQuote: {
      order: order++,
      match: (source, state, prev) => state.inQuote || !blockAllowed(state, prev) ? null
        : /^( *>>> ([\s\S]*))|^( *>>>\n([\s\S]*))|^( *> [^\n]*(\n *> [^\n]*)*\n?)/.exec(source),
      parse: (capture, parse, state) => {
        const whole = capture[0];
        const body = /^ *>>>[ \n]/.test(whole) ? whole.replace(/^ *>>>[ \n]/, "")
          : whole.replace(/\n$/, "").replace(/^ *> ?/gm, "");
        return {content: parse(body, Object.assign({}, state, {inQuote: true}))};
      },
    },
    heading: {
      order: order++,
      match: (source, state, prev) => !blockAllowed(state, prev) ? null
        : /^(#{1,3}) +([^\n]*[^\s#][^\n]*?)[ \t]*(?:\n|$)/.exec(source),
      parse: (capture, parse, state) => ({level: capture[1].length, content: parse(capture[2], state)}),
    },
    subtext: {
      order: order++,
      match: (source, state, prev) => !blockAllowed(state, prev) ? null
        : /^-# +([^\n]*\S[^\n]*?)[ \t]*(?:\n|$)/.exec(source),
      parse: inner,
    },
    list: {
      order: order++,
      match: (source, state, prev) => !blockAllowed(state, prev) ? null
        : /^(?: *(?:[-*]|\d{1,9}\.) +[^\n]*\S[^\n]*(?:\n|$))+/.exec(source),
      parse: (capture, parse, state) => {
        const items = [];
        for (const line of capture[0].split("\n")) {
          const m = /^( *)([-*]|\d{1,9}\.) +(.*)$/.exec(line);
          if (!m) continue;
          items.push({depth: Math.min(Math.floor(m[1].length / 2), 2),
                      number: m[2].endsWith(".") ? parseInt(m[2], 10) : null,
                      content: parse(m[3], Object.assign({}, state, {noBlocks: true}))});
        }
        return {items};
      },
    },
    br: {order: order++, match: (source) => /^\n/.exec(source), parse: () => ({})},
    escape: Object.assign({}, D.escape, {order: order++, match: (source) => /^\\([^0-9A-Za-z\s])/.exec(source)}),
    spoiler: {order: order++, match: (source) => /^\|\|([\s\S]+?)\|\|/.exec(source), parse: inner},
    userMention: {order: order++, match: (source) => /^<@!?(\d+)>/.exec(source), parse: (c) => ({id: c[1]})},
    roleMention: {order: order++, match: (source) => /^<@&(\d+)>/.exec(source), parse: (c) => ({id: c[1]})},
    channelMention: {order: order++, match: (source) => /^<#(\d+)>/.exec(source), parse: (c) => ({id: c[1]})},
    timestamp: {
      order: order++,
      match: (source) => /^<t:(-?\d{1,13})(?::([tTdDfFR]))?>/.exec(source),
      parse: (c) => ({when: Number(c[1]), style: c[2] || "f"}),
    },
    customEmoji: {order: order++, match: (source) => /^<a?:(\w+):\d+>/.exec(source), parse: (c) => ({name: c[1]})},
    autolink: Object.assign({}, D.autolink, {
      order: order++, match: (source) => /^<(https?:\/\/[^ >]+)>/.exec(source)}),
    url: Object.assign({}, D.url, {order: order++, match: (source) => D.url.match.regex.exec(source)}),
    link: {
      order: order++,
      match: (source, state) => state.inLink ? null
        : /^\[((?:\\[\s\S]|[^\\\[\]\n])+)\]\(\s*<?(https?:\/\/[^\s<>()]+(?:\([^\s<>()]*\)[^\s<>()]*)*)>?\s*\)/.exec(source),
      parse: (capture, parse, state) => ({
        content: parse(capture[1], Object.assign({}, state, {inLink: true})), target: capture[2]}),
    },
    // Emphasis: simple-markdown's own rules, as Discord's client uses them (a lone * stays a
    // character, *** is bold italics), and _ opens no emphasis inside a word: its \b cannot see
    // the text before it, which the text rule has already taken (snake_case_name, a_b_).
    em: Object.assign({}, D.em, {
      order: order,
      match: (source, state, prev) => source[0] === "_" && /[0-9A-Za-z_]$/.test(prev) ? null
        : D.em.match.regex.exec(source)}),
    strong: Object.assign({}, D.strong, {order: order, match: (source) => D.strong.match.regex.exec(source)}),
    u: Object.assign({}, D.u, {order: order++, match: (source) => D.u.match.regex.exec(source)}),
    strike: Object.assign({}, D.del, {order: order++, match: (source) => /^~~([\s\S]+?)~~(?!_)/.exec(source)}),
    inlineCode: Object.assign({}, D.inlineCode, {
      order: order++, match: (source) => D.inlineCode.match.regex.exec(source)}),
    text: Object.assign({}, D.text, {
      order: order++,
      match: (source) => /^[\s\S]+?(?=[^0-9A-Za-z\s\u00c0-\uffff-]|\n|\w+:\S|$)/.exec(source)}),
  };
  const parser = SM.parserFor(rules);

  /** The syntax tree of a text, as Discord's client reads it (exposed for tests). */
  PG.mdParse = function mdParse(text, noBlocks) {
    return parser(String(text || ""), {inline: true, noBlocks: !!noBlocks});
  };

  // Discord's client writes relative times in the reader's language.
  function relative(seconds) {
    const delta = seconds * 1000 - Date.now();
    const abs = Math.abs(delta) / 1000;
    const [n, unit] = abs < 60 ? [Math.round(abs), "second"] : abs < 3600 ? [Math.round(abs / 60), "minute"]
      : abs < 86400 ? [Math.round(abs / 3600), "hour"] : [Math.round(abs / 86400), "day"];
    return new Intl.RelativeTimeFormat(PG.lang || "en").format(delta >= 0 ? n : -n, unit);
  }

  function link(children, url) {
    const jump = /^https:\/\/discord\.com\/channels\/(?:\d+|@me)\/(\d+)(?:\/(\d+))?/.exec(url);
    const a = el("a", "link");
    a.append(...children);
    if (jump) {
      a.href = "#";
      a.addEventListener("click", (e) => { e.preventDefault(); PG.jump(jump[1], jump[2]); });
    } else {
      a.href = url; a.target = "_blank"; a.rel = "noopener noreferrer";
    }
    return a;
  }

  function spoiler(children) {
    const s = el("span", "spoiler");
    s.append(...children);
    s.tabIndex = 0;
    s.setAttribute("role", "button");
    const reveal = () => { s.classList.add("revealed"); s.removeAttribute("role"); s.removeAttribute("tabindex"); };
    s.addEventListener("click", reveal);
    s.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") reveal(); });
    return s;
  }

  function list(items) {
    const box = document.createDocumentFragment();
    let current = null, ordered = null;
    for (const item of items) {
      const isOrdered = item.number !== null;
      if (current === null || isOrdered !== ordered) {
        current = el(isOrdered ? "ol" : "ul");
        if (isOrdered && item.number !== 1) current.start = item.number;
        ordered = isOrdered;
        box.append(current);
      }
      const li = el("li");
      if (item.depth) li.className = "depth" + item.depth;
      li.append(...nodes(item.content));
      current.append(li);
    }
    return box;
  }

  function node(n) {
    switch (n.type) {
      case "text": return document.createTextNode(n.content);
      case "br": return el("br");
      case "em": { const e = el("em"); e.append(...nodes(n.content)); return e; }
      case "strong": { const e = el("strong"); e.append(...nodes(n.content)); return e; }
      case "u": { const e = el("u"); e.append(...nodes(n.content)); return e; }
      case "strike": { const e = el("s"); e.append(...nodes(n.content)); return e; }
      case "spoiler": return spoiler(nodes(n.content));
      case "inlineCode": return el("code", "inline", n.content);
      case "codeBlock": {
        const pre = el("pre", "codeblock");
        const code = el("code", null, n.content);
        if (n.lang) code.dataset.lang = n.lang;
        pre.append(code);
        return pre;
      }
      case "blockQuote": { const q = el("blockquote"); q.append(...nodes(n.content)); return q; }
      case "heading": { const h = el("div", "h" + n.level); h.append(...nodes(n.content)); return h; }
      case "subtext": { const s = el("div", "subtext"); s.append(...nodes(n.content)); return s; }
      case "list": return list(n.items);
      case "link": return link(nodes(n.content), n.target);
      case "userMention": {
        const m = el("span", "mention", "@" + ((PG.users || {})[n.id] || "unknown-user"));
        if (n.id === PG.myId) m.classList.add("me");
        return m;
      }
      case "roleMention": return el("span", "mention", "@role");
      case "channelMention": {
        const a = el("a", "mention", "#" + (PG.channelName ? PG.channelName(n.id) : "unknown"));
        a.href = "#";
        a.addEventListener("click", (e) => { e.preventDefault(); PG.jump(n.id); });
        return a;
      }
      case "timestamp": return el("span", "time", n.style === "R" ? relative(n.when)
        : new Date(n.when * 1000).toLocaleString(PG.lang || "en"));
      case "customEmoji": return document.createTextNode(":" + n.name + ":");
      default: return document.createTextNode("");
    }
  }

  function nodes(tree) {
    const out = [];
    for (const n of tree) {
      const made = node(n);
      // Neighbouring texts as one node, as a reader sees them (escapes split them).
      if (made.nodeType === Node.TEXT_NODE && out.length && out[out.length - 1].nodeType === Node.TEXT_NODE) {
        out[out.length - 1].data += made.data;
      } else out.push(made);
    }
    return out;
  }

  PG.md = function md(text) {
    const box = el("div", "md");
    box.append(...nodes(PG.mdParse(text)));
    return box;
  };

  PG.mdInline = function mdInline(text) {
    return nodes(PG.mdParse(text, true));
  };
})(window.PG, window.SimpleMarkdown);
