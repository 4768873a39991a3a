// The lobby: start a match or open a table (game, players, options, seats), share its links,
// the open tables to sit down at, the signed-in player's matches, and the list of matches.
import { api, h, hostStore, seatStore, session } from "./dom.js";
import { t, tOr, useLanguage, language } from "./i18n.js";

// -- text options made of a game's terms (docs/protocol.md, "Options") -------------------------
// A game marks such an option in its schema: "x-list" (names to tick, comma-separated) or
// "x-pairs" ("Name: value" for each name, the value a name or a number). The form shows the
// names in the reader's language, and sends the text the engine reads.

/** A name in the reader's language (its term), or as it is. */
const termText = (spec, name) => (spec.terms ? tOr(`${spec.terms}.${name}`, name) : name);
const listOf = text => String(text ?? "").split(",").map(x => x.trim()).filter(Boolean);
const pairsOf = text => new Map(listOf(text).map(part => part.split(":").map(x => x.trim())).filter(pair => pair.length === 2));

/** The names to tick, in the value's order, then the others. */
function termList(id, spec, value, set) {
  const chosen = listOf(value);
  const order = [...chosen.filter(n => spec.names.includes(n)), ...spec.names.filter(n => !chosen.includes(n))];
  const box = h("fieldset", { id, class: "terms", "aria-labelledby": `${id}-label` });
  const send = () => set([...box.querySelectorAll("input:checked")].map(input => input.value).join(", "));
  box.append(...order.map(name => h("label", {}, h("input", { type: "checkbox", value: name, checked: chosen.includes(name), onchange: send }), termText(spec, name))));
  return box;
}

/** The id of the field for ``key`` in the pairs editor ``id`` (kept across redraws). */
const pairId = (id, key) => `${id}-${key.replace(/\W+/g, "_")}`;

/** A value for each name: a choice of names or a number. */
function termPairs(id, spec, value, set) {
  const values = pairsOf(value);
  const box = h("fieldset", { id, class: "terms pairs", "aria-labelledby": `${id}-label` });
  const send = () => set([...box.querySelectorAll("[data-key]")].map(field => `${field.dataset.key}: ${field.value}`).join(", "));
  const field = (key, label) => {
    const current = values.get(key) ?? "";
    const attrs = { id: pairId(id, key), "data-key": key, "aria-label": label, onchange: send, oninput: send };
    if (spec.values.names) return h("select", attrs, ...spec.values.names.map(name => h("option", { value: name, selected: name === current }, termText(spec.values, name))));
    return h("input", { ...attrs, type: "number", min: spec.values.minimum, max: spec.values.maximum, value: current });
  };
  box.append(...spec.keys.names.map(key => {
    const label = termText(spec.keys, key);
    return h("label", {}, h("span", {}, label), field(key, label));
  }));
  return box;
}

/** An option's text value in the reader's language, where its schema names its terms. */
function termsText(schema, value) {
  if (schema["x-list"]) return listOf(value).map(name => termText(schema["x-list"], name)).join(", ");
  const spec = schema["x-pairs"];
  if (!spec) return String(value);
  return [...pairsOf(value)].map(([key, v]) => `${termText(spec.keys, key)}: ${spec.values.names ? termText(spec.values, v) : v}`).join(", ");
}

/** The bot levels the server offers (docs/ai.md). */
export const BOT_LEVELS = ["easy", "normal", "hard", "heuristic", "random"];
const gameModules = {};

/** A game's renderer module (./games/<name>.js), or the generic one. */
export async function gameModule(name) {
  if (!(name in gameModules)) {
    gameModules[name] = import(`./games/${name}.js`).catch(() => import("./games/generic.js"));
  }
  return gameModules[name];
}

/** A field for a whole number: text with a number keyboard on phones. */
const NUMERIC = { type: "text", inputmode: "numeric", autocomplete: "off", size: 8 };
/** What a number field holds, as a number; as typed where it is none (the form then says
 * what it wants before anything is sent). */
