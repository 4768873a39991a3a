// Learn to play (docs/ui.md): a game's tutorial on the match page. Its scripted match is
// shown step by step on the normal board (GET /api/tutorials/<game>/steps/<n>); each step's
// text stands beside the part of the page it speaks of, the choice it asks for is marked,
// and only that choice is taken (any other gets a word on what the step asks).
import { api, h, hostStore, session } from "./dom.js";
import { language, say, t, tOr } from "./i18n.js";

/** The tutorial of `game` (docs/protocol.md, "Tutorials"). */
export const loadLesson = game => api(`/api/tutorials/${game}`);

/** The match's seats as the page names them: the learner, and scripted players. */
export const lessonSeats = lesson => Array.from({ length: lesson.players }, (_, seat) =>
  seat === lesson.seat ? { seat, kind: "human", name: "" } : { seat, kind: "bot", bot: "tutorial" });

/** A value written the same way whatever the order of its keys. */
const canon = value => JSON.stringify(value, (_, v) => v && typeof v === "object" && !Array.isArray(v)
  ? Object.fromEntries(Object.keys(v).sort().map(k => [k, v[k]])) : v);

/** The tutorial's box: `goStep(n)` shows step n (the page fetches and draws it). */
export function lessonBox({ game, lesson, goStep }) {
  let frame = null; // the step shown (its position, as the server sends it)
  let done = 0;     // how many of the step's expected moves the learner has made
  let anchored = null;
  let note = "";
  const element = h("section", { class: "lesson", "aria-live": "polite" });

  const stepInfo = () => lesson.steps[frame.step];
  const last = () => frame.step === lesson.steps.length - 1;
  const text = id => lesson.texts[language()]?.[id] ?? lesson.texts.en[id];
  const expected = () => frame?.expected ?? [];

  /** The part of the page a step speaks of: a part of the match page, or `key:value`, the
   *  element marked `data-key="value"`; the board when there is none. */
  function anchorOf(anchor, parts) {
    const [key, value] = anchor.split(":");
    const found = value === undefined ? parts[key] : document.querySelector(`.match [data-${key}="${CSS.escape(value)}"]`);
    element.dataset.anchorFound = found ? "yes" : "no";
    return found || parts.board;
  }

  /** Mark what makes the moves still expected. Renderers say what a control does: a choice
   *  with its action's notation (`data-notation`: marked when it is the next move); a step
   *  towards moves, such as an army's source before its target, or a value set before a send
   *  (`data-leads`, notations one per line: marked when it leads to one still expected); a
   *  button that sends several moves in a row (`data-sends`: marked when they are the moves
   *  still expected, in order). */
  function markExpected() {
    for (const old of document.querySelectorAll(".lesson-expected")) old.classList.remove("lesson-expected");
    const rest = expected().slice(done).map(move => move.notation);
    if (!rest.length) return;
    const mark = (selector, wanted) => {
      for (const el of document.querySelectorAll(`.match ${selector}`)) if (wanted(el)) el.classList.add("lesson-expected");
    };
    mark(`[data-notation="${CSS.escape(rest[0])}"]`, () => true);
    mark("[data-leads]", el => el.dataset.leads.split("\n").some(n => rest.includes(n)));
    mark("[data-sends]", el => el.dataset.sends === rest.join("\n"));
  }

  function draw(parts) {
    if (!frame) return;
    const step = stepInfo();
    const want = expected()[done];
    element.dataset.step = String(frame.step);
    element.dataset.do = step.do ? "yes" : "no";
    element.replaceChildren(...[
      h("div", { class: "lesson-head" },
        h("span", { class: "lesson-count" }, t("ui.learn.step", { n: frame.step + 1, total: lesson.steps.length })),
        h("a", { href: "/", class: "lesson-leave" }, t("ui.learn.leave"))),
      h("p", { class: "lesson-text" }, text(step.id)),
      want ? h("p", { class: "lesson-ask" }, t("ui.learn.your_move", { choice: say(want.message) })) : null,
      h("p", { class: "lesson-note", role: "alert" }, note),
      h("div", { class: "lesson-buttons" },
        frame.step > 0 ? h("button", { type: "button", class: "ghost small lesson-back", onclick: () => goStep(frame.step - 1) }, t("ui.learn.back")) : null,
        !step.do && !last() ? h("button", { type: "button", class: "primary lesson-next", onclick: () => goStep(frame.step + 1) }, t("ui.learn.next")) : null,
        last() ? h("button", { type: "button", class: "primary lesson-play", onclick: firstMatch }, t("ui.learn.play")) : null),
    ].filter(Boolean));
    for (const old of document.querySelectorAll(".lesson-anchor")) old.classList.remove("lesson-anchor");
    anchored = anchorOf(step.anchor, parts);
    anchored.classList.add("lesson-anchor");
    markExpected();
    requestAnimationFrame(() => place());
  }

  /** Beside the anchor on a wide screen: below it, above it, to its right or left, or inside
   *  one of its corners when it is too big for that (as the board is), whichever first fits
   *  the window without covering a marked choice; on a narrow screen a sheet at the foot of
   *  the screen, the anchor scrolled to the top above it. */
  function place(scroll = true) {
    if (!anchored || !element.isConnected) return;
    if (window.matchMedia("(max-width: 720px)").matches) {
      element.style.left = element.style.top = "";
      if (!scroll) return;
      window.scrollTo({ top: Math.max(0, anchored.getBoundingClientRect().top + window.scrollY - 64) });
      // the choice to make, when the sheet would cover it: into the free part of the screen
      const free = window.innerHeight - element.offsetHeight;
      const mark = [...document.querySelectorAll(".lesson-expected")].find(el => el.getClientRects().length);
      const m = mark?.getBoundingClientRect();
      if (m && (m.bottom > free - 8 || m.top < 0)) window.scrollTo({ top: Math.max(0, m.top + window.scrollY - (free - m.height) / 2) });
      return;
    }
    if (scroll) anchored.scrollIntoView({ block: "nearest" });
    const host = element.offsetParent?.getBoundingClientRect() ?? { left: 0, top: 0 };
    const r = anchored.getBoundingClientRect();
    const { offsetWidth: width, offsetHeight: height } = element;
    const gap = 10;
    const candidates = [
      [r.left, r.bottom + gap], [r.left, r.top - height - gap],
      [r.right + gap, r.top], [r.left - width - gap, r.top],
      [r.left + gap, r.top + gap], [r.right - width - gap, r.top + gap],
      [r.left + gap, r.bottom - height - gap], [r.right - width - gap, r.bottom - height - gap],
    ];
    const marked = [...document.querySelectorAll(".lesson-expected")]
      .map(el => el.getBoundingClientRect()).filter(m => m.width || m.height);
    const fits = ([x, y]) => x >= 8 && y >= 8 && x + width <= window.innerWidth - 8 && y + height <= window.innerHeight - 8;
    const covers = ([x, y]) => marked.some(m => m.left < x + width && m.right > x && m.top < y + height && m.bottom > y);
    const [x, y] = candidates.find(c => fits(c) && !covers(c)) ?? candidates.find(fits) ?? [
      Math.max(8, Math.min(r.left, window.innerWidth - width - 16)), Math.max(8, r.top + gap)];
    element.style.left = `${Math.round(x - host.left)}px`;
    element.style.top = `${Math.round(y - host.top)}px`;
  }
  window.addEventListener("resize", () => requestAnimationFrame(() => place()));
  // a renderer that redraws its choices by itself (a source chosen, then its targets): mark again
  let marking = false;
  new MutationObserver(() => {
    if (marking) return;
    marking = true;
    requestAnimationFrame(() => { marking = false; if (frame) { markExpected(); place(false); } });
  }).observe(document.getElementById("app") ?? document.body, { childList: true, subtree: true });

  /** The learner's move: taken when it is the one the step asks for (a renderer that sends
   *  several in a row, such as a war's four bids, has each taken in turn). */
  async function act(action) {
    const want = expected()[done];
    if (!want || want.name !== action.name || canon(want.args ?? {}) !== canon(action.args ?? {})) {
      done = 0;
      note = want ? t("ui.learn.not_this", { choice: say(want.message) }) : t("ui.learn.read_first");
      element.querySelector(".lesson-note").textContent = note;
      markExpected();
      throw new Error(note);
    }
    done += 1;
    note = "";
    if (done < expected().length) { markExpected(); return { type: "accepted" }; }
    await goStep(frame.step + 1);
    return { type: "accepted" };
  }

  /** "Play your first match against easy bots": the same game and seats, bots of level easy. */
  async function firstMatch(event) {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const seats = lessonSeats(lesson).map(seat => seat.kind === "human"
        ? { kind: "human", ...(session.account ? { mine: true } : {}) } : { kind: "bot", bot: "easy" });
      const made = await api("/api/matches", { method: "POST", body: JSON.stringify({ game, players: lesson.players, seats }) });
      hostStore.put(made.id, made.host_token);
      location.assign(made.seats.find(seat => seat.join_url).join_url);
    } catch (error) {
      note = error.message;
      element.querySelector(".lesson-note").textContent = note;
      button.disabled = false;
    }
  }

  return {
    element,
    act,
    draw,
    /** A new step's position: nothing of it made yet. */
    show(next) { frame = next; done = 0; note = ""; },
    steps: lesson.steps.length,
    status: () => frame ? t("ui.learn.status", { game: tOr(`${game}.title`, game), n: frame.step + 1, total: lesson.steps.length }) : "",
  };
}
