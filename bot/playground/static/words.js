// The page's own words in the browser's language, as the server embedded them in the page
// (#words): PG.lang, PG.t(name, values) → text, PG.parts(name, values) → nodes.
"use strict";
window.PG = window.PG || {};
(function (PG) {
  const words = JSON.parse(document.getElementById("words").textContent);
  PG.lang = document.documentElement.lang || "en";
  const plurals = new Intl.PluralRules(PG.lang);

  function shown(value) {
    return typeof value === "number" ? value.toLocaleString(PG.lang) : String(value);
  }

  // A plural entry ({one: …, few: …, other: …}) takes its form from values.count.
  function entry(name, values) {
    const found = words[name];
    if (found === undefined) return name;
    if (typeof found === "string") return found;
    const n = Number(values && values.count);
    return found[plurals.select(n)] || found.other;
  }

  PG.t = function t(name, values) {
    return entry(name, values).replace(/\{(\w+)\}/g, (all, key) =>
      values && values[key] !== undefined ? shown(values[key]) : all);
  };

  // The same, with some values as DOM nodes (a mention, a command) kept in their place.
  PG.parts = function parts(name, values) {
    return entry(name, values).split(/(\{\w+\})/).filter((p) => p !== "").map((p) => {
      const key = /^\{(\w+)\}$/.exec(p);
      const value = key && values ? values[key[1]] : undefined;
      if (value === undefined) return document.createTextNode(p);
      return value instanceof Node ? value : document.createTextNode(shown(value));
    });
  };
})(window.PG);
