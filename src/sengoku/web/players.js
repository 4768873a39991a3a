// Players in public: a player's profile (ratings per game with a small chart of their history,
// finished matches with their replays) and each game's leaderboard. docs/protocol.md,
// "Players and ratings"; the ratings are OpenSkill's mu and sigma (docs/ui.md).
import { api, h, s } from "./dom.js";
import { language, t, tOr, useLanguage } from "./i18n.js";

/** A rating as people read it: mu with its uncertainty, one decimal. */
export const ratingText = (mu, sigma) => `${mu.toFixed(1)} ± ${sigma.toFixed(1)}`;

/** How a rated player is named: a bot level in the reader's words, a person by display name. */
export function playerName(row) {
  if (row.kind === "bot") return t(`ui.level.${row.name.replace(/^bot:/, "")}`);
  return row.display_name;
}

/** The names of the games the server offers (their catalogs are loaded with the page's). */
async function gameNames() {
  return (await api("/api/games")).map(g => g.name);
}

/** A small chart of a rating across matches: mu as a line in its band of ± sigma. */
export function ratingChart(game, points) {
  const width = 320, height = 96, pad = 18;
  const series = points.length ? [{ mu: points[0].mu_before, sigma: points[0].sigma_before }, ...points] : [];
  const lows = series.map(p => p.mu - p.sigma), highs = series.map(p => p.mu + p.sigma);
  const low = Math.min(...lows), high = Math.max(...highs);
  const x = i => pad + (i * (width - 2 * pad)) / Math.max(1, series.length - 1);
  const y = v => height - pad - ((v - low) * (height - 2 * pad)) / Math.max(1e-9, high - low);
  const line = series.map((p, i) => `${x(i).toFixed(1)},${y(p.mu).toFixed(1)}`).join(" ");
  const band = [...series.map((p, i) => `${x(i).toFixed(1)},${y(p.mu + p.sigma).toFixed(1)}`),
    ...series.map((p, i) => `${x(i).toFixed(1)},${y(p.mu - p.sigma).toFixed(1)}`).reverse()].join(" ");
  const label = t("ui.profile.chart", { game: tOr(`${game}.title`, game), n: points.length });
  return s("svg", { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, "data-points": points.length },
    s("title", {}, label),
    s("polygon", { points: band, class: "band" }),
    s("polyline", { points: line, class: "line" }),
    ...series.map((p, i) => s("circle", { cx: x(i), cy: y(p.mu), r: 2.6, class: i ? "dot" : "dot start" })),
    s("text", { x: 2, y: 11, class: "axis" }, high.toFixed(0)),
    s("text", { x: 2, y: height - 4, class: "axis" }, low.toFixed(0)));
}

export function profilePage(root, name) {
  let games = [];
  const scopes = () => ["ui", ...games];

  async function render() {
    if (!games.length) {
      games = await gameNames();
      await useLanguage(language(), scopes());
    }
    let player;
    try {
      player = await api(`/api/players/${encodeURIComponent(name)}`);
    } catch (error) {
      root.replaceChildren(h("div", { class: "lobby" }, h("p", { class: "error", role: "alert" }, error.message)));
      return;
    }
    const shown = playerName(player);
    document.title = `Sengoku — ${shown}`;
    document.getElementById("where").textContent = t("ui.profile.title");
    const since = new Date(player.created_at).toLocaleDateString(language());
    const ratings = player.ratings.map(r => h("li", { class: "rating", "data-game": r.game },
      h("div", { class: "rating-head" },
        h("h3", {}, tOr(`${r.game}.title`, r.game)),
        h("span", { class: "rating-value" }, ratingText(r.mu, r.sigma)),
        h("small", {}, t("ui.profile.games", { n: r.games }))),
      ratingChart(r.game, player.history[r.game] || [])));
    const rows = player.matches.map(m => h("tr", { "data-match": m.id },
      h("td", {}, tOr(`${m.game}.title`, m.game)),
      h("td", {}, new Date(m.updated_at).toLocaleDateString(language())),
      h("td", { class: "num" }, m.rank ? t(`ui.ordinal.${m.rank}`) : ""),
      h("td", { class: "num" }, m.score ?? ""),
      h("td", {}, m.rated ? h("span", { class: "tag" }, t("ui.tables.rated")) : ""),
      h("td", { class: "links" }, h("a", { class: "replay", href: `/replay/${m.id}` }, t("ui.lobby.replay")), " · ",
        h("a", { class: "watch", href: `/play/${m.id}` }, t("ui.lobby.view")))));
    root.replaceChildren(h("div", { class: "lobby profile" },
      h("section", { class: "card" }, h("h1", {}, shown),
        h("p", { class: "hint" }, player.kind === "bot" ? t("ui.profile.bot") : t("ui.profile.since", { name: player.name, date: since }))),
      h("section", { class: "card ratings" }, h("h2", {}, t("ui.profile.ratings")),
        ratings.length ? h("ul", { class: "rating-list" }, ...ratings) : h("p", { class: "hint" }, t("ui.profile.no_ratings"))),
      h("section", { class: "card matches" }, h("h2", {}, t("ui.profile.matches")),
        rows.length ? h("table", {}, h("thead", {}, h("tr", {}, ...["game", "date", "place", "score", "rated", ""].map(c => h("th", {}, c ? t(`ui.profile.col.${c}`) : "")))),
          h("tbody", {}, ...rows)) : h("p", { class: "hint" }, t("ui.profile.no_matches")))));
  }

  return { scopes, render, game: null };
}

export function ratingsPage(root) {
  let games = [];
  let chosen = new URLSearchParams(location.search).get("game");
  const scopes = () => ["ui", ...games];

  async function render() {
    if (!games.length) {
      games = await gameNames();
      await useLanguage(language(), scopes());
    }
    if (!games.includes(chosen)) chosen = games[0];
    document.title = `Sengoku — ${t("ui.ratings.title")}`;
    document.getElementById("where").textContent = t("ui.ratings.title");
    const board = await api(`/api/ratings/${chosen}`);
    const tabs = h("div", { class: "tabs", role: "tablist" }, ...games.map(game =>
      h("button", { type: "button", role: "tab", "aria-selected": String(game === chosen), class: game === chosen ? "tab on" : "tab",
        onclick: () => { chosen = game; history.replaceState(null, "", `/ratings?game=${game}`); render(); } }, tOr(`${game}.title`, game))));
    const rows = board.players.map(p => h("tr", { class: p.kind === "bot" ? "bot" : null, "data-player": p.name },
      h("td", { class: "num" }, String(p.place)),
      h("td", {}, h("a", { href: `/player/${encodeURIComponent(p.name)}` }, playerName(p))),
      h("td", { class: "num" }, ratingText(p.mu, p.sigma)),
      h("td", { class: "num" }, p.ordinal.toFixed(1)),
      h("td", { class: "num" }, String(p.games))));
    root.replaceChildren(h("div", { class: "lobby ratings-page" },
      h("section", { class: "card matches" },
        h("div", { class: "row" }, h("h1", {}, t("ui.ratings.title")), tabs),
        h("p", { class: "hint" }, t("ui.ratings.help")),
        rows.length ? h("table", {}, h("thead", {}, h("tr", {}, ...["place", "player", "rating", "ordinal", "games"].map(c => h("th", {}, t(`ui.ratings.col.${c}`))))),
          h("tbody", {}, ...rows)) : h("p", { class: "hint" }, t("ui.ratings.none")))));
  }

  return { scopes, render, game: null };
}
