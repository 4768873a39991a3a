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

/** The text of `key` with `{name}` placeholders filled from `vars`; the key itself if unknown. */
export function t(key, vars = {}) {
  const scope = key.split(".")[0];
  const text = catalogs[`${scope}.${current}`]?.[key] ?? catalogs[`${scope}.en`]?.[key];
  if (text === undefined) return key;
  if (Array.isArray(text)) return text;
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
