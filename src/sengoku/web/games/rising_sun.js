// Rising Sun's table, in our own drawing: the map of the eight provinces (borders solid,
// shipping routes dashed) with the figures, War Numbers and rewards; the four shrines with
// their Kami and Shinto; the Political track; the Season cards on display; each clan's screen;
// the battle panel; the winter scoring.
// Every control is built from message.legal: each legal action gets exactly one control. The
// bid composer stands for every Bid of the step the engine asks for, lets the person set the
// whole split with a live total, and sends the four steps in order (docs/ui.md).
import { h, s, useStylesheet } from "../dom.js";
import { say, t, tOr } from "../i18n.js";

useStylesheet("/web/games/rising_sun.css");

// -- the game's vocabulary (the engine's English words are the keys) ------------------------

const SEATS = ["Player 1", "Player 2", "Player 3", "Player 4", "Player 5"];
const SEAT_CSS = ["#2f62a8", "#8d4aa0", "#2e7d4f", "#c9851b", "#b3352b"];
const CLAN_CSS = { Koi: "#2f62a8", Lotus: "#8d4aa0", Turtle: "#2e7d4f", Dragonfly: "#c9851b", Bonsai: "#b3352b" };
const KINDS = ["Daimyo", "Shinto", "Bushi", "Monster", "Stronghold"];
const MONSTER = 3;
const STRONGHOLD = 4;
const MONSTER_BASE = 10;
const RESERVE = -1;
const SHRINE = 8;
const HOSTAGE = 12;
const AT_KAMI = 20;
const SEASONS = ["spring", "summer", "autumn", "winter"];
const ADVANTAGES = ["Seppuku", "Take Hostage", "Hire Ronin", "Imperial Poets"];
const BREAKDOWN = ["seasons", "upgrades", "tokens", "set_bonus", "loyalty"];
const GIFT_PURPOSES = [0, 1]; // a Coin or a Ronin handed over in the Tea Ceremony or the Political Phase

export const featuredOptions = ["season_set", "clans"];

const cls = (...names) => names.filter(Boolean).join(" ");
const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sum = list => list.reduce((a, b) => a + b, 0);
const seasonName = season => t(`rising_sun.season.${season}`);
const provinceName = name => tOr(`rising_sun.province.${name}`, name);
const kamiName = name => tOr(`rising_sun.kami.${name}`, name);
const mandateName = name => tOr(`rising_sun.mandate.${name}`, name);
const advantageName = name => tOr(`rising_sun.advantage.${name}`, name);
const cardName = name => tOr(`rising_sun.card.${name}`, name);
/** The Season being played (in Winter, the last one: its War tokens and Battles). */
const seasonIndex = view => Math.min(2, SEASONS.indexOf(view.season));
const kindName = kind => t(`rising_sun.kind.${KINDS[kind]}`);

export function seatColours(players) {
  return SEATS.slice(0, players).map((key, i) => ({ key, name: t(`rising_sun.colour.${key}`), css: SEAT_CSS[i] }));
}

/** Text written in kana or CJK ideographs. */
const CJK = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** The clan a seat plays (its English name), or null before the clans are chosen. */
const clanOf = (view, seat) => view.clans?.[seat] ?? null;
const clanCss = (view, seat) => CLAN_CSS[clanOf(view, seat)] || SEAT_CSS[seat];
const clanText = (view, seat) => (clanOf(view, seat) ? tOr(`rising_sun.clan.${clanOf(view, seat)}`, clanOf(view, seat)) : t(`rising_sun.colour.${SEATS[seat]}`));

/** The clan a seat plays, as the page names the seat ("Bonsai (Player 1)"); null before the
 *  clans are chosen. */
export const seatTitle = (view, seat) => (clanOf(view, seat) ? clanText(view, seat) : null);

export function phaseText(view, tr = t) {
  if (!view?.phase) return "";
  const season = view.phase === "clans" ? "" : tr(`rising_sun.season.${view.season}`);
  const phase = tr(`rising_sun.phase.${view.phase}`);
  const who = (view.to_act || []).map(seat => (view.clans?.[seat] ? tr(`rising_sun.clan.${view.clans[seat]}`) : tr(`rising_sun.colour.${SEATS[seat]}`))).join(", ");
  const decision = view.decision ? tr(`rising_sun.status.${view.decision}`, { name: who }) : "";
  return [season, phase, decision].filter(Boolean).join(" · ");
}

// -- drawings: our own simple glyphs ---------------------------------------------------------

/** A figure's glyph in a 20×20 box: Daimyo (crested helmet), Shinto (torii), Bushi (katana),
 *  Monster (horned head), Stronghold (castle). */
function glyph(kind) {
  const line = (d, w = 2) => s("path", { d, fill: "none", stroke: "currentColor", "stroke-width": w, "stroke-linecap": "round", "stroke-linejoin": "round" });
  switch (kind) {
    case 0: return [s("path", { d: "M4 17 Q4 8 10 8 Q16 8 16 17 Z", fill: "currentColor" }), line("M10 8 L5 2 M10 8 L15 2", 2.2), s("rect", { x: 2.5, y: 16, width: 15, height: 2.5, rx: 1, fill: "currentColor" })];
    case 1: return [line("M2 4.5 Q10 2.5 18 4.5", 2.6), line("M4 8.5 H16", 2), line("M6 4 V18 M14 4 V18", 2.4)];
    case 2: return [line("M4 17 L7.5 13.5", 3.2), line("M5.5 11.5 L9.5 15.5", 2), line("M8.5 12.5 Q14 9 17.5 2.5", 2.2)];
    case 3: return [s("circle", { cx: 10, cy: 12, r: 6.2, fill: "currentColor" }), line("M5.5 8 L3 2.5 M14.5 8 L17 2.5", 2.2), s("circle", { cx: 8, cy: 11.5, r: 1.2, class: "rs-eye" }), s("circle", { cx: 12, cy: 11.5, r: 1.2, class: "rs-eye" })];
    default: return [s("path", { d: "M3 18 H17 L15.5 11 H4.5 Z", fill: "currentColor" }), s("path", { d: "M2.5 11.5 L10 5 L17.5 11.5 Z", fill: "currentColor" }), s("rect", { x: 8.5, y: 2, width: 3, height: 4, fill: "currentColor" })];
  }
}

/** A glyph as an inline picture, in a clan's colour. */
function figIcon(kind, colour, label = kindName(kind)) {
  const node = s("svg", { class: "rs-fig", viewBox: "0 0 20 20", role: "img", "aria-label": label }, s("title", {}, label), ...glyph(kind));
  node.style.color = colour;
  return node;
}

function coinIcon() {
  return s("svg", { class: "rs-icon rs-coin", viewBox: "0 0 20 20", "aria-hidden": "true" }, s("circle", { cx: 10, cy: 10, r: 8 }), s("rect", { x: 7.5, y: 7.5, width: 5, height: 5, class: "rs-coin-hole" }));
}

