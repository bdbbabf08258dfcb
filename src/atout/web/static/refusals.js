// An engine's refusal in the page's words: the server sends its code ("follow_suit") and params
// of wire words ({suit: "H"}, {card: "T21"}); each code has a "refusal.<code>" key in strings.js
// whose {name} slots are filled with words: suits and cards as people name them, never a code.

import { cardLabel } from "./cards.js";
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

/** The rule book's reference of an engine rule ("rule book §3.8 step 3: must follow suit" →
 * "rule book §3.8 step 3"): small print under the sentence. */
export function ruleReference(rule) {
  if (!rule) return "";
  const cut = rule.indexOf(": ");
  return cut > 0 ? rule.slice(0, cut) : rule;
}
