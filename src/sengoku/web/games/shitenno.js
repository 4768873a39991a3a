// Shitenno's board: the eight provinces laid out like Japan, the court of Edo (titles, the
// sharing, the turn order), the generals' panels and every choice as a real button.
// Every choice is derived from message.legal and nothing else: the renderer never offers an
// action the server did not list, and every listed action gets exactly one control.
import { h, s, useStylesheet } from "../dom.js";
import { say, t } from "../i18n.js";

useStylesheet("/web/games/shitenno.css");

// -- the game's vocabulary (the engine's English words are the keys) ------------------------

const COLOURS = ["Red", "Blue", "Green", "Black"];
const SEAT_CSS = ["#b5342a", "#2b5690", "#3b7a3f", "#2a2623"];
const TROOPS = ["Bushi", "Samurai", "Shinobi", "Sohei"];
const CODES = ["Bu", "Sa", "Sh", "So"];
const RANKS = ["Daimyo", "Shomyo", "Sensei", "Hatamoto"];
const EFFECTS = ["exchange", "plus_one", "draw"];
const EVEN_PHASES = ["build", "offer", "last"];
/** Troop-card kinds as the engine numbers them: the 4 singles, then the 10 pairs. */
const KIND_UNITS = [[0], [1], [2], [3]];
for (let a = 0; a < 4; a++) for (let b = a; b < 4; b++) KIND_UNITS.push([a, b]);
const KIND_CODES = KIND_UNITS.map(units => units.map(u => CODES[u]).join(""));

let majorityBonus = [6, 6, 6, 6, 6, 6, 6, 6]; // from the client data once a renderer exists

export const featuredOptions = ["open_hands", "end_after_odd_year"];

const colourName = seat => t(`shitenno.colour.${COLOURS[seat]}`);
const troopName = type => t(`shitenno.troop.${TROOPS[type]}`);
const rankName = rank => t(`shitenno.rank.${rank}`);
const provinceName = name => t(`shitenno.province.${name}`);
const effectName = effect => t(`shitenno.effect.${effect}`);
const codeUnits = code => (code.match(/../g) || []).map(part => CODES.indexOf(part));
const cardName = code => codeUnits(code).map(troopName).join(" + ");
const cls = (...names) => names.filter(Boolean).join(" ");
const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const times = (n, make) => Array.from({ length: Math.max(0, n) }, (_, i) => make(i));

/** Items with their counts, in first-seen order: [[item, count], ...]. */
function counted(items) {
  const counts = new Map();
  for (const item of items) counts.set(item, (counts.get(item) || 0) + 1);
  return [...counts];
}

export function seatColours(players) {
  return COLOURS.slice(0, players).map((key, i) => ({ key, name: t(`shitenno.colour.${key}`), css: SEAT_CSS[i] }));
}

export function phaseText(view, tr = t) {
  const who = seat => tr(`shitenno.colour.${COLOURS[seat]}`);
  const acting = view.acting ?? view.to_act?.[0];
  switch (view.phase) {
    case "build": return tr("shitenno.status.build", { name: who(view.tairo) });
    case "offer": return tr("shitenno.status.offer", { name: who(view.offer_queue[0]), tairo: who(view.tairo) });
    case "last": return tr("shitenno.status.last", { name: who(view.tairo) });
    case "control": return tr("shitenno.status.control", { name: who(acting), n: view.placements });
    case "pay": return tr("shitenno.status.pay", { name: who(acting), province: tr(`shitenno.province.${view.target}`) });
    case "flip": return tr("shitenno.status.flip", { name: who(acting) });
    default: return tr("shitenno.status.over");
  }
}

// -- drawings: our own simple SVG glyphs ----------------------------------------------------

const svg = (cls_, box, ...children) => s("svg", { class: cls_, viewBox: box, "aria-hidden": "true", focusable: "false" }, ...children);

/** The white glyph of a troop type: bow (Bushi), katana (Samurai), shuriken (Shinobi), beads (Sohei). */
function troopGlyph(type) {
  const line = (d, w = 1.8) => s("path", { d, fill: "none", stroke: "currentColor", "stroke-width": w, "stroke-linecap": "round", "stroke-linejoin": "round" });
  switch (type) {
    case 0: return [line("M8 3.5 Q19 12 8 20.5"), line("M8 3.5 V20.5", 1), line("M4 12 H19"), line("M16 9.5 L19 12 L16 14.5", 1.5)];
    case 1: return [line("M5 19.5 L8.4 16.1", 3), s("ellipse", { cx: 9.3, cy: 15.2, rx: 2.6, ry: 1.1, transform: "rotate(-45 9.3 15.2)", fill: "currentColor" }), line("M10.2 14.3 Q16.5 10.5 19.5 4", 2)];
    case 2: return [s("path", { d: "M12 2.5 L14.2 9.8 L21.5 12 L14.2 14.2 L12 21.5 L9.8 14.2 L2.5 12 L9.8 9.8 Z", fill: "currentColor" }), s("circle", { cx: 12, cy: 12, r: 1.9, class: "sh-hole" })];
    default: return [...times(10, i => s("circle", { cx: 12 + 6.5 * Math.cos((i * Math.PI) / 5 - Math.PI / 2), cy: 11 + 6.5 * Math.sin((i * Math.PI) / 5 - Math.PI / 2), r: 1.55, fill: "currentColor" })),
      line("M12 17.5 V21.5", 1.6)];
  }
}

/** A round token of one troop type (its colour and glyph). */
function troopToken(type, extra = "") {
  return svg(`sh-troop-token troop-${type} ${extra}`, "0 0 24 24", s("circle", { cx: 12, cy: 12, r: 11.5, class: "sh-token-bg" }), ...troopGlyph(type));
}