function vpIcon() {
  return s("svg", { class: "rs-icon rs-vp", viewBox: "0 0 20 20", "aria-hidden": "true" }, s("path", { d: "M10 1.5 L12.6 7.2 L18.6 7.6 L14 11.6 L15.5 17.8 L10 14.5 L4.5 17.8 L6 11.6 L1.4 7.6 L7.4 7.2 Z" }));
}

function roninIcon() {
  return s("svg", { class: "rs-icon rs-ronin", viewBox: "0 0 20 20", "aria-hidden": "true" }, s("path", { d: "M1.5 11 Q10 1 18.5 11 Z" }), s("rect", { x: 6, y: 11, width: 8, height: 6.5, rx: 2 }));
}

/** A clan's name on its colour. */
function clanChip(view, seat, text = clanText(view, seat)) {
  return h("span", { class: "rs-chip", style: `--clan:${clanCss(view, seat)}` }, text);
}

const stat = (icon, value, title, extra = "") => h("span", { class: cls("rs-stat", extra), title }, icon, h("b", {}, String(value)));

// -- the map -----------------------------------------------------------------------------------

// Province centres in two layouts: wide (a desktop's board column) and tall (a phone). Tiles
// are 200×140; the positions keep them apart and Japan's shape recognisable.
const LAYOUTS = {
  wide: { box: [1000, 632], at: { Hokkaido: [880, 82], Oshu: [770, 240], Edo: [800, 420], Kyoto: [548, 274], Kansai: [570, 470], Nagato: [318, 360], Shikoku: [350, 550], Kyushu: [112, 480] },
    curve: { "Hokkaido-Kansai": [1000, 260, 990, 620], "Hokkaido-Kyushu": [200, 40], "Kansai-Kyushu": [340, 452], "Nagato-Kyushu": [190, 330] } },
  tall: { box: [640, 900], at: { Hokkaido: [480, 80], Oshu: [420, 250], Edo: [480, 420], Kyoto: [190, 360], Kansai: [370, 590], Nagato: [160, 560], Shikoku: [460, 780], Kyushu: [170, 800] },
    curve: { "Hokkaido-Kansai": [650, 200, 650, 600], "Hokkaido-Kyushu": [-50, 100, -50, 700], "Kansai-Kyushu": [250, 720], "Nagato-Kyushu": [40, 700] } },
};
const TILE_W = 200;
const TILE_H = 140;

/** The seat that took this Season's War token of province ``p`` (-1: nobody yet). */
const tokenOwner = (view, p) => view.tokens.findIndex(list => list.includes(seasonIndex(view) * 8 + p));

/** The pieces in each province (by owner) and on each shrine. */
function placed(view) {
  const provinces = Array.from({ length: 8 }, () => new Map());
  const shrines = Array.from({ length: 4 }, () => new Map());
  for (const [owner, kind, card, loc] of view.pieces) {
    if (loc === RESERVE || loc >= HOSTAGE) continue;
    const target = loc >= SHRINE ? shrines[loc - SHRINE] : provinces[loc];
    if (!target.has(owner)) target.set(owner, []);
    target.get(owner).push([kind, card]);
  }
  return { provinces, shrines };
}

// -- choosing on the map ----------------------------------------------------------------------
// A click on the map stands for the choices that name what was clicked: a province for those
// that go to it (Summon, Place, Build, a Move's destination, Replace, Kill), a shrine for those
// that go to its Kami, a clan's figures for those that start from them (a Move's source, the
// Replace or Kill of them). One choice: the click takes it. Several: a menu of them beside the
// place. A figure that can move is picked first; then its destinations are marked, and a click
// on one moves it. Every place that can be clicked takes keyboard focus, Enter or Space clicks
// it, Escape closes a menu or drops the picked figure. The list of choices stays as it was.

const provinceKey = p => `p${p}`;
const shrineKey = kami => `k${kami}`;
const figureKey = (seat, what, p) => `f${seat}-${what}-${p}`;
/** A figure's type as actions name it (a kind, or MONSTER_BASE + its card). */
const whatOf = (kind, card) => (kind === MONSTER ? MONSTER_BASE + card : kind);

/** Each place on the map the legal actions name (its key) with those actions. */
function mapChoices(st) {
  const out = new Map();
  const add = (key, a) => (out.get(key) ?? out.set(key, []).get(key)).push(a);
  const seatOf = clan => st.view.clans.indexOf(st.data.clans[clan].name);
  const placeKey = where => (where >= AT_KAMI ? shrineKey(where - AT_KAMI) : provinceKey(where));
  for (const a of st.legal) {
    const g = a.args || {};
    if (a.name === "Summon") {
      add(provinceKey(g.province), a);
      if (g.kami >= 0) add(shrineKey(g.kami), a);
    } else if (a.name === "Place") add(placeKey(g.where), a);
    else if (a.name === "Build") add(provinceKey(g.province), a);
    else if (a.name === "Move") {
      add(provinceKey(g.dst), a);
      add(figureKey(st.me, g.what, g.src), a);
    } else if (a.name === "Replace") {
      add(placeKey(g.where), a);
      if (g.where < AT_KAMI) add(figureKey(seatOf(g.clan), g.what, g.where), a);
    } else if (a.name === "Kill") {
      add(provinceKey(g.province), a);
      add(figureKey(seatOf(g.clan), g.what, g.province), a);
    }
  }
  return out;
}

/** The province a place on the map lies in (a province's or a figure's key), else -1. */
function provinceOf(key) {
  if (key[0] === "p") return Number(key.slice(1));
  return key[0] === "f" ? Number(key.split("-")[2]) : -1;
}

/** The move of the picked figure to the province of this place, if it can go there. */
function pickedMove(st, key) {
  const p = provinceOf(key);
  return (st.ui.pick && st.choices.get(st.ui.pick)?.find(a => a.name === "Move" && a.args.dst === p)) || null;
}

/** What a click on a place does now, or null when it does nothing: ``take`` one choice at
 *  once (with a figure picked, its move to the province clicked, on its land or on a figure
 *  in it; else a place's only choice), ``pick`` a figure that can move, or open the ``menu``
 *  of several choices; ``go`` does it. */
function mapClick(st, key) {
  const move = pickedMove(st, key);
  if (move) return { kind: "take", action: move, go: () => { st.ui.pick = null; return st.act(move); } };
  const actions = st.choices.get(key);
  if (!actions) return null;
  if (key.startsWith("f") && actions.every(a => a.name === "Move")) return { kind: "pick", go: () => { st.ui.pick = st.ui.pick === key ? null : key; st.ui.menu = null; st.redraw(key); } };
  if (actions.length === 1) return { kind: "take", action: actions[0], go: () => st.act(actions[0]) };
  return { kind: "menu", go: () => { st.ui.menu = st.ui.menu === key ? null : key; st.ui.pick = null; st.redraw(key); } };
}

/** The attributes that make a place on the map a control: focus, a role and a name, the
 *  click, Enter and Space; for a tutorial, the move it makes (``data-notation``) or the
 *  moves it leads to (``data-leads``: not while its menu is open or it is picked, when a
 *  click undoes that). */
