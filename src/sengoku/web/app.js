// The shell: language picker, the account's links, help panel, and the pages (lobby, a match
// or an open table, a replay, the account, a player's profile, the leaderboards).
import { accountPage, drawNav, loadSession, saveLanguage } from "./account.js";
import { h, session } from "./dom.js";
import { LANGUAGES, chosenLanguage, t, useLanguage, language } from "./i18n.js";
import { lobbyPage } from "./lobby.js";
import { matchPage } from "./play.js";
import { profilePage, ratingsPage } from "./players.js";

const app = document.getElementById("app");
let page = null; // the current page: { scopes, render(), help }

async function show(nextPage) {
  page = nextPage;
  await useLanguage(language(), page.scopes());
  labelShell();
  await page.render();
}

function labelShell() {
  document.getElementById("lang-label").textContent = t("ui.language");
  document.getElementById("disclaimer").textContent = t("ui.disclaimer");
  const help = document.getElementById("help-button");
  help.hidden = !page?.game;
  help.textContent = t("ui.help.open");
  drawNav();
}

function setUpLanguagePicker() {
  const picker = document.getElementById("lang");
  picker.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code }, name)));
  picker.value = language();
  picker.addEventListener("change", async () => {
    await useLanguage(picker.value, page ? page.scopes() : ["ui"]);
    saveLanguage(picker.value);
    labelShell();
    if (page) await page.render();
  });
}

/** The rules help of a game, in a dialog: sections from the game's catalog. */
function openHelp() {
  if (!page?.game || document.querySelector("dialog.help")) return;
  const game = page.game();
  const sections = t(`${game}.help.sections`);
  const dialog = h("dialog", { class: "help", "aria-labelledby": "help-title" },
    h("div", { class: "help-head" },
      h("h2", { id: "help-title" }, t(`${game}.help.title`)),
      h("button", { class: "ghost", type: "button", onclick: () => dialog.close(), "aria-label": t("ui.close") }, "×")),
    h("div", { class: "help-body" }, ...(Array.isArray(sections) ? sections : []).map(id =>
      h("section", {}, h("h3", {}, t(`${game}.help.${id}.h`)),
        ...String(t(`${game}.help.${id}.p`)).split("\n").map(p => h("p", {}, p))))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

/** The page the address names. */
function pageFor(path) {
  const play = path.match(/^\/(play|replay)\/([\w-]+)$/);
  if (play) return matchPage(app, play[2], play[1] === "replay");
  const learn = path.match(/^\/learn\/([\w-]+)$/);
  if (learn) return matchPage(app, null, false, learn[1]);
  const player = path.match(/^\/player\/([^/]+)$/);
  if (player) return profilePage(app, decodeURIComponent(player[1]));
  if (path === "/account") return accountPage(app);
  if (path === "/ratings") return ratingsPage(app);
  return lobbyPage(app);
}

async function start() {
  await loadSession();
  // a signed-in player's pages speak the language their account keeps
  await useLanguage(session.account?.language || chosenLanguage(), ["ui"]);
  setUpLanguagePicker();
  document.getElementById("help-button").addEventListener("click", openHelp);
  document.addEventListener("keydown", event => {
    if (event.key === "?" && !/INPUT|SELECT|TEXTAREA/.test(document.activeElement?.tagName || "")) openHelp();
  });
  // another seat's link for the same match differs only after the "#": open it afresh
  if (/^\/(play|replay)\//.test(location.pathname)) window.addEventListener("hashchange", () => location.reload());
  try {
    await show(pageFor(location.pathname));
  } catch (error) {
    app.replaceChildren(h("p", { class: "error", role: "alert" }, error.message));
  }
}

start();