/** A control kamon: a disc in the general's colour with three white stars (mitsuboshi); gold when golden. */
function kamon(seat, golden = false) {
  const node = svg(cls("sh-kamon", golden && "golden"), "0 0 24 24",
    s("circle", { cx: 12, cy: 12, r: 11, class: "sh-kamon-rim" }),
    s("circle", { cx: 12, cy: 12, r: 7.4, class: "sh-kamon-ring" }),
    ...[0, 1, 2].map(i => s("circle", { cx: 12 + 3.1 * Math.cos((i * 2 * Math.PI) / 3 - Math.PI / 2), cy: 12.4 + 3.1 * Math.sin((i * 2 * Math.PI) / 3 - Math.PI / 2), r: 2.1, class: "sh-kamon-star" })));
  node.style.setProperty("--seat", SEAT_CSS[seat]);
  return node;
}

/** A rice bale (tawara): the koku symbol. */
function kokuIcon() {
  return svg("sh-koku-icon", "0 0 24 24",
    s("rect", { x: 2.5, y: 6.5, width: 19, height: 11, rx: 5.5, class: "sh-bale" }),
    s("path", { d: "M8 6.8 V17.2 M16 6.8 V17.2", class: "sh-bale-rope" }),
    s("ellipse", { cx: 4.6, cy: 12, rx: 1.6, ry: 4, class: "sh-bale-end" }));
}

