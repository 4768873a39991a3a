// The advisor on the page (docs/protocol.md, "Hints" and "Reviews"): the hint box of a seat
// whose turn it is, and the review of a finished match on its replay page. Both only show
// what the server worked out; every text is set with textContent (h()), never as markup.
import { api, h, s } from "./dom.js";
import { say, t, tOr } from "./i18n.js";

const percent = x => `${Math.round(100 * x)}%`;

/** The hint box: a button that asks (the page sends {"type": "hint"}), then the advisor's
 *  three options, best first, each with its chance to win and its reasons. `ask()` returns
 *  a promise of the answer (or an error with the server's message). */
export function hintBox(ask) {
  const state = { number: null, answer: null, asking: false, error: "" };
  const list = h("ol", { class: "hint-options" });
  const note = h("p", { class: "hint-note", role: "status", "aria-live": "polite" });
  const button = h("button", { type: "button", class: "ghost small hint-ask", title: t("ui.hint.title"),
    onclick: async () => {
      state.asking = true; state.error = ""; state.answer = null;
      draw();
      try {
        state.answer = await ask();
      } catch (error) {
        state.error = error.message;
      } finally {
        state.asking = false;
        draw();
      }
    } }, t("ui.hint.button"));
  const about = h("p", { class: "hint hint-about" }, t("ui.hint.about"));
  const box = h("section", { class: "hint-box", hidden: true, "aria-label": t("ui.hint.heading") }, button, note, list, about);

  function draw() {
    button.disabled = state.asking;
    note.textContent = state.asking ? t("ui.hint.thinking") : state.error;
    note.classList.toggle("error", Boolean(state.error));
    const options = state.answer && state.answer.number === state.number ? state.answer.options : [];
    list.hidden = about.hidden = !options.length;
    list.replaceChildren(...options.map((option, i) => h("li", { class: i ? "hint-option" : "hint-option best", "data-notation": option.action.notation },
      h("span", { class: "hint-action" }, say(option.action.message ?? option.action.notation)),
      h("span", { class: "hint-win", title: t("ui.hint.win_help") }, t("ui.hint.win", { p: Math.round(100 * option.win) })),
      option.reasons.length ? h("span", { class: "hint-reasons" }, option.reasons.map(say).join(" · ")) : null)));
  }

  return {
    element: box,
    /** Show the box for position `number` when `allowed` (a new position forgets the hint). */
    show(allowed, number) {
      if (number !== state.number) { state.number = number; state.answer = null; state.error = ""; }
      box.hidden = !allowed;
      draw();
    },
  };
}

/** The review of a finished match, below its replay: per player a chart of the chance to
 *  win across the match, its turning points (a button shows each on the board) and how close
 *  its choices were to the search's. Asks for a review if none was made; while one is being
 *  made, looks again every 10 s. */
