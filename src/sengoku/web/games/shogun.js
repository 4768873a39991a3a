// Shogun in the browser: the map of 45 provinces, the season track, player panels, and a
// control for every kind of decision (planning, bid order, battles, winter revolts, draft).
// Every choice offered comes from the seat's legal actions; the plan composer mirrors the
// engine's planning rule (shogun.md §4.3) so a whole plan can be set before it is sent.
import { h, s, useStylesheet } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { actionButtons } from "./generic.js";

useStylesheet("/web/games/shogun.css");

export const featuredOptions = ["board", "setup", "years"];

const COLOUR_KEYS = ["Red", "Blue", "Yellow", "Purple", "Black"];
const COLOUR_CSS = { Red: "#c0392b", Blue: "#2f5ea8", Yellow: "#d4a017", Purple: "#7b3f98", Black: "#2a2a2a", peasants: "#4e8a3e" };
const REGION_CSS = { brown: "#d8c2a0", yellow: "#efe0a1", red: "#eab4a6", purple: "#cfbfdc", green: "#bcd6aa" };
const REGION_ORDER = Object.keys(REGION_CSS); // the engine's region order (client data "regions")
const BLANK = -1, EMPTY = -2, UNPLACED = -3;
const STAY = -1; // March(source, -1): the armies stay (Recruit 1 / move, optional battles)
const BUILDINGS = ["castle", "temple", "theatre"];

export function seatColours(players) {
  return COLOUR_KEYS.slice(0, players).map(key => ({ key, name: t(`shogun.colour.${key}`), css: COLOUR_CSS[key] }));
}

export function phaseText(view, tr) {
  const season = tr(`shogun.season.${view.season}`);
  const when = tr("shogun.when", { year: view.year, season });
  const phase = view.phase === "target" || view.phase === "armies"
    ? tr(`shogun.phase.${view.phase}`, { action: actionTitle(view.action_order[view.action_idx]) })
    : tr(`shogun.phase.${view.phase}`);
  return `${when}: ${phase}`;
}

const actionTitle = id => (id === undefined || id < 0 ? "" : t(`shogun.action.${ACTION_IDS[id]}`));
const ACTION_IDS = ["castle", "temple", "theatre", "rice", "tax", "recruit5", "recruit3", "recruit1", "battle_a", "battle_b"];

let mapPromise = null;
const loadMap = () => (mapPromise ??= fetch("/web/games/shogun/map.json").then(r => r.json()));

/** The province's name in the reader's language (kanji in Japanese, hanzi in Chinese). */
function provinceName(data, id) {
  const p = data.provinces[id];
  return p ? tOr(`shogun.province.${p.name}`, p.name) : "?";
}

function sideOf(view) { return view.options.board; }
function removedProvinces(data, view) {
  if (view.players !== 3) return new Set();
  const names = sideOf(view) === "sun" ? data.adjacency.sun_three_player_removed
    : view.options.moon_three_player_removed.split(",").map(x => x.trim()).filter(Boolean);
  return new Set(names.map(n => data.provinces.findIndex(p => p.name === n)));
}
function seaRoutes(data, view) {
  const pairs = sideOf(view) === "sun" ? data.adjacency.sun_sea
    : view.options.moon_sea_routes.split(",").map(x => x.split("/").map(y => y.trim())).filter(x => x.length === 2);
  return pairs;
}

/** On the zoomed map, the provinces the decision marks (choices, a march's source and target)
 *  scrolled to the middle of the screen; the player's own when none is marked. */
function showMarked() {
  const wrap = document.querySelector(".game-shogun .map-wrap.zoomed");
  if (!wrap) return;
  const marked = [...wrap.querySelectorAll(".province.clickable, .province.target, .province.source, .province.marching-from, .province.marching-to")];
  const shapes = marked.length ? marked : [...wrap.querySelectorAll(".province.mine")];
  const boxes = shapes.map(el => el.getBoundingClientRect());
  if (!boxes.length) return;
  const left = Math.min(...boxes.map(b => b.left)), right = Math.max(...boxes.map(b => b.right));
  const top = Math.min(...boxes.map(b => b.top)), bottom = Math.max(...boxes.map(b => b.bottom));
  const frame = wrap.getBoundingClientRect();
  wrap.scrollLeft += (left + right) / 2 - (frame.left + frame.width / 2);
  window.scrollBy(0, (top + bottom) / 2 - window.innerHeight / 2);
}

