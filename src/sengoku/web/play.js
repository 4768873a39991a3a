// The match page: one seat's (or a spectator's) live view over the WebSocket, or the replay of
// a finished match step by step. The game's renderer (./games/<game>.js) draws the board and
// the choices; this shell keeps the connection, the status line, the log and the final scores.
import { api, h, seatStore } from "./dom.js";
import { language, t, tOr, useLanguage } from "./i18n.js";
import { gameModule } from "./lobby.js";

export function matchPage(root, matchId, replay) {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  let info = null;          // GET /api/matches/{id}
  let data = null;          // the game's client data
  let module = null;        // the game's renderer module
  let renderer = null;
  let ctx = null;           // what the renderer gets: data, seat, act(), the page's parts
  let last = null;          // the latest welcome/update (or replay step)
  let before = null;        // this seat's view right after its last accepted action
  let logLines = [];        // [text, isNew]
  let logLength = 0;
  let socket = null;
  let refs = 0;
  const pending = new Map();
  let mySeat = null;
  let closed = false;
  let step = 0;
  let playing = null;
  const ui = {};
  const logFilter = { text: "", who: "" };

  const scopes = () => ["ui", info ? info.game : "ui"];

  async function load() {
    info = await api(`/api/matches/${matchId}`);
    const game = await api(`/api/games/${info.game}`);
    data = game.data;
    module = await gameModule(info.game);
    await useLanguage(language(), scopes());
  }

  function seatName(seat) {
    const colour = module.seatColours ? module.seatColours(info.players)[seat]?.name : null;
    const person = last?.seats?.[seat] || info.seats[seat];
    const who = person?.kind === "bot" ? t(`ui.level.${person.bot}`) : person?.name;
    return [colour || t("ui.seat", { n: seat + 1 }), who].filter(Boolean).join(" · ");
  }

  function build() {
    ui.status = h("div", { class: "status", role: "status", "aria-live": "polite" });
    ui.board = h("section", { class: "board-area", "aria-label": t("ui.play.board") });
    ui.players = h("section", { class: "players", "aria-label": t("ui.play.players") });
    ui.controls = h("section", { class: "controls", id: "controls", "aria-label": t("ui.play.controls") });
    ui.message = h("p", { class: "error", role: "alert" });
    ui.log = h("ol", { class: "log-lines" });
    ui.scores = h("section", { class: "scores", hidden: true });
    const filterInput = h("input", { type: "search", class: "log-filter", placeholder: t("ui.log.filter"), "aria-label": t("ui.log.filter"), value: logFilter.text,
      oninput: e => { logFilter.text = e.target.value; drawLog(); } });
    const whoSelect = h("select", { class: "log-who", "aria-label": t("ui.log.who"), onchange: e => { logFilter.who = e.target.value; drawLog(); } },
      h("option", { value: "" }, t("ui.log.everyone")),
      ...Array.from({ length: info.players }, (_, i) => {
        const name = module.seatColours ? module.seatColours(info.players)[i] : null;
        return h("option", { value: name ? name.key : "", selected: Boolean(logFilter.who) && name?.key === logFilter.who }, name ? name.name : t("ui.seat", { n: i + 1 }));
      }));
    const logBox = h("section", { class: "log" }, h("div", { class: "log-head" }, h("h2", {}, t("ui.log.title")), filterInput, whoSelect), ui.log);
    ui.replayBar = replay ? replayBar() : null;
    root.replaceChildren(h("div", { class: `match game-${info.game}` },
      ui.status, ui.replayBar,
      h("div", { class: "match-grid" },
        h("div", { class: "main-col" }, ui.board, ui.scores),
        h("aside", { class: "side-col" }, ui.controls, ui.message, ui.players, logBox))));
    ctx = {
      t, data, game: info.game, players: info.players, seat: mySeat, replay,
      root: { board: ui.board, players: ui.players, controls: ui.controls },
      act, seatName, language,
      log: () => logLines.map(([text]) => text),
      translateLog: text => (renderer?.translateLog ? renderer.translateLog(text) : text),
    };
    renderer = module.createRenderer(ctx);
  }

  function drawLog() {
    const needle = logFilter.text.toLowerCase();
    const shown = logLines.filter(([text]) => (!needle || text.toLowerCase().includes(needle) || ctx.translateLog(text).toLowerCase().includes(needle))
      && (!logFilter.who || text.includes(logFilter.who)));
    ui.log.replaceChildren(...shown.slice(-400).map(([text, fresh]) => h("li", { class: fresh ? "fresh" : null, title: text }, ctx.translateLog(text))));
    ui.log.scrollTop = ui.log.scrollHeight;
  }

  function drawStatus() {
    const m = last;
    if (!m) { ui.status.textContent = t("ui.play.connecting"); return; }
    const view = m.view;
    const phase = module.phaseText ? module.phaseText(view, t) : "";
    ui.status.className = "status";
    if (m.outcome) {
      const winners = m.outcome.winners.map(seatName).join(", ");
      ui.status.textContent = t("ui.play.over", { winners });
      ui.status.classList.add("over");
    } else if (!replay && m.legal && m.legal.length) {
      ui.status.textContent = `${t("ui.play.your_turn")} — ${phase}`;
      ui.status.classList.add("mine");
    } else {
      const names = (view.to_act || []).map(seatName).join(", ");
      ui.status.textContent = `${t("ui.play.waiting", { names })} — ${phase}`;
    }
    const who = mySeat === null ? t("ui.play.spectator") : t("ui.play.you_are", { name: seatName(mySeat) });
    ui.status.append(h("span", { class: "who" }, replay ? t("ui.replay.title") : who));
    document.title = `${!replay && m.legal?.length ? "● " : ""}${tOr(`${info.game}.title`, info.game)} — Sengoku`;
  }

  function drawScores() {
    const outcome = last?.outcome;
    ui.scores.hidden = !outcome;
    if (!outcome) return;
    const order = outcome.ranking || [...outcome.scores.keys()];
    ui.scores.replaceChildren(h("div", {}, h("h2", {}, t("ui.play.final_scores")),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("ui.play.rank")), h("th", {}, t("ui.play.player")), h("th", {}, t("ui.play.score")))),
        h("tbody", {}, ...order.map(seat => h("tr", { class: outcome.winners.includes(seat) ? "winner" : null },
          h("td", {}, String(outcome.ranks[seat])), h("td", {}, seatName(seat)), h("td", { class: "num" }, String(outcome.scores[seat])))))),
      module.scoreDetails ? module.scoreDetails(last.view, t, seatName) : null,
      replay ? null : h("p", {}, h("a", { href: `/replay/${matchId}` }, t("ui.lobby.replay")), " · ", h("a", { href: "/" }, t("ui.play.back")))));
  }

  function draw() {
    // for scripts and tests: which position the page shows
    root.dataset.number = String(last.number ?? 0);
    root.dataset.phase = last.view.phase ?? "";
    drawStatus();
    renderer.update(last, before);
    drawScores();
    drawLog();
  }

  function act(action) {
    return new Promise((resolve, reject) => {
      if (!socket || socket.readyState !== WebSocket.OPEN) { reject(new Error(t("ui.play.disconnected"))); return; }
      const ref = `a${++refs}`;
      pending.set(ref, { resolve, reject });
      ui.message.textContent = "";
      socket.send(JSON.stringify({ type: "act", action, ref, expect: last.number }));
    });
  }

  function onMessage(m) {
    if (m.type === "error") {
      const waiting = m.ref !== undefined && pending.get(m.ref);
      if (waiting) { pending.delete(m.ref); waiting.reject(new Error(m.message)); }
      ui.message.textContent = m.message;
      return;
    }
    if (m.type === "accepted") {
      const waiting = pending.get(m.ref);
      pending.delete(m.ref);
      before = last.view;
      for (const line of logLines) line[1] = false;
      if (waiting) waiting.resolve(m);
      return;
    }
    if (m.type === "presence" && last) { last.presence = m.presence; return; }
    if (m.type !== "welcome" && m.type !== "update") return;
    if (m.type === "welcome") {
      mySeat = m.seat;
      if (token && mySeat !== null) seatStore.put(matchId, mySeat, token);
      if (ctx) ctx.seat = mySeat;
    }
    if (mySeat === null && last) { // a spectator: what the last move changed
      before = last.view;
      for (const line of logLines) line[1] = false;
    }
    for (const line of m.log) logLines.push([line, last !== null]);
    logLength = m.log_length;
    last = m;
    if (!renderer) build();
    draw();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/matches/${matchId}`);
    socket.onopen = () => socket.send(JSON.stringify({ type: "hello", token, log_since: logLength }));
    socket.onmessage = event => onMessage(JSON.parse(event.data));
    socket.onclose = event => {
      for (const [, waiting] of pending) waiting.reject(new Error(t("ui.play.disconnected")));
      pending.clear();
      if (closed) return;
      if (event.code >= 4400 && event.code < 4500) {
        ui.status.textContent = `${t("ui.play.closed")} ${event.reason || ""}`;
        closed = true;
        return;
      }
      if (ui.status) ui.status.textContent = t("ui.play.reconnecting");
      setTimeout(connect, 1500);
    };
  }

  // -- replay ---------------------------------------------------------------------------------
  function replayBar() {
    const total = last?.total ?? 0;
    const slider = h("input", { type: "range", min: 0, max: total, value: step, class: "replay-slider", "aria-label": t("ui.replay.step"),
      oninput: e => goTo(Number(e.target.value)) });
    const button = (label, key, go) => h("button", { type: "button", class: "ghost", "aria-label": t(key), title: t(key), onclick: go }, label);
    return h("div", { class: "replay-bar" },
      button("«", "ui.replay.first", () => goTo(0)), button("‹", "ui.replay.back", () => goTo(step - 1)),
      button(playing ? "❚❚" : "▶", playing ? "ui.replay.pause" : "ui.replay.play", togglePlay),
      button("›", "ui.replay.forward", () => goTo(step + 1)), button("»", "ui.replay.last", () => goTo(total)),
      slider, h("span", { class: "replay-count" }, t("ui.replay.count", { n: step, total })),
      h("span", { class: "replay-action" }, last?.action ? `${seatName(last.action.seat)}: ${last.action.notation}` : ""));
  }

  async function goTo(n) {
    const total = last?.total ?? Infinity;
    n = Math.max(0, Math.min(n, total));
    const previous = last?.view ?? null;
    const m = await api(`/api/matches/${matchId}/replay/${n}`);
    step = n;
    logLines = m.log.map(line => [line, false]);
    if (previous && logLines.length) {
      const old = last ? last.log_length : 0;
      for (let i = Math.min(old, logLines.length); i < logLines.length; i++) logLines[i][1] = true;
    }
    before = previous;
    last = { ...m, legal: [], seats: info.seats };
    if (!renderer) build();
    const bar = replayBar();
    ui.replayBar.replaceWith(bar);
    ui.replayBar = bar;
    draw();
  }

  function togglePlay() {
    if (playing) { clearInterval(playing); playing = null; goTo(step); return; }
    playing = setInterval(() => {
      if (step >= (last?.total ?? 0)) { clearInterval(playing); playing = null; goTo(step); return; }
      goTo(step + 1);
    }, 700);
  }

  async function render() {
    if (!info) {
      await load();
      if (replay) {
        document.addEventListener("keydown", event => {
          if (/INPUT|SELECT|TEXTAREA/.test(document.activeElement?.tagName || "")) return;
          if (event.key === "ArrowRight") goTo(step + 1);
          if (event.key === "ArrowLeft") goTo(step - 1);
        });
        await goTo(0);
      } else {
        connect();
        root.replaceChildren(h("p", { class: "status" }, t("ui.play.connecting")));
      }
      document.getElementById("where").textContent = tOr(`${info.game}.title`, info.game);
      return;
    }
    // a new language: redraw everything from the last message
    renderer = null;
    build();
    if (replay) { const bar = replayBar(); ui.replayBar.replaceWith(bar); ui.replayBar = bar; }
    if (last) draw();
    document.getElementById("where").textContent = tOr(`${info.game}.title`, info.game);
  }

  return { scopes, render, game: () => info?.game };
}