const numberOr = text => (text.trim() === "" || Number.isNaN(Number(text)) ? text : Number(text));

export function lobbyPage(root) {
  let games = [];
  const form = { game: null, players: null, options: {}, seats: [], seed: "", clock: "", spectatorChat: false, undo: true, hints: true, rated: false };
  let created = null;
  let filter = "running";
  let drawing = 0; // the latest redraw; an older one that finishes later is dropped
  const opened = new Set(); // the folded sections the reader opened, kept across redraws
  const folded = (name, summary, ...body) => h("details", { class: "options", "data-fold": name }, h("summary", {}, summary), ...body);

  const scopes = () => ["ui", ...games.map(g => g.name)];

  async function render() {
    const mine = ++drawing;
    root.setAttribute("aria-busy", "true"); // until the latest redraw stands
    try {
      await draw(mine);
    } finally {
      if (mine === drawing) root.removeAttribute("aria-busy");
    }
  }

  async function draw(mine) {
    if (!games.length) {
      games = await api("/api/games");
      await useLanguage(language(), scopes());
    }
    document.title = `Sengoku — ${t("ui.lobby.title")}`;
    document.getElementById("where").textContent = t("ui.lobby.title");
    const newMatch = await newMatchCard();
    const tables = await tablesCard();
    const own = session.account ? await myMatchesCard() : null; // none yet: no card
    const matches = await matchesCard();
    if (mine !== drawing) return; // a later redraw (after another change) is on its way
    const active = document.activeElement;
    const focused = active?.id; // keep the keyboard's place across a redraw
    const caret = focused && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
    for (const fold of root.querySelectorAll("details[data-fold]")) {
      if (fold.open) opened.add(fold.dataset.fold); else opened.delete(fold.dataset.fold);
    }
    root.replaceChildren(
      h("div", { class: "lobby" },
        h("section", { class: "card intro" },
          h("h1", {}, t("ui.lobby.welcome")), h("p", {}, t("ui.lobby.intro")), learnLinks()),
        own,
        tables,
        newMatch,
        created ? createdCard() : null,
        matches));
    watchTables();
    for (const fold of root.querySelectorAll("details[data-fold]")) fold.open = opened.has(fold.dataset.fold);
    // what was typed while this redraw waited for the network stands in the new form
    form.seats.forEach((seat, i) => { const input = document.getElementById(`seat-name-${i}`); if (input) input.value = seat.name; });
    for (const [id, value] of [...Object.entries(form.options).map(([name, v]) => [`opt-${name}`, v]), ["new-seed", form.seed], ["new-clock", form.clock]]) {
      const field = document.getElementById(id);
      if (field?.type === "checkbox") field.checked = value === true;
      else if (field?.tagName === "INPUT" || field?.tagName === "SELECT") field.value = String(value);
      else if (field?.classList.contains("pairs")) for (const [key, v] of pairsOf(value)) { const one = document.getElementById(pairId(id, key)); if (one) one.value = v; }
      else if (field?.classList.contains("terms")) for (const box of field.querySelectorAll("input[type=checkbox]")) box.checked = listOf(value).includes(box.value);
    }
    if (focused) {
      const again = document.getElementById(focused);
      again?.focus();
      if (caret && again?.setSelectionRange) again.setSelectionRange(...caret);
    }
  }

  /** "Learn to play": a link to each game's tutorial (docs/ui.md, "Learn to play"). */
  function learnLinks() {
    const taught = games.filter(g => g.tutorial);
    if (!taught.length) return null;
    return h("p", { class: "learn" }, h("span", {}, t("ui.learn.lobby")), " ",
      ...taught.map(g => h("a", { class: "button learn-link", href: `/learn/${g.name}`, "data-game": g.name },
        t("ui.learn.link", { game: tOr(`${g.name}.title`, g.title) }))));
  }

  async function newMatchCard() {
    const game = games.find(g => g.name === (form.game || "shogun")) || games[0];
    form.game = game.name;
    if (!game.player_counts.includes(form.players)) form.players = game.player_counts.includes(4) ? 4 : game.player_counts[0];
    const module = await gameModule(game.name);
    const featured = module.featuredOptions || [];
    const colours = module.seatColours ? module.seatColours(form.players) : [];
    const me = session.account;
    while (form.seats.length < form.players) form.seats.push(form.seats.length === 0 ? { kind: me ? "me" : "human", bot: "normal", name: "" } : { kind: "bot", bot: "normal", name: "" });
    form.seats.length = form.players;
    if (!me) for (const seat of form.seats) if (seat.kind === "me" || seat.kind === "open") seat.kind = "human";

    const gameSelect = h("select", { id: "new-game", onchange: e => { form.game = e.target.value; form.options = {}; render(); } },
      ...games.map(g => h("option", { value: g.name, selected: g.name === game.name }, tOr(`${g.name}.title`, g.title))));
    const playersSelect = h("select", { id: "new-players", onchange: e => { form.players = Number(e.target.value); render(); } },
      ...game.player_counts.map(n => h("option", { value: n, selected: n === form.players }, String(n))));

    const seatRows = form.seats.map((seat, i) => h("div", { class: "seat-row" },
      h("span", { class: `chip seat-${i}`, style: colours[i] ? `--seat:${colours[i].css}` : null }, colours[i] ? colours[i].name : t("ui.seat", { n: i + 1 })),
      h("select", { class: "seat-kind", id: `seat-kind-${i}`, "aria-label": t("ui.lobby.seat_kind", { n: i + 1 }), onchange: e => {
        const v = e.target.value;
        if (v === "me") for (const other of form.seats) if (other.kind === "me") other.kind = "human";
        seat.kind = ["human", "me", "open"].includes(v) ? v : "bot";
        if (seat.kind === "bot") seat.bot = v;
        render();
      } },
        me ? h("option", { value: "me", selected: seat.kind === "me" }, t("ui.lobby.me", { name: me.display_name })) : null,
        h("option", { value: "human", selected: seat.kind === "human", disabled: form.rated }, t("ui.lobby.human")),
        me ? h("option", { value: "open", selected: seat.kind === "open" }, t("ui.lobby.open_seat")) : null,
        ...BOT_LEVELS.map(level => h("option", { value: level, selected: seat.kind === "bot" && seat.bot === level }, t("ui.lobby.bot", { level: t(`ui.level.${level}`) })))),
      seat.kind === "human" ? h("input", { class: "seat-name", id: `seat-name-${i}`, placeholder: t("ui.lobby.name"), "aria-label": t("ui.lobby.name"), value: seat.name, maxlength: 40, oninput: e => { seat.name = e.target.value; } }) : null));

    const optionLabel = option => tOr(`${game.name}.option.${option.name}`, option.name.replaceAll("_", " "));
    const optionInput = option => {
      const id = `opt-${option.name}`;
      const value = option.name in form.options ? form.options[option.name] : option.default;
      const label = optionLabel(option);
      const help = tOr(`${game.name}.option.${option.name}.help`, option.description);
      const schema = option.schema || {};
      let input;
      const set = text => { form.options[option.name] = text; };
      if (schema["x-list"]) {
        input = termList(id, schema["x-list"], value, set);
      } else if (schema["x-pairs"]) {
        input = termPairs(id, schema["x-pairs"], value, set);
      } else if (schema.enum) {
        input = h("select", { id, onchange: e => { form.options[option.name] = e.target.value; } },
          ...schema.enum.map(v => h("option", { value: v, selected: v === value }, tOr(`${game.name}.option.${option.name}.${v}`, String(v).replaceAll("_", " ")))));
      } else if (schema.type === "boolean") {
        input = h("input", { id, type: "checkbox", checked: value === true, onchange: e => { form.options[option.name] = e.target.checked; } });
      } else if (schema.type === "integer") {
        // a number as text with a number keyboard (as GOV.UK advises): unlike type=number, its
        // caret and selection can be read, so a redraw puts them back where the reader left them
        input = h("input", { id, ...NUMERIC, value,
          oninput: e => set(numberOr(e.target.value)) });
      } else {
        input = h("input", { id, value, size: 40,
          oninput: e => set(e.target.value) });
      }
      // the help in the reader's language under the field; the rules reference's own words
      // (sections, certainties) stay in `sengoku games --details` and the game's docs
      const caption = input.tagName === "FIELDSET" ? h("span", { class: "label", id: `${id}-label` }, label) : h("label", { for: id }, label);
      return h("div", { class: "option" }, caption, input, h("small", {}, help));
    };
    /** The first number field that holds no whole number in its range, with what to say. */
    const wrongNumber = () => {
      const wrong = (id, field, value, min, max) => {
        if (Number.isInteger(value) && value >= min && (max === undefined || value <= max)) return null;
        const text = max === undefined ? t("ui.lobby.whole_number_from", { field, min }) : t("ui.lobby.whole_number", { field, min, max });
        return { id, text };
      };
      for (const option of game.options) {
        const schema = option.schema || {};
        if (schema.type !== "integer" || !(option.name in form.options)) continue;
        const found = wrong(`opt-${option.name}`, optionLabel(option), form.options[option.name], schema.minimum ?? -Infinity, schema.maximum);
        if (found) return found;
      }
      for (const [id, value, label, min] of [["new-seed", form.seed, "ui.lobby.seed", 0], ["new-clock", form.clock, "ui.lobby.clock", 1]]) {
        const found = value.trim() === "" ? null : wrong(id, t(label), numberOr(value), min);
        if (found) return found;
      }
      return null;
    };
    const main = game.options.filter(o => featured.includes(o.name));
    const rest = game.options.filter(o => !featured.includes(o.name));
    const message = h("p", { class: "error", role: "alert" });
    const create = h("button", { id: "create-match", class: "primary", type: "submit" }, t("ui.lobby.create"));

    return h("form", { class: "card new-match", onsubmit: async e => {
      e.preventDefault();
      message.textContent = "";
      for (const field of e.target.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
      const wrong = wrongNumber();
      if (wrong) {
        message.textContent = wrong.text;
        const field = document.getElementById(wrong.id);
        field?.setAttribute("aria-invalid", "true");
        const fold = field?.closest("details");
        if (fold) fold.open = true; // a rule option in the folded section: shown
        field?.focus();
        return;
      }
      create.disabled = true;
      try {
        const body = { game: form.game, players: form.players, options: form.options, seats: form.seats.map(seatBody) };
        if (form.seed.trim() !== "") body.seed = numberOr(form.seed);
        if (form.clock.trim() !== "") body.turn_clock = numberOr(form.clock);
        if (form.spectatorChat) body.spectator_chat = true;
        if (form.rated) body.rated = true;
        else if (!form.undo) body.undo = false;
        if (!form.rated && !form.hints) body.hints = false;
        const made = await api("/api/matches", { method: "POST", body: JSON.stringify(body) });
        // only the host's key is kept here; each seat's key is kept by the browser that opens it
        hostStore.put(made.id, made.host_token);
        // an open table: its page waits for the players, and the host starts it there
        if (made.status === "open") { location.assign(`/play/${made.id}`); return; }
        // one person against bots: no links to hand out, straight to the board
        const people = made.seats.filter(seat => seat.join_url);
        if (people.length === 1) { location.assign(people[0].join_url); return; }
        created = { ...made, game: form.game, colours };
        await render();
        document.getElementById("created")?.scrollIntoView({ block: "nearest" });
      } catch (error) {
        message.textContent = error.message;
      } finally {
        create.disabled = false;
      }
    } },
      h("h2", {}, t("ui.lobby.new")),
      h("div", { class: "row" },
        h("label", {}, t("ui.lobby.game"), " ", gameSelect),
        h("label", {}, t("ui.lobby.players"), " ", playersSelect)),
      h("fieldset", { class: "seats" }, h("legend", {}, t("ui.lobby.seats")), ...seatRows,
        me ? h("div", { class: "option rated-option" }, h("label", { for: "new-rated" }, t("ui.lobby.rated")),
          h("input", { id: "new-rated", type: "checkbox", checked: form.rated, onchange: e => {
            form.rated = e.target.checked;
            if (form.rated) for (const seat of form.seats) if (seat.kind === "human") seat.kind = "open";
            render();
          } }), h("small", {}, t("ui.lobby.rated_help")))
          : h("p", { class: "hint sign-in-hint" }, h("a", { href: `/account?next=${encodeURIComponent("/")}` }, t("ui.nav.sign_in")), " ", t("ui.lobby.sign_in_for_tables"))),
      main.length ? h("fieldset", { class: "options" }, h("legend", {}, t("ui.lobby.options")), ...main.map(optionInput)) : null,
      rest.length ? folded("rules", t("ui.lobby.rule_options"), ...rest.map(optionInput)) : null,
      folded("more", t("ui.lobby.more"),
        h("div", { class: "option" }, h("label", { for: "new-seed" }, t("ui.lobby.seed")),
          h("input", { id: "new-seed", ...NUMERIC, value: form.seed, oninput: e => { form.seed = e.target.value; } }), h("small", {}, t("ui.lobby.seed_help"))),
        h("div", { class: "option" }, h("label", { for: "new-clock" }, t("ui.lobby.clock")),
          h("input", { id: "new-clock", ...NUMERIC, value: form.clock, oninput: e => { form.clock = e.target.value; } }), h("small", {}, t("ui.lobby.clock_help"))),
        h("div", { class: "option" }, h("label", { for: "new-spectator-chat" }, t("ui.lobby.spectator_chat")),
          h("input", { id: "new-spectator-chat", type: "checkbox", checked: form.spectatorChat, onchange: e => { form.spectatorChat = e.target.checked; } }),
          h("small", {}, t("ui.lobby.spectator_chat_help"))),
        h("div", { class: "option" }, h("label", { for: "new-undo" }, t("ui.lobby.undo")),
          h("input", { id: "new-undo", type: "checkbox", checked: form.undo && !form.rated, disabled: form.rated, onchange: e => { form.undo = e.target.checked; } }),
          h("small", {}, form.rated ? t("ui.lobby.undo_rated") : t("ui.lobby.undo_help"))),
        h("div", { class: "option" }, h("label", { for: "new-hints" }, t("ui.lobby.hints")),
          h("input", { id: "new-hints", type: "checkbox", checked: form.hints && !form.rated, disabled: form.rated, onchange: e => { form.hints = e.target.checked; } }),
          h("small", {}, t("ui.lobby.hints_help")))),
      h("div", { class: "row" }, create), message);
  }

  /** A seat of the form as POST /api/matches takes it. */
  function seatBody(seat) {
    if (seat.kind === "me") return { kind: "human", mine: true };
    if (seat.kind === "open") return { kind: "open" };
    if (seat.kind === "bot") return { kind: "bot", bot: seat.bot };
    return { kind: "human", ...(seat.name.trim() ? { name: seat.name.trim() } : {}) };
  }

  // -- open tables (docs/protocol.md, "Open tables") ------------------------------------------
  let guestName = "";
  let tablesTimer = null;

  /** Who sits at a seat, in words: a person's name, a bot level, or "open". */
  function seatText(seat) {
    if (seat.kind === "bot") return t(`ui.level.${seat.bot}`);
    if (seat.kind === "open") return t("ui.tables.open");
    return seat.name || t("ui.lobby.human");
  }

  /** The options of a table that differ from the game's defaults, in words ("Years: 1"). */
  function optionsText(table) {
    const game = games.find(g => g.name === table.game);
    if (!game) return "";
    const value = (option, v) => {
      if (typeof v === "boolean") return t(v ? "ui.tables.on" : "ui.tables.off");
      if (option.schema?.enum) return tOr(`${game.name}.option.${option.name}.${v}`, String(v).replaceAll("_", " "));
      return termsText(option.schema || {}, v);
    };
    const changed = game.options.filter(o => o.name in table.options && JSON.stringify(table.options[o.name]) !== JSON.stringify(o.default));
    if (!changed.length) return t("ui.tables.standard_rules");
    return changed.map(o => `${tOr(`${game.name}.option.${o.name}`, o.name.replaceAll("_", " "))}: ${value(o, table.options[o.name])}`).join(" · ");
  }

  async function tablesCard() {
    const tables = await api("/api/tables");
    const held = seatStore.all();
    const me = session.account?.name;
    const rows = tables.map(table => {
      const sitting = table.seats.some(seat => (me && seat.account === me) || (held[table.id] && String(seat.seat) in held[table.id]));
      let actions;
      if (sitting || table.host === me) actions = [h("a", { class: "button small open-table", href: `/play/${table.id}` }, t("ui.tables.go"))];
      else if (table.rated && !me) actions = [h("a", { class: "sign-in-to-sit", href: `/account?next=${encodeURIComponent("/")}` }, t("ui.tables.sign_in_to_sit"))];
      else {
        actions = table.seats.filter(seat => seat.kind === "open").map(seat => h("button", { type: "button", class: "small take-seat", "data-table": table.id, "data-seat": seat.seat,
          onclick: event => takeSeat(table, seat.seat, event.currentTarget) }, t("ui.tables.take", { n: seat.seat + 1 })));
      }
      return h("li", { class: "table-row", "data-table": table.id },
        h("div", { class: "table-what" },
          h("strong", {}, tOr(`${table.game}.title`, table.game)), " ",
          h("span", { class: "hint" }, t("ui.tables.players", { n: table.players })),
          table.rated ? h("span", { class: "tag" }, t("ui.tables.rated")) : null,
          table.turn_clock ? h("span", { class: "hint" }, t("ui.tables.clock", { n: table.turn_clock })) : null,
          h("span", { class: "hint" }, t("ui.tables.host_is"), " ", h("a", { href: `/player/${encodeURIComponent(table.host || "")}` }, table.host || "?"))),
        h("ol", { class: "table-seats" }, ...table.seats.map(seat => h("li", { class: `seat-${seat.kind}` }, seatText(seat)))),
        h("div", { class: "table-actions" }, ...actions),
        h("p", { class: "hint table-options" }, optionsText(table)));
    });
    const guest = session.account ? null : h("label", { class: "guest-name" }, t("ui.tables.your_name"), " ",
      h("input", { id: "guest-name", value: guestName, maxlength: 40, placeholder: t("ui.lobby.name"), oninput: e => { guestName = e.target.value; } }));
    return h("section", { id: "tables", class: "card tables" },
      h("div", { class: "row" }, h("h2", {}, t("ui.tables.title")), guest),
      rows.length ? h("ul", { class: "table-list" }, ...rows) : h("p", { class: "hint" }, t("ui.tables.none")),
      h("p", { class: "error", role: "alert", id: "tables-error" }));
  }

  async function takeSeat(table, seat, button) {
    button.disabled = true;
    try {
      const body = session.account ? {} : { name: guestName.trim() || null };
      const taken = await api(`/api/tables/${table.id}/seats/${seat}`, { method: "POST", body: JSON.stringify(body) });
      seatStore.put(table.id, seat, taken.token);
      location.assign(taken.join_url);
    } catch (error) {
      button.disabled = false;
      const message = document.getElementById("tables-error");
      if (message) message.textContent = error.message;
    }
  }

  /** Keep the open tables fresh while the lobby is shown (not while the reader is in it). */
  function watchTables() {
    clearInterval(tablesTimer);
    tablesTimer = setInterval(async () => {
      const shown = document.getElementById("tables");
      if (!shown || shown.contains(document.activeElement)) return;
      try {
        const fresh = await tablesCard();
        if (shown.isConnected) shown.replaceWith(fresh);
      } catch { /* the next tick tries again */ }
    }, 4000);
  }

  // -- the signed-in player's matches -------------------------------------------------------------
  async function myMatchesCard() {
    const mine = await api("/api/account/matches?limit=20");
    const rows = mine.map(m => {
      const over = m.status === "finished" || m.status === "abandoned";
      const state = m.status === "open" ? t("ui.mine.table") : over ? statusText(m)
        : m.your_turn ? t("ui.mine.your_turn") : t("ui.lobby.running");
      const links = [h("a", { class: "open-mine", href: `/play/${m.id}` }, over ? t("ui.lobby.view") : t("ui.mine.open"))];
      if (m.status === "finished") links.push(" · ", h("a", { class: "replay", href: `/replay/${m.id}` }, t("ui.lobby.replay")));
      return h("tr", { "data-match": m.id, class: m.your_turn ? "your-turn" : null },
        h("td", {}, tOr(`${m.game}.title`, m.game)),
        h("td", {}, m.seats.map(seatText).join(", ")),
        h("td", {}, state, m.rated ? h("span", { class: "tag" }, t("ui.tables.rated")) : null),
        h("td", { class: "links" }, ...links));
    });
    if (!rows.length) return null;
    return h("section", { id: "my-matches", class: "card matches" },
      h("div", { class: "row" }, h("h2", {}, t("ui.mine.title")),
        h("a", { href: `/player/${encodeURIComponent(session.account.name)}` }, t("ui.account.profile"))),
      h("table", {}, h("tbody", {}, ...rows)));
  }

  function createdCard() {
    const copy = url => h("button", { type: "button", class: "ghost small", onclick: async e => {
      const button = e.currentTarget;
      try {
        await navigator.clipboard.writeText(url);
        button.textContent = t("ui.lobby.copied");
      } catch {
        button.previousElementSibling?.select?.(); // no clipboard (plain HTTP): select it to copy
        button.textContent = t("ui.lobby.copy_by_hand");
      }
    } }, t("ui.lobby.copy"));
    const humans = created.seats.filter(s => s.join_url);
    return h("section", { id: "created", class: "card created" },
      h("h2", {}, t("ui.lobby.created")),
      humans.length ? h("p", {}, t("ui.lobby.links")) : null,
      h("ul", { class: "links" }, ...humans.map(seat => h("li", {},
        h("span", { class: "chip", style: created.colours[seat.seat] ? `--seat:${created.colours[seat.seat].css}` : null },
          created.colours[seat.seat]?.name || t("ui.seat", { n: seat.seat + 1 })), " ",
        h("a", { class: "join", href: seat.join_url, "data-seat": seat.seat }, t("ui.lobby.play_seat")), " ",
        h("input", { readonly: true, value: seat.join_url, "aria-label": t("ui.lobby.link"), onfocus: e => e.target.select() }), copy(seat.join_url)))),
      h("p", {}, t("ui.lobby.spectate"), " ", h("a", { class: "spectate", href: created.spectate_url }, created.spectate_url), " ",
        h("input", { readonly: true, value: created.spectate_url, class: "sr-only", tabindex: -1, "aria-hidden": "true" }), copy(created.spectate_url)),
      h("details", { class: "host-key" }, h("summary", {}, t("ui.lobby.host_key")),
        h("p", { class: "hint" }, t("ui.lobby.host_key_help")),
        h("input", { readonly: true, value: created.host_token, "aria-label": t("ui.lobby.host_key"), onfocus: e => e.target.select() })));
  }

  async function matchesCard() {
    const matches = await api(`/api/matches?status=${filter}&limit=50`);
    const mine = seatStore.all();
    const tabs = h("div", { class: "tabs", role: "tablist" }, ...["running", "finished", "all"].map(name =>
      h("button", { type: "button", role: "tab", "aria-selected": String(filter === name), class: filter === name ? "tab on" : "tab",
        onclick: () => { filter = name; render(); } }, t(`ui.lobby.status.${name}`))));
    const rows = matches.map(m => {
      const tokens = mine[m.id] || {};
      const links = [];
      const running = m.status === "running";
      for (const [seat, token] of Object.entries(tokens)) {
        if (running) links.push(h("a", { class: "resume", href: `/play/${m.id}#token=${token}` }, t("ui.lobby.resume", { n: Number(seat) + 1 })));
      }
      links.push(h("a", { class: "watch", href: `/play/${m.id}` }, running ? t("ui.lobby.watch") : t("ui.lobby.view")));
      const hostKey = hostStore.all()[m.id];
      if (running && hostKey && !m.rated) links.push(h("button", { type: "button", class: "ghost small danger abandon", onclick: () => abandonMatch(m, hostKey) }, t("ui.lobby.abandon")));
      if (m.status === "finished") {
        links.push(h("a", { class: "replay", href: `/replay/${m.id}` }, t("ui.lobby.replay")));
        links.push(h("a", { class: "record", href: "#", onclick: e => { e.preventDefault(); downloadRecord(m); } }, t("ui.lobby.record")));
      }
      const seats = m.seats.map(s => (s.kind === "bot" ? t(`ui.level.${s.bot}`) : s.name || t("ui.lobby.human"))).join(", ");
      const when = new Date(m.updated_at).toLocaleString(language());
      return h("tr", {},
        h("td", {}, tOr(`${m.game}.title`, m.game)), h("td", {}, seats),
        h("td", {}, statusText(m)),
        h("td", { class: "num" }, String(m.actions)), h("td", {}, when),
        h("td", { class: "links" }, ...links.flatMap((link, i) => (i ? [" · ", link] : [link]))));
    });
    return h("section", { class: "card matches" },
      h("div", { class: "row" }, h("h2", {}, t("ui.lobby.matches")), tabs,
        h("button", { type: "button", class: "ghost small", onclick: () => render() }, t("ui.lobby.refresh"))),
      rows.length ? h("table", {}, h("thead", {}, h("tr", {}, ...["game", "seats", "status", "actions", "updated", ""].map(c => h("th", {}, c ? t(`ui.lobby.col.${c}`) : "")))), h("tbody", {}, ...rows))
        : h("p", {}, t("ui.lobby.none")),
      h("p", { class: "error", role: "alert", id: "matches-error" }));
  }

  /** A match's state in the reader's words: running, finished or abandoned. */
  function statusText(m) {
    return t(`ui.lobby.${m.status === "finished" || m.status === "abandoned" ? m.status : "running"}`);
  }

  /** The host gives up a running match that will not go on (docs/protocol.md). */
  async function abandonMatch(m, key) {
    if (!confirm(t("ui.host.abandon_confirm"))) return;
    try {
      await api(`/api/matches/${m.id}/abandon`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
      render();
    } catch (error) {
      const message = document.getElementById("matches-error");
      if (message) message.textContent = error.message;
    }
  }

  async function downloadRecord(m) {
    const body = await api(`/api/matches/${m.id}/record`);
    const blob = new Blob([JSON.stringify(body.record, null, 1)], { type: "application/json" });
    const link = h("a", { href: URL.createObjectURL(blob), download: `sengoku-${m.game}-${m.id}.json` });
    document.body.append(link);
    link.click();
    link.remove();
  }

  return { scopes, render, game: null };
}