export function createRenderer(ctx) {
  const { data } = ctx;
  const names = data.provinces.map(p => p.name);
  const state = { open: {}, zoomed: false, sending: false, plan: null, planFor: null, source: null, message: null, before: null };
  let map = null;
  let current = null;
  loadMap().then(m => { map = m; if (current) draw(); });

  function update(message, before) {
    current = message;
    state.before = before;
    const view = message.view;
    // a new planning season starts a fresh composer
    const key = `${view.year}-${view.season}`;
    if (state.planFor !== key) { state.plan = null; state.planFor = key; }
    if (!message.legal.some(a => a.name === "March")) state.source = null;
    if (!state.plan && message.legal.some(a => a.name === "Plan" || a.name === "Bid")) state.plan = freshPlan(view);
    // others' moves (their 33 secret planning steps, say) leave this seat's choices alone:
    // keep them as they are, an open list included
    const seat = ctx.seat;
    const choicesKey = JSON.stringify([message.legal, view.phase, view.action_idx, seat === null ? null : [view.plans[seat], view.hand[seat], view.money[seat], view.bids[seat], view.plan_status[seat]]]);
    const same = choicesKey === state.controlsKey;
    state.controlsKey = choicesKey;
    draw(same);
  }

  function draw(keepControls = false) {
    const message = current;
    const view = message.view;
    const focus = focusKey();
    const scrolled = ctx.root.board.querySelector(".map-wrap");
    const scroll = scrolled ? [scrolled.scrollLeft, scrolled.scrollTop] : null;
    ctx.root.board.replaceChildren(...[seasonStrip(view), map ? board(view, message) : h("p", {}, "…"), regionTable(view), winterCard(view)].filter(Boolean));
    ctx.root.board.querySelector(".map-wrap")?.prepend(...[battlePanel(view)].filter(Boolean));
    if (scroll) ctx.root.board.querySelector(".map-wrap")?.scrollTo(...scroll);
    ctx.root.players.replaceChildren(playersPanel(view));
    if (!keepControls || !ctx.root.controls.hasChildNodes()) ctx.root.controls.replaceChildren(...controls(view, message.legal));
    if (focus) document.querySelector(focus)?.focus();
  }

  /** A selector for the focused province or plan list, to give it focus again after a redraw
   *  (keyboard players keep their place). */
  function focusKey() {
    const el = document.activeElement;
    if (el?.dataset?.key) return `[data-key="${el.dataset.key}"]`;
    if (el?.dataset?.province) return `path.province[data-province="${el.dataset.province}"][tabindex]`;
    if (el?.classList?.contains("plan-select")) return `select.plan-select[data-space="${el.dataset.space}"]`;
    if (el?.classList?.contains("bid-select")) return "select.bid-select";
    return null;
  }

  // -- the map ------------------------------------------------------------------------------
  function targetsNow(legal) {
    const marches = legal.filter(a => a.name === "March");
    const sources = [...new Set(marches.map(a => a.args.source))];
    const source = state.source ?? (sources.length === 1 ? sources[0] : null);
    const targets = new Map(marches.filter(a => a.args.source === source).map(a => [a.args.target, a]));
    return { sources, source, targets };
  }

  function clickable(view, legal) {
    // province id -> what clicking it does
    const out = new Map();
    const { sources, source, targets } = targetsNow(legal);
    if (legal.some(a => a.name === "March")) {
      if (source === null || sources.length > 1) for (const src of sources) out.set(src, () => { state.source = src; draw(); });
      for (const [target, action] of targets) out.set(target, () => ctx.act({ name: action.name, args: action.args }).catch(() => {}));
    }
    for (const a of legal) {
      if (a.name === "Revolt") out.set(a.args.province, () => ctx.act({ name: a.name, args: a.args }).catch(() => {}));
      if (a.name === "Draft" && data.provinces[a.args.province] && legal.filter(b => b.name === "Draft" && b.args.province === a.args.province).length === 1)
        out.set(a.args.province, () => ctx.act({ name: a.name, args: a.args }).catch(() => {}));
    }
    if (view.phase === "plan" && legal.some(a => a.name === "Plan") && state.plan) {
      const hand = view.hand[ctx.seat] || [];
      for (const p of hand) out.set(p, () => { assignFromMap(view, p); });
    }
    return out;
  }

  function board(view, message) {
    const legal = message.legal;
    const before = state.before;
    const removed = removedProvinces(data, view);
    const side = sideOf(view);
    const actions = clickable(view, legal);
    const { source, targets } = targetsNow(legal);
    const vb = map.viewBox;
    const province = (geo, id) => {
      const p = data.provinces[id];
      const owner = view.owner[id];
      const changed = before && (before.owner[id] !== owner || before.armies[id] !== view.armies[id]
        || before.buildings[id] !== view.buildings[id] || before.markers[id] !== view.markers[id]);
      const classes = ["province"];
      if (removed.has(id)) classes.push("removed");
      if (owner >= 0 && owner === ctx.seat) classes.push("mine");
      if (changed) classes.push("changed");
      if (actions.has(id)) classes.push("clickable");
      if (id === source) classes.push("source");
      // the march under way while its armies are chosen: its source and target stay marked
      if (view.phase === "armies" && view.pending[2] === id) classes.push("marching-from");
      if (view.phase === "armies" && view.pending[3] === id) classes.push(owner === view.pending[0] ? "marching-to move" : "marching-to attack");
      if (view.phase === "draft" && (view.draft_up.includes(id) || view.draft_drawn === id)) classes.push("face-up");
      if (targets.has(id)) classes.push(targets.get(id).args.attack ? "target attack" : "target move");
      const label = [
        `${provinceName(data, id)}: ${owner >= 0 ? t(`shogun.colour.${COLOUR_KEYS[owner]}`) : t("shogun.neutral")}`,
        t("shogun.armies_n", { n: view.armies[id] }),
        ...BUILDINGS.filter((_, i) => view.buildings[id] & (1 << i)).map(b => t(`shogun.building.one.${b}`)),
        view.markers[id] ? t("shogun.markers_n", { n: view.markers[id] }) : null,
      ].filter(Boolean).join(", ");
      const go = actions.get(id);
      return s("path", {
        d: geo.path, class: classes.join(" "), fill: removed.has(id) ? "url(#removed)" : REGION_CSS[p[`${side}_region`]],
        "data-province": p.name, "data-map-province": p.name, tabindex: go ? 0 : null, role: go ? "button" : null, "aria-label": label,
        onclick: go ? () => go() : null, onkeydown: go ? e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } } : null,
      }, s("title", {}, label));
    };
    const tokens = (geo, id) => {
      if (removed.has(id)) return null;
      const [x, y] = geo.label;
      const owner = view.owner[id];
      const parts = [];
      const small = geo.area < 2200;
      parts.push(s("text", { x, y: y + (small ? 15 : 18), class: "pname" + (small ? " small" : "") }, provinceName(data, id)));
      if (owner >= 0) {
        parts.push(s("circle", { cx: x, cy: y, r: 9.5, class: "army", fill: COLOUR_CSS[COLOUR_KEYS[owner]] }));
        parts.push(s("text", { x, y: y + 3.6, class: "army-n" }, String(view.armies[id])));
      }
      const built = BUILDINGS.filter((_, i) => view.buildings[id] & (1 << i));
      if (built.length) {
        const bx = x + 11.5;
        parts.push(s("rect", { x: bx - 1.5, y: y - 7, width: built.length * 11.5 + 1.5, height: 13, rx: 3, class: "bld-plaque" }));
        built.forEach((b, i) => parts.push(buildingIcon(b, bx + i * 11.5, y - 5.5)));
      }
      if (view.markers[id] > 0) parts.push(s("g", { class: "revolt" },
        s("rect", { x: x - 22, y: y - 6, width: 9, height: 9, rx: 1.5 }),
        s("text", { x: x - 17.5, y: y + 1.5 }, String(view.markers[id]))));
      return s("g", { class: "tokens", "pointer-events": "none" }, ...parts);
    };
    const idOf = new Map(names.map((n, i) => [n, i]));
    const drawn = new Map((map.sea?.[side] || []).map(r => [[...r.pair].sort().join("/"), r.path]));
    const seaPaths = seaRoutes(data, view).map(([a, b]) => {
      const path = drawn.get([a, b].sort().join("/"));
      if (path) return s("path", { d: path, class: "sea-route" });
      const pa = map.provinces[idOf.get(a)]?.label, pb = map.provinces[idOf.get(b)]?.label;
      return pa && pb ? s("path", { d: `M ${pa[0]} ${pa[1]} Q ${(pa[0] + pb[0]) / 2 + 20} ${(pa[1] + pb[1]) / 2 + 20} ${pb[0]} ${pb[1]}`, class: "sea-route" }) : null;
    });
    const zoom = h("button", { type: "button", class: "ghost small map-zoom", "data-key": "zoom", "aria-pressed": String(state.zoomed),
      onclick: () => { state.zoomed = !state.zoomed; draw(); if (state.zoomed) requestAnimationFrame(showMarked); } }, state.zoomed ? t("shogun.zoom_out") : t("shogun.zoom_in"));
    return h("div", { class: `map-wrap${state.zoomed ? " zoomed" : ""}` }, zoom, s("svg", { viewBox: vb.join(" "), class: "map", role: "group", "aria-label": t("shogun.map") },
      s("defs", {}, s("pattern", { id: "removed", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 8, height: 8, fill: "#cfc8bb" }), s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#a79f90", "stroke-width": 3 }))),
      s("rect", { x: vb[0], y: vb[1], width: vb[2], height: vb[3], class: "sea" }),
      s("g", { class: "background" }, ...(map.background || []).map(b => s("path", { d: b.path }))),
      s("g", { class: "provinces" }, ...map.provinces.map(province)),
      s("g", { class: "barriers" }, ...(map.barriers || []).map(b => s("path", { d: b.path }))),
      s("g", { class: "connectors" }, ...(map.connectors || []).map(c => s("path", { d: c.path || `M ${c.line[0]} ${c.line[1]} L ${c.line[2]} ${c.line[3]}` }))),
      s("g", { class: "sea-routes" }, ...seaPaths),
      attackArrows(view), // under the discs and names, which stay readable
      s("g", {}, ...map.provinces.map(tokens)),
      legend(view)));
  }

  // -- the battle panel and the attacks on the map (view.battles, docs/shogun.md) ------------
  /** How many of the year's fights came since this seat's last move (all, for a new year). */
  function freshCount(view) {
    const battles = view.battles || [];
    const old = state.before?.battles;
    if (!state.before || !battles.length) return 0;
    if (!old?.length || old[0].year !== battles[0].year) return battles.length;
    return Math.max(0, battles.length - old.length);
  }

  const seatChip = seat => (seat === null || seat === undefined
    ? h("span", { class: "chip small-chip peasants", style: `--seat:${COLOUR_CSS.peasants}` }, t("shogun.battles.peasants"))
    : h("span", { class: "chip small-chip", style: `--seat:${COLOUR_CSS[COLOUR_KEYS[seat]]}` }, t(`shogun.colour.${COLOUR_KEYS[seat]}`)));

  /** t(key) with some placeholders filled by elements (a coloured chip, say). */
  function tNodes(key, vars) {
    const nodes = {};
    const texts = {};
    for (const [name, value] of Object.entries(vars)) {
      if (value instanceof Node) { nodes[name] = value; texts[name] = `\u0000${name}\u0000`; } else texts[name] = value;
    }
    return t(key, texts).split("\u0000").map((part, i) => (i % 2 ? nodes[part] : part)).filter(part => part !== "");
  }

  function battleTitle(b) {
    const province = provinceName(data, b.province);
    if (b.kind !== "attack") return tNodes(`shogun.battles.${b.kind}`, { province, defender: seatChip(b.defender) });
    if (b.defender === null) return tNodes("shogun.battles.attack_neutral", { attacker: seatChip(b.attacker), province, source: provinceName(data, b.source) });
    return tNodes("shogun.battles.attack", { attacker: seatChip(b.attacker), defender: seatChip(b.defender), province, source: provinceName(data, b.source) });
  }

  function battleBody(b, players) {
    const peasants = players;
    const side = (seat, n, bonus) => h("span", { class: "side" }, seatChip(seat), ` ${n}`,
      bonus.length ? h("small", {}, ` (${bonus.map(x => t(`shogun.battles.bonus.${x}`)).join(", ")})`) : null);
    const attackerBonus = b.bonus.filter(x => x === "attack_card");
    const defenderBonus = b.bonus.filter(x => x !== "attack_card");
    const sides = b.kind === "attack"
      ? [side(b.attacker, b.sent, attackerBonus), side(b.defender, b.defender === null ? b.thrown[peasants] - b.tray[peasants] : b.defenders, defenderBonus)]
      : [side(null, b.sent, []), side(b.defender, b.defenders, defenderBonus)];
    const counts = list => list.map((n, i) => (n ? h("span", { class: "cube-count", title: i < players ? t(`shogun.colour.${COLOUR_KEYS[i]}`) : t("shogun.term.peasants"),
      style: `--seat:${COLOUR_CSS[i < players ? COLOUR_KEYS[i] : "peasants"]}` }, String(n)) : null)).filter(Boolean);
    const trayed = b.tray.some(n => n > 0);
    const notes = [];
    if (b.kind === "attack" && b.defender !== null && b.out[peasants] > 0) notes.push(b.allies ? t("shogun.battles.allies", { name: t(`shogun.colour.${COLOUR_KEYS[b.defender]}`) }) : t("shogun.battles.no_allies"));
    return h("div", { class: "battle-body" },
      h("p", { class: "sides" }, ...tNodes("shogun.battles.against", { a: sides[0], b: sides[1] })),
      h("table", { class: "tower-result" }, h("tbody", {},
        h("tr", {}, h("th", {}, t("shogun.battles.thrown")), h("td", { class: "thrown" }, ...counts(b.thrown),
          trayed ? h("small", { class: "tray-note" }, " ", t("shogun.battles.with_tray"), " ", ...counts(b.tray)) : null)),
        h("tr", {}, h("th", {}, t("shogun.battles.out")), h("td", { class: "out" }, ...(counts(b.out).length ? counts(b.out) : [t("shogun.battles.nothing")]))))),
      notes.length ? h("p", { class: "hint" }, notes.join(" ")) : null);
  }

  /** Who holds the province after the fight, in words. */
  function resultText(b) {
    const province = provinceName(data, b.province);
    const name = seat => t(`shogun.colour.${COLOUR_KEYS[seat]}`);
    return {
      taken: () => t("shogun.battles.result.taken", { name: name(b.attacker), province, n: b.survivors }),
      held: () => t("shogun.battles.result.held", { name: name(b.defender), province, n: b.survivors }),
      neutral: () => t("shogun.battles.result.neutral", { province }),
      tie: () => t("shogun.battles.result.tie", { province }),
      peasant_tie: () => t("shogun.battles.result.peasant_tie", { province }),
      crushed: () => t("shogun.battles.result.crushed", { name: name(b.defender), province, n: b.survivors }),
      devastated: () => t("shogun.battles.result.devastated", { province }),
    }[b.result]();
  }

  /** Remember a fold the reader chose (not the one it was drawn with). */
  const keepOpen = (key, otherwise) => e => {
    if (e.currentTarget.open === Boolean(otherwise)) delete state.open[key];
    else state.open[key] = e.currentTarget.open;
  };

  /** The year's fights, the newest first and open; each with both sides, the cubes thrown and
   *  out of the tower, and who holds the province now. Open while fights are new. */
  function battlePanel(view) {
    const battles = view.battles || [];
    if (!battles.length || view.phase === "draft") return null;
    const fresh = freshCount(view);
    const year = battles[0].year;
    const entries = battles.map((b, i) => {
      const when = [t(`shogun.season.${b.season}`), b.action === null ? null : actionTitle(b.action)].filter(Boolean).join(" · ");
      const key = `battle-${year}-${i}`;
      return h("li", { class: `battle${i >= battles.length - fresh ? " fresh" : ""}`, "data-index": i, "data-year": b.year, "data-season": b.season,
        "data-kind": b.kind, "data-province": data.provinces[b.province].name, "data-result": b.result,
        "data-thrown": b.thrown.join(","), "data-out": b.out.join(","), "data-survivors": b.survivors, "data-holder": b.holder ?? "" },
      h("details", { open: opened(key, i === battles.length - 1), ontoggle: keepOpen(key, i === battles.length - 1) },
        h("summary", {}, h("span", { class: "battle-title" }, ...battleTitle(b)), h("small", { class: "when" }, when),
          h("span", { class: `result ${b.result}` }, resultText(b))),
        battleBody(b, view.players)));
    }).reverse();
    const key = `battles-${year}-${battles.length}`;
    // folded while you choose where to march: the map is what you need then
    const marching = current.legal.some(a => a.name === "March" || a.name === "Armies");
    const open = fresh > 0 && !marching;
    return h("details", { class: "battle-panel", "data-part": "battles", open: opened(key, open), ontoggle: keepOpen(key, open) },
      h("summary", {}, t("shogun.battles.title", { year, n: battles.length }), fresh ? h("span", { class: "new" }, t("shogun.battles.new", { n: fresh })) : null),
      h("ol", { class: "battles" }, ...entries));
  }

  /** Arrows on the map: the attacks of the latest season's fights (those since your last
   *  move in full colour) and, while its armies are chosen, the attack or move under way. */
  function attackArrows(view) {
    const battles = view.battles || [];
    const fresh = freshCount(view);
    const lastSeason = battles.length ? battles[battles.length - 1].season : null;
    const arrows = [];
    battles.forEach((b, i) => {
      if (b.kind !== "attack" || b.season !== lastSeason) return;
      const isNew = i >= battles.length - fresh;
      arrows.push(arrow(b.source, b.province, b.attacker, `${isNew ? "fresh" : "old"}${i === battles.length - 1 ? " latest" : ""}`, b));
    });
    if (view.phase === "armies" && view.pending.length === 4 && view.pending[3] >= 0) {
      const [seat, , src, dst] = view.pending;
      arrows.push(arrow(src, dst, seat, "pending", null));
    }
    return s("g", { class: "attacks", "pointer-events": "none" }, ...arrows.filter(Boolean));
  }

  function arrow(src, dst, seat, cls, b) {
    const a = map.provinces[src]?.label, z = map.provinces[dst]?.label;
    if (!a || !z) return null;
    const dx = z[0] - a[0], dy = z[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len, uy = dy / len;
    const off = Math.min(11, len * 0.2); // clear of the discs, yet long enough between neighbours
    const start = [a[0] + ux * off, a[1] + uy * off], end = [z[0] - ux * off, z[1] - uy * off];
    const bend = Math.min(26, len * 0.18);
    const c = [(start[0] + end[0]) / 2 - uy * bend, (start[1] + end[1]) / 2 + ux * bend];
    // the head points along the curve's last tangent (control point to end)
    const tx = end[0] - c[0], ty = end[1] - c[1], tl = Math.hypot(tx, ty) || 1;
    const hx = tx / tl, hy = ty / tl, size = 9;
    const tip = [end[0] + hx * 4, end[1] + hy * 4];
    const head = `M ${tip[0]} ${tip[1]} L ${tip[0] - hx * size - hy * size * 0.6} ${tip[1] - hy * size + hx * size * 0.6} L ${tip[0] - hx * size + hy * size * 0.6} ${tip[1] - hy * size - hx * size * 0.6} Z`;
    const d = `M ${start[0]} ${start[1]} Q ${c[0]} ${c[1]} ${end[0]} ${end[1]}`;
    const colour = COLOUR_CSS[COLOUR_KEYS[seat]];
    return s("g", { class: `attack-arrow ${cls}`, "data-source": data.provinces[src].name, "data-target": data.provinces[dst].name, "data-result": b?.result ?? null },
      s("path", { d, class: "halo" }), s("path", { d: head, class: "halo" }),
      s("path", { d, class: "shaft", stroke: colour }), s("path", { d: head, class: "head", fill: colour }));
  }

  /** Our own pictograms, 10 units square at (x, y): a castle keep, a red torii (temple), a
   *  white Nō mask (theatre). */
  function buildingIcon(kind, x, y) {
    if (kind === "castle") {
      return s("g", { class: "bld castle", transform: `translate(${x} ${y})` },
        s("path", { d: "M 1 10 V 6.5 H 9 V 10 Z M 0 6.8 L 2.2 4.2 H 7.8 L 10 6.8 Z M 2.6 4.3 V 2.6 H 7.4 V 4.3 Z M 1.6 2.9 L 5 0 L 8.4 2.9 Z" }));
    }
    if (kind === "temple") {
      return s("g", { class: "bld temple", transform: `translate(${x} ${y})` },
        s("path", { d: "M 0 1.2 Q 5 2.4 10 1.2 V 2.9 Q 5 3.9 0 2.9 Z M 1.3 4.4 H 8.7 V 5.7 H 1.3 Z M 2.2 2.6 H 3.6 V 10 H 2.2 Z M 6.4 2.6 H 7.8 V 10 H 6.4 Z" }));
    }
    return s("g", { class: "bld theatre", transform: `translate(${x} ${y})` },
      s("ellipse", { cx: 5, cy: 5, rx: 4.1, ry: 4.9 }),
      s("path", { d: "M 2.4 4.2 Q 3.4 3.4 4.3 4.2 M 5.7 4.2 Q 6.6 3.4 7.6 4.2 M 3.8 7.4 Q 5 8.1 6.2 7.4", class: "mask-lines" }));
  }

  function legend(view) {
    const vb = map.viewBox;
    const x = vb[0] + 14, y = vb[1] + vb[3] - 100;
    const side = sideOf(view);
    const regions = data.regions.map((r, i) => s("g", {}, s("rect", { x, y: y + i * 16, width: 12, height: 12, fill: REGION_CSS[r], class: "legend-swatch" }),
      s("text", { x: x + 17, y: y + i * 16 + 10, class: "legend" }, t(`shogun.region.${r}`))));
    return s("g", { class: "legend-box" }, s("text", { x, y: y - 8, class: "legend title" }, t(`shogun.side.${side}`)), ...regions);
  }

  // -- the season strip: action cards, events, turn order, tray ----------------------------
  function seasonStrip(view) {
    const cards = [];
    for (let i = 0; i < 10; i++) {
      const id = view.action_order[i];
      const done = i < view.action_idx || view.phase === "winter";
      const now = i === view.action_idx && ["target", "armies"].includes(view.phase);
      cards.push(id === undefined
        ? h("li", { class: "acard down", title: t("shogun.face_down") }, h("span", {}, "?"))
        : h("li", { class: `acard${done ? " done" : ""}${now ? " now" : ""}`, title: actionTitle(id) },
          h("span", { class: "n" }, String(i + 1)), h("span", {}, actionTitle(id))));
    }
    const events = view.year_events.map(id => {
      const used = view.season_events.includes(id);
      const now = id === view.event;
      return h("li", { class: `event${used ? " used" : ""}${now ? " now" : ""}`, title: t(`shogun.event.${data.events[id].kind}`) },
        h("span", {}, t(`shogun.event.${data.events[id].kind}`)), h("small", {}, t("shogun.winter_loss", { n: data.events[id].winter_rice_loss })));
    });
    const order = view.specials.map((card, pos) => {
      const seat = view.positions[pos];
      return h("li", { class: "pos", style: seat >= 0 ? `--seat:${COLOUR_CSS[COLOUR_KEYS[seat]]}` : null },
        h("span", { class: "n" }, String(pos + 1)), h("span", { class: "special" }, t(`shogun.special.${data.specials[card].kind}`)),
        seat >= 0 ? h("span", { class: "chip small-chip" }, t(`shogun.colour.${COLOUR_KEYS[seat]}`)) : null);
    });
    const tray = cubeCounts(view, view.tray);
    if (view.phase === "draft") return draftStrip(view);
    return h("div", { class: "season" },
      h("div", { class: "season-head" },
        h("h2", {}, t("shogun.when", { year: view.year, season: t(`shogun.season.${view.season}`) })),
        h("span", { class: "tray" }, t("shogun.tray"), " ", tray.length ? tray : t("shogun.tray_empty")),
        view.tower ? h("span", { class: "tray" }, t("shogun.tower"), " ", ...cubeCounts(view, view.tower)) : null),
      h("div", { class: "season-rows" },
        h("div", {}, h("h3", {}, t("shogun.action_cards")), h("ol", { class: "acards", "data-part": "action-cards" }, ...cards)),
        h("div", {}, h("h3", {}, t("shogun.events")), h("ul", { class: "events", "data-part": "events" }, ...events)),
        h("div", {}, h("h3", {}, t("shogun.turn_order")), h("ol", { class: "positions", "data-part": "turn-order" }, ...order))));
  }

  /** The draft (option setup=draft): the face-up province cards, a card just taken from the
   *  pile, and the army stacks each player has still to place. */
  function draftStrip(view) {
    const card = id => h("li", { class: "acard" }, provinceName(data, id));
    return h("div", { class: "season" },
      h("div", { class: "season-head" }, h("h2", {}, t("shogun.draft_title"))),
      h("div", { class: "season-rows" },
        h("div", {}, h("h3", {}, t("shogun.draft_face_up")), h("ul", { class: "acards" }, ...view.draft_up.map(card),
          view.draft_drawn >= 0 ? h("li", { class: "acard now" }, t("shogun.draft_drawn", { province: provinceName(data, view.draft_drawn) })) : null)),
        h("div", {}, h("h3", {}, t("shogun.draft_stacks")), h("ul", { class: "positions" }, ...view.stacks_left.map((stacks, p) =>
          h("li", { class: "pos", style: `--seat:${COLOUR_CSS[COLOUR_KEYS[p]]}` }, h("span", { class: "chip small-chip" }, t(`shogun.colour.${COLOUR_KEYS[p]}`)),
            stacks.length ? stacks.join(" · ") : "—"))))));
  }

  /** Cubes per colour (the players', then the peasants'), as coloured counts. */
  function cubeCounts(view, counts) {
    return counts.map((n, i) => (n ? h("span", { class: "cube-count", title: i < view.players ? t(`shogun.colour.${COLOUR_KEYS[i]}`) : t("shogun.term.peasants"),
      style: `--seat:${COLOUR_CSS[i < view.players ? COLOUR_KEYS[i] : "peasants"]}` }, String(n)) : null)).filter(Boolean);
  }

  // -- players ------------------------------------------------------------------------------
  function playersPanel(view) {
    const before = state.before;
    const rows = [];
    for (let p = 0; p < view.players; p++) {
      const provinces = view.owner.filter(o => o === p).length;
      const armies = view.owner.reduce((sum, o, i) => sum + (o === p ? view.armies[i] : 0), 0);
      const buildings = view.owner.reduce((sum, o, i) => sum + (o === p ? popcount(view.buildings[i]) : 0), 0);
      const pos = view.pos_of[p];
      const planning = view.phase === "plan" ? (view.to_act.includes(p) ? t("shogun.planning", { n: view.plan_n[p] }) : t("shogun.planned")) : "";
      const bid = view.bids[p];
      const stat = (key, value, old) => h("div", { class: `stat${before && old !== undefined && old !== value ? " changed" : ""}` },
        h("span", { class: "k" }, t(key)), h("span", { class: "v" }, String(value)));
      rows.push(h("div", { class: `player${view.to_act.includes(p) ? " acting" : ""}${p === ctx.seat ? " me" : ""}`, style: `--seat:${COLOUR_CSS[COLOUR_KEYS[p]]}` },
        h("div", { class: "player-head" }, h("span", { class: "chip" }, t(`shogun.colour.${COLOUR_KEYS[p]}`)), h("span", { class: "pname-text" }, ctx.seatName(p).split(" · ")[1] || ""),
          pos >= 0 ? h("span", { class: "badge", title: t("shogun.position") }, `#${pos + 1} ${t(`shogun.special.${data.specials[view.specials[pos]].kind}`)}`) : null),
        h("div", { class: "stats" },
          stat("shogun.stat.chests", view.money[p], before?.money[p]), stat("shogun.stat.rice", view.rice[p], before?.rice[p]),
          stat("shogun.stat.vp", view.vp[p], before?.vp[p]), stat("shogun.stat.provinces", provinces),
          stat("shogun.stat.armies", armies), stat("shogun.stat.buildings", buildings),
          stat("shogun.stat.reserve", view.reserve ? view.reserve[p] : view.supply[p])),
        planning || bid !== null && bid !== undefined ? h("div", { class: "player-foot" }, planning,
          bid !== null && bid !== undefined ? h("span", {}, t("shogun.bid_is", { bid: bidText(bid, view.bid_cards[p]) })) : null) : null));
    }
    return h("div", { class: "player-list" }, h("h2", {}, t("ui.play.players")), ...rows);
  }

  const bidText = (bid, card) => (bid === 5 ? t("shogun.bid_card", { province: card >= 0 ? provinceName(data, card) : "?" }) : bid < 0 ? t("shogun.bid_none") : t(bid === 1 ? "shogun.bid_chest_one" : "shogun.bid_chests", { n: bid }));

  // -- the regions: who leads castles, temples, theatres ----------------------------------
  function regionTable(view) {
    const side = sideOf(view);
    const rows = data.regions.map(region => {
      const counts = BUILDINGS.map((_, b) => {
        const per = new Array(view.players).fill(0);
        data.provinces.forEach((p, i) => { if (p[`${side}_region`] === region && view.owner[i] >= 0 && view.buildings[i] & (1 << b)) per[view.owner[i]]++; });
        return per;
      });
      const owners = new Array(view.players).fill(0);
      data.provinces.forEach((p, i) => { if (p[`${side}_region`] === region && view.owner[i] >= 0) owners[view.owner[i]]++; });
      const cell = per => {
        const top = Math.max(...per);
        if (top === 0) return h("td", { class: "none" }, "—");
        const leaders = per.map((n, p) => [n, p]).filter(([n]) => n === top).map(([, p]) => p);
        return h("td", {}, ...leaders.map(p => h("span", { class: "dot", style: `--seat:${COLOUR_CSS[COLOUR_KEYS[p]]}`, title: t(`shogun.colour.${COLOUR_KEYS[p]}`) })), ` ${top}`);
      };
      return h("tr", {}, h("th", {}, h("span", { class: "swatch", style: `background:${REGION_CSS[region]}` }), t(`shogun.region.${region}`)),
        h("td", {}, ...owners.map((n, p) => (n ? h("span", { class: "mini", style: `--seat:${COLOUR_CSS[COLOUR_KEYS[p]]}` }, String(n)) : null))),
        ...counts.map(cell));
    });
    return h("details", { class: "regions", "data-part": "regions", open: opened("regions", view.phase === "over" || view.season === "winter"), ontoggle: remember("regions") },
      h("summary", {}, t("shogun.regions.title")),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("shogun.regions.region")), h("th", {}, t("shogun.stat.provinces")),
        ...BUILDINGS.map(b => h("th", {}, t(`shogun.building.${b}`))))), h("tbody", {}, ...rows)),
      h("p", { class: "hint" }, t("shogun.regions.hint")));
  }

  /** The last winter's report (rice, hunger revolts, scoring), from the log: the lines from
   *  the last "shogun.log.winter" message to the next year's "shogun.log.year_begins". */
  function winterCard() {
    const log = ctx.log();
    const start = log.findLastIndex(line => line?.key === "shogun.log.winter");
    if (start < 0) return null;
    const end = log.findIndex((line, i) => i > start && line?.key === "shogun.log.year_begins");
    const lines = log.slice(start, end < 0 ? undefined : end);
    const year = log[start].args.n;
    return h("details", { class: "winter", open: opened(`winter-${year}`, current.view.season === "spring" && current.view.phase === "plan"), ontoggle: remember(`winter-${year}`) },
      h("summary", {}, t("shogun.winter.title", { year })),
      h("ul", {}, ...lines.map(line => h("li", {}, ctx.say(line)))));
  }

  /** Whether a <details> is open: as the reader left it, else as the phase suggests. */
  const opened = (key, otherwise) => ((state.open[key] ?? otherwise) ? true : null);
  const remember = key => e => { state.open[key] = e.currentTarget.open; };

  // -- controls -------------------------------------------------------------------------------
  function controls(view, legal) {
    const mine = ctx.seat !== null && !ctx.replay && (view.plans[ctx.seat] || []).some(e => e !== UNPLACED && e !== null);
    const choices = ctx.replay || !legal.length ? [] : choiceControls(view, legal);
    const planning = legal.some(a => a.name === "Plan" || a.name === "Bid");
    return mine && !planning ? [...choices, ownPlan(view)] : choices;
  }

  function choiceControls(view, legal) {
    const kind = legal[0].name;
    if (kind === "Plan" || kind === "Bid") return [planner(view, legal)];
    if (kind === "TakePosition") return [h("h2", {}, t("shogun.choose_position")), h("div", { class: "choices" }, ...legal.map(a =>
      h("button", { type: "button", class: "choice", "data-key": `position-${a.args.position}`, "data-notation": a.notation, onclick: () => ctx.act(a).catch(() => {}) },
        t("shogun.position_n", { n: a.args.position + 1, card: t(`shogun.special.${data.specials[a.args.card].kind}`) }))))];
    if (kind === "March") return marchControls(view, legal);
    if (kind === "Armies") return armiesControls(view, legal);
    if (kind === "Revolt") return [h("h2", {}, t("shogun.choose_revolt")), h("p", { class: "hint" }, t("shogun.choose_revolt_hint")),
      h("div", { class: "choices" }, ...legal.map(a => h("button", { type: "button", class: "choice", "data-key": `revolt-${a.args.province}`, "data-notation": a.notation, onclick: () => ctx.act(a).catch(() => {}) }, provinceName(data, a.args.province))))];
    if (kind === "Draft" || kind === "TakeTop") return [h("h2", {}, t("shogun.draft")), actionButtons(ctx, legal, a => draftLabel(a))];
    return [h("h2", {}, t("ui.play.your_choices")), actionButtons(ctx, legal)];
  }

  const draftLabel = a => (a.name === "TakeTop" ? t("shogun.take_top") : t("shogun.draft_with", { province: provinceName(data, a.args.province), n: a.args.stack }));

  function marchControls(view, legal) {
    const { sources, source, targets } = targetsNow(legal);
    const pendingAction = view.action_order[view.action_idx];
    const out = [h("h2", {}, actionTitle(pendingAction))];
    if (source === null) {
      out.push(h("p", { class: "hint" }, t("shogun.choose_source")));
      out.push(h("div", { class: "choices" }, ...sources.map(src => h("button", { type: "button", class: "choice", "data-key": `source-${src}`,
        "data-leads": legal.filter(a => a.args.source === src).map(a => a.notation).join("\n"), onclick: () => { state.source = src; draw(); } },
        t("shogun.from", { province: provinceName(data, src), n: view.armies[src] })))));
      return out;
    }
    out.push(h("p", { class: "hint" }, t("shogun.choose_target", { province: provinceName(data, source), n: view.armies[source] })));
    const buttons = [...targets.values()].map(a => {
      const label = a.args.target === STAY ? t("shogun.stay", { province: provinceName(data, a.args.source) })
        : a.args.attack ? t("shogun.attack", { province: provinceName(data, a.args.target), owner: ownerName(view, a.args.target) })
          : t("shogun.move", { province: provinceName(data, a.args.target) });
      return h("button", { type: "button", class: `choice${a.args.attack ? " attack" : ""}`, "data-key": `march-${a.args.source}-${a.args.target}`, "data-notation": a.notation, onclick: () => ctx.act(a).catch(() => {}) }, label);
    });
    out.push(h("div", { class: "choices" }, ...buttons));
    if (sources.length > 1) out.push(h("button", { type: "button", class: "ghost small", "data-key": "other-source", onclick: () => { state.source = null; draw(); } }, t("shogun.other_source")));
    return out;
  }

  const ownerName = (view, id) => (view.owner[id] >= 0 ? t(`shogun.colour.${COLOUR_KEYS[view.owner[id]]}`) : t("shogun.neutral"));

  function armiesControls(view, legal) {
    const counts = legal.map(a => a.args.n).sort((a, b) => a - b);
    const out = [h("h2", {}, t("shogun.how_many"))];
    if (counts.length <= 12) {
      out.push(h("div", { class: "choices" }, ...counts.map(n => h("button", { type: "button", class: "choice", "data-key": `armies-${n}`, "data-notation": legal.find(a => a.args.n === n)?.notation, onclick: () => ctx.act({ name: "Armies", args: { n } }).catch(() => {}) }, String(n)))));
      return out;
    }
    const range = h("input", { type: "range", min: counts[0], max: counts[counts.length - 1], value: counts[counts.length - 1], "aria-label": t("shogun.how_many"),
      oninput: e => { go.textContent = t("shogun.send_n", { n: e.target.value }); } });
    const go = h("button", { type: "button", class: "primary", onclick: () => ctx.act({ name: "Armies", args: { n: Number(range.value) } }).catch(() => {}) }, t("shogun.send_n", { n: range.value }));
    out.push(h("div", { class: "row" }, range, go));
    return out;
  }

  // -- planning -------------------------------------------------------------------------------
  function freshPlan(view) {
    const placed = view.plans[ctx.seat] || [];
    return { spaces: placed.map(e => (e === UNPLACED ? null : e)), bid: null, selected: placed.findIndex(e => e === UNPLACED) };
  }

  /** What space `space` may take once the spaces before it are planned as composed: the
   *  engine's rule (shogun.md §4.3), space by space: a province not used before, a blank while
   *  chest cards remain, "empty" only when the cards left cannot cover the spaces left. */
  function spaceChoices(view, plan, space) {
    const earlier = plan.spaces.slice(0, space).filter(e => e !== null);
    const used = new Set(earlier.filter(e => e >= 0));
    const blanks = earlier.filter(e => e === BLANK).length;
    const provinces = view.hand[ctx.seat].filter(p => !used.has(p));
    const choices = [...provinces];
    if (blanks < 5) choices.push(BLANK);
    if (provinces.length + 5 - blanks < 11 - space) choices.push(EMPTY);
    return choices;
  }

  /** Clear every composed entry the engine would refuse after the ones before it. */
  function settle(view, plan) {
    for (let i = 0; i < 10; i++) {
      if (plan.spaces[i] !== null && !spaceChoices(view, plan, i).includes(plan.spaces[i])) plan.spaces[i] = null;
    }
  }

  function bidChoices(view, plan) {
    const used = new Set(plan.spaces.filter(e => e !== null && e >= 0));
    const blanks = plan.spaces.filter(e => e === BLANK).length;
    const out = [];
    if (blanks < 5) {
      const limit = view.options.over_bid === "pay_what_you_have" ? 4 : Math.min(4, view.money[ctx.seat]);
      for (let v = 0; v <= limit; v++) out.push({ value: v, province: -1 });
    }
    for (const p of view.hand[ctx.seat]) if (!used.has(p)) out.push({ value: 5, province: p });
    if (!out.length) out.push({ value: -1, province: -1 });
    return out;
  }

  function planCost(view, plan) {
    const costs = [data.tables.building_costs.castle, data.tables.building_costs.temple, data.tables.building_costs.theatre, 0, 0,
      data.tables.recruit.recruit5.cost, data.tables.recruit.recruit3.cost, data.tables.recruit.recruit1.cost, 0, 0];
    let total = 0;
    plan.spaces.forEach((e, i) => { if (e !== null && e >= 0) total += costs[i]; });
    const bid = plan.bid && plan.bid.value >= 0 && plan.bid.value <= 4 ? plan.bid.value : 0;
    return { actions: total, bid, total: total + bid, costs };
  }

  function assignFromMap(view, province) {
    const plan = state.plan;
    if (plan.selected < 0 || plan.selected > 9) return;
    if (!spaceChoices(view, plan, plan.selected).includes(province)) return;
    plan.spaces[plan.selected] = province;
    settle(view, plan);
    const next = plan.spaces.findIndex((e, i) => e === null && i > plan.selected);
    plan.selected = next >= 0 ? next : plan.spaces.indexOf(null);
    draw();
  }

  const entryText = e => (e === null || e === UNPLACED ? "—" : e === BLANK ? t("shogun.blank") : e === EMPTY ? t("shogun.empty") : provinceName(data, e));

  function planner(view, legal) {
    if (state.sending) return h("div", { class: "plan-box sending" }, h("h2", {}, t("shogun.plan_title")), h("p", { class: "hint" }, t("shogun.plan_sending")));
    const placed = view.plans[ctx.seat];
    if (!state.plan) state.plan = freshPlan(view);
    const plan = state.plan;
    // entries the engine already holds are fixed
    placed.forEach((e, i) => { if (e !== UNPLACED) plan.spaces[i] = e; });
    const fixed = i => placed[i] !== UNPLACED;
    settle(view, plan);
    const cost = planCost(view, plan);
    const money = view.money[ctx.seat];
    const rows = data.actions.map((action, i) => {
      const choices = fixed(i) ? [plan.spaces[i]] : spaceChoices(view, plan, i);
      const select = h("select", { class: "plan-select", "data-space": i, disabled: fixed(i) || null, "aria-label": t(`shogun.action.${action.id}`),
        onfocus: () => { plan.selected = i; markSelected(); },
        onchange: e => { plan.spaces[i] = e.target.value === "" ? null : Number(e.target.value); plan.selected = i; draw(); } },
        h("option", { value: "" }, t("shogun.choose")),
        ...choices.map(c => h("option", { value: c, selected: plan.spaces[i] === c }, entryText(c))));
      return h("tr", { class: `${plan.selected === i ? "selected" : ""}`, "data-space": i, onclick: () => { if (!fixed(i)) { plan.selected = i; markSelected(); } } },
        h("th", {}, t(`shogun.action.${action.id}`)), h("td", {}, select),
        h("td", { class: `num cost${plan.spaces[i] !== null && plan.spaces[i] >= 0 ? " counted" : ""}` }, cost.costs[i] ? String(cost.costs[i]) : ""));
    });
    const bids = bidChoices(view, plan);
    const key = b => `${b.value}:${b.province}`;
    if (plan.bid && !bids.some(b => key(b) === key(plan.bid))) plan.bid = null;
    const bidSelect = h("select", { class: "bid-select", "aria-label": t("shogun.bid"), onchange: e => {
      plan.bid = e.target.value === "" ? null : bids.find(b => key(b) === e.target.value); draw(); } },
      h("option", { value: "" }, t("shogun.choose")),
      ...bids.map(b => h("option", { value: key(b), selected: plan.bid && key(plan.bid) === key(b) }, bidText(b.value, b.province))));
    const complete = plan.spaces.length === 10 && plan.spaces.every(e => e !== null) && plan.bid;
    const short = cost.total > money;
    const submit = h("button", { type: "button", class: "primary", id: "submit-plan", disabled: !complete || null, onclick: () => sendPlan(view) }, t("shogun.submit_plan"));
    const table = h("table", { class: "planner" },
      h("thead", {}, h("tr", {}, h("th", {}, t("shogun.space")), h("th", {}, t("shogun.card")), h("th", { class: "num" }, t("shogun.cost")))),
      h("tbody", {}, ...rows,
        h("tr", { class: "bid-row" }, h("th", {}, t("shogun.bid")), h("td", {}, bidSelect), h("td", { class: "num" }, cost.bid ? String(cost.bid) : ""))),
      h("tfoot", {}, h("tr", {}, h("th", { colspan: 2 }, t("shogun.plan_total", { money })), h("td", { class: `num total${short ? " short" : ""}` }, String(cost.total)))));
    return h("div", { class: "plan-box" },
      h("h2", {}, t("shogun.plan_title")),
      h("p", { class: "hint" }, t("shogun.plan_hint")),
      table,
      short ? h("p", { class: "warn" }, t("shogun.plan_short", { cost: cost.total, money })) : null,
      h("div", { class: "row" }, submit,
        h("button", { type: "button", class: "ghost small", "data-key": "plan-reset", onclick: () => { state.plan = freshPlan(view); draw(); } }, t("shogun.plan_reset")),
        h("button", { type: "button", class: "ghost small", "data-key": "plan-fill", onclick: () => { autofill(view); draw(); } }, t("shogun.plan_fill"))),
      state.message ? h("p", { class: "error" }, state.message) : null);
  }

  function markSelected() {
    for (const row of ctx.root.controls.querySelectorAll("tr[data-space]")) row.classList.toggle("selected", Number(row.dataset.space) === state.plan.selected);
  }

  /** Fill the open spaces with blanks (or empties) and bid nothing costly: a quick start. */
  function autofill(view) {
    const plan = state.plan;
    for (let i = 0; i < 10; i++) {
      if (plan.spaces[i] !== null && plan.spaces[i] !== undefined) continue;
      const choices = spaceChoices(view, plan, i);
      plan.spaces[i] = choices.includes(EMPTY) ? EMPTY : choices.includes(BLANK) ? BLANK : choices[0];
    }
    if (!plan.bid) plan.bid = bidChoices(view, plan)[0];
  }

  async function sendPlan(view) {
    const plan = state.plan;
    state.message = null;
    state.sending = true;
    draw();
    try {
      for (let i = view.plan_n[ctx.seat]; i < 10; i++) await ctx.act({ name: "Plan", args: { space: i, card: plan.spaces[i] } });
      await ctx.act({ name: "Bid", args: { value: plan.bid.value, province: plan.bid.province } });
    } catch (error) {
      state.message = error.message;
    } finally {
      state.sending = false;
      draw();
    }
  }

  /** Your own plan this season, read-only: secret while the others plan, then with each entry
   *  marked as carried out or cancelled as the season goes on. */
  function ownPlan(view) {
    const placed = view.plans[ctx.seat] || [];
    const status = view.plan_status[ctx.seat] || [];
    const planning = view.phase === "plan";
    const mark = i => (status[i] === 1 ? "done" : status[i] === 2 ? "cancelled" : null);
    return h("details", { class: "plan-box done", open: opened("own-plan", planning), ontoggle: remember("own-plan") },
      h("summary", {}, h("h2", {}, t("shogun.your_plan"))),
      h("table", { class: "planner" }, h("tbody", {}, ...data.actions.map((a, i) => h("tr", { class: mark(i) },
        h("th", {}, t(`shogun.action.${a.id}`)), h("td", {}, entryText(placed[i]), mark(i) === "cancelled" ? ` (${t("shogun.term.cancelled").replace(/[()]/g, "")})` : ""))),
        h("tr", {}, h("th", {}, t("shogun.bid")), h("td", {}, view.bids[ctx.seat] === null ? "—" : bidText(view.bids[ctx.seat], view.bid_cards[ctx.seat]))))),
      planning ? h("p", { class: "hint" }, t("shogun.plan_secret")) : null);
  }

  return { update };
}

