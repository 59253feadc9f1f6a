// Talking to the bot's Activity server: JSON routes with the session, and the live socket.
// Relative URLs only: inside Discord every request goes through Discord's proxy.
import { t } from "./i18n.mjs";

let session = null;

export function setSession(value) {
  session = value;
}

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter; // seconds, from Retry-After (429, 503)
  }
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (session) headers.Authorization = `Bearer ${session}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network", t("activity.error.network"));
  }
  let data = null;
  try { data = await response.json(); } catch { /* not JSON: said below */ }
  if (!response.ok || (data && data.error)) {
    const error = (data && data.error) || {};
    const wait = Number(response.headers.get("Retry-After"));
    throw new ApiError(response.status, error.code || `http_${response.status}`, error.message || t("activity.error.network"),
      Number.isFinite(wait) && wait > 0 ? wait : null);
  }
  return data;
}

/** A fresh nonce per send: the server refuses the same one twice (a replayed action). */
export function nonce() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The live socket: sends the session first, keeps the watched tables, comes back after a drop. */
export class Live {
  constructor(handlers) {
    this.handlers = handlers; // {state(table, state), tables(list), expired(), status(up)}
    this.tables = [];
    this.list = false;
    this.ready = false;
    this.closed = false;
    this.delay = 500;
    this.socket = null;
  }

  start() {
    if (this.closed) return;
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/live";
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", session })));
    socket.addEventListener("message", (event) => this.message(event));
    socket.addEventListener("close", (event) => {
      this.ready = false;
      clearInterval(this.pinger);
      this.handlers.status?.(false);
      if (event.code === 4401) { this.handlers.expired?.(); return; }
      if (!this.closed) setTimeout(() => this.start(), this.delay);
      this.delay = Math.min(this.delay * 2, 10_000);
    });
  }

  message(event) {
    let data;
    try { data = JSON.parse(event.data); } catch { return; }
    if (data.type === "ready") {
      this.ready = true;
      this.delay = 500;
      this.handlers.status?.(true);
      if (this.list) this.send({ type: "subscribe_list" });
      this.send({ type: "subscribe", tables: this.tables });
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25_000);
    } else if (data.type === "state") {
      this.handlers.state?.(data.table, data.state);
    } else if (data.type === "tables") {
      this.handlers.tables?.(data);
    } else if (data.type === "error") {
      this.handlers.error?.(data.error || {});
    }
  }

  send(message) {
    if (this.ready && this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  watch(tables, list = false) {
    this.tables = tables;
    if (list && !this.list) { this.list = true; this.send({ type: "subscribe_list" }); }
    this.send({ type: "subscribe", tables });
  }

  stop() {
    this.closed = true;
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
  }
}
