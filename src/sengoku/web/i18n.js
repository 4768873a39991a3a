// Translations: one JSON catalog per scope ("ui", and one per game) and language, in ./i18n/.
// t("ui.lobby.create") looks the key up in the chosen language, then in English.

export const LANGUAGES = { en: "English", ja: "日本語", zh: "中文", nl: "Nederlands" };
const catalogs = {};
let current = "en";

export function chosenLanguage() {
  const saved = localStorage.getItem("sengoku.lang");
  if (saved && saved in LANGUAGES) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const base = wanted.toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

async function loadCatalog(scope, lang) {
  const key = `${scope}.${lang}`;
  if (!(key in catalogs)) {
    const response = await fetch(`/web/i18n/${key}.json`);
    catalogs[key] = response.ok ? await response.json() : {};
  }
  return catalogs[key];
}

/** Load the catalogs of these scopes in `lang` (and English, the fallback). */
export async function useLanguage(lang, scopes) {
  current = lang in LANGUAGES ? lang : "en";
  localStorage.setItem("sengoku.lang", current);
  document.documentElement.lang = current === "zh" ? "zh-Hans" : current;
  await Promise.all(scopes.flatMap(scope => [loadCatalog(scope, "en"), loadCatalog(scope, current)]));
}

export const language = () => current;

const pluralRules = {};
/** The plural category of a number in the current language (CLDR's, as Python's render). */
const category = n => (pluralRules[current] ??= new Intl.PluralRules(current)).select(n);

/** The branches of the plural whose `{name, plural,` ends at `start`, and where it ends. */
function pluralForms(text, start) {
  const forms = {};
  let at = start;
  for (;;) {
    const opening = text.indexOf("{", at);
    const closing = text.indexOf("}", at);
    if (closing < 0) return [forms, text.length];
    if (opening < 0 || closing < opening) return [forms, closing + 1];
    let depth = 1;
    let end = opening + 1;
    for (; depth && end < text.length; end++) depth += text[end] === "{" ? 1 : text[end] === "}" ? -1 : 0;
    forms[text.slice(at, opening).trim()] = text.slice(opening + 1, end - 1);
    at = end;
  }
}

/** The template with each `{n, plural, one {# token} other {# tokens}}` replaced by the form
 *  its number takes: `=N` for that number, else its plural category, else `other`; `#` is
 *  the number (sengoku.core.messages, step 2). */
function chooseForms(text, vars) {
  const plural = /\{(\w+), plural,/g;
  let out = "";
  let at = 0;
  for (let found; (found = plural.exec(text));) {
    const [forms, end] = pluralForms(text, plural.lastIndex);
    out += text.slice(at, found.index);
    const n = Number(vars[found[1]]);
    if (found[1] in vars && Number.isInteger(n)) out += (forms[`=${n}`] ?? forms[category(n)] ?? forms.other ?? "").replaceAll("#", String(n));
    else out += text.slice(found.index, end);
    at = plural.lastIndex = end;
  }
  return out + text.slice(at);
}

/** The text of `key` with `{name}` placeholders filled from `vars` (and its plurals' forms
 *  chosen by them); the key itself if unknown. */
export function t(key, vars = {}) {
  const scope = key.split(".")[0];
  let text = catalogs[`${scope}.${current}`]?.[key] ?? catalogs[`${scope}.en`]?.[key];
  if (text === undefined) return key;
  if (Array.isArray(text)) return text;
  if (text.includes(", plural,")) text = chooseForms(text, vars);
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Like t(), but `fallback` instead of the key when the catalog has no such entry. */
export function tOr(key, fallback, vars = {}) {
  const text = t(key, vars);
  return text === key ? fallback : text;
}

/** [key, English, translated] for every catalog entry whose key starts with `prefix`. */
export function entries(prefix) {
  const scope = prefix.split(".")[0];
  const english = catalogs[`${scope}.en`] || {};
  const local = catalogs[`${scope}.${current}`] || {};
  return Object.keys(english).filter(k => k.startsWith(prefix)).map(k => [k, english[k], local[k] ?? english[k]]);
}

/**
 * A message from the engine (docs/protocol.md, "Messages") in the current language: a log
 * line or an action's description. The same steps as the engine's own English
 * (sengoku.core.messages.render): the key's template, each {name} replaced by its argument
 * (a number, plain text, a term {t}, items {items, sep}, or a nested message).
 */
export function say(value) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return value.map(say).join(t("ui.sep.comma"));
  if ("t" in value) return t(value.t);
  if ("items" in value) return value.items.map(say).join(t(value.sep || "ui.sep.comma"));
  const args = {};
  for (const [name, arg] of Object.entries(value.args || {})) args[name] = say(arg);
  return t(value.key, args);
}

/** The seats the terms of a message name (to filter a log by seat). */
export function seatsNamed(value, found = new Set()) {
  if (value && typeof value === "object") {
    if (Array.isArray(value)) value.forEach(v => seatsNamed(v, found));
    else if ("t" in value) { if (Number.isInteger(value.seat)) found.add(value.seat); }
    else if ("items" in value) value.items.forEach(v => seatsNamed(v, found));
    else Object.values(value.args || {}).forEach(v => seatsNamed(v, found));
  }
  return found;
}