function mapControl(st, key, label) {
  const click = mapClick(st, key);
  if (!click) return {};
  const run = event => {
    event.stopPropagation();
    if (document.querySelector(".rs-controls .rs-act[disabled]")) return; // a choice is on its way
    Promise.resolve(click.go()).catch(() => {});
  };
  const undoes = st.ui.menu === key || st.ui.pick === key;
  return {
    tabindex: 0, role: "button", "aria-label": label, "data-map": key,
    "aria-expanded": click.kind === "menu" ? String(st.ui.menu === key) : null,
    "aria-pressed": click.kind === "pick" ? String(st.ui.pick === key) : null,
    "data-notation": click.action?.notation ?? null,
    "data-leads": click.kind === "take" || undoes ? null : st.choices.get(key).map(a => a.notation).join("\n"),
    onclick: run,
    onkeydown: event => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); run(event); } },
  };
}

/** The menu of the choices a place names, beside it (its own list buttons again). */
function mapMenu(st, key, title) {
  const actions = st.choices.get(key) ?? [];
  const close = () => { st.ui.menu = null; st.redraw(key); };
  return h("div", { class: "rs-menu", role: "group", "aria-label": title, "data-menu": key, onkeydown: e => { if (e.key === "Escape") { e.stopPropagation(); close(); } } },
    h("header", {}, h("b", {}, title), h("button", { type: "button", class: "ghost small rs-menu-close", "aria-label": t("rising_sun.board.menu_close"), onclick: close }, "×")),
    h("div", { class: "choices" }, ...actions.map(a => actButton(st, a))));
}

/** Put an open menu under the place it belongs to, inside its box's width. */
function placeMenu(menu, place, box) {
  const area = box.getBoundingClientRect();
  const at = place.getBoundingClientRect();
  const width = menu.offsetWidth;
  menu.style.left = `${Math.max(4, Math.min(area.width - width - 4, at.left - area.left + at.width / 2 - width / 2))}px`;
  menu.style.top = `${at.bottom - area.top + 4}px`;
}

