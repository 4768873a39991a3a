// An open table before its match starts (docs/protocol.md, "Open tables"): who sits where,
// a seat to take or leave, and, for the host, start (with bots in the seats still open) or
// cancel. The page asks the server every two seconds; once the host starts, it opens the match.
import { api, h, hostStore, seatStore, session } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { BOT_LEVELS } from "./lobby.js";

const POLL_MS = 2000;

/** Draw the table of `info` (GET /api/matches/{id}) into `root` and keep it fresh. */
export function tableRoom(root, matchId, info, module) {
  let fill = "normal";
  let message = "";
  let busy = false;

  const me = () => session.account?.name;
  const held = () => seatStore.all()[matchId] || {};
  const token = () => new URLSearchParams(location.hash.slice(1)).get("token");
  const mine = seat => (me() && seat.account === me()) || String(seat.seat) in held();
  const hostKey = () => hostStore.all()[matchId];
  const isHost = () => Boolean(hostKey()) || (me() && info.host === me());
  const bearer = key => (key ? { authorization: `Bearer ${key}` } : {});

  /** Send a change; `done` gets its answer before the table is drawn again. */
  async function call(path, method, body = {}, key = null, done = () => {}) {
    busy = true;
    message = "";
    try {
      const answer = await api(path, { method, headers: bearer(key), body: JSON.stringify(body) });
      done(answer);
      return answer;
    } catch (error) {
      message = error.message;
      return null;
    } finally {
      busy = false;
      await refresh(true);
    }
  }

  function seatRow(seat, colours) {
    const colour = colours[seat.seat];
    const who = seat.kind === "bot" ? t(`ui.level.${seat.bot}`) : seat.kind === "open" ? t("ui.tables.open") : seat.name || t("ui.lobby.human");
    const seated = info.seats.some(mine);
    const buttons = [];
    if (seat.kind === "open" && !seated) {
      buttons.push(h("button", { type: "button", class: "small take-seat", disabled: busy, onclick: () =>
        call(`/api/tables/${matchId}/seats/${seat.seat}`, "POST", session.account ? {} : { name: null }, null, taken => {
          seatStore.put(matchId, seat.seat, taken.token);
          history.replaceState(null, "", `/play/${matchId}#token=${taken.token}`);
        }) }, t("ui.tables.take", { n: seat.seat + 1 })));
    }
    if (seat.kind === "human" && (mine(seat) || isHost())) {
      const key = held()[seat.seat];
      buttons.push(h("button", { type: "button", class: "ghost small leave-seat", disabled: busy, onclick: () =>
        call(`/api/tables/${matchId}/seats/${seat.seat}`, "DELETE", {}, key || (mine(seat) ? null : hostKey()),
          () => { if (key) seatStore.forget(matchId, key); }) }, // that key opens nothing any more
      mine(seat) ? t("ui.tables.leave") : t("ui.tables.open_again")));
    }
    return h("li", { class: `table-seat seat-${seat.kind}${mine(seat) ? " mine" : ""}`, "data-seat": seat.seat },
      h("span", { class: "chip", style: colour ? `--seat:${colour.css}` : null }, colour ? colour.name : t("ui.seat", { n: seat.seat + 1 })),
      h("span", { class: "table-who" }, who, mine(seat) ? ` (${t("ui.tables.you")})` : ""), ...buttons);
  }

  function hostControls() {
    if (!isHost()) return null;
    const open = info.seats.filter(seat => seat.kind === "open").length;
    const levels = h("select", { id: "table-fill", "aria-label": t("ui.tables.fill_level"), onchange: e => { fill = e.target.value; } },
      ...BOT_LEVELS.map(level => h("option", { value: level, selected: level === fill }, t(`ui.level.${level}`))));
    return h("div", { class: "table-host" },
      h("h2", {}, t("ui.tables.host_title")),
      h("div", { class: "row" },
        h("button", { id: "table-start", type: "button", class: "primary", disabled: busy || open > 0,
          title: open ? t("ui.tables.wait_for", { n: open }) : null,
          onclick: () => call(`/api/tables/${matchId}/start`, "POST", { fill: null }, hostKey()) }, t("ui.tables.start")),
        open ? h("span", { class: "row fill" }, levels,
          h("button", { id: "table-start-bots", type: "button", disabled: busy,
            onclick: () => call(`/api/tables/${matchId}/start`, "POST", { fill }, hostKey()) }, t("ui.tables.start_with_bots", { n: open }))) : null,
        h("button", { id: "table-cancel", type: "button", class: "ghost", disabled: busy,
          onclick: () => call(`/api/tables/${matchId}`, "DELETE", {}, hostKey()) }, t("ui.tables.cancel"))));
  }

  function draw() {
    const colours = module.seatColours ? module.seatColours(info.players) : [];
    const link = `${location.origin}/play/${matchId}`;
    root.dataset.table = info.status;
    root.replaceChildren(h("div", { class: "lobby table-room" },
      h("section", { class: "card" },
        h("h1", {}, t("ui.tables.room_title", { game: tOr(`${info.game}.title`, info.game) }),
          info.rated ? h("span", { class: "tag" }, t("ui.tables.rated")) : null),
        h("p", { class: "hint" }, t("ui.tables.room_help")),
        h("ol", { class: "table-seats big" }, ...info.seats.map(seat => seatRow(seat, colours))),
        hostControls(),
        h("p", { class: "error", role: "alert" }, message),
        h("p", { class: "hint" }, t("ui.tables.invite"), " ",
          h("input", { readonly: true, class: "table-link", value: link, "aria-label": t("ui.tables.invite"), onfocus: e => e.target.select() })),
        h("p", {}, h("a", { href: "/" }, t("ui.play.back"))))));
  }

  /** Ask for the table again and draw it (``force``: even while the reader is in it). */
  async function refresh(force = false) {
    try {
      info = await api(`/api/matches/${matchId}`);
    } catch (error) {
      clearInterval(timer);
      root.replaceChildren(h("div", { class: "lobby" }, h("section", { class: "card" },
        h("p", { role: "alert" }, error.status === 404 ? t("ui.tables.gone") : error.message), h("a", { href: "/" }, t("ui.play.back")))));
      return;
    }
    if (info.status !== "open") { // started: the match page takes over
      clearInterval(timer);
      const key = token() || Object.values(held())[0];
      location.replace(`/play/${matchId}${key ? `#token=${key}` : ""}`);
      location.reload();
      return;
    }
    if (force || !root.contains(document.activeElement)) draw();
  }

  const timer = setInterval(() => { if (!busy) refresh(); }, POLL_MS);
  draw();
  return { redraw: draw };
}
