// The page's words: the catalogs' strings the server sent for the session's language (English
// fills gaps there). A key the server did not send shows as itself, so a missing one is seen.
let strings = {};

export function setStrings(more) {
  strings = { ...strings, ...(more || {}) };
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(strings, key);
}

export function t(key, params = {}) {
  const text = has(key) ? strings[key] : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The first of ``keys`` the catalogs hold, else ``fallback`` (words made from game data). */
export function tOr(key, fallback, params = {}) {
  return has(key) ? t(key, params) : fallback;
}
