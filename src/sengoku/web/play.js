// The match page: one seat's (or a spectator's) live view over the WebSocket, or the replay of
// a finished match step by step. The game's renderer (./games/<game>.js) draws the board and
// the choices; this shell keeps the connection, the status line, the log and the final scores.
import { hintBox, reviewPanel } from "./advisor.js";
import { api, h, hostStore, s, seatStore, session } from "./dom.js";
import { language, say, seatsNamed, t, tOr, useLanguage } from "./i18n.js";
import { BOT_LEVELS, gameModule } from "./lobby.js";
import { applyPatch } from "./patch.js";
import { lessonBox, lessonSeats, loadLesson } from "./learn.js";
import { ratingText } from "./players.js";
import { tableRoom } from "./table.js";

/** The page of a match: played (or watched) live, a finished one's `replay`, or, with
 *  `learn` (a game's name), that game's tutorial (learn.js). */
export function matchPage(root, matchId, replay, learn = null) {
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
  const undo = { hint: false, undos: 0 }; // the server's undo hint; how many undos the log is built on
  let following = true;     // the log shows its newest line unless the reader scrolled up
  let lesson = null;        // the tutorial's box (learn.js)

  const scopes = () => ["ui", info ? info.game : "ui"];

  async function load() {
    if (learn) {
      const taught = await loadLesson(learn);
      info = { game: learn, players: taught.players, seats: lessonSeats(taught), status: "running", hints: false, undo: false };
      mySeat = taught.seat;
      lesson = lessonBox({ game: learn, lesson: taught, goStep });
    } else {
      info = await api(`/api/matches/${matchId}`);
    }
    const game = await api(`/api/games/${info.game}`);
    data = game.data;
    module = await gameModule(info.game);
    await useLanguage(language(), scopes());
  }

  function seatName(seat) {
    const colour = module.seatColours ? module.seatColours(info.players)[seat]?.name : null;
    const person = last?.seats?.[seat] || info.seats[seat];
    const who = person?.kind === "bot" ? t(`ui.level.${person.bot}`) : person?.name;
    const seatLabel = colour || t("ui.seat", { n: seat + 1 });
    // where a seat plays a named side (Rising Sun's clans): "Bonsai (Player 1)"
    const side = last?.view && module.seatTitle ? module.seatTitle(last.view, seat) : null;
    return [side ? t("ui.seat_side", { side, seat: seatLabel }) : seatLabel, who].filter(Boolean).join(" · ");
  }

  /** The page's frame: status, replay bar, board, choices, players, log. Built once the match
   *  is known, and again (with the new labels) when the language changes; the renderer and its
   *  state (a half-made plan, the zoom) stay. */
  function frame() {
    ui.status = h("div", { class: "status", role: "status", "aria-live": "polite" }, t("ui.play.connecting"));
    ui.since = h("details", { class: "since", hidden: true, ontoggle: e => { sinceOpen = e.currentTarget.open; } });
    ui.board = h("section", { class: "board-area", "aria-label": t("ui.play.board") });
    ui.players = h("section", { class: "players", "aria-label": t("ui.play.players") });
    ui.controls = h("section", { class: "controls", id: "controls", "aria-label": t("ui.play.controls") });
    ui.message = h("p", { class: "error", role: "alert" });
    ui.undo = undoBar();
    ui.hint = hintBox(askHint);
    ui.review = replay ? reviewPanel({ matchId, seatName, goTo, colour: seat => module.seatColours?.(info.players)[seat]?.css || "var(--red)" }) : null;
    ui.log = h("ol", { class: "log-lines", onscroll: () => { following = logAtBottom(); } });
    ui.scores = h("section", { class: "scores", hidden: true });
    ui.host = h("details", { class: "host", hidden: true, ontoggle: e => { hostOpen = e.currentTarget.open; } });
    const colours = module.seatColours ? module.seatColours(info.players) : [];
    const filterInput = h("input", { type: "search", class: "log-filter", placeholder: t("ui.log.filter"), "aria-label": t("ui.log.filter"), value: logFilter.text,
      oninput: e => { logFilter.text = e.target.value; drawLog(); } });
    const whoSelect = h("select", { class: "log-who", "aria-label": t("ui.log.who"), onchange: e => { logFilter.who = e.target.value; drawLog(); } },
      h("option", { value: "" }, t("ui.log.everyone")),
      ...colours.map((c, seat) => h("option", { value: String(seat), selected: logFilter.who === String(seat) }, c.name)));
    const logBox = ui.logBox = h("section", { class: "log" }, h("div", { class: "log-head" }, h("h2", {}, t("ui.log.title")), filterInput, whoSelect), ui.log);
    ui.replayBar = replay ? replayBar() : null;
    root.replaceChildren(h("div", { class: `match game-${info.game}${learn ? " learning" : ""}` }, lesson?.element,
      h("div", { class: "status-row" }, ui.status, ui.since), chatJump(), rematchNotice(), ui.claim = h("div", { class: "claim", hidden: true }), ui.replayBar,
      h("div", { class: "match-grid" },
        h("div", { class: "main-col" }, ui.board, ui.scores, ui.review),
        // the side column: its top part scrolls, the log stays at its foot (style.css)
        ui.side = h("aside", { class: "side-col" }, h("div", { class: "side-scroll" }, ui.controls, ui.hint.element, ui.undo, ui.message, ui.players, chatPanel(), ui.host), logBox))));
    document.getElementById("where").textContent = tOr(`${info.game}.title`, info.game);
    if (!ctx) {
      ctx = {
        t, data, game: info.game, players: info.players, seat: mySeat, replay, root: {},
        act, seatName, language,
        log: () => logLines.map(([entry]) => entry), // messages (docs/protocol.md), or plain text
        say: lineText,
      };
      renderer = module.createRenderer(ctx);
    }
    Object.assign(ctx.root, { board: ui.board, players: ui.players, controls: ui.controls });
    if (last) draw();
  }

  /** A log line in the reader's language: a message from the catalogs (docs/protocol.md,
   *  "Messages"), or the plain text of a game without a catalog, as it is. */
  const lineText = entry => say(entry);

  /** Whether a log line concerns a seat: its message names the seat (or a plain line its colour). */
  function concerns(entry, seat) {
    return typeof entry === "string" ? entry.includes(module.seatColours(info.players)[seat].key) : seatsNamed(entry).has(seat);
  }

  function drawLog() {
    const needle = logFilter.text.toLowerCase();
    const who = logFilter.who === "" ? null : Number(logFilter.who);
    const shown = logLines.filter(([entry]) => (!needle || lineText(entry).toLowerCase().includes(needle))
      && (who === null || concerns(entry, who)));
    ui.log.replaceChildren(...shown.slice(-400).map(([entry, fresh]) => h("li", { class: fresh ? "fresh" : null }, lineText(entry))));
    if (following) ui.log.scrollTop = ui.log.scrollHeight;
  }

  /** Whether the log is scrolled to its newest line (or has nothing to scroll). */
  function logAtBottom() {
    return ui.log.scrollHeight - ui.log.scrollTop - ui.log.clientHeight < 24;
  }

  // -- since your last move, bots thinking, the turn clock, turn notices (issue 19) -----------
  let sinceOpen = false;
  /** What happened since this seat's last move (for a spectator: since the last move): the
   *  log's fresh lines, the newest in the summary, all of them when opened. */
  function drawSince() {
    const fresh = replay ? [] : logLines.filter(([, isNew]) => isNew).map(([entry]) => entry);
    ui.since.hidden = !fresh.length;
    if (!fresh.length) { ui.since.replaceChildren(); return; }
    const label = mySeat === null ? t("ui.since.last_move", { n: fresh.length }) : t("ui.since.your_move", { n: fresh.length });
    ui.since.open = sinceOpen;
    ui.since.replaceChildren(
      h("summary", {}, h("span", { class: "since-label" }, label), " ", h("span", { class: "since-latest" }, lineText(fresh[fresh.length - 1]))),
      h("ol", { class: "since-lines" }, ...fresh.slice(-40).map(entry => h("li", {}, lineText(entry)))));
  }

  /** The colour (or clan) that names a seat, without the person or the bot level. */
  function seatWord(seat) {
    return (module.seatColours ? module.seatColours(info.players)[seat]?.name : null) || t("ui.seat", { n: seat + 1 });
  }

  /** "Blue (bot) is thinking…" for the seats a bot decides for now, among those the match
   *  waits for; a person's seat whose turn clock ran out is played by the clock's bot. */
  function thinkingText(m, waiting) {
    const seats = (m.thinking || []).filter(seat => waiting.includes(seat));
    return seats.map(seat => {
      const person = (m.seats || info.seats)[seat];
      return t(person?.kind === "bot" ? "ui.play.thinking" : "ui.play.clock_bot", { name: seatWord(seat) });
    });
  }

  /** Seconds left on the turn clock of `seat` (null: none), from the update's deadline. */
  function clockLeft(m, seat) {
    const deadline = m?.clock?.deadlines?.[seat];
    if (!deadline) return null;
    return Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
  }

  /** A small clock face (our own drawing; no emoji font needed). */
  const clockIcon = () => s("svg", { viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", class: "clock-icon" },
    s("circle", { cx: 8, cy: 9, r: 6, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
    s("path", { d: "M8 5.5V9l2.2 1.6M6.5 1.5h3", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }));

  const clockText = left => `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;

  /** The countdown shown in the status line: yours when the match waits for you, else that
   *  of each person it waits for. */
  function clockPart(m, waiting) {
    if (!m?.clock || m.outcome || replay) return null;
    const mine = mySeat !== null && m.legal?.length ? [mySeat] : waiting;
    const parts = mine.map(seat => [seat, clockLeft(m, seat)]).filter(([, left]) => left !== null);
    if (!parts.length) return null;
    const text = () => parts.map(([seat]) => {
      const left = clockLeft(m, seat) ?? 0;
      return seat === mySeat ? t("ui.clock.yours", { time: clockText(left) }) : t("ui.clock.theirs", { name: seatWord(seat), time: clockText(left) });
    }).join(" · ");
    const words = h("span", {}, text());
    const span = h("span", { class: "clock", title: t("ui.clock.help", { n: m.clock.seconds }) }, clockIcon(), words);
    span.refresh = () => {
      words.textContent = text();
      span.classList.toggle("low", parts.some(([seat]) => (clockLeft(m, seat) ?? 99) <= 10));
    };
    span.refresh();
    return span;
  }
  setInterval(() => { for (const span of document.querySelectorAll(".status .clock")) span.refresh?.(); }, 1000);

  const NOTIFY_KEY = "sengoku.notify";
  let audio = null;
  const notifyOn = () => localStorage.getItem(NOTIFY_KEY) === "1";

  /** The bell in the status line: a sound and a browser notice when it becomes your turn
   *  while this tab is hidden (kept in this browser). */
  function notifyToggle() {
    const on = notifyOn();
    return h("button", { type: "button", class: `ghost small notify${on ? " on" : ""}`, "aria-pressed": String(on),
      title: t(on ? "ui.notify.on" : "ui.notify.off"), "aria-label": t("ui.notify.label"),
      onclick: async () => {
        const next = !notifyOn();
        localStorage.setItem(NOTIFY_KEY, next ? "1" : "0");
        if (next) {
          audio ??= window.AudioContext ? new AudioContext() : null; // made on a click, so it may play later
          if (window.Notification && Notification.permission === "default") {
            try { await Notification.requestPermission(); } catch { /* refused or unsupported */ }
          }
        }
        drawStatus();
      } }, bellIcon(on));
  }

  /** A bell, struck through when off (our own drawing; no emoji font needed). */
  const bellIcon = on => s("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", class: "bell" },
    s("path", { d: "M8 1.5a1 1 0 0 1 1 1v.6a4.5 4.5 0 0 1 3.5 4.4v2.8l1.3 1.9a.5.5 0 0 1-.4.8H2.6a.5.5 0 0 1-.4-.8l1.3-1.9V7.5A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1zM6.3 13.8h3.4a1.7 1.7 0 0 1-3.4 0z", fill: "currentColor" }),
    on ? null : s("path", { d: "M2 2l12 12", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }));

  /** A short two-note chime, made with WebAudio (no sound file). */
  function chime() {
    try {
      audio ??= new AudioContext();
      if (audio.state === "suspended") audio.resume();
      const now = audio.currentTime;
      for (const [i, freq] of [[0, 660], [1, 880]]) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = "sine";
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, now + i * 0.16);
        gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.16 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.3);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + i * 0.16);
        osc.stop(now + i * 0.16 + 0.32);
      }
    } catch { /* no sound here */ }
  }

  let myTurnBefore = false;
  /** Called with each update: a notice when it has just become this seat's turn. */
  function noticeTurn(m) {
    const mine = !replay && mySeat !== null && Boolean(m.legal?.length) && !m.outcome;
    const starts = mine && !myTurnBefore;
    myTurnBefore = mine;
    // a new turn (or the end): the side column shows your choices (or the players) from the top
    if ((starts || m.outcome) && ui.side) ui.side.querySelector(".side-scroll")?.scrollTo(0, 0);
    if (!starts || !document.hidden || !notifyOn()) return;
    chime();
    if (window.Notification && Notification.permission === "granted") {
      try {
        const phase = module.phaseText ? module.phaseText(m.view, t) : "";
        new Notification(t("ui.notify.your_turn", { game: tOr(`${info.game}.title`, info.game) }), { body: phase, tag: `sengoku-${matchId}` });
      } catch { /* notices not allowed here */ }
    }
  }

  function drawStatus() {
    const m = last;
    if (!m) { ui.status.textContent = t("ui.play.connecting"); return; }
    const view = m.view;
    const phase = module.phaseText ? module.phaseText(view, t) : "";
    ui.status.className = "status";
    if (learn) {
      ui.status.textContent = [lesson.status(), m.outcome ? t("ui.play.over", { winners: m.outcome.winners.map(seatName).join(", ") }) : phase].filter(Boolean).join(" — ");
      ui.status.classList.add("mine");
    } else if (m.abandoned) {
      ui.status.textContent = t("ui.play.abandoned");
      ui.status.classList.add("over");
    } else if (m.outcome) {
      const winners = m.outcome.winners.map(seatName).join(", ");
      ui.status.textContent = t("ui.play.over", { winners });
      ui.status.classList.add("over");
    } else if (!replay && m.legal && m.legal.length) {
      ui.status.textContent = [t("ui.play.your_turn"), phase].filter(Boolean).join(" — ");
      ui.status.classList.add("mine");
    } else {
      const waiting = view.to_act || [];
      const thinking = replay ? [] : thinkingText(m, waiting);
      const others = waiting.filter(seat => replay || !(m.thinking || []).includes(seat));
      const names = others.map(seatName).join(", ");
      ui.status.textContent = [[...thinking, others.length ? t("ui.play.waiting", { names }) : null].filter(Boolean).join(" · "), phase].filter(Boolean).join(" — ");
      if (thinking.length) ui.status.classList.add("thinking");
    }
    ui.status.append(...[clockPart(m, view.to_act || [])].filter(Boolean));
    const who = mySeat === null ? t("ui.play.spectator") : t("ui.play.you_are", { name: seatName(mySeat) });
    ui.status.append(h("span", { class: "who" }, replay ? t("ui.replay.title") : who));
    if (!replay && !learn && mySeat !== null) ui.status.append(notifyToggle());
    document.title = `${!replay && m.legal?.length ? "● " : ""}${tOr(`${info.game}.title`, info.game)} — Sengoku`;
  }

  function drawScores() {
    fillRematchNotice();
    const outcome = last?.outcome;
    ui.scores.hidden = !outcome;
    if (!outcome) return;
    const order = outcome.ranking || [...outcome.scores.keys()];
    const changes = ratingChanges();
    ui.scores.replaceChildren(h("div", {}, h("h2", {}, t("ui.play.final_scores")), rankLine(outcome),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("ui.play.rank")), h("th", {}, t("ui.play.player")), h("th", {}, t("ui.play.score")),
        changes ? h("th", {}, t("ui.play.rating")) : null)),
        h("tbody", {}, ...order.map(seat => h("tr", { class: outcome.winners.includes(seat) ? "winner" : null, "data-seat": seat },
          h("td", {}, String(outcome.ranks[seat])), h("td", {}, seatName(seat)), h("td", { class: "num" }, String(outcome.scores[seat])),
          changes ? h("td", { class: "num rating-change" }, ratingChangeText(changes[seat])) : null)))),
      module.scoreDetails ? module.scoreDetails(last.view, t, seatName) : null,
      replay || learn ? null : h("p", {}, h("a", { href: `/replay/${matchId}#review`, class: "review-link" }, t("ui.review.link")), " · ", h("a", { href: "/" }, t("ui.play.back")))));
  }

  // -- a rated match's rating changes (docs/protocol.md, GET /api/matches/{id}/ratings) -------
  let ratings = null; // by seat, once the server has rated the match; null until then
  let ratingsAsked = false;
  function ratingChanges() {
    if (!info.rated || ratings) return ratings;
    if (!ratingsAsked) {
      ratingsAsked = true;
      api(`/api/matches/${matchId}/ratings`).then(answer => {
        if (!answer.changes.length) { ratingsAsked = false; return; } // not rated yet: ask again later
        ratings = Object.fromEntries(answer.changes.map(change => [change.seat, change]));
        drawScores();
      }).catch(() => { ratingsAsked = false; });
    }
    return null;
  }

  function ratingChangeText(change) {
    if (!change) return "";
    const delta = change.mu - change.mu_before;
    return `${ratingText(change.mu, change.sigma)} (${delta >= 0 ? "+" : "−"}${Math.abs(delta).toFixed(1)})`;
  }

  /** "You finished 2nd" (or "shared 2nd") for the seat this page plays. */
  function rankLine(outcome) {
    if (mySeat === null || replay || !outcome.ranks) return null;
    const rank = outcome.ranks[mySeat];
    const shared = outcome.ranks.filter(r => r === rank).length > 1;
    const place = tOr(`ui.ordinal.${rank}`, String(rank));
    return h("p", { class: `your-rank${rank === 1 ? " first" : ""}` }, t(shared ? "ui.play.you_finished_shared" : "ui.play.you_finished", { place }));
  }

  /** The side column is as tall as the window below its top (style.css), so that the log
   *  at its foot is in view without scrolling the page. */
  function fitSide() {
    if (!ui.side) return;
    const top = ui.side.getBoundingClientRect().top + window.scrollY;
    ui.side.style.setProperty("--side-top", `${Math.round(top)}px`);
  }
  window.addEventListener("resize", () => { fitSide(); if (following && ui.log) ui.log.scrollTop = ui.log.scrollHeight; });

  function draw() {
    // for scripts and tests: which position the page shows
    root.dataset.number = String(last.number ?? 0);
    root.dataset.phase = last.view.phase ?? "";
    drawStatus();
    renderer.update(last, before);
    drawScores();
    drawSince();
    fitSide();
    drawLog();
    drawHost();
    drawUndo();
    drawHint();
    drawClaim();
    if (replay) showReplayStep();
    if (learn) lesson.draw({ board: ui.board, choices: ui.controls, players: ui.players, log: ui.logBox, scores: ui.scores });
  }

  // -- a seat opened by its link while signed in: keep it in the account? ---------------------
  // docs/protocol.md, POST /api/matches/{id}/seats/{seat}/claim. Asked, never done unasked.
  const CLAIM_KEY = `sengoku.claim.${matchId}`;
  function drawClaim() {
    const seat = mySeat === null ? null : (last.seats || info.seats)[mySeat];
    const me = session.account;
    ui.claim.hidden = !(me && token && seat && seat.kind === "human" && !seat.account && !sessionStorage.getItem(CLAIM_KEY) && !replay);
    if (ui.claim.hidden) return;
    const error = h("span", { class: "error", role: "alert" });
    ui.claim.replaceChildren(
      h("p", {}, t("ui.claim.ask", { name: me.display_name })),
      h("button", { type: "button", class: "small", id: "claim-seat", onclick: async () => {
        try {
          await api(`/api/matches/${matchId}/seats/${mySeat}/claim`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
          sessionStorage.setItem(CLAIM_KEY, "done");
          ui.claim.hidden = true;
        } catch (problem) {
          error.textContent = problem.message;
        }
      } }, t("ui.claim.yes")),
      h("button", { type: "button", class: "ghost small", onclick: () => { sessionStorage.setItem(CLAIM_KEY, "no"); ui.claim.hidden = true; } }, t("ui.claim.no")),
      error);
  }

  // -- undo ----------------------------------------------------------------------------------
  // The seat may take back its latest move while it showed nothing hidden, drew no chance
  // and nobody has acted on it (docs/protocol.md, {"type": "undo"}). The server says in each
  // update whether that would go through ("undo", asked for with "undo_hints" in the hello);
  // the button shows only then, and Ctrl+Z (⌘Z) presses it. A refusal is shown in words.
  function undoBar() {
    ui.undoButton = h("button", { type: "button", class: "ghost small undo", title: t("ui.undo.title"), "aria-keyshortcuts": "Control+Z Meta+Z",
      onclick: () => askUndo() }, `↶ ${t("ui.undo.button")}`);
    return h("div", { class: "undo-bar", hidden: true }, ui.undoButton);
  }

  /** Shown when the server says so and no move of this page is on its way (a renderer that
   *  sends a sequence of steps, such as Shogun's plan, is not interrupted half-way). */
  function undoShown() {
    return !replay && mySeat !== null && info?.undo !== false && Boolean(last) && !last.outcome && undo.hint && [...pending.values()].every(waiting => waiting.hint);
  }

  function drawUndo() {
    ui.undo.hidden = !undoShown();
  }

  function askUndo() {
    if (!undoShown() || !socket || socket.readyState !== WebSocket.OPEN) return Promise.resolve(null);
    const ref = `u${++refs}`;
    ui.message.textContent = "";
    ui.undoButton.disabled = true;
    return new Promise((resolve, reject) => {
      pending.set(ref, { resolve, reject });
      socket.send(JSON.stringify({ type: "undo", ref }));
    }).catch(() => null).finally(() => { ui.undoButton.disabled = false; });
  }

  /** An error in the reader's language where the client knows its code. */
  function errorText(m) {
    if (m.code === "undo_refused") { undo.hint = false; drawUndo(); return tOr(`ui.undo.refused.${m.reason}`, m.message); }
    if (m.code === "undo_disabled") return t("ui.undo.disabled");
    if (["hints_disabled", "hint_pending", "not_your_turn", "unavailable"].includes(m.code)) return tOr(`ui.hint.error.${m.code}`, m.message);
    return m.message;
  }

  // -- hints ------------------------------------------------------------------------------------
  // docs/protocol.md, {"type": "hint"}: in a match whose host allows them, the seat whose turn
  // it is may ask the advisor for its three best actions; everyone is told in the chat.
  function drawHint() {
    const allowed = !replay && mySeat !== null && info?.hints === true && Boolean(last?.legal?.length) && !last.outcome;
    ui.hint.show(allowed, last?.number ?? null);
  }

  function askHint() {
    return new Promise((resolve, reject) => {
      if (!socket || socket.readyState !== WebSocket.OPEN) { reject(new Error(t("ui.play.disconnected"))); return; }
      const ref = `h${++refs}`;
      pending.set(ref, { resolve, reject, hint: true });
      socket.send(JSON.stringify({ type: "hint", ref }));
    });
  }

  // -- the host's seats ----------------------------------------------------------------------
  // The browser that created the match keeps its host key: it may hand a seat to a bot (a
  // player who left), give it back, or give it to someone new with a fresh link (the old link
  // stops working). docs/protocol.md, POST /api/matches/{id}/seats/{seat}.
  let hostOpen = false;
  let newLinks = {};
  function drawHost() {
    const key = hostStore.all()[matchId];
    ui.host.hidden = !key || replay || Boolean(last.outcome || last.abandoned);
    if (ui.host.hidden) return;
    ui.host.open = hostOpen;
    const change = async (seat, body) => {
      try {
        const made = await api(`/api/matches/${matchId}/seats/${seat}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
        if (made.join_url) newLinks = { ...newLinks, [seat]: made.join_url };
        drawHost();
      } catch (error) {
        ui.message.textContent = error.message;
      }
    };
    const rows = (last.seats || info.seats).map(({ seat, kind, bot }) => {
      const select = h("select", { class: "host-kind", "data-seat": seat, "aria-label": t("ui.lobby.seat_kind", { n: seat + 1 }) },
        h("option", { value: "human", selected: kind === "human" }, t("ui.lobby.human")),
        ...BOT_LEVELS.map(level => h("option", { value: level, selected: kind === "bot" && bot === level }, t(`ui.level.${level}`))));
      return h("li", {}, h("span", { class: "host-seat" }, seatName(seat)), select,
        h("button", { type: "button", class: "ghost small host-apply", onclick: () => change(seat, select.value === "human" ? { kind: "human" } : { kind: "bot", bot: select.value }) }, t("ui.host.apply")),
        kind === "human" ? h("button", { type: "button", class: "ghost small host-new", onclick: () => change(seat, { kind: "human", new_token: true }) }, t("ui.host.new_link")) : null,
        newLinks[seat] ? h("input", { readonly: true, class: "host-link", value: newLinks[seat], "aria-label": t("ui.lobby.link"), onfocus: e => e.target.select() }) : null);
    });
    const abandon = async () => {
      if (!confirm(t("ui.host.abandon_confirm"))) return;
      try {
        await api(`/api/matches/${matchId}/abandon`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
      } catch (error) {
        ui.message.textContent = error.message;
      }
    };
    const end = info.rated ? [] : [h("p", { class: "hint" }, t("ui.host.abandon_help")),
      h("button", { type: "button", class: "ghost small danger host-abandon", onclick: abandon }, t("ui.host.abandon"))];
    ui.host.replaceChildren(h("summary", {}, t("ui.host.title")), h("p", { class: "hint" }, t("ui.host.help")), h("ul", { class: "host-seats" }, ...rows), ...end);
  }

  function act(action) {
    if (learn) return lesson.act(action);
    return new Promise((resolve, reject) => {
      if (!socket || socket.readyState !== WebSocket.OPEN) { reject(new Error(t("ui.play.disconnected"))); return; }
      const ref = `a${++refs}`;
      pending.set(ref, { resolve, reject });
      ui.message.textContent = "";
      socket.send(JSON.stringify({ type: "act", action, ref, expect: last.number }));
    });
  }

  function onMessage(m) {
    if (onChatOrRematch(m)) return;
    if (m.type === "hint") {
      const waiting = pending.get(m.ref);
      pending.delete(m.ref);
      if (waiting) waiting.resolve(m);
      return;
    }
    if (m.type === "error") {
      const waiting = m.ref !== undefined && pending.get(m.ref);
      const text = errorText(m);
      if (waiting) { pending.delete(m.ref); waiting.reject(new Error(text)); }
      if (waiting?.hint) return; // shown in the hint box
      if (m.code === "bad_token" || m.code === "seat_reassigned") seatStore.forget(matchId, token);
      ui.message.textContent = text;
      if (!last) ui.status.textContent = text;
      setTimeout(drawUndo);
      return;
    }
    if (m.type === "undone") {
      const waiting = pending.get(m.ref);
      pending.delete(m.ref);
      if (waiting) waiting.resolve(m);
      setTimeout(drawUndo);
      return;
    }
    if (m.type === "accepted") {
      const waiting = pending.get(m.ref);
      pending.delete(m.ref);
      before = last.view;
      for (const line of logLines) line[1] = false;
      drawSince();
      if (waiting) waiting.resolve(m);
      setTimeout(drawUndo); // once the renderer has sent its next step, if any
      return;
    }
    if (m.type === "presence" && last) { last.presence = m.presence; return; }
    if (m.type === "thinking" && last) { last.thinking = m.seats; drawStatus(); return; }
    if (m.type !== "welcome" && m.type !== "update") return;
    if (m.type === "welcome") {
      retries = 0;
      mySeat = m.seat;
      if (token && mySeat !== null) seatStore.put(matchId, mySeat, token);
      ctx.seat = mySeat;
    }
    if (mySeat === null && last) { // a spectator: what the last move changed
      before = last.view;
      for (const line of logLines) line[1] = false;
    }
    if (m.reset) { // an undo: the whole log again, and nothing to mark as changed
      logLines = [];
      before = null;
    }
    for (const line of m.log) logLines.push([line, last !== null && !m.reset]);
    logLength = m.log_length;
    if (m.undos !== undefined) undo.undos = m.undos;
    undo.hint = m.undo === true;
    if (last && m.thinking === undefined) m.thinking = last.thinking;
    last = m;
    draw();
    noticeTurn(m);
  }

  // Closed for good: a bad hello or token (4400), the seat given to someone else (4401), no
  // such match (4404). Anything else (a lost network, 4408 for a client that fell behind)
  // reconnects, later each time, and asks only for the log lines it has not seen.
  const FINAL_CLOSE = new Set([4400, 4401, 4404]);
  // With several server processes, another one may serve the match: it answers "moved" with
  // its name and closes (4307), and we connect again at once, naming it (?at=NAME), which the
  // proxy routes by (docs/deploy.md). A lost connection forgets the name: the match may have
  // moved meanwhile.
  const CLOSE_MOVED = 4307;
  let retries = 0;
  let at = null;
  let moves = 0;

  /** Whether the signed-in player holds a seat of this match (it opens without a key). */
  const byAccount = () => Boolean(session.account && info.seats.some(seat => seat.account === session.account.name));

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const where = at ? `?at=${encodeURIComponent(at)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}/ws/matches/${matchId}${where}`);
    // without a link's key, a signed-in player's own seat opens by their account (the cookie)
    const who = token ? { token } : byAccount() ? { account: true } : { token: null };
    socket.onopen = () => socket.send(JSON.stringify({ type: "hello", ...who, log_since: logLength, undos: undo.undos, undo_hints: true, patches: true }));
    socket.onmessage = event => {
      const m = JSON.parse(event.data);
      if (m.type === "error" && m.code === "moved") { at = m.at || null; return; }
      if (m.type === "welcome") moves = 0;
      if (m.patch) { // an update with what changed in our view since the last (docs/protocol.md)
        try {
          m.view = applyPatch(last.view, m.patch);
        } catch (error) {
          console.warn("a view patch did not apply; asking for the whole view", error);
          socket.send(JSON.stringify({ type: "sync" }));
          return;
        }
        delete m.patch;
      }
      onMessage(m);
    };
    socket.onclose = event => {
      for (const [, waiting] of pending) waiting.reject(new Error(t("ui.play.disconnected")));
      pending.clear();
      if (closed) return;
      if (FINAL_CLOSE.has(event.code)) {
        closed = true;
        ui.status.className = "status";
        ui.status.textContent = `${t("ui.play.closed")} ${ui.message.textContent || event.reason || ""}`;
        return;
      }
      ui.status.textContent = t("ui.play.reconnecting");
      if (event.code === CLOSE_MOVED && moves < 20) { // at once, then a little later each time
        setTimeout(connect, moves++ === 0 ? 0 : 300 * (0.75 + Math.random() / 2));
        return;
      }
      at = null;
      const wait = Math.min(15000, 1000 * 2 ** retries++) * (0.75 + Math.random() / 2);
      setTimeout(connect, wait);
    };
  }

  // -- chat and rematch ------------------------------------------------------------------------
  // docs/protocol.md, "Chat" and "Rematch". Messages are always shown as text (textContent via
  // h()), never as markup. Messages that came since the reader last used the chat are marked.
  const chat = { lines: [], draft: "", error: "", refs: new Set(), sent: 0, fresh: 0 };
  const rematch = { match: null, url: null, error: "", asking: false };

  /** Chat messages and errors, and rematch notices; true when the message was one of them. */
  function onChatOrRematch(m) {
    if (m.type === "welcome") {
      chat.lines = (m.chat || []).map(line => ({ ...line, fresh: false }));
      chat.fresh = 0;
      queueMicrotask(drawChat);
      return false;
    }
    if (m.type === "chat") {
      const mine = m.ref !== undefined && chat.refs.delete(m.ref);
      if (mine) { chat.draft = ""; chat.error = ""; markChatRead(); }
      chat.lines.push({ ...m, fresh: !mine });
      if (m.kind === "hint") { // the log tells everyone too
        logLines.push([{ key: "ui.hint.used", args: { name: seatWord(m.seat) } }, true]);
        drawLog();
      }
      if (chat.lines.length > 200) chat.lines.splice(0, chat.lines.length - 200);
      if (!mine) chat.fresh += 1;
      drawChat(mine);
      return true;
    }
    if (m.type === "error" && m.ref !== undefined && chat.refs.delete(m.ref)) {
      chat.error = tOr(`ui.chat.error.${m.code}`, m.message);
      drawChat();
      return true;
    }
    if (m.type === "rematch") {
      if (rematch.match !== m.match) { rematch.match = m.match; rematch.url = null; fetchRematch(); }
      return true;
    }
    return false;
  }

  function mayChat() {
    return !replay && (mySeat !== null || Boolean(info?.spectator_chat));
  }

  function chatPanel() {
    ui.chatList = h("ol", { class: "chat-lines", "aria-live": "polite", onclick: markChatRead });
    ui.chatCount = h("span", { class: "chat-new", hidden: true });
    ui.chatError = h("p", { class: "error chat-error", role: "alert" });
    ui.chatInput = h("input", { class: "chat-input", maxlength: 500, autocomplete: "off", value: chat.draft,
      placeholder: t("ui.chat.placeholder"), "aria-label": t("ui.chat.label"),
      oninput: e => { chat.draft = e.target.value; }, onfocus: markChatRead });
    ui.chatForm = h("form", { class: "chat-form", onsubmit: e => { e.preventDefault(); sendChat(); } },
      ui.chatInput, h("button", { type: "submit", class: "chat-send" }, t("ui.chat.send")));
    ui.chatReadOnly = h("p", { class: "hint chat-read-only" }, t("ui.chat.read_only"));
    ui.chat = h("section", { class: "chat", hidden: replay || Boolean(learn), "aria-label": t("ui.chat.title") },
      h("div", { class: "chat-head" }, h("h2", {}, t("ui.chat.title")), ui.chatCount),
      ui.chatList, ui.chatError, ui.chatForm, ui.chatReadOnly);
    drawChat();
    return ui.chat;
  }

  /** On a narrow screen the chat is far below the board: a line under the status says that
   *  messages came and takes the reader there. */
  function chatJump() {
    ui.chatJump = h("button", { type: "button", class: "ghost small chat-jump", hidden: true, onclick: () => {
      ui.chat.scrollIntoView({ block: "center" });
      ui.chatInput.focus({ preventScroll: true });
      markChatRead();
    } });
    return ui.chatJump;
  }

  function drawChat(scroll = false) {
    if (!ui.chatList) return;
    const list = ui.chatList;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
    list.replaceChildren(...(chat.lines.length ? chat.lines.map(line => {
      const when = new Date(line.at);
      const who = line.seat === null || line.seat === undefined ? t("ui.chat.spectator") : seatName(line.seat);
      const colour = line.seat !== null && module.seatColours ? module.seatColours(info.players)[line.seat]?.css : null;
      return h("li", { class: [line.fresh ? "fresh" : "", line.kind === "hint" ? "chat-note" : ""].join(" ").trim() || null },
        h("span", { class: "chat-who", style: colour ? `--seat:${colour}` : null }, who),
        h("span", { class: "chat-text" }, line.kind === "hint" ? t("ui.hint.asked") : line.text),
        h("time", { datetime: line.at, title: when.toLocaleString(language()) },
          when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })));
    }) : [h("li", { class: "chat-none" }, t("ui.chat.empty"))]));
    if (atBottom || scroll) list.scrollTop = list.scrollHeight;
    ui.chatCount.hidden = !chat.fresh;
    ui.chatCount.textContent = t("ui.chat.new", { n: chat.fresh });
    ui.chatJump.hidden = !chat.fresh;
    ui.chatJump.textContent = `${t("ui.chat.title")} · ${t("ui.chat.new", { n: chat.fresh })}`;
    ui.chatError.textContent = chat.error;
    ui.chatForm.hidden = !mayChat();
    ui.chatReadOnly.hidden = replay || mayChat();
    if (ui.chatInput.value !== chat.draft) ui.chatInput.value = chat.draft;
  }

  function markChatRead() {
    if (!chat.fresh && !chat.lines.some(line => line.fresh)) return;
    for (const line of chat.lines) line.fresh = false;
    chat.fresh = 0;
    drawChat();
  }

  function sendChat() {
    const text = chat.draft.trim();
    if (!text) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) { chat.error = t("ui.play.disconnected"); drawChat(); return; }
    const ref = `c${++chat.sent}`;
    chat.refs.add(ref);
    chat.error = "";
    socket.send(JSON.stringify({ type: "chat", text, ref }));
    drawChat();
  }

  /** The end screen's rematch, in a line under the status (seen without scrolling, on a
   *  phone too): a button for the players (and the host), then, once the rematch exists, a
   *  link to the reader's own seat of it (spectators: to watch it). */
  function rematchNotice() {
    ui.rematchNotice = h("div", { class: "rematch", role: "status", hidden: true });
    fillRematchNotice();
    return ui.rematchNotice;
  }

  function fillRematchNotice() {
    const box = ui.rematchNotice;
    if (!box) return;
    const canAsk = (token && mySeat !== null) || Boolean(hostStore.all()[matchId]);
    const error = rematch.error ? h("span", { class: "error" }, rematch.error) : null;
    let parts = [];
    if (replay || !last?.outcome) parts = [];
    else if (rematch.match) {
      parts = [h("span", { class: "rematch-ready" }, t("ui.rematch.ready")),
        rematch.url ? h("a", { class: "button rematch-go", href: rematch.url }, t("ui.rematch.go")) : null, error];
    } else if (canAsk) {
      parts = [h("button", { type: "button", class: "primary rematch-ask", disabled: rematch.asking, onclick: askRematch }, t("ui.rematch.ask")),
        h("span", { class: "hint" }, t("ui.rematch.help")), error];
    }
    box.hidden = !parts.length;
    box.replaceChildren(...parts.filter(Boolean));
  }

  const bearer = key => ({ headers: { authorization: `Bearer ${key}` } });
  /** A link of this server as a path on this page's host (the server may know itself by
   *  another name, behind a proxy). */
  const samePlace = url => { const u = new URL(url, location.href); return u.pathname + u.hash; };

  async function askRematch() {
    rematch.asking = true;
    rematch.error = "";
    fillRematchNotice();
    try {
      const key = token && mySeat !== null ? token : hostStore.all()[matchId];
      const made = await api(`/api/matches/${matchId}/rematch`, { method: "POST", ...bearer(key) });
      if (made.host_token) hostStore.put(made.match, made.host_token);
      if (rematch.match !== made.match) { rematch.match = made.match; fetchRematch(made); }
    } catch (error) {
      rematch.error = error.message;
    } finally {
      rematch.asking = false;
      fillRematchNotice();
    }
  }

  /** Where this reader goes in the rematch: their own seat (fetched with their own key of this
   *  match; nobody else's key ever reaches this page), or the spectators' page. The host's key
   *  of the rematch is fetched with this match's host key and kept. */
  async function fetchRematch(answer = null) {
    const wanted = rematch.match;
    const hostKey = hostStore.all()[matchId];
    try {
      if (hostKey && !hostStore.all()[wanted]) {
        const hosting = answer?.host_token ? answer : await api(`/api/matches/${matchId}/rematch`, bearer(hostKey));
        if (hosting.host_token) hostStore.put(hosting.match, hosting.host_token);
      }
      const mine = answer?.join_url ? answer
        : token && mySeat !== null ? await api(`/api/matches/${matchId}/rematch`, bearer(token)) : null;
      if (rematch.match !== wanted) return;
      rematch.url = mine?.join_url ? samePlace(mine.join_url) : `/play/${wanted}`;
    } catch (error) {
      if (rematch.match !== wanted) return;
      rematch.error = error.message;
      rematch.url = `/play/${wanted}`;
    }
    fillRematchNotice();
  }

  // -- replay ---------------------------------------------------------------------------------
  /** The replay bar, built once per frame; goTo() only updates its values. */
  function replayBar() {
    const button = (label, key, go, cls) => h("button", { type: "button", class: `ghost ${cls}`, "aria-label": t(key), title: t(key), onclick: go }, label);
    ui.slider = h("input", { type: "range", min: 0, class: "replay-slider", "aria-label": t("ui.replay.step"),
      oninput: e => goTo(Number(e.target.value)) }); // max and value: showReplayStep()
    ui.playButton = button("▶", "ui.replay.play", togglePlay, "replay-play");
    ui.count = h("span", { class: "replay-count" });
    ui.lastAction = h("span", { class: "replay-action" });
    return h("div", { class: "replay-bar" },
      button("«", "ui.replay.first", () => goTo(0), "replay-first"), button("‹", "ui.replay.back", () => goTo(step - 1), "replay-back"),
      ui.playButton,
      button("›", "ui.replay.forward", () => goTo(step + 1), "replay-forward"), button("»", "ui.replay.last", () => goTo(last?.total ?? 0), "replay-last"),
      ui.slider, ui.count, ui.lastAction);
  }

  function showReplayStep() {
    const total = last?.total ?? 0;
    ui.slider.max = total;
    ui.slider.value = step;
    ui.count.textContent = t("ui.replay.count", { n: step, total });
    const notation = last?.action?.notation;
    ui.lastAction.textContent = notation ? `${seatName(last.action.seat)}: ${say(last.action.message ?? notation)}` : "";
    ui.lastAction.title = notation || "";
    const key = playing ? "ui.replay.pause" : "ui.replay.play";
    ui.playButton.textContent = playing ? "❚❚" : "▶";
    ui.playButton.setAttribute("aria-label", t(key));
    ui.playButton.title = t(key);
  }

  let asked = 0; // answers to older requests than the latest are dropped
  async function goTo(n) {
    const total = last?.total ?? Infinity;
    n = Math.max(0, Math.min(n, total));
    const ticket = ++asked;
    const m = await api(`/api/matches/${matchId}/replay/${n}`);
    if (ticket !== asked) return;
    const previous = last;
    step = n;
    logLines = m.log.map((line, i) => [line, previous !== null && i >= previous.log_length]);
    before = previous?.view ?? null;
    last = { ...m, legal: [], seats: info.seats };
    draw();
  }

  /** The tutorial's step `n` (learn.js), drawn on the board as the learner's seat sees it. */
  async function goStep(n) {
    const ticket = ++asked;
    const m = await api(`/api/tutorials/${learn}/steps/${n}`);
    if (ticket !== asked) return;
    const previous = last;
    const forward = previous !== null && n > previous.step;
    logLines = m.log.map((line, i) => [line, forward && i >= previous.log.length]);
    before = forward ? previous.view : null;
    last = { ...m, seats: info.seats };
    lesson.show(m);
    draw();
    history.replaceState(null, "", `#step=${n + 1}`);
  }

  function togglePlay() {
    if (playing) {
      clearInterval(playing);
      playing = null;
    } else {
      if (step >= (last?.total ?? 0)) { step = 0; goTo(0); }
      playing = setInterval(() => {
        if (step >= (last?.total ?? 0)) { clearInterval(playing); playing = null; showReplayStep(); return; }
        goTo(step + 1);
      }, 700);
    }
    showReplayStep();
  }

  let loading = null;
  let room = null; // an open table's waiting room (table.js), until its host starts it
  async function render() {
    if (!info) {
      loading ??= (async () => {
        await load();
        if (learn) { // the step in the address (#step=3), so that a reload comes back to it
          frame();
          const stepOf = () => Math.max(0, Number(new URLSearchParams(location.hash.slice(1)).get("step") || 1) - 1);
          window.addEventListener("hashchange", () => { if (stepOf() !== last?.step) goStep(stepOf()); });
          await goStep(Math.min(stepOf(), lesson.steps - 1));
          return;
        }
        if (info.status === "open" && !replay) {
          room = tableRoom(root, matchId, info, module);
          return;
        }
        frame();
        if (replay) {
          document.addEventListener("keydown", event => {
            if (/INPUT|SELECT|TEXTAREA/.test(document.activeElement?.tagName || "") || document.querySelector("dialog[open]")) return;
            if (event.key === "ArrowRight") goTo(step + 1);
            if (event.key === "ArrowLeft") goTo(step - 1);
          });
          await goTo(0);
          if (location.hash === "#review") ui.review.scrollIntoView({ block: "start" });
        } else {
          document.addEventListener("keydown", event => {
            if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey || event.key.toLowerCase() !== "z") return;
            if (/INPUT|SELECT|TEXTAREA/.test(document.activeElement?.tagName || "") || document.querySelector("dialog[open]")) return;
            if (!undoShown()) return;
            event.preventDefault();
            askUndo();
          });
          connect();
        }
      })();
      await loading;
      return;
    }
    await loading;
    if (room) { room.redraw(); return; }
    frame(); // a new language: the same match, relabelled
  }

  return { scopes, render, game: () => info?.game };
}