export function reviewPanel({ matchId, seatName, colour, goTo }) {
  const panel = h("section", { class: "review", id: "review", "aria-label": t("ui.review.title") });
  let timer = null;

  async function load() {
    clearTimeout(timer);
    let answer;
    try {
      answer = await api(`/api/matches/${matchId}/review`);
    } catch (error) {
      fill(h("p", { class: "error" }, error.message));
      return;
    }
    if (answer.status === "done") { fill(...answer.review.seats.map(seat => seatReview(answer.review, seat))); return; }
    if (answer.status === "none") {
      const asking = h("button", { type: "button", class: "small review-ask", onclick: async () => {
        asking.disabled = true;
        try { await api(`/api/matches/${matchId}/review`, { method: "POST" }); load(); } catch (error) { fill(h("p", { class: "error" }, error.message)); }
      } }, t("ui.review.ask"));
      fill(h("p", { class: "hint" }, t("ui.review.none")), asking);
      return;
    }
    fill(h("p", { class: answer.status === "failed" ? "error" : "hint review-pending" }, tOr(`ui.review.${answer.status}`, answer.status)));
    if (answer.status !== "failed") timer = setTimeout(load, 10000);
  }

  function fill(...parts) {
    panel.replaceChildren(h("h2", {}, t("ui.review.title")), ...parts);
  }

  function seatReview(review, seat) {
    const sum = seat.summary;
    const total = Math.max(1, ...review.seats.flatMap(x => x.chart.map(([n]) => n)));
    const won = review.winners.includes(seat.seat);
    return h("article", { class: "review-seat", "data-seat": seat.seat, style: `--seat:${colour(seat.seat)}` },
      h("h3", {}, seatName(seat.seat), won ? h("span", { class: "review-won" }, ` · ${t("ui.review.won")}`) : null),
      sum.decisions ? h("p", { class: "review-summary" }, t("ui.review.summary", {
        agreed: Math.round(100 * sum.agreed), n: sum.decisions, cost: (100 * sum.mean_cost).toFixed(1), mistakes: sum.mistakes })) : h("p", { class: "hint" }, t("ui.review.no_decisions")),
      chart(seat, total),
      seat.turning_points.length ? h("h4", {}, t("ui.review.turning")) : null,
      h("ol", { class: "review-points" }, ...seat.turning_points.map(point => turningPoint(seat.seat, point))));
  }

  function chart(seat, total) {
    const width = 360, height = 110, left = 30, right = 8, top = 8, bottom = 18;
    const x = n => left + (n * (width - left - right)) / total;
    const y = w => top + (1 - w) * (height - top - bottom);
    const points = seat.chart;
    let path = "";
    points.forEach(([n, w], i) => { path += i ? ` H${x(n).toFixed(1)} V${y(w).toFixed(1)}` : `M${x(n).toFixed(1)} ${y(w).toFixed(1)}`; });
    const turns = new Set(seat.turning_points.map(p => p.number));
    const label = t("ui.review.chart", { name: seatName(seat.seat) });
    return s("svg", { class: "review-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, "data-points": points.length },
      s("title", {}, label),
      ...[0, 0.5, 1].map(w => s("line", { x1: left, x2: width - right, y1: y(w), y2: y(w), class: w === 0.5 ? "grid mid" : "grid" })),
      ...[0, 0.5, 1].map(w => s("text", { x: left - 4, y: y(w) + 3, class: "axis", "text-anchor": "end" }, percent(w))),
      s("text", { x: width - right, y: height - 4, class: "axis", "text-anchor": "end" }, t("ui.review.axis", { n: total })),
      s("path", { d: path, class: "line" }),
      ...points.filter(([n]) => turns.has(n)).map(([n, w]) => s("circle", { cx: x(n), cy: y(w), r: 3.4, class: "turn" })));
  }

  function turningPoint(seat, point) {
    const action = key => say(point[`${key}_message`] ?? point[key]);
    const after = Math.max(0, Math.min(1, point.before + point.swing));
    const same = point.played === point.preferred;
    return h("li", { class: point.swing < 0 ? "review-point down" : "review-point up" },
      h("div", { class: "review-point-head" },
        h("strong", {}, t("ui.review.point", { n: point.number + 1, before: Math.round(100 * point.before), after: Math.round(100 * after) })),
        h("button", { type: "button", class: "ghost small review-show", onclick: () => goTo(point.number + 1) }, t("ui.review.show"))),
      h("div", {}, t("ui.review.played", { a: action("played") })),
      same ? h("div", { class: "hint" }, t("ui.review.same"))
        : h("div", {}, t("ui.review.preferred", { a: action("preferred") }), " ", point.cost >= 0.005
          ? h("span", { class: "review-cost" }, t("ui.review.cost", { p: Math.round(100 * point.cost) }))
          : h("span", { class: "hint" }, t("ui.review.as_good"))));
  }

  fill(h("p", { class: "hint" }, t("ui.review.loading")));
  load();
  return panel;
}
