// The card gallery: every card of both packs and the back, to check the drawings.
import { cardSvg } from "./cards.js";

const SUITS = ["S", "H", "D", "C"];
const RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"];
const AUSTRIAN = { S: ["7", "8", "9", "10"], C: ["7", "8", "9", "10"], H: ["1", "2", "3", "4"], D: ["1", "2", "3", "4"] };

function row(title, names, pack) {
  const section = document.createElement("section");
  const h = document.createElement("h2");
  h.textContent = title;
  const cards = document.createElement("div");
  cards.className = "gallery-row";
  for (const name of names) cards.append(name ? cardSvg(name, { pack }) : cardSvg(null, { back: true }));
  section.append(h, cards);
  return section;
}

const main = document.getElementById("gallery");
for (const suit of SUITS) main.append(row(`French ${suit}`, RANKS.map((r) => r + suit), "french"));
main.append(row("Trumps", Array.from({ length: 21 }, (_, i) => `T${i + 1}`).concat(["EX", null]), "french"));
for (const suit of SUITS) {
  main.append(row(`Austrian ${suit}`, [...AUSTRIAN[suit], "J", "C", "Q", "K"].map((r) => r + suit), "austrian"));
}
main.append(row("Austrian trumps", ["EX", ...Array.from({ length: 21 }, (_, i) => `T${21 - i}`)], "austrian"));
document.body.dataset.ready = "true";
