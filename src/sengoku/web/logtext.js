// Translating the engine's log. The engine writes English lines made of segments joined by
// "; ". A game's catalog holds one template per kind of segment, "<game>.log.<id>": the
// English text with placeholders, and its translation with the same placeholders in any
// order. A placeholder's first letter says what it stands for, in the engine's English:
//   c  a colour (seat name)        p  a province           n  a number
//   a  an action (title or short)  b  a building           s  a season
//   x  anything: known terms in it are translated one by one (colours, provinces, ...)
// A segment no template matches stays in English; tests/web/test_logtext.py checks that every
// segment of many random games matches one.

import { entries, language } from "./i18n.js";

const escape = text => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A function from an English log line to the current language.
 * `words`: for each placeholder type, a Map from the engine's English word to its
 * translation; `words.x` is used for the terms inside free text.
 */
export function logTranslator(templates, words) {
  const alternation = map => [...map.keys()].sort((a, b) => b.length - a.length).map(escape).join("|");
  const kinds = { n: "\\d+", x: ".+?" };
  for (const [type, map] of Object.entries(words)) if (type !== "x") kinds[type] = `(?:${alternation(map)})`;
  const compiled = templates.map(([en, tr]) => {
    const names = [];
    const body = escape(en).replace(/\\\{(\w+)\\\}/g, (_, name) => {
      names.push(name);
      return `(${kinds[name[0]] || ".+?"})`;
    });
    return { regex: new RegExp(`^${body}$`), names, tr };
  });
  const free = words.x && words.x.size ? new RegExp(`(?<![\\w-])(?:${alternation(words.x)})(?![\\w-])`, "g") : null;
  const freeText = text => (free ? text.replace(free, w => words.x.get(w)) : text);
  const value = (type, text) => (type === "n" ? text : type === "x" ? freeText(text) : (words[type]?.get(text) ?? text));
  const segment = seg => {
    for (const { regex, names, tr } of compiled) {
      const m = regex.exec(seg);
      if (!m) continue;
      const values = Object.fromEntries(names.map((name, i) => [name, value(name[0], m[i + 1])]));
      return tr.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
    }
    return words.x?.get(seg) ?? seg;
  };
  const cache = new Map();
  return line => {
    if (!cache.has(line)) cache.set(line, line.split("; ").map(segment).join("; "));
    return cache.get(line);
  };
}

/**
 * A translator for the catalog's templates `prefix*` (a game's "<game>.log." or "<game>.act.")
 * that follows the page's language: English text is the engine's own and stays as it is; for
 * another language it is built (with `words()`) once, and again when the language changes.
 */
export function catalogTranslator(prefix, words) {
  let built = null;
  return text => {
    const lang = language();
    if (lang === "en") return text;
    if (built?.lang !== lang) {
      built = { lang, translate: logTranslator(entries(prefix).map(([, en, tr]) => [en, tr]), words()) };
    }
    return built.translate(text);
  };
}
