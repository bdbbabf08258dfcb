// An engine's refusal in the page's words: the server sends its code ("follow_suit") and params
// of wire words ({suit: "H"}, {card: "T21"}); each code has a "refusal.<code>" key in strings.js
// whose {name} slots are filled with words: suits and cards as people name them, never a code.

import { cardLabel } from "./cards.js";
import { LANG } from "./i18n.js";
import { STRINGS, t } from "./strings.js";

function word(name, value, pack) {
  const key = {
    suit: `suit.${value}`,
    phase: `phase.${value}`,
    bid: `action.${value}`,
    level: `action.poignee ${value}`,
    kind: `action.misere ${value}`,
    game: `game.${value === "austrian" ? "austrian" : "french"}`,
  }[name];
  if (name === "card") return cardLabel(String(value), pack);
  return key && key in STRINGS ? t(key) : String(value);
}

/** The sentence for a refusal code and its params, or null for a code the page does not know. */
export function refusalText(code, params = {}, pack = "french") {
  const key = `refusal.${code}`;
  if (!code || !(key in STRINGS)) return null;
  const words = {};
  for (const [name, value] of Object.entries(params ?? {})) words[name] = word(name, value, pack);
  return t(key, words);
}

const REFERENCE = /§(\d+(?:\.\d+)*)(?:\s+(step \d+|[VAF]\d+|mode [A-Z])\b)?/;

/** The rule book's section an engine rule names ("rule book §3.8 step 3: must follow suit"), as
 * a link to that place of the served rule book (a new tab): small print under the sentence; null
 * for a rule that names no section. */
export function ruleLink(rule) {
  const match = REFERENCE.exec(rule ?? "");
  if (!match) return null;
  const [, number, part] = match;
  const query = new URLSearchParams({ lang: LANG });
  if (part) query.set("part", part);
  const section = `§${number}`;
  const step = part?.match(/^step (\d+)$/);
  const where = step ? t("rulebook.step", { section, n: step[1] }) : part ? `${section} ${part}` : section;
  const link = document.createElement("a");
  link.className = "rule";
  link.href = `/rules/section/${number}?${query}`;
  link.target = "_blank";
  link.rel = "noopener";
  link.textContent = t("rulebook.ref", { where });
  link.title = t("rulebook.open");
  return link;
}
