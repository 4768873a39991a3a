// Small DOM helpers shared by the shell and the game renderers (no framework, no build step).

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** An HTML element: h("button", {class: "primary", onclick}, "Go"). */
export const h = (tag, attrs = {}, ...children) => fill(document.createElement(tag), attrs, children);

/** An SVG element: s("circle", {cx: 4, cy: 4, r: 2}). */
export const s = (tag, attrs = {}, ...children) => fill(document.createElementNS(SVG_NS, tag), attrs, children);

/** The signed-in player (null: nobody) and the session's CSRF token, which every change
 *  made with the session cookie carries (docs/protocol.md, "Accounts"). account.js fills it. */
export const session = { account: null, csrf: null };

/** JSON from the server's API; throws an Error carrying the API's message (and its `code`
 *  and HTTP `status`). A change (not GET) carries the session's CSRF token. */
export async function api(path, options = {}) {
  const headers = { "content-type": "application/json", ...(options.headers || {}) };
  const method = (options.method || "GET").toUpperCase();
  if (session.csrf && method !== "GET" && method !== "HEAD") headers["x-csrf-token"] = session.csrf;
  const response = await fetch(path, { ...options, headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body.error ? body.error.message : response.statusText);
    error.code = body.error?.code;
    error.status = response.status;
    throw error;
  }
  return body;
}

/** Seat tokens this browser holds, by match id: links the lobby can resume. */
export const seatStore = {
  all() {
    try { return JSON.parse(localStorage.getItem("sengoku.seats") || "{}"); } catch { return {}; }
  },
  put(match, seat, token) {
    const all = seatStore.all();
    all[match] = { ...(all[match] || {}), [seat]: token };
    localStorage.setItem("sengoku.seats", JSON.stringify(all));
  },
  /** Forget a token the server no longer accepts. */
  forget(match, token) {
    const all = seatStore.all();
    for (const [seat, held] of Object.entries(all[match] || {})) if (held === token) delete all[match][seat];
    localStorage.setItem("sengoku.seats", JSON.stringify(all));
  },
};

/** Add a stylesheet once (a game renderer's own CSS). */
export function useStylesheet(href) {
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h("link", { rel: "stylesheet", href }));
}

/** The host keys of the matches this browser created (to hand a seat to a bot, see
 *  docs/protocol.md, POST /api/matches/{id}/seats/{seat}). */
export const hostStore = {
  all() {
    try { return JSON.parse(localStorage.getItem("sengoku.host") || "{}"); } catch { return {}; }
  },
  put(match, token) {
    localStorage.setItem("sengoku.host", JSON.stringify({ ...hostStore.all(), [match]: token }));
  },
};