function drawMap(st) {
  const { view, data } = st;
  const layout = LAYOUTS[st.layout];
  const [width, height] = layout.box;
  const at = name => layout.at[name];
  const names = data.provinces.map(p => p.name);
  const { where, old } = st;
  const wars = new Map(view.war.map((p, i) => [p, i]));
  const targets = new Set((st.ui.pick ? st.choices.get(st.ui.pick) ?? [] : []).filter(a => a.name === "Move").map(a => a.args.dst));
  const links = data.edges.filter(e => !e.option || view.options?.[e.option]).map(e => {
    const [ax, ay] = at(e.a);
    const [bx, by] = at(e.b);
    const key = `${e.a}-${e.b}`;
    if (e.kind === "border") return s("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "rs-border", "data-edge": key });
    const bend = layout.curve[key] || [(ax + bx) / 2, (ay + by) / 2];
    const d = bend.length === 4 ? `M${ax} ${ay} C${bend.join(" ")} ${bx} ${by}` : `M${ax} ${ay} Q${bend.join(" ")} ${bx} ${by}`;
    return s("path", { d, class: "rs-route", "data-edge": key });
  });
  const tiles = names.map((name, p) => provinceTile(st, p, name, at(name), where.provinces[p], old?.provinces[p], wars, targets.has(p)));
  const menu = st.ui.menu?.[0] === "p" || st.ui.menu?.[0] === "f" ? mapMenu(st, st.ui.menu, menuTitle(st, st.ui.menu)) : null;
  const drop = () => { if (st.ui.pick || st.ui.menu) { st.ui.pick = st.ui.menu = null; st.redraw(); } };
  return h("div", { class: "rs-map-wrap", onkeydown: e => { if (e.key === "Escape") drop(); } }, s("svg", { class: `rs-map layout-${st.layout}`, viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": t("rising_sun.board.map"), onclick: drop },
    s("defs", {}, s("pattern", { id: "rs-waves", width: 40, height: 16, patternUnits: "userSpaceOnUse" }, s("path", { d: "M0 12 Q10 4 20 12 T40 12", class: "rs-wave" }))),
    s("rect", { x: 0, y: 0, width, height, class: "rs-sea" }),
    s("rect", { x: 0, y: 0, width, height, fill: "url(#rs-waves)" }),
    s("g", { class: "rs-links" }, ...links.filter(l => l.tagName === "line"), ...links.filter(l => l.tagName === "path")),
    ...tiles), menu, mapLegend());
}

/** A menu's title: the province, shrine or figure it belongs to. */
function menuTitle(st, key) {
  const [kind, rest] = [key[0], key.slice(1)];
  if (kind === "p") return provinceName(st.data.provinces[Number(rest)].name);
  if (kind === "k") return t("rising_sun.board.shrine_of", { name: kamiName(st.data.kami[Number(rest)].name) });
  const [seat, what, p] = rest.split("-").map(Number);
  return `${clanText(st.view, seat)}: ${whatLabel(st, what, seat)[1]} · ${provinceName(st.data.provinces[p].name)}`;
}

function provinceTile(st, p, name, [cx, cy], here, old, wars, target) {
  const { view, data } = st;
  const info = data.provinces[p];
  const war = wars.get(p);
  const done = war !== undefined && war < view.war_next;
  const battle = view.battle.province === p;
  const changed = st.before && !same(here && [...here], old && [...old]);
  const owners = [...here.keys()].sort((a, b) => view.honor.indexOf(a) - view.honor.indexOf(b));
  const x = cx - TILE_W / 2;
  const y = cy - TILE_H / 2;
  const words = owners.map(q => `${clanText(view, q)}: ${here.get(q).map(([k, c]) => (k === MONSTER ? cardName(data.cards[c].name) : kindName(k))).join(", ")}`);
  const title = [provinceName(name), war !== undefined ? t("rising_sun.board.war_number", { n: war + 1 }) : t("rising_sun.board.no_war"), ...words].join(" · ");
  const rowH = Math.min(23, 86 / Math.max(1, owners.length));
  const key = provinceKey(p);
  const control = mapControl(st, key, title);
  return s("g", { ...control, class: cls("rs-prov", control.onclick && "can-act", target && "target", st.ui.menu === key && "open", battle && "battle", changed && "changed", done && "war-done"), transform: `translate(${x} ${y})`, "data-province": name },
    s("title", {}, title),
    s("rect", { width: TILE_W, height: TILE_H, rx: 14, class: "rs-land" }),
    s("text", { x: 12, y: 24, class: "rs-prov-name" }, provinceName(name)),
    // the name in kanji under a name in letters; a name already in kanji stands alone
    CJK.test(provinceName(name)) ? null : s("text", { x: 12, y: 42, class: "rs-prov-kanji" }, info.kanji),
    rewardLine(info.reward),
    war !== undefined ? warBadge(view, war, p, done) : null,
    ...owners.map((q, i) => figureRow(st, p, q, here.get(q), view.force[p][q], 52 + i * rowH, rowH)));
}

/** The Harvest reward, drawn as icons with numbers at the tile's top right. */
function rewardLine(reward) {
  const parts = [];
  let x = 166;
  const add = (n, icon, label, kind) => {
    if (!n) return;
    x -= 34;
    parts.push(s("g", { class: `rs-reward ${kind}`, transform: `translate(${x} 30)` }, s("title", {}, `${n} ${label}`), s("g", { transform: "scale(0.8)" }, ...icon().childNodes), s("text", { x: 18, y: 13 }, String(n))));
  };
  add(reward.ronin, roninIcon, t("rising_sun.battle.ronin"), "ronin");
  add(reward.coins, coinIcon, t("rising_sun.battle.coins"), "coins");
  add(reward.vp, vpIcon, t("rising_sun.players.vp"), "vp");
  return s("g", { class: "rs-rewards" }, ...parts);
}

function warBadge(view, war, p, done) {
  const token = tokenOwner(view, p);
  const next = !done && war === view.war_next && view.phase === "war";
  const badge = s("g", { class: cls("rs-war", done && "done", next && "next"), transform: "translate(172 6)" },
    s("rect", { width: 22, height: 22, rx: 4 }), s("text", { x: 11, y: 16, "text-anchor": "middle" }, String(war + 1)));
  if (done && token >= 0) badge.append(s("circle", { cx: 22, cy: 22, r: 5, class: "rs-token-owner", style: `fill:${clanCss(view, token)}` }));
  return badge;
}

/** One clan's figures in a province: its Force on its colour, then each kind with a count. */
function figureRow(st, p, seat, pieces, force, y, rowH) {
  const { view, data } = st;
  const colour = clanCss(view, seat);
  const groups = new Map();
  for (const [kind, card] of pieces) {
    const key = kind === MONSTER ? `m${card}` : `k${kind}`;
    groups.set(key, [kind, card, (groups.get(key)?.[2] || 0) + 1]);
  }
  const order = [...groups.values()].sort((a, b) => a[0] - b[0]);
  const size = Math.min(20, rowH - 2);
  let x = 42;
  const items = [];
  for (const [kind, card, n] of order) {
    const label = kind === MONSTER ? cardName(data.cards[card].name) : kindName(kind);
    const key = figureKey(seat, whatOf(kind, card), p);
    const control = mapControl(st, key, `${clanText(view, seat)}: ${label} · ${provinceName(data.provinces[p].name)}`);
    // a box behind the glyph, so that the whole square takes the click
    items.push(s("g", { ...control, transform: `translate(${x} ${y}) scale(${size / 20})`, style: `color:${colour}`, class: cls("rs-piece", control.onclick && "can-act", st.ui.pick === key && "picked", st.ui.menu === key && "open") },
      s("title", {}, label), s("rect", { x: -1, y: -1, width: 22, height: 22, rx: 3, class: "rs-piece-box" }), ...glyph(kind)));
    x += size + 1;
    if (n > 1) {
      items.push(s("text", { x, y: y + size * 0.8, class: "rs-count" }, `×${n}`));
      x += 18;
    }
    x += 3;
  }
  return s("g", { class: "rs-row", "data-seat": seat },
    s("rect", { x: 8, y, width: 28, height: size, rx: 4, style: `fill:${colour}`, class: "rs-force" }),
    s("text", { x: 22, y: y + size * 0.78, "text-anchor": "middle", class: "rs-force-text" }, String(force)), ...items);
}

function mapLegend() {
  return h("p", { class: "rs-legend" },
    h("span", {}, h("i", { class: "rs-legend-border" }), t("rising_sun.board.legend_border")),
    h("span", {}, h("i", { class: "rs-legend-route" }), t("rising_sun.board.legend_route")),
    ...[0, 1, 2, 3, 4].map(k => h("span", {}, figIcon(k, "#3b3128"), kindName(k))),
    h("span", { class: "rs-legend-force" }, h("b", {}, "3"), t("rising_sun.board.legend_force")),
    h("span", {}, vpIcon(), coinIcon(), roninIcon(), t("rising_sun.board.legend_reward")),
    h("span", {}, h("i", { class: "rs-legend-war" }, "1"), t("rising_sun.board.legend_war")));
}

// -- the shrines, the Political track, the wars ----------------------------------------------

function shrinesPanel(st) {
  const { view, data } = st;
  const where = st.where.shrines;
  const kamiTurn = view.phase === "political" && data.political_track[view.turn - 1] === "K";
  return h("section", { class: cls("rs-shrines", kamiTurn && "kami-turn"), "data-panel": "shrines", "aria-label": t("rising_sun.board.shrines") },
    ...view.shrines.map((k, slot) => {
      const kami = data.kami[k];
      const here = [...where[slot].entries()].sort((a, b) => b[1].length - a[1].length);
      const key = shrineKey(k);
      const name = t("rising_sun.board.shrine_of", { name: kamiName(kami.name) });
      const control = mapControl(st, key, [name, ...here.map(([q, list]) => `${clanText(view, q)} ×${list.length}`)].join(" · "));
      return h("article", { ...control, class: cls("rs-shrine", control.onclick && "can-act", st.ui.menu === key && "open"), "data-kami": kami.name },
        h("h3", {}, h("span", { class: "rs-torii", "aria-hidden": "true" }, figIcon(1, "#a8342a", "")), kamiName(kami.name)),
        h("p", { class: "rs-kami-help" }, tOr(`rising_sun.kami.${kami.name}.help`, "", kami.params)),
        h("p", { class: "rs-shrine-shinto" }, here.length ? here.map(([q, list]) => clanChip(view, q, `${clanText(view, q)} ×${list.length}`)) : h("span", { class: "rs-none" }, t("rising_sun.board.no_shinto"))));
    }), st.ui.menu?.[0] === "k" ? mapMenu(st, st.ui.menu, menuTitle(st, st.ui.menu)) : null);
}

function trackPanel(st) {
  const { view, data } = st;
  const track = data.political_track;
  const political = view.phase === "political";
  const current = political ? view.turn - 1 : -1;
  const finished = ["war", "winter", "over"].includes(view.phase);
  let m = 0;
  const cells = [...track].map((kind, i) => {
    const done = finished || (political && i < current);
    let body;
    if (kind === "M") {
      const k = m++;
      const played = k < view.mandates.length ? view.mandates[k] : null;
      const by = k < view.selectors.length ? view.selectors[k] : null;
      const name = played === null ? t("rising_sun.track.mandate") : played < 0 ? t("rising_sun.track.face_down") : mandateName(data.mandates[played]);
      const tile = view.kept?.[k]; // Lotus's face-down tile, known to Lotus alone
      const secret = tile !== null && tile !== undefined && tile !== played && played !== null;
      body = [h("b", {}, name), secret ? h("small", { class: "rs-tile" }, t("rising_sun.track.tile", { name: mandateName(data.mandates[tile]) })) : null, by !== null ? clanChip(view, by) : null];
    } else {
      body = [h("b", {}, t("rising_sun.track.kami"))];
    }
    return h("li", { class: cls("rs-step", kind === "M" ? "mandate" : "kami", done && "done", i === current && "now") }, ...body);
  });
  return h("section", { class: "rs-track", "data-panel": "track", "aria-label": t("rising_sun.track.title") },
    h("h3", {}, t("rising_sun.track.title"), " ", h("small", {}, t("rising_sun.track.holder", { name: clanText(view, view.holder) }), " · ", t("rising_sun.track.deck", { n: view.deck_size }),
      ...(view.pile ? [" · ", h("span", { class: "rs-pile" }, t("rising_sun.track.pile", { c: view.pile.coins, r: view.pile.ronin }))] : []))),
    h("ol", {}, ...cells));
}

function warsPanel(st) {
  const { view, data } = st;
  if (!view.war.length) return null;
  return h("section", { class: "rs-wars", "data-panel": "wars", "aria-label": t("rising_sun.wars.title") },
    h("h3", {}, t("rising_sun.wars.title")),
    h("ol", {}, ...view.war.map((p, i) => {
      const owner = tokenOwner(view, p);
      const done = i < view.war_next && !(view.battle.province === p);
      return h("li", { class: cls(done && "done", view.battle.province === p && "now") },
        h("span", { class: "rs-war-n" }, String(i + 1)), provinceName(data.provinces[p].name),
        done ? (owner >= 0 ? clanChip(view, owner) : h("span", { class: "rs-none" }, t("rising_sun.wars.discarded"))) : null);
    })));
}

// -- the Season cards --------------------------------------------------------------------------

function cardText(card) {
  return tOr(`rising_sun.effect.${card.effect}`, "", { ...card.params, force: card.params.force ?? card.force });
}

function seasonCard(st, index, { extra = "", compact = false } = {}) {
  const card = st.data.cards[index];
  return h("div", { class: cls("rs-card", `type-${card.type}`, extra), "data-card": card.id, title: cardText(card) },
    h("header", {}, h("span", { class: "rs-card-cost", title: t("rising_sun.cards.cost") }, coinIcon(), String(card.cost)), h("b", {}, cardName(card.name))),
    h("small", { class: "rs-card-type" }, tOr(`rising_sun.cardtype.${card.type}`, card.type), card.type === "monster" ? ` · ${t("rising_sun.cards.force", { n: card.force })}` : ""),
    compact ? null : h("p", {}, cardText(card)));
}

function displayPanel(st) {
  const { view } = st;
  const counts = new Map(); // alike cards once, with their number: [first index, copies]
  for (const c of view.display) {
    const name = st.data.cards[c].name;
    counts.set(name, [counts.get(name)?.[0] ?? c, (counts.get(name)?.[1] || 0) + 1]);
  }
  const buyable = new Set(st.legal.filter(a => a.name === "Buy").map(a => st.data.cards[a.args.card].name));
  return h("details", { class: "rs-display", "data-panel": "cards", open: view.phase !== "war" },
    h("summary", {}, t("rising_sun.cards.display", { n: view.display.length, season: seasonName(view.season) })),
    h("div", { class: "rs-cards" }, ...[...counts].map(([name, [c, n]]) => {
      const node = seasonCard(st, c, { extra: buyable.has(name) ? "buyable" : "" });
      if (n > 1) node.append(h("span", { class: "rs-card-copies" }, `×${n}`));
      return node;
    })));
}

// -- the battle --------------------------------------------------------------------------------

/** The Battle being fought (bids hidden until every participant has bid), or the last ones. */
function battlePanel(st) {
  const { view, data } = st;
  const season = seasonIndex(view);
  const fought = view.battles.filter(b => b.season === season);
  const live = view.battle.province >= 0 ? view.battle : null;
  if (!live && !fought.length) return null;
  const parts = [];
  if (live) parts.push(liveBattle(st, live));
  const past = fought.slice().reverse();
  past.forEach((b, i) => parts.push(h("details", { class: "rs-battle-past", open: i === 0 },
    h("summary", {}, t("rising_sun.battle.past", { n: b.war, province: provinceName(data.provinces[b.province].name), name: clanText(view, b.winner) })),
    battleTable(st, b.participants, b.bids, b.advantages, b.forces, b.winner),
    battleResult(st, b))));
  return h("section", { class: "rs-battle", "data-panel": "battle", "aria-label": t("rising_sun.battle.title") }, ...parts);
}

function liveBattle(st, b) {
  const { view, data } = st;
  const p = b.province;
  const shown = b.participants.every(q => Array.isArray(b.bids[q]) && b.bids[q].length === 4);
  const bids = b.participants.map(q => (shown || q === st.me ? b.bids[q] : null));
  const forces = b.participants.map(q => view.force[p][q] + (b.hired[q] || 0));
  return h("div", { class: "rs-battle-live" },
    h("h3", {}, t("rising_sun.battle.now", { n: view.war_next, province: provinceName(data.provinces[p].name) })),
    h("p", { class: "rs-hint" }, shown ? t("rising_sun.battle.revealed") : t("rising_sun.battle.secret")),
    battleTable(st, b.participants, bids, b.advantages, forces, b.winner, b));
}

/** Participants as columns: Force, open Coins and Ronin, then each Advantage's bids. */
function battleTable(st, participants, bids, advantages, forces, winner, live = null) {
  const { view } = st;
  const head = h("tr", {}, h("th", {}), ...participants.map(q => h("th", { class: cls(q === winner && "winner") }, clanChip(view, q))));
  const row = (label, cells, extra = "") => h("tr", { class: extra }, h("th", { scope: "row" }, label), ...cells);
  const rows = [
    row(t("rising_sun.battle.force"), participants.map((q, i) => h("td", { class: cls("num", q === winner && "winner") }, String(forces[i] ?? "")))),
  ];
  if (live) {
    rows.push(row(t("rising_sun.battle.coins"), participants.map(q => h("td", { class: "num" }, String(live.start_coins[q])))));
    rows.push(row(t("rising_sun.battle.ronin"), participants.map(q => h("td", { class: "num" }, String(view.ronin[q])))));
  }
  ADVANTAGES.forEach((name, a) => rows.push(row(advantageName(name), participants.map((q, i) => {
    const bid = bids[i];
    const text = Array.isArray(bid) && a < bid.length ? String(bid[a]) : live?.bid_done[q] ? "✓" : "?";
    const won = advantages[a] === q;
    return h("td", { class: cls("num", won && "won"), title: won ? t("rising_sun.battle.won") : null }, text, won ? " ★" : "");
  }), "advantage")));
  return h("table", { class: "rs-battle-table" }, h("thead", {}, head), h("tbody", {}, ...rows));
}

function battleResult(st, b) {
  const { view, data } = st;
  const lines = [t("rising_sun.battle.result", { name: clanText(view, b.winner), n: b.forces[b.participants.indexOf(b.winner)] ?? 0, killed: b.killed })];
  for (const [captor, owner, what] of b.hostages) {
    const piece = what >= MONSTER_BASE ? cardName(data.cards[what - MONSTER_BASE].name) : kindName(what);
    lines.push(t("rising_sun.battle.hostage", { name: clanText(view, captor), owner: clanText(view, owner), piece }));
  }
  const paid = b.participants.map((q, i) => [q, b.reparations[i]]).filter(([, n]) => n > 0);
  if (paid.length) lines.push(t("rising_sun.battle.reparations", { list: paid.map(([q, n]) => `${clanText(view, q)} ${n}`).join(", ") }));
  return h("ul", { class: "rs-battle-result" }, ...lines.map(line => h("li", {}, line)));
}

// -- the clans ---------------------------------------------------------------------------------

/** "Koi: Edo, Lotus: Nagato" (an option's text) as a Map. */
function optionMap(text) {
  return new Map((text || "").split(",").map(part => part.split(":").map(x => x.trim())).filter(pair => pair.length === 2));
}

/** The clans in play, before they are chosen: power, home and income, and who took which. */
function clanChoice(st) {
  const { view, data } = st;
  const homes = optionMap(view.options?.clan_homes);
  const incomes = optionMap(view.options?.clan_incomes);
  const names = (view.options?.clan_list || "").split(",").map(x => x.trim()).filter(Boolean);
  return h("div", { class: "rs-clan-choice" }, ...data.clans.filter(c => names.includes(c.name)).map(c => {
    const taker = view.clans.indexOf(c.name);
    return h("article", { class: cls("rs-clan", taker >= 0 && "taken"), style: `--clan:${CLAN_CSS[c.name]}`, "data-clan": c.name },
      h("header", {}, h("span", { class: "rs-clan-name" }, tOr(`rising_sun.clan.${c.name}`, c.name)), taker >= 0 ? h("small", { class: "rs-seat-name" }, st.ctx.seatName(taker)) : null),
      h("p", { class: "rs-ability" }, h("b", {}, tOr(`rising_sun.ability.${c.ability}`, c.ability_name)), " ", tOr(`rising_sun.ability.${c.ability}.help`, "")),
      h("p", { class: "rs-clan-row" }, t("rising_sun.clans.home", { province: provinceName(homes.get(c.name) || c.home) }), " · ",
        t("rising_sun.clans.income", { n: incomes.get(c.name) || c.income })));
  }));
}

function drawPlayers(st) {
  const { view } = st;
  const order = view.honor?.length ? view.honor : [...Array(view.players).keys()];
  return h("div", { class: "rs-players" },
    h("h2", {}, t("rising_sun.players.title"), " ", h("small", {}, t("rising_sun.players.honor_order"))),
    ...order.map((seat, rank) => clanScreen(st, seat, rank)));
}

const moved = (st, key, seat) => Boolean(st.before) && !same(st.before[key]?.[seat], st.view[key]?.[seat]);

function clanScreen(st, seat, rank) {
  const { view, data } = st;
  const clan = clanOf(view, seat);
  const info = clan ? data.clans.find(c => c.name === clan) : null;
  const acting = view.phase !== "over" && (view.to_act || []).includes(seat);
  const hostages = view.pieces.filter(([, , , loc]) => loc === HOSTAGE + seat);
  const reserve = [0, 1, 2, 3, 4].map(k => view.pieces.filter(([o, kind, , loc]) => o === seat && kind === k && loc === RESERVE).length);
  const tokens = view.tokens[seat] || [];
  return h("article", { class: cls("rs-clan", seat === st.me && "me", acting && "acting"), style: `--clan:${clanCss(view, seat)}`, "data-seat": seat },
    h("header", {},
      h("span", { class: "rs-honor-rank", title: t("rising_sun.players.honor_rank", { n: rank + 1 }) }, String(rank + 1)),
      h("span", { class: "rs-clan-name" }, clan ? clanText(view, seat) : st.ctx.seatName(seat)),
      clan ? h("small", { class: "rs-seat-name" }, st.ctx.seatName(seat)) : null,
      seat === st.me ? h("span", { class: "rs-badge" }, t("rising_sun.players.you")) : null,
      h("span", { class: cls("rs-vp-total", moved(st, "vp", seat) && "changed"), title: t("rising_sun.players.vp") }, vpIcon(), h("b", {}, String(view.final?.[seat] ?? view.vp[seat])))),
    h("div", { class: "rs-clan-row" },
      stat(coinIcon(), view.coins[seat], t("rising_sun.players.coins"), moved(st, "coins", seat) && "changed"),
      stat(roninIcon(), view.ronin[seat], t("rising_sun.players.ronin"), moved(st, "ronin", seat) && "changed"),
      view.ally[seat] >= 0 ? h("span", { class: "rs-ally" }, t("rising_sun.players.ally"), " ", clanChip(view, view.ally[seat])) : null,
      sum(reserve) ? h("span", { class: "rs-reserve", title: t("rising_sun.players.reserve") }, t("rising_sun.players.reserve_short"), ...[0, 1, 2, 4].filter(k => reserve[k]).map(k => h("span", {}, figIcon(k, clanCss(view, seat)), String(reserve[k])))) : null),
    info ? h("p", { class: "rs-ability", title: tOr(`rising_sun.ability.${info.ability}.help`, "") }, h("b", {}, tOr(`rising_sun.ability.${info.ability}`, info.ability_name)), " ", tOr(`rising_sun.ability.${info.ability}.help`, "")) : null,
    view.owned[seat].length ? h("div", { class: "rs-owned" }, ...view.owned[seat].map(c => seasonCard(st, c, { compact: true, extra: "small" }))) : null,
    tokens.length ? h("p", { class: "rs-tokens" }, t("rising_sun.players.tokens"), " ", ...tokens.map(x => h("span", { class: "rs-token" }, `${provinceName(data.provinces[x % 8].name)} (${seasonName(SEASONS[Math.floor(x / 8)])})`))) : null,
    hostages.length ? h("p", { class: "rs-hostages" }, t("rising_sun.players.hostages"), " ", ...hostages.map(([o, k, c]) => h("span", {}, figIcon(k, clanCss(view, o), k === MONSTER ? cardName(data.cards[c].name) : kindName(k))))) : null);
}

// -- the choices -------------------------------------------------------------------------------

function makeAct(ctx, focus) {
  return action => {
    const buttons = document.querySelectorAll(".rs-act");
    focus.after = document.activeElement?.classList?.contains("rs-act") ? action.notation : null;
    for (const button of buttons) button.disabled = true;
    return ctx.act({ name: action.name, args: action.args }).catch(error => {
      for (const button of buttons) button.disabled = false;
      throw error;
    });
  };
}

function actButton(st, action, content = st.actionText(action), extra = "choice") {
  return h("button", { type: "button", class: `rs-act ${extra}`, "data-notation": action.notation, onclick: () => st.act(action).catch(() => {}) }, content);
}

const section = (title, ...children) => h("section", { class: "rs-step-box" }, title ? h("h3", {}, title) : null, ...children);
const hint = text => h("p", { class: "rs-hint" }, text);

/** A label for a piece type as actions name it: a kind or MONSTER_BASE + a card. */
function whatLabel(st, what, owner = st.me) {
  const kind = what >= MONSTER_BASE ? MONSTER : what;
  const name = what >= MONSTER_BASE ? cardName(st.data.cards[what - MONSTER_BASE].name) : kindName(what);
  return [figIcon(kind, clanCss(st.view, owner), name), name];
}

function drawControls(st) {
  const { legal, view } = st;
  if (!legal.length) return [];
  const used = new Set();
  const take = test => legal.filter(a => !used.has(a) && test(a) && used.add(a));
  const parts = [hint(tOr(`rising_sun.decision.${view.decision}.help`, "")), st.choices.size ? hint(t("rising_sun.board.map_hint")) : null];
  if (view.decision === "bid") parts.push(bidComposer(st, take(a => a.name === "Bid")));
  if (view.decision === "keep") parts.push(mandateChoice(st, take(a => a.name === "Keep")));
  const announce = take(a => a.name === "Announce");
  const faceDown = view.kept?.[view.kept.length - 1];
  if (announce.length && faceDown !== null && faceDown !== undefined) parts.push(hint(t("rising_sun.controls.face_down", { name: mandateName(st.data.mandates[faceDown]) })));
  if (announce.length) parts.push(section(t("rising_sun.controls.announce"), h("div", { class: "rs-mandates" }, ...announce.map(a => mandateButton(st, a, st.data.mandates[a.args.mandate])))));
  const buys = take(a => a.name === "Buy");
  if (buys.length) parts.push(section(t("rising_sun.controls.buy"), h("div", { class: "rs-cards" }, ...buys.map(a => actButton(st, a, seasonCard(st, a.args.card), "rs-card-btn")))));
  grouped(st, take(a => a.name === "Summon"), a => provinceName(st.data.provinces[a.args.province].name), a => [...whatLabel(st, a.args.what), a.args.kami >= 0 ? ` → ${kamiName(st.data.kami[a.args.kami].name)}` : ""], parts);
  grouped(st, take(a => a.name === "Place"), a => placeName(st, a.args.where), a => whatLabel(st, a.args.what), parts);
  grouped(st, take(a => a.name === "Move"), a => `${provinceName(st.data.provinces[a.args.src].name)} → ${provinceName(st.data.provinces[a.args.dst].name)}`, a => whatLabel(st, a.args.what), parts);
  const builds = take(a => a.name === "Build");
  if (builds.length) parts.push(section(t("rising_sun.controls.build"), h("div", { class: "choices" }, ...builds.map(a => actButton(st, a, [figIcon(STRONGHOLD, clanCss(view, st.me)), provinceName(st.data.provinces[a.args.province].name)])))));
  grouped(st, take(a => a.name === "Replace"), a => placeName(st, a.args.where), a => st.actionText(a), parts, false);
  const chooses = take(a => a.name === "ChooseClan");
  if (chooses.length) {
    parts.push(section(null, h("div", { class: "rs-mandates" }, ...chooses.map(a => {
      const clan = st.data.clans[a.args.clan];
      return actButton(st, a, [h("b", {}, tOr(`rising_sun.clan.${clan.name}`, clan.name)), h("small", {}, tOr(`rising_sun.ability.${clan.ability}`, clan.ability_name))], "rs-mandate");
    }))));
  }
  for (const name of ["Answer", "Hostage", "Kill"]) {
    const list = take(a => a.name === name);
    if (list.length) parts.push(section(null, h("div", { class: "choices" }, ...list.map(a => actButton(st, a, st.actionText(a), name === "Answer" && a.args.accept ? "choice primary" : "choice")))));
  }
  const gifts = take(a => a.name === "Give" && GIFT_PURPOSES.includes(a.args.purpose));
  const rest = take(a => a.name !== "Choice");
  if (rest.length) parts.push(section(null, h("div", { class: "choices" }, ...rest.map(a => actButton(st, a)))));
  const choices = take(() => true);
  if (choices.length) parts.push(h("div", { class: "rs-row end" }, ...choices.map(a => actButton(st, a, st.actionText(a), "ghost"))));
  if (gifts.length) parts.push(h("details", { class: "rs-gifts" }, h("summary", {}, t("rising_sun.controls.gifts", { n: gifts.length })), hint(t("rising_sun.controls.gifts_help")), h("div", { class: "choices" }, ...gifts.map(a => actButton(st, a)))));
  return [h("div", { class: `rs-controls decision-${view.decision}`, "data-number": st.number, "data-decision": view.decision ?? "" },
    h("h2", {}, tOr(`rising_sun.decision.${view.decision}`, view.decision || "")), ...parts.filter(Boolean))];
}

/** A province, or a Kami's shrine, as actions name places. */
function placeName(st, where) {
  return where >= AT_KAMI ? t("rising_sun.board.shrine_of", { name: kamiName(st.data.kami[where - AT_KAMI].name) }) : provinceName(st.data.provinces[where].name);
}

/** Actions of one kind in sections by topic (a province, a route), one button each. */
function grouped(st, list, topic, label, parts, icons = true) {
  if (!list.length) return;
  const groups = new Map();
  for (const a of list) {
    const key = topic(a);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  const boxes = [...groups].map(([key, actions]) => h("div", { class: "rs-group" }, h("span", { class: "rs-group-title" }, key),
    h("div", { class: "choices" }, ...actions.map(a => actButton(st, a, icons ? label(a) : st.actionText(a))))));
  parts.push(list.length > 24 ? h("details", { class: "rs-many", open: true }, h("summary", {}, t("rising_sun.controls.many", { n: list.length })), ...boxes) : section(null, ...boxes));
}

function mandateButton(st, a, name) {
  return actButton(st, a, [h("b", {}, mandateName(name)), h("small", {}, tOr(`rising_sun.mandate.${name}.help`, ""))], "rs-mandate");
}

/** Keep one of the 4 drawn Mandate tiles; the other 3 go back face down. */
function mandateChoice(st, keeps) {
  const drawn = st.view.drawn || [];
  return section(t("rising_sun.controls.keep", { n: drawn.length }), h("div", { class: "rs-mandates" }, ...keeps.map(a => mandateButton(st, a, st.data.mandates[a.args.mandate]))));
}

/** The secret split: one row per Advantage with the bid, a live total against the Coins, and
 *  one button that sends the remaining steps in order. The engine asks the steps one at a
 *  time, each at most the Coins left; the composer keeps to the same rule. */
function bidComposer(st, bids) {
  const { view } = st;
  const me = st.me;
  const placed = view.battle.bids[me] || [];
  const coins = view.coins[me];
  const key = `${view.season}-${view.war_next}-${view.battle.province}`;
  if (st.split.key !== key) Object.assign(st.split, { key, values: [0, 0, 0, 0], sending: false });
  const values = st.split.values;
  placed.forEach((v, a) => { values[a] = v; });
  const total = sum(values);
  const rows = ADVANTAGES.map((name, a) => {
    const fixed = a < placed.length;
    const room = coins - (total - values[a]);
    const set = v => { values[a] = Math.max(0, Math.min(room, v)); st.redraw(); };
    return h("div", { class: cls("rs-bid-row", fixed && "fixed") },
      h("span", { class: "rs-bid-name", title: tOr(`rising_sun.advantage.${name}.help`, "") }, advantageName(name)),
      fixed ? h("b", {}, String(values[a])) : h("span", { class: "rs-bid-set" },
        h("button", { type: "button", class: "ghost small", "aria-label": t("rising_sun.bid.less", { name: advantageName(name) }), "data-leads": `bid ${values[a] - 1} on ${name}`, disabled: values[a] <= 0 || null, onclick: () => set(values[a] - 1) }, "−"),
        h("output", { class: "rs-bid-value" }, String(values[a])),
        h("button", { type: "button", class: "ghost small", "aria-label": t("rising_sun.bid.more", { name: advantageName(name) }), "data-leads": `bid ${values[a] + 1} on ${name}`, disabled: values[a] >= room || null, onclick: () => set(values[a] + 1) }, "+")),
      h("small", {}, tOr(`rising_sun.advantage.${name}.help`, "")));
  });
  const send = async () => {
    st.split.sending = true;
    try {
      const start = (view.battle.bids[me] || []).length;
      for (let a = start; a < 4; a++) await st.act({ name: "Bid", args: { advantage: a, coins: values[a] }, notation: `bid ${values[a]} on ${ADVANTAGES[a]}` });
    } finally {
      st.split.sending = false;
    }
  };
  return h("div", { class: "rs-bid", "data-battle": key, "data-covers": JSON.stringify(bids.map(a => a.notation)) },
    h("p", { class: "rs-bid-open" }, t("rising_sun.bid.open", { coins, ronin: view.ronin[me] })),
    ...rows,
    h("p", { class: cls("rs-bid-total", total > coins && "over") }, t("rising_sun.bid.total", { n: total, coins, left: coins - total })),
    h("button", { type: "button", class: "rs-act primary", id: "rs-send-bids", "data-sends": ADVANTAGES.map((name, a) => `bid ${values[a]} on ${name}`).slice(placed.length).join("\n"), disabled: st.split.sending || null, onclick: () => send().catch(() => {}) }, t("rising_sun.bid.send")));
}

// -- the renderer ------------------------------------------------------------------------------

export function createRenderer(ctx) {
  const focus = { after: null };
  const act = makeAct(ctx, focus);
  const split = { key: null, values: [0, 0, 0, 0] };
  const ui = { number: null, pick: null, menu: null }; // the figure picked and the menu open on the map
  let mapFocus = null; // the place on the map to give focus after a redraw
  const actionText = action => (action.message ? say(action.message) : action.notation); // the server describes each legal action
  let layout = "wide";
  let lastMessage = null;
  let lastBefore = null;
  const narrow = window.matchMedia("(max-width: 700px)");
  const chooseLayout = () => { layout = narrow.matches ? "tall" : "wide"; };
  chooseLayout();
  narrow.addEventListener("change", () => { chooseLayout(); if (lastMessage) renderer.update(lastMessage, lastBefore); });
  const renderer = {
    update(message, before) {
      lastMessage = message;
      lastBefore = before;
      const view = message.view;
      if (ui.number !== message.number) Object.assign(ui, { number: message.number, pick: null, menu: null });
      const st = { ctx, view, before, legal: ctx.replay ? [] : message.legal || [], act, data: ctx.data, me: ctx.seat, number: message.number, split, actionText, layout,
        where: placed(view), old: before ? placed(before) : null, ui,
        redraw: key => { mapFocus = key ?? null; renderer.update(lastMessage, lastBefore); } };
      st.choices = mapChoices(st);
      const held = document.activeElement?.dataset?.notation;
      const heldPlace = mapFocus ?? document.activeElement?.dataset?.map;
      mapFocus = null;
      if (!view.clans || view.phase === "clans") {
        ctx.root.board.replaceChildren(h("div", { class: "rs-board" }, hint(t("rising_sun.board.choosing_clans")), clanChoice(st)));
      } else {
        ctx.root.board.replaceChildren(h("div", { class: `rs-board phase-${view.phase}`, "data-number": message.number },
          h("div", { class: "rs-top" }, trackPanel(st), warsPanel(st)),
          battlePanel(st),
          drawMap(st),
          shrinesPanel(st),
          displayPanel(st)));
      }
      ctx.root.players.replaceChildren(view.clans ? drawPlayers(st) : h("div"));
      ctx.root.controls.replaceChildren(...drawControls(st));
      for (const menu of document.querySelectorAll(".rs-menu")) {
        const place = document.querySelector(`[data-map="${menu.dataset.menu}"]`);
        if (place) placeMenu(menu, place, menu.parentElement);
      }
      const wanted = focus.after ?? held;
      const menuOpen = ui.menu && heldPlace === ui.menu ? document.querySelector(".rs-menu .rs-act") : null;
      if (menuOpen) menuOpen.focus();
      else if (heldPlace && !focus.after) document.querySelector(`[data-map="${heldPlace}"]`)?.focus();
      else if (wanted) {
        const all = [...document.querySelectorAll(".rs-act:not([disabled])")];
        (all.find(b => b.dataset.notation === wanted) ?? (focus.after ? all[0] : null))?.focus();
      }
      if (message.legal?.length) focus.after = null;
    },
  };
  return renderer;
}

// -- the end -----------------------------------------------------------------------------------

export function scoreDetails(view, tr = t, seatName = seat => tr(`rising_sun.colour.${SEATS[seat]}`)) {
  if (!view?.final || !view.breakdown?.length) return null;
  const seats = [...Array(view.players).keys()].sort((a, b) => view.final[b] - view.final[a] || view.honor.indexOf(a) - view.honor.indexOf(b));
  return h("div", { class: "rs-score-details" },
    h("h3", {}, tr("rising_sun.final.title")),
    h("table", { class: "rs-final" },
      h("thead", {}, h("tr", {}, h("th", {}, tr("rising_sun.final.clan")), ...BREAKDOWN.map(k => h("th", { class: "num" }, tr(`rising_sun.final.${k}`))), h("th", { class: "num" }, tr("rising_sun.final.total")))),
      h("tbody", {}, ...seats.map(seat => h("tr", { "data-seat": seat },
        h("td", {}, clanChip(view, seat), " ", h("small", {}, seatName(seat))),
        ...view.breakdown[seat].map(n => h("td", { class: "num" }, String(n))),
        h("td", { class: "num" }, h("b", {}, String(view.final[seat]))))))),
    h("p", { class: "rs-hint" }, tr("rising_sun.final.honor", { list: view.honor.map(q => clanText(view, q)).join(" > ") })));
}