function popcount(bits) { return (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1); }

/** Under the final scores: each winter's points per player, as the rules score them
 *  (shogun.md §11.3: provinces, buildings, the region majorities), from view.winters. */
export function scoreDetails(view, tr = t, seatName = seat => tr(`shogun.colour.${COLOUR_KEYS[seat]}`)) {
  const winters = view?.winters || [];
  if (!winters.length) return null;
  const seats = [...Array(view.players).keys()];
  const total = seats.map(seat => winters.reduce((sum, w) => sum + w.points[seat], 0));
  const order = [...seats].sort((a, b) => total[b] - total[a]);
  const regionNote = (w, seat) => w.regions.map((per, r) => (per[seat] ? `${tr(`shogun.region.${REGION_ORDER[r]}`)} ${per[seat]}` : null)).filter(Boolean).join(", ");
  const table = w => h("table", { class: "winter-score", "data-year": w.year },
    h("thead", {}, h("tr", {}, ...["player", "provinces", "buildings", "regions", "points"].map(k => h("th", { class: k === "player" ? null : "num" }, tr(`shogun.final.${k}`))))),
    h("tbody", {}, ...order.map(seat => h("tr", { "data-seat": seat },
      h("td", {}, h("span", { class: "dot", style: `--seat:${COLOUR_CSS[COLOUR_KEYS[seat]]}` }), seatName(seat)),
      h("td", { class: "num" }, String(w.provinces[seat])), h("td", { class: "num" }, String(w.buildings[seat])),
      h("td", { class: "num", title: regionNote(w, seat) || null }, String(w.majorities[seat])),
      h("td", { class: "num" }, h("b", {}, String(w.points[seat])))))));
  return h("div", { class: "shogun-score-details" },
    h("p", { class: "hint" }, tr("shogun.final.hint")),
    h("div", { class: "winter-tables" }, ...winters.map(w => h("section", {}, h("h3", {}, tr("shogun.final.winter", { year: w.year })), table(w)))));
}
