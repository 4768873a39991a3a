// The fallback renderer for a game without its own: the view as data, the legal actions as
// buttons (filterable). A new game works in the browser at once and gets a board later.
import { h } from "../dom.js";
import { say } from "../i18n.js";

export const featuredOptions = [];

/** The status line's part about the game: the view's phase and pending decision, as the
 *  engine names them (a game's own renderer translates them). */
export function phaseText(view) {
  return [view.phase, view.decision].filter(Boolean).join(" · ");
}

/** Buttons for a list of legal actions, with a filter box once there are many. */
export function actionButtons(ctx, legal, label = a => say(a.message ?? a.notation)) {
  const list = h("div", { class: "choices" });
  const fill = needle => list.replaceChildren(...legal
    .filter(a => !needle || label(a).toLowerCase().includes(needle))
    .slice(0, 300)
    .map(a => h("button", { type: "button", class: "choice", "data-key": a.notation, "data-notation": a.notation, onclick: () => ctx.act({ name: a.name, args: a.args }).catch(() => {}) }, label(a))));
  fill("");
  const filter = legal.length > 12
    ? h("input", { type: "search", class: "choice-filter", placeholder: ctx.t("ui.play.filter_choices"), "aria-label": ctx.t("ui.play.filter_choices"), oninput: e => fill(e.target.value.toLowerCase()) })
    : null;
  return h("div", {}, filter, list);
}

export function createRenderer(ctx) {
  return {
    update(message) {
      const view = message.view;
      ctx.root.board.replaceChildren(h("pre", { class: "raw-view" }, JSON.stringify(view, null, 1)));
      ctx.root.players.replaceChildren();
      ctx.root.controls.replaceChildren(...(message.legal?.length
        ? [h("h2", {}, ctx.t("ui.play.your_choices")), actionButtons(ctx, message.legal)]
        : []));
    },
  };
}