function effectIcon(effect) {
  const stroke = { fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round" };
  if (effect === "exchange") return svg("sh-effect-icon", "0 0 24 24", s("path", { d: "M4 8 H18 M14.5 4.5 L18 8 L14.5 11.5 M20 16 H6 M9.5 12.5 L6 16 L9.5 19.5", ...stroke }));
  if (effect === "draw") return svg("sh-effect-icon", "0 0 24 24", s("rect", { x: 6, y: 2.5, width: 12, height: 15, rx: 2, ...stroke, "stroke-width": 1.6 }), s("path", { d: "M12 8 V21 M8.5 17.5 L12 21 L15.5 17.5", ...stroke }));
  return svg("sh-effect-icon", "0 0 24 24", s("text", { x: 12, y: 16.5, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: "currentColor" }, "+1"));
}

/** The Tairo's fan (sensu). */
function fanIcon() {
  return svg("sh-fan", "0 0 24 24",
    s("path", { d: "M12 21 L2 9.5 A13 13 0 0 1 22 9.5 Z", class: "sh-fan-paper" }),
    s("path", { d: "M12 21 L6 5.2 M12 21 L12 3.5 M12 21 L18 5.2", class: "sh-fan-rib" }),
    s("circle", { cx: 12, cy: 19.5, r: 1.4, class: "sh-fan-pin" }));
}

/** The back of a card, for deck and hand sizes. */
function cardBack(kind) {
  return svg(`sh-card-back ${kind}`, "0 0 18 24", s("rect", { x: 1, y: 1, width: 16, height: 22, rx: 2.5 }),
    s("rect", { x: 3.5, y: 3.5, width: 11, height: 17, rx: 1.2, class: "sh-back-frame" }), s("circle", { cx: 9, cy: 12, r: 2.6, class: "sh-back-mon" }));
}

/** A paper lantern with the majority bonus, lit in the colour of the general who leads. */
function lantern(bonus, leader) {
  const node = svg(cls("sh-lantern", leader === null && "unlit"), "0 0 24 28",
    s("rect", { x: 8, y: 1, width: 8, height: 3, rx: 1, class: "sh-lantern-cap" }),
    s("rect", { x: 3.5, y: 4, width: 17, height: 19, rx: 7, class: "sh-lantern-body" }),
    s("rect", { x: 8, y: 23, width: 8, height: 3, rx: 1, class: "sh-lantern-cap" }),
    s("text", { x: 12, y: 17.6, "text-anchor": "middle", class: "sh-lantern-text" }, String(bonus)));
  if (leader !== null) node.style.setProperty("--seat", SEAT_CSS[leader]);
  return node;
}

/** Red Bakufu seals: 4 for the Daimyo down to 1 for the Hatamoto. */
function seals(rank) {
  const n = 4 - RANKS.indexOf(rank);
  return h("span", { class: "sh-seals", "aria-hidden": "true" }, ...times(n, () => h("i")));
}

// -- cards, tiles, titles -------------------------------------------------------------------

/** A troop card (one or two troops), with a ×n badge for several alike. */
function troopCard(code, count = 1) {
  const units = codeUnits(code);
  return h("span", { class: cls("sh-card", "sh-troop-card", units.length > 1 && "double", count > 1 && "has-count"), title: cardName(code), role: "img", "aria-label": count > 1 ? `${count} × ${cardName(code)}` : cardName(code) },
    ...units.map(u => troopToken(u)), count > 1 ? h("b", { class: "sh-count" }, `×${count}`) : null);
}

function kokuCard(value, count = 1) {
  const label = t("shitenno.koku_n", { n: value });
  return h("span", { class: cls("sh-card sh-koku-card", count > 1 && "has-count"), title: label, role: "img", "aria-label": count > 1 ? `${count} × ${label}` : label },
    h("span", { class: "sh-koku-value" }, String(value)), kokuIcon(), count > 1 ? h("b", { class: "sh-count" }, `×${count}`) : null);
}

/** Troop and koku cards, identical ones grouped. */
function cardRow(troops, koku, emptyKey = "shitenno.cards.none") {
  if (!troops.length && !koku.length) return h("span", { class: "sh-none" }, t(emptyKey));
  return h("span", { class: "sh-cards" },
    ...counted(troops).map(([code, n]) => troopCard(code, n)),
    ...counted(koku).map(([value, n]) => kokuCard(value, n)));
}

/** A bonus tile held: its troop face and its effect. */
function bonusTile(tile, extra = "", note = "") {
  const label = t("shitenno.tile.label", { effect: effectName(tile.effect), troop: troopName(TROOPS.indexOf(tile.troop)) }) + (note ? ` ${note}` : "");
  return h("span", { class: `sh-tile effect-${tile.effect} ${extra}`, title: `${label}: ${t(`shitenno.effect.${tile.effect}.help`)}`, role: "img", "aria-label": label },
    effectIcon(tile.effect), troopToken(TROOPS.indexOf(tile.troop), "small"));
}

/** A bonus tile's effect alone (the tile spent, whatever its troop face). */
function effectTile(effect) {
  return h("span", { class: `sh-tile effect-${effect} bare`, title: `${effectName(effect)}: ${t(`shitenno.effect.${effect}.help`)}`, role: "img", "aria-label": effectName(effect) }, effectIcon(effect));
}

/** A hierarchy tile / title: seals and name, and optionally its power. */
function rankTile(rank, { power = false, extra = "" } = {}) {
  return h("span", { class: `sh-rank rank-${rank} ${extra}`, title: t(`shitenno.rank.${rank}.power`) },
    seals(rank), h("span", { class: "sh-rank-name" }, rankName(rank)),
    power ? h("small", { class: "sh-rank-power" }, t(`shitenno.rank.${rank}.power`)) : null);
}

function seatChip(seat, text = colourName(seat)) {
  return h("span", { class: "sh-chip", style: `--seat:${SEAT_CSS[seat]}` }, kamon(seat), text);
}

// -- the board ------------------------------------------------------------------------------

/** Weights per seat (golden = 2) and the leader: most weight, ties to the leftmost kamon. */
function majority(province, players) {
  const weight = Array(players).fill(0);
  const first = {};
  province.spaces.forEach((cell, i) => {
    if (!cell) return;
    weight[cell.seat] += cell.golden ? 2 : 1;
    if (!(cell.seat in first)) first[cell.seat] = i;
  });
  const best = Math.max(...weight);
  if (best === 0) return { weight, leader: null };
  const tied = weight.map((w, seat) => (w === best ? seat : null)).filter(seat => seat !== null);
  return { weight, leader: tied.sort((a, b) => first[a] - first[b])[0] };
}

function drawBoard(st) {
  const { view } = st;
  return h("div", { class: "sh-wrap" }, h("div", { class: `sh-board phase-${view.phase}`, "data-number": st.number },
    courtPanel(st),
    ...view.provinces.map((province, i) => provinceTile(st, province, i)),
    suppliesPanel(st)));
}

function provinceTile(st, province, index) {
  const info = st.data.provinces[index];
  const old = st.before?.provinces?.[index];
  const free = st.view.phase === "over" ? -1 : province.spaces.findIndex(cell => cell === null);
  const target = st.legal.find(a => a.name === "Target" && a.args.province === index);
  const type = TROOPS.indexOf(info.troop);
  const label = t("shitenno.board.province_label", { province: provinceName(province.name), troop: troopName(type), n: info.troops_needed });
  const classes = cls("sh-prov", `area-${province.name.toLowerCase()}`, `troop-${type}`, target && "can-act", free < 0 && "full",
    old && !same(old.spaces, province.spaces) && "changed", st.view.target === province.name && "targeted");
  return h("article", { class: classes, "data-province": province.name, "aria-label": label },
    h("span", { class: "sh-prov-watermark", "aria-hidden": "true" }, t(`shitenno.province.${province.name}.kanji`)),
    provinceHead(province, info, label),
    h("div", { class: "sh-prov-spaces" },
      h("ol", { class: "sh-spaces", "aria-label": t("shitenno.board.spaces") }, ...province.spaces.map((cell, i) => spaceItem(st, index, i, old, free))),
      provinceLantern(st, province, index)),
    st.view.phase === "over" ? null : needRow(province, info, free),
    target ? placeHere(st, target, provinceName(province.name)) : null);
}

function provinceHead(province, info, label) {
  const name = provinceName(province.name);
  const kanji = t(`shitenno.province.${province.name}.kanji`);
  return h("header", { class: "sh-prov-head" },
    h("h3", {}, h("span", { class: "sh-prov-name" }, name), kanji !== name ? h("span", { class: "sh-prov-kanji", lang: "ja" }, kanji) : null),
    h("span", { class: "sh-prov-troop", title: label }, troopToken(TROOPS.indexOf(info.troop)), `×${info.troops_needed}`));
}

function provinceLantern(st, province, index) {
  const { leader } = majority(province, st.view.players);
  const bonus = majorityBonus[index];
  const title = leader === null ? t("shitenno.board.majority_none", { n: bonus }) : t("shitenno.board.majority", { n: bonus, name: colourName(leader) });
  return h("span", { class: "sh-prov-lantern", title }, lantern(bonus, leader));
}

/** The whole tile as a button (it lies under the tile's content): choose this province. */
function placeHere(st, target, name) {
  return h("button", { type: "button", class: "sh-act sh-prov-go", "data-notation": target.notation,
    "aria-label": t("shitenno.controls.control", { province: name }), onclick: () => st.act(target) },
  h("span", { class: "sh-prov-go-label" }, t("shitenno.board.place_here")));
}

/** One space: its kamon (a button when the Sensei may gild it) or a free circle, and its value. */
function spaceItem(st, index, i, old, free) {
  const province = st.view.provinces[index];
  const cell = province.spaces[i];
  const value = st.data.provinces[index].values[i];
  const flip = st.legal.find(a => a.name === "Flip" && a.args.province === index && a.args.space === i);
  const who = cell ? t(cell.golden ? "shitenno.board.kamon_golden" : "shitenno.board.kamon", { name: colourName(cell.seat) }) : t("shitenno.board.free");
  const title = `${t("shitenno.board.space", { n: i + 1, value })}: ${who}`;
  let face = cell ? kamon(cell.seat, cell.golden) : h("span", { class: "sh-space-free" });
  if (flip) {
    const label = t("shitenno.controls.flip_one", { province: provinceName(province.name), n: i + 1 });
    face = h("button", { type: "button", class: "sh-act sh-kamon-btn", "data-notation": flip.notation, title: label, "aria-label": label, onclick: () => st.act(flip) }, face);
  }
  const classes = cls("sh-space", cell && "taken", cell?.golden && "golden", i === free && "next", old && !same(old.spaces[i], cell) && "changed");
  return h("li", { class: classes, title }, face, h("span", { class: "sh-space-value" }, String(value)), h("span", { class: "sr-only" }, title));
}

/** What the next space costs: troops (N−1 of the province's type + the top bonus tile's troop) or koku. */
function needRow(province, info, free) {
  if (free < 0) return h("p", { class: "sh-need full" }, t("shitenno.board.full"));
  const base = TROOPS.indexOf(info.troop);
  const top = province.top_tile_troop ? TROOPS.indexOf(province.top_tile_troop) : null;
  const baseCount = province.requirement.length - (top === null ? 0 : 1);
  const stack = top === null ? null : h("span", { class: "sh-stack", title: t("shitenno.board.stack", { n: province.stack, troop: troopName(top) }) },
    h("span", { class: "sh-stack-tile" }, troopToken(top, "small"), h("b", { class: "sh-count" }, `${province.stack}`)));
  return h("div", { class: "sh-need" },
    h("span", { class: "sh-need-troops", title: t("shitenno.board.needs_troops", { list: province.requirement.map(x => troopName(TROOPS.indexOf(x))).join(", ") }) },
      ...times(baseCount, () => troopToken(base, "small")), stack ? h("span", { class: "sh-plus" }, "+") : null, stack),
    h("span", { class: "sh-need-or" }, t("shitenno.board.or")),
    h("span", { class: "sh-price", title: t("shitenno.board.price", { n: info.values[free] }) }, kokuIcon(), String(info.values[free])));
}

function courtPanel(st) {
  const { view } = st;
  const even = EVEN_PHASES.includes(view.phase);
  const over = view.phase === "over";
  const year = over ? "over" : even ? "even" : "odd";
  return h("section", { class: cls("sh-court", `year-${year}`), "data-part": "court", "aria-label": t("shitenno.court.label") },
    h("header", { class: "sh-court-head" },
      h("h2", {}, t(`shitenno.year.${year}`, { round: view.round })),
      h("p", {}, t(`shitenno.year.${year}.help`))),
    titlesRow(st, even),
    even ? sharingArea(st) : over ? finalRanking(view) : [turnLine(st), howToPay()]);
}

/** The four titles: seals, power, who holds it now, and in the sharing where its tile is. */
function titlesRow(st, even) {
  const { view } = st;
  const acting = view.phase === "over" ? null : view.acting;
  return h("ol", { class: "sh-titles", "data-part": "titles" }, ...RANKS.map(rank => {
    const holder = view.titles.indexOf(rank);
    const taker = view.lots_taken.indexOf(rank);
    let next = null;
    if (even && taker >= 0) next = h("span", { class: "sh-title-next" }, t("shitenno.court.next_year"), " ", seatChip(taker));
    else if (even && view.lot.tile === rank) next = h("span", { class: "sh-title-next lot" }, t("shitenno.court.in_lot"));
    const done = acting !== null && !even && holder >= 0 && view.order.indexOf(holder) < view.turn;
    return h("li", { class: cls("sh-title", holder >= 0 && holder === acting && "acting", done && "done", holder < 0 && "unheld") },
      rankTile(rank, { power: true }),
      h("span", { class: "sh-title-holder" }, holder >= 0 ? seatChip(holder) : h("span", { class: "sh-none" }, t("shitenno.court.unheld"))),
      next);
  }));
}

function finalRanking(view) {
  const scores = view.final_scores || view.scores;
  const order = [...scores.keys()].sort((a, b) => scores[b] - scores[a]);
  return h("ol", { class: "sh-ranking" }, ...order.map(seat => h("li", {}, seatChip(seat), h("b", {}, String(scores[seat])))));
}

function sharingArea(st) {
  const { view, before } = st;
  return h("div", { class: "sh-sharing" },
    h("p", { class: "sh-tairo" }, fanIcon(), t("shitenno.court.tairo", { name: colourName(view.tairo) })),
    h("div", { class: cls("sh-pool", before && !same(before.face_up, view.face_up) && "changed") },
      h("h3", {}, t("shitenno.court.face_up")), cardRow(view.face_up.troops, view.face_up.koku, "shitenno.court.face_up_none")),
    lotBox(st));
}

/** The lot: being built, offered (and to whom next), or, for the last one, everything left. */
function lotBox(st) {
  const { view, before } = st;
  const lot = view.lot;
  const empty = !lot.troops.length && !lot.koku.length && !lot.tile;
  const heading = view.phase === "offer" ? t("shitenno.court.lot_offered", { name: colourName(view.offer_queue[0]) })
    : view.phase === "last" ? t("shitenno.court.lot_last", { name: colourName(view.tairo) }) : t("shitenno.court.lot");
  let content = h("span", { class: "sh-cards" }, cardRow(lot.troops, lot.koku, "shitenno.cards.no_cards"), lot.tile ? rankTile(lot.tile) : null);
  if (view.phase === "last") content = null;
  else if (empty) content = h("span", { class: "sh-none" }, t("shitenno.court.lot_empty"));
  return h("div", { class: cls("sh-lot", view.phase === "offer" && "offered", before && !same(before.lot, lot) && "changed") },
    h("h3", {}, heading), content, view.phase === "offer" ? offerQueue(view) : null);
}

function offerQueue(view) {
  const later = view.offer_queue.slice(1);
  return h("p", { class: "sh-queue" }, later.length
    ? t("shitenno.court.queue", { names: later.map(colourName).join(", "), tairo: colourName(view.tairo) })
    : t("shitenno.court.queue_last", { tairo: colourName(view.tairo) }));
}

function turnLine(st) {
  const { view } = st;
  const seat = view.acting;
  return h("p", { class: "sh-turn" }, kamon(seat),
    t("shitenno.court.turn", { name: colourName(seat), n: view.placements }),
    view.target ? h("span", { class: "sh-turn-target" }, " · ", t("shitenno.court.paying_for", { province: provinceName(view.target) })) : null);
}

/** The odd year's rule of payment, in a sentence per way of paying. */
function howToPay() {
  return h("div", { class: "sh-how" },
    h("h3", {}, t("shitenno.court.how_title")),
    ...howToPayLines());
}

function howToPayLines() {
  return [
    h("p", {}, h("span", { class: "sh-how-icons" }, troopToken(1, "small"), troopToken(1, "small"), h("span", { class: "sh-plus" }, "+"), h("span", { class: "sh-stack-tile" }, troopToken(2, "small"))), t("shitenno.court.how_troops")),
    h("p", {}, h("span", { class: "sh-how-icons" }, kokuIcon()), t("shitenno.court.how_koku"))];
}

/** The same, folded, beside the choices (on a phone the board's copy is hidden). */
function howToPayFolded() {
  return h("details", { class: "sh-how-folded" }, h("summary", {}, t("shitenno.court.how_title")), ...howToPayLines());
}

function suppliesPanel(st) {
  const { view } = st;
  const discards = view.troop_discard.length;
  const spent = view.koku_spent.reduce((a, b) => a + b, 0);
  return h("section", { class: "sh-supplies", "aria-label": t("shitenno.supplies.label") },
    h("div", { class: "sh-decks" },
      h("span", { class: "sh-deck", title: t("shitenno.supplies.troop_deck_help") }, cardBack("troop"), h("b", {}, String(view.troop_deck)), t("shitenno.supplies.troop_deck")),
      h("span", { class: "sh-deck", title: t("shitenno.supplies.discard_help") }, cardBack("discard"), h("b", {}, String(discards)), t("shitenno.supplies.discard")),
      h("span", { class: cls("sh-deck koku", view.koku_deck <= view.players && "low"), title: t("shitenno.supplies.koku_deck_help") }, cardBack("koku"), h("b", {}, String(view.koku_deck)), t("shitenno.supplies.koku_deck")),
      h("span", { class: "sh-deck", title: t("shitenno.supplies.koku_spent_help") }, kokuIcon(), h("b", {}, String(spent)), t("shitenno.supplies.koku_spent"))),
    legend());
}

function legend() {
  return h("div", { class: "sh-legend", "aria-label": t("shitenno.legend.label") },
    ...TROOPS.map((_, i) => h("span", { class: "sh-legend-item" }, troopToken(i, "small"), troopName(i))),
    h("span", { class: "sh-legend-item" }, kamon(0), t("shitenno.legend.kamon")),
    h("span", { class: "sh-legend-item" }, kamon(0, true), t("shitenno.legend.golden")),
    ...EFFECTS.map(effect => h("span", { class: "sh-legend-item", title: t(`shitenno.effect.${effect}.help`) }, effectTile(effect), effectName(effect))));
}

// -- the generals ---------------------------------------------------------------------------

function drawPlayers(st) {
  const { view } = st;
  const order = view.order.length ? view.order : [...Array(view.players).keys()].sort((a, b) => RANKS.indexOf(view.titles[a]) - RANKS.indexOf(view.titles[b]));
  return h("div", { class: "sh-players" }, h("h2", {}, t("shitenno.players.title")), ...order.map(seat => playerCard(st, seat)));
}

function playerCard(st, seat) {
  const { view } = st;
  const acting = view.phase !== "over" && (view.to_act || []).includes(seat);
  return h("article", { class: cls("sh-player", seat === st.me && "me", acting && "acting"), style: `--seat:${SEAT_CSS[seat]}`, "data-seat": seat },
    playerHead(st, seat), st.view.final_scores ? finalLine(st.view, seat) : null, playerStats(st, seat), playerTiles(st, seat), playerHand(st, seat));
}

/** Did this seat's entry of view[key] change since the seat's last move? */
const moved = (st, key, seat) => Boolean(st.before) && !same(st.before[key]?.[seat], st.view[key][seat]);

function playerHead(st, seat) {
  const { view } = st;
  const tairo = EVEN_PHASES.includes(view.phase) && view.tairo === seat;
  return h("header", { class: "sh-player-head" },
    kamon(seat), h("span", { class: "sh-player-name" }, st.ctx.seatName(seat)),
    seat === st.me ? h("span", { class: "sh-badge you" }, t("shitenno.players.you")) : null,
    tairo ? h("span", { class: "sh-badge tairo" }, fanIcon(), t("shitenno.players.tairo")) : null,
    view.final_scores ? finalScore(view, seat) : h("span", { class: cls("sh-score", moved(st, "scores", seat) && "changed"), title: t("shitenno.players.favour") },
      h("b", {}, String(view.scores[seat])), h("small", {}, t("shitenno.players.favour_short"))));
}

/** At the end a general's headline is the final total, the one the ranking and the final
 *  table show; what it is made of (finalParts) is the line under it. */
function finalScore(view, seat) {
  const part = finalParts(view)[seat];
  return h("span", { class: "sh-score final", title: t("shitenno.final.total") },
    h("b", {}, String(part.total)), h("small", {}, t("shitenno.players.final_short")));
}

function finalLine(view, seat) {
  const part = finalParts(view)[seat];
  return h("p", { class: "sh-score-parts" }, t("shitenno.players.final_parts", { play: part.play, koku: part.koku, majorities: part.majorities }));
}

/** Per seat: the favour won in play (view.scores), the koku in hand (and unused tiles, with
 *  that option) and the province majorities that make up the final total (shitenno.md §4.7). */
function finalParts(view) {
  const leaders = view.provinces.map(p => majority(p, view.players));
  return [...Array(view.players).keys()].map(seat => {
    const majorities = leaders.reduce((sum, m, i) => sum + (m.leader === seat ? majorityBonus[i] : 0), 0);
    const total = view.final_scores[seat];
    return { play: view.scores[seat], koku: total - view.scores[seat] - majorities, majorities, total };
  });
}

/** Title (and the tile taken in this sharing), kamons left, hand sizes. */
function playerStats(st, seat) {
  const { view } = st;
  const taken = EVEN_PHASES.includes(view.phase) ? view.lots_taken[seat] : null;
  const stat = (key, titleKey, icon, text) => h("span", { class: cls("sh-stat", moved(st, key, seat) && "changed"), title: t(titleKey) }, icon, text);
  return h("div", { class: "sh-player-row" },
    rankTile(view.titles[seat], { extra: "small" }),
    taken ? h("span", { class: "sh-taken" }, t("shitenno.players.took"), " ", rankTile(taken, { extra: "small" })) : null,
    stat("kamons", "shitenno.players.kamons_help", kamon(seat), `×${view.kamons[seat]}`),
    stat("troop_cards", "shitenno.players.troop_cards", cardBack("troop"), String(view.troop_cards[seat])),
    stat("koku_cards", "shitenno.players.koku_cards", cardBack("koku"), String(view.koku_cards[seat])));
}

/** Bonus tiles held, and those just won that wait for the next turn. */
function playerTiles(st, seat) {
  const { view } = st;
  const fresh = view.phase !== "over" && view.acting === seat ? view.new_bonus_tiles : [];
  if (!view.bonus_tiles[seat].length && !fresh.length) return null;
  return h("div", { class: cls("sh-player-tiles", moved(st, "bonus_tiles", seat) && "changed") },
    h("span", { class: "sh-label" }, t("shitenno.players.tiles")),
    ...view.bonus_tiles[seat].map(tile => bonusTile(tile)),
    ...fresh.map(tile => bonusTile(tile, "fresh", t("shitenno.tile.fresh"))));
}

/** Your own hand (or anyone's, with open hands), cards drawn small. */
function playerHand(st, seat) {
  const { view, before } = st;
  const me = seat === st.me;
  const hand = me ? view.hand : view.hands?.[seat];
  if (!hand) return null;
  const changed = before && !same(me ? before.hand : before.hands?.[seat], hand);
  return h("div", { class: cls("sh-hand", changed && "changed") },
    h("span", { class: "sh-label" }, me ? t("shitenno.players.your_hand") : t("shitenno.players.hand")), cardRow(hand.troops, hand.koku));
}

// -- the choices ----------------------------------------------------------------------------

/** A button for one legal action; disables every choice while the server answers. */
function actButton(st, action, content, { extra = "", label = null, title = null } = {}) {
  return h("button", { type: "button", class: `sh-act ${extra}`, "data-notation": action.notation, "aria-label": label, title,
    onclick: () => st.act(action) }, content);
}

/** Send a choice; the buttons wait meanwhile. The next redraw gives the keyboard's focus back
 *  (to the same choice if it is still offered, else to the first one). */
function makeAct(ctx, focus) {
  return action => {
    const buttons = document.querySelectorAll(".sh-act");
    focus.after = document.activeElement?.classList?.contains("sh-act") ? action.notation : null;
    for (const button of buttons) button.disabled = true;
    ctx.act({ name: action.name, args: action.args }).catch(() => {
      for (const button of buttons) button.disabled = false;
    });
  };
}

function section(title, ...children) {
  return h("section", { class: "sh-step" }, title ? h("h3", {}, title) : null, ...children);
}

const hint = text => h("p", { class: "sh-hint" }, text);

function drawControls(st) {
  const { legal, view } = st;
  if (!legal.length) return [];
  const used = new Set();
  const take = test => legal.filter(a => !used.has(a) && test(a) && used.add(a));
  const draw = { build: buildControls, offer: offerControls, last: lastControls, control: controlControls, pay: payControls, flip: flipControls }[view.phase];
  const parts = draw ? draw(st, take) : [];
  const rest = legal.filter(a => !used.has(a));
  if (rest.length) parts.push(section(t("shitenno.controls.other"), h("div", { class: "choices" }, ...rest.map(a => actButton(st, a, say(a.message ?? a.notation), { extra: "choice" })))));
  return [h("div", { class: `sh-controls phase-${view.phase}`, "data-number": st.number, "data-phase": view.phase },
    h("h2", {}, t(`shitenno.phase.${view.phase}`)), ...parts)];
}

function buildControls(st, take) {
  const { view } = st;
  const cards = take(a => a.name === "AddTroop" || a.name === "AddKoku");
  const tiles = take(a => a.name === "AddTile");
  const offers = take(a => a.name === "Offer");
  const pool = counted([...view.face_up.troops, ...view.face_up.koku.map(v => `k${v}`)]);
  const countOf = key => pool.find(([k]) => k === key)?.[1] || 1;
  const cardButton = a => (a.name === "AddTroop"
    ? actButton(st, a, troopCard(KIND_CODES[a.args.kind], countOf(KIND_CODES[a.args.kind])), { extra: "sh-card-btn", label: t("shitenno.controls.add_card", { card: cardName(KIND_CODES[a.args.kind]) }) })
    : actButton(st, a, kokuCard(a.args.value, countOf(`k${a.args.value}`)), { extra: "sh-card-btn", label: t("shitenno.controls.add_card", { card: t("shitenno.koku_n", { n: a.args.value }) }) }));
  const lot = view.lot;
  return [
    hint(t("shitenno.controls.build.help")),
    section(t("shitenno.controls.build.lot"), h("div", { class: "sh-lot-preview" }, cardRow(lot.troops, lot.koku, "shitenno.court.lot_no_cards"), lot.tile ? rankTile(lot.tile) : null)),
    cards.length ? section(t("shitenno.controls.build.cards"), h("div", { class: "sh-choice-cards" }, ...cards.map(cardButton))) : null,
    tiles.length ? section(t("shitenno.controls.build.tile"), h("div", { class: "sh-choice-ranks" },
      ...tiles.map(a => actButton(st, a, rankTile(RANKS[a.args.title], { power: true }), { extra: "sh-rank-btn", label: t("shitenno.controls.add_tile", { rank: rankName(RANKS[a.args.title]) }) })))) : null,
    ...offers.map(a => section(null, actButton(st, a, t("shitenno.controls.offer", { name: colourName(a.args.to) }), { extra: "primary sh-wide" }))),
  ].filter(Boolean);
}

function offerControls(st, take) {
  const { view } = st;
  const accept = take(a => a.name === "Accept");
  const refuse = take(a => a.name === "Refuse");
  const lot = view.lot;
  const later = view.offer_queue.slice(1);
  return [
    hint(t("shitenno.controls.offer.help", { tairo: colourName(view.tairo) })),
    h("div", { class: "sh-lot-preview big" }, cardRow(lot.troops, lot.koku, "shitenno.court.lot_no_cards"), lot.tile ? rankTile(lot.tile, { power: true }) : null),
    hint(later.length ? t("shitenno.controls.offer.if_refused", { name: colourName(later[0]) })
      : t("shitenno.controls.offer.if_refused_last", { tairo: colourName(view.tairo), next: colourName(nextTairo(view)) })),
    h("div", { class: "sh-row" },
      ...accept.map(a => actButton(st, a, t("shitenno.controls.accept"), { extra: "primary" })),
      ...refuse.map(a => actButton(st, a, t("shitenno.controls.refuse"), { extra: "ghost" }))),
  ];
}

/** Who becomes the Tairo if everybody refuses the lot: the highest title among those still
 *  without a lot, the Tairo keeping this one (shitenno.md §4.3 step 4). */
function nextTairo(view) {
  const rank = title => (RANKS.includes(title) ? RANKS.indexOf(title) : RANKS.length);
  const waiting = [...Array(view.players).keys()].filter(p => p !== view.tairo && view.lots_taken[p] === null);
  return waiting.sort((a, b) => rank(view.titles[a]) - rank(view.titles[b]))[0];
}

function lastControls(st, take) {
  const { view } = st;
  const picks = take(a => a.name === "TakeLast");
  return [
    hint(t("shitenno.controls.last.help")),
    h("div", { class: "sh-lot-preview" }, cardRow(view.face_up.troops, view.face_up.koku, "shitenno.court.lot_no_cards")),
    section(t("shitenno.controls.last.pick"), h("div", { class: "sh-choice-ranks" },
      ...picks.map(a => actButton(st, a, rankTile(RANKS[a.args.title], { power: true }), { extra: "sh-rank-btn", label: t("shitenno.controls.take_last", { rank: rankName(RANKS[a.args.title]) }) })))),
  ];
}

function controlControls(st, take) {
  const { view } = st;
  const targets = take(a => a.name === "Target");
  const draws = take(a => a.name === "UseDraw");
  const flips = take(a => a.name === "Flip");
  const ends = take(a => a.name === "EndTurn");
  const left = 2 - view.placements;
  return [
    hint(t("shitenno.controls.control.help", { n: view.placements })),
    howToPayFolded(),
    targets.length ? section(t("shitenno.controls.control.where"), h("div", { class: "sh-choice-provinces" }, ...targets.map(a => provinceButton(st, a)))) : null,
    !targets.length && left > 0 ? hint(t("shitenno.controls.control.cannot")) : null,
    draws.length ? section(t("shitenno.controls.control.draw_title"), ...draws.map(a => actButton(st, a, [effectTile("draw"), " ", t(a.args.koku ? "shitenno.controls.draw_koku" : "shitenno.controls.draw")], { extra: "ghost sh-wide" }))) : null,
    flips.length ? section(t("shitenno.controls.flip.title"), hint(t("shitenno.controls.flip.help")), flipButtons(st, flips)) : null,
    h("div", { class: "sh-row end" }, ...ends.map(a => actButton(st, a, t("shitenno.controls.end_turn"), { extra: targets.length ? "ghost" : "primary" }))),
  ].filter(Boolean);
}

/** The koku this seat pays for a space: its value, plus the title's bonus under the option
 *  koku_price_includes_title_bonus (shitenno.md G16). */
function kokuPrice(st, value) {
  const bonus = st.data.titles.find(x => x.name === st.view.titles[st.me])?.placement_bonus || 0;
  return value + (st.view.options.koku_price_includes_title_bonus ? bonus : 0);
}

function provinceButton(st, action) {
  const index = action.args.province;
  const province = st.view.provinces[index];
  const info = st.data.provinces[index];
  const free = province.spaces.findIndex(cell => cell === null);
  const bonus = st.data.titles.find(x => x.name === st.view.titles[st.me])?.placement_bonus || 0;
  return actButton(st, action, [
    h("span", { class: "sh-pb-name" }, provinceName(province.name)),
    h("span", { class: "sh-pb-gain" }, `+${info.values[free] + bonus}`),
    h("span", { class: "sh-pb-need" }, ...province.requirement.map(x => troopToken(TROOPS.indexOf(x), "small")), h("span", { class: "sh-need-or" }, t("shitenno.board.or")), kokuIcon(), String(kokuPrice(st, info.values[free]))),
  ], { extra: "sh-province-btn", label: t("shitenno.controls.control_gain", { province: provinceName(province.name), n: info.values[free] + bonus }) });
}

/** The exact payments, grouped by how they pay: troops or koku, and which tiles they spend. */
function payControls(st, take) {
  const { view } = st;
  const payments = take(a => a.name === "Place");
  const index = view.provinces.findIndex(p => p.name === view.target);
  const province = view.provinces[index];
  const info = st.data.provinces[index];
  const free = province.spaces.findIndex(cell => cell === null);
  const groups = counted(payments.map(paymentGroup)).map(([key]) => [key, payments.filter(a => paymentGroup(a) === key)]);
  groups.sort((a, b) => groupRank(a[1][0]) - groupRank(b[1][0]));
  return [
    hint(t("shitenno.controls.pay.help", { province: provinceName(province.name), n: free + 1, value: info.values[free] })),
    h("p", { class: "sh-pay-need" }, h("span", {}, t("shitenno.controls.pay.needs")), ...province.requirement.map(x => troopToken(TROOPS.indexOf(x), "small")),
      h("span", { class: "sh-need-or" }, t("shitenno.board.or")), kokuIcon(), String(kokuPrice(st, info.values[free]))),
    ...groups.map(([key, list], i) => paymentGroupView(st, key, list, i === 0 || groups.length <= 2 || list.length <= 4)),
  ];
}

function paymentGroup(a) {
  return JSON.stringify([a.args.koku, a.args.exchange, a.args.plus, a.args.wild]);
}

/** Plain payments first, then those spending tiles (fewest first). */
function groupRank(a) {
  return (a.args.exchange + a.args.plus) * 10 + (a.args.wild ? 1 : 0) + (a.args.koku ? 5 : 0);
}

/** What a payment spends besides cards, in words: "Exchange ×2, +1, Hatamoto's free troop". */
function extrasText({ exchange, plus, wild }) {
  const count = n => (n > 1 ? ` ×${n}` : "");
  return [
    exchange ? effectName("exchange") + count(exchange) : null,
    plus ? effectName("plus_one") + count(plus) : null,
    wild ? t("shitenno.controls.pay.wild") : null].filter(Boolean).join(", ");
}

function paymentGroupView(st, key, list, open) {
  const [koku, exchange, plus, wild] = JSON.parse(key);
  const extras = extrasText({ exchange, plus, wild });
  const title = [t(koku ? "shitenno.controls.pay.with_koku" : "shitenno.controls.pay.with_troops"),
    extras ? t("shitenno.controls.pay.using", { list: extras }) : t("shitenno.controls.pay.no_tile")].join(" · ");
  return h("details", { class: "sh-pay-group", open },
    h("summary", {}, title, h("span", { class: "sh-pay-count" }, String(list.length))),
    h("div", { class: "sh-payments" }, ...list.map(a => paymentButton(st, a))));
}

/** One exact payment, drawn as the cards it spends and the tiles (or the Hatamoto) it uses. */
function paymentButton(st, a) {
  const troops = a.args.troops.map(kind => KIND_CODES[kind]);
  const kokus = a.args.kokus;
  const words = [...troops.map(cardName), ...kokus.map(n => t("shitenno.koku_n", { n }))].join(", ") || t("shitenno.cards.no_cards");
  const extras = extrasText(a.args);
  const tiles = [...times(a.args.exchange, () => effectTile("exchange")), ...times(a.args.plus, () => effectTile("plus_one"))];
  if (a.args.wild) tiles.push(rankTile("Hatamoto", { extra: "small" }));
  return actButton(st, a, [
    h("span", { class: "sh-cards" }, ...troops.map(code => troopCard(code)), ...kokus.map(v => kokuCard(v))),
    tiles.length ? h("span", { class: "sh-pay-extras" }, ...tiles) : null,
  ], { extra: "sh-payment", label: t("shitenno.controls.pay.label", { cards: words }) + (extras ? ` (${extras})` : "") });
}

function flipButtons(st, flips) {
  return h("div", { class: "sh-choice-flips" }, ...flips.map(a => {
    const province = st.view.provinces[a.args.province];
    return actButton(st, a, [kamon(st.me, true), t("shitenno.controls.flip_one", { province: provinceName(province.name), n: a.args.space + 1 })], { extra: "sh-flip-btn" });
  }));
}

function flipControls(st, take) {
  const flips = take(a => a.name === "Flip");
  const keep = take(a => a.name === "NoFlip");
  return [
    hint(t("shitenno.controls.flip.help")),
    flipButtons(st, flips),
    h("div", { class: "sh-row end" }, ...keep.map(a => actButton(st, a, t("shitenno.controls.no_flip"), { extra: "ghost" }))),
  ];
}

// -- the renderer ---------------------------------------------------------------------------

export function createRenderer(ctx) {
  if (ctx.data?.provinces) majorityBonus = ctx.data.provinces.map(p => p.majority_bonus);
  const focus = { after: null };
  const act = makeAct(ctx, focus);
  return {
    update(message, before) {
      const st = { ctx, view: message.view, before, legal: ctx.replay ? [] : message.legal || [], act, data: ctx.data, me: ctx.seat, number: message.number };
      const held = document.activeElement?.dataset?.notation; // a choice focused before this redraw
      ctx.root.board.replaceChildren(drawBoard(st));
      ctx.root.players.replaceChildren(drawPlayers(st));
      ctx.root.controls.replaceChildren(...drawControls(st));
      const wanted = focus.after ?? held;
      if (wanted) {
        const all = [...document.querySelectorAll(".sh-act:not([disabled])")];
        (all.find(b => b.dataset.notation === wanted) ?? (focus.after ? all[0] : null))?.focus();
      }
      if (message.legal?.length) focus.after = null;
    },
  };
}

// -- the end --------------------------------------------------------------------------------

export function scoreDetails(view, tr = t, seatName = seat => tr(`shitenno.colour.${COLOURS[seat]}`)) {
  if (!view?.final_scores) return null;
  const seats = [...Array(view.players).keys()];
  const leaders = view.provinces.map(p => majority(p, view.players));
  const parts = finalParts(view);
  const row = seat => h("tr", {},
    h("td", {}, seatChip(seat, seatName(seat))),
    h("td", { class: "num" }, String(parts[seat].play)),
    h("td", { class: "num" }, String(parts[seat].koku)),
    h("td", { class: "num" }, String(parts[seat].majorities)),
    h("td", { class: "num" }, h("b", {}, String(parts[seat].total))));
  return h("div", { class: "sh-score-details" },
    h("h3", {}, tr("shitenno.final.title")),
    h("table", { class: "sh-final" },
      // with unused_tile_points, the end's other points count the unused bonus tiles too
      h("thead", {}, h("tr", {}, ...["player", "play", view.options.unused_tile_points ? "koku_tiles" : "koku", "majorities", "total"]
        .map(k => h("th", {}, tr(`shitenno.final.${k}`))))),
      h("tbody", {}, ...seats.map(row))),
    h("h3", {}, tr("shitenno.final.provinces", { n: majorityBonus[0] })),
    h("ul", { class: "sh-final-provinces" }, ...view.provinces.map((p, i) => h("li", {},
      h("span", { class: "sh-final-prov" }, tr(`shitenno.province.${p.name}`)),
      leaders[i].leader === null ? h("span", { class: "sh-none" }, tr("shitenno.final.nobody"))
        : [seatChip(leaders[i].leader), h("small", {}, tr("shitenno.final.weight", { n: leaders[i].weight[leaders[i].leader] }))]))));
}
