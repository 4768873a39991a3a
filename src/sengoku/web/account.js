// Accounts in the browser: who is signed in (the top bar says), and the account page: sign in,
// make an account, and, signed in, the display name, the language, the password, sign out.
// docs/protocol.md, "Accounts"; the session itself is an HttpOnly cookie the page never reads.
import { api, h, session } from "./dom.js";
import { LANGUAGES, language, t } from "./i18n.js";

/** Ask the server who is signed in (and the session's CSRF token). */
export async function loadSession() {
  try {
    keep(await api("/api/account"));
  } catch {
    keep({ account: null, csrf: null }); // no answer: play on without an account
  }
}

function keep(answer) {
  session.account = answer.account;
  session.csrf = answer.csrf;
}

/** The top bar's links: the leaderboards, and the account (or "Sign in"). */
export function drawNav() {
  const nav = document.getElementById("nav");
  if (!nav) return;
  const me = session.account;
  const next = encodeURIComponent(location.pathname + location.hash);
  nav.replaceChildren(
    h("a", { id: "nav-ratings", href: "/ratings" }, t("ui.nav.ratings")),
    me ? h("a", { id: "nav-account", class: "me", href: "/account", title: t("ui.nav.account") }, me.display_name)
      : h("a", { id: "nav-account", href: `/account?next=${next}` }, t("ui.nav.sign_in")));
}

/** The signed-in player's language has changed on this page: the account keeps it. */
export async function saveLanguage(lang) {
  if (!session.account || session.account.language === lang) return;
  try {
    keep(await api("/api/account", { method: "PATCH", body: JSON.stringify({ language: lang }) }));
  } catch { /* the page still speaks it; the account did not hear */ }
}

/** Where to go after signing in: the page that sent us here (only a path of this site). */
function nextPath() {
  const next = new URLSearchParams(location.search).get("next") || "/";
  return next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

export function accountPage(root) {
  const scopes = () => ["ui"];

  /** A form whose fields (with `extra`) are sent as JSON to `path`; `done` gets the answer. */
  function form(id, title, fields, submit, path, done, { method = "POST", extra = () => ({}) } = {}) {
    const message = h("p", { class: "error", role: "alert" });
    const button = h("button", { class: "primary", type: "submit" }, submit);
    const inputs = fields.map(([name, label, attrs]) => {
      const input = h("input", { id: `${id}-${name}`, name, ...attrs });
      return [name, input, h("label", { class: "field", for: `${id}-${name}` }, h("span", {}, label), input)];
    });
    return h("form", { id, class: "card account-form", onsubmit: async event => {
      event.preventDefault();
      message.textContent = "";
      const body = extra();
      for (const [name, input] of inputs) if (input.value !== "" || input.required) body[name] = input.value;
      button.disabled = true;
      try {
        await done(await api(path, { method, body: JSON.stringify(body) }), message);
      } catch (error) {
        message.textContent = errorText(error);
      } finally {
        button.disabled = false;
      }
    } }, h("h2", {}, title), ...inputs.map(([, , label]) => label), h("div", { class: "row" }, button), message);
  }

  function errorText(error) {
    const known = error.code && t(`ui.account.error.${error.code}`);
    return known && known !== `ui.account.error.${error.code}` ? known : error.message;
  }

  const signedIn = answer => {
    keep(answer);
    localStorage.setItem("sengoku.lang", answer.account.language);
    location.assign(nextPath());
  };

  function signedOut() {
    return h("div", { class: "account-grid" },
      form("sign-in", t("ui.account.sign_in"), [
        ["name", t("ui.account.name"), { autocomplete: "username", required: true, maxlength: 24 }],
        ["password", t("ui.account.password"), { type: "password", autocomplete: "current-password", required: true }],
      ], t("ui.account.sign_in"), "/api/account/sign-in", signedIn),
      form("sign-up", t("ui.account.sign_up"), [
        ["name", t("ui.account.name"), { autocomplete: "username", required: true, minlength: 3, maxlength: 24, pattern: "[A-Za-z0-9][A-Za-z0-9_\\-]{2,23}", title: t("ui.account.name_help") }],
        ["display_name", t("ui.account.display_name"), { autocomplete: "nickname", maxlength: 40, placeholder: t("ui.account.optional") }],
        ["password", t("ui.account.password"), { type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 128 }],
      ], t("ui.account.sign_up"), "/api/account/sign-up", signedIn, { extra: () => ({ language: language() }) }),
      h("p", { class: "hint account-note" }, t("ui.account.why")));
  }

  function signedInPage(me) {
    const saved = h("p", { class: "ok", role: "status" });
    const languages = h("select", { id: "settings-language" },
      ...Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, selected: code === me.language }, name)));
    const settings = form("settings", t("ui.account.settings"), [
      ["display_name", t("ui.account.display_name"), { value: me.display_name, maxlength: 40, required: true }],
    ], t("ui.account.save"), "/api/account", (answer, message) => {
      keep(answer);
      message.textContent = "";
      if (answer.account.language !== language()) { // the pages speak the account's language
        localStorage.setItem("sengoku.lang", answer.account.language);
        location.reload();
        return;
      }
      saved.textContent = t("ui.account.saved");
      drawNav();
    }, { method: "PATCH", extra: () => ({ language: languages.value }) });
    settings.querySelector(".row").before(h("label", { class: "field", for: "settings-language" }, h("span", {}, t("ui.language")), languages));
    settings.append(saved);
    const password = form("password", t("ui.account.change_password"), [
      ["current", t("ui.account.current_password"), { type: "password", autocomplete: "current-password", required: true }],
      ["new", t("ui.account.new_password"), { type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 128 }],
    ], t("ui.account.change_password"), "/api/account/password", (answer, message) => {
      keep(answer);
      message.textContent = "";
      password.reset();
      password.append(h("p", { class: "ok", role: "status" }, t("ui.account.password_changed")));
    });
    // for password managers: whose password this is
    password.prepend(h("input", { type: "text", hidden: true, autocomplete: "username", value: me.name, readonly: true }));
    const out = h("button", { id: "sign-out", type: "button", class: "ghost", onclick: async () => {
      keep(await api("/api/account/sign-out", { method: "POST" }));
      location.assign("/");
    } }, t("ui.account.sign_out"));
    return h("div", { class: "account-grid" },
      h("section", { class: "card account-me" },
        h("h1", {}, me.display_name),
        h("p", {}, t("ui.account.signed_in_as", { name: me.name })),
        h("p", { class: "row" }, h("a", { id: "my-profile", href: `/player/${encodeURIComponent(me.name)}` }, t("ui.account.profile")),
          h("a", { href: "/" }, t("ui.play.back")), out)),
      settings, password);
  }

  async function render() {
    document.title = `Sengoku — ${t("ui.account.title")}`;
    document.getElementById("where").textContent = t("ui.account.title");
    root.replaceChildren(h("div", { class: "lobby account" }, session.account ? signedInPage(session.account) : signedOut()));
  }

  return { scopes, render, game: null };
}
