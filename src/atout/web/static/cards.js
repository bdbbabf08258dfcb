// The cards, drawn as SVG by atout itself: the 78-card French Tarot pack, the 54-card Austrian
// pack (the same cards, fewer of them; the Excuse is called Sküs), and a face-down back.
// Card names are those of the wire format: KS, 10H, CD (cavalier of diamonds), T21, EX.

import { t } from "./strings.js";

const NS = "http://www.w3.org/2000/svg";
export const W = 60;
export const H = 100;
const RED = "#c4122f";
const BLACK = "#1a1a1a";
const TRUMP_INK = "#1d2f6f";

/** The three bouts (oudlers) of the pack: a fact of the cards, shown in the bidding hint. */
export const BOUTS = ["T1", "T21", "EX"];

const SUIT_PATHS = {
  H: "M50 94C22 70 3 52 3 31 3 14 15 4 29 4c10 0 17 6 21 14 4-8 11-14 21-14 14 0 26 10 26 27 0 21-19 39-47 63z",
  D: "M50 2 90 50 50 98 10 50z",
  S: "M50 3c12 19 47 36 47 59 0 16-12 25-24 25-9 0-15-4-18-10 1 11 5 17 13 21H32c8-4 12-10 13-21-3 6-9 10-18 10C15 87 3 78 3 62 3 39 38 22 50 3z",
  C: "M50 6a21 21 0 0 1 17 33 21 21 0 1 1-12 33c1 12 5 18 13 22H32c8-4 12-10 13-22a21 21 0 1 1-12-33A21 21 0 0 1 50 6z",
};
const CROWN = "M6 56 10 14l20 22L50 4l20 32 20-22 4 42z";

/** What a card name means: {kind: "suit", suit, rank} | {kind: "trump", n} | {kind: "excuse"}. */
export function parseCard(name) {
  if (name === "EX") return { kind: "excuse" };
  if (name[0] === "T") return { kind: "trump", n: Number(name.slice(1)) };
  const suit = name.slice(-1);
  const rank = name.slice(0, -1);
  return { kind: "suit", suit, rank };
}

const RANK_ORDER = { K: 14, Q: 13, C: 12, J: 11 };
const rankValue = (rank) => RANK_ORDER[rank] ?? Number(rank);
const isRed = (suit) => suit === "H" || suit === "D";

/**
 * The hand in display order: the Excuse, the trumps high to low, then the suits high to low,
 * their colours alternating (spades, hearts, clubs, diamonds, dropping suits the hand lacks
 * so that two suits of one colour meet only when they must).
 */
export function sortHand(names) {
  const present = new Set(names.map(parseCard).filter((c) => c.kind === "suit").map((c) => c.suit));
  const blacks = ["S", "C"].filter((s) => present.has(s));
  const reds = ["H", "D"].filter((s) => present.has(s));
  const order = [];
  while (blacks.length || reds.length) {
    if (blacks.length) order.push(blacks.shift());
    if (reds.length) order.push(reds.shift());
  }
  const key = (name) => {
    const c = parseCard(name);
    if (c.kind === "excuse") return [0, 0];
    if (c.kind === "trump") return [1, -c.n];
    return [2 + order.indexOf(c.suit), -rankValue(c.rank)];
  };
  return [...names].sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

/** A card's name for people and screen readers. */
export function cardLabel(name, pack = "french") {
  const c = parseCard(name);
  if (c.kind === "excuse") return t(pack === "austrian" ? "card.skus" : "card.excuse");
  if (c.kind === "trump") return t("card.trump", { n: c.n });
  const rank = RANK_ORDER[c.rank] ? t(`rank.${c.rank}`) : c.rank;
  return t("card.pip", { rank, suit: t(`suit.${c.suit}`) });
}

/** A short text form: K♠, 10♥, T21, Excuse. */
export function cardShort(name, pack = "french") {
  const c = parseCard(name);
  if (c.kind === "excuse") return t(pack === "austrian" ? "skus.short" : "excuse.short");
  if (c.kind === "trump") return t("card.trump.short", { n: c.n });
  return `${rankShort(c.rank)}${{ S: "♠", H: "♥", D: "♦", C: "♣" }[c.suit]}`;
}

/** A rank's letter as the page's language writes it (French R, D, C, V for K, Q, C, J). */
export function rankShort(rank) {
  return RANK_ORDER[rank] ? t(`rank.short.${rank}`) : rank;
}

// ------------------------------------------------------------------ the shared definitions
let defsReady = false;

/** Put the suit symbols, the crown and the back's pattern in the document once. */
export function ensureDefs(doc = document) {
  if (defsReady && doc.getElementById("atout-card-defs")) return;
  const svg = el("svg", { id: "atout-card-defs", width: 0, height: 0, "aria-hidden": "true" });
  svg.style.position = "absolute";
  const defs = el("defs");
  for (const [suit, d] of Object.entries(SUIT_PATHS)) {
    const sym = el("symbol", { id: `suit-${suit}`, viewBox: "0 0 100 100" });
    sym.append(el("path", { d, fill: isRed(suit) ? RED : BLACK }));
    defs.append(sym);
  }
  const crown = el("symbol", { id: "crown", viewBox: "0 0 100 60" });
  crown.append(el("path", { d: CROWN, fill: "#d9a521", stroke: "#7a5a0c", "stroke-width": 4, "stroke-linejoin": "round" }));
  defs.append(crown);
  const star = el("symbol", { id: "star", viewBox: "-50 -50 100 100" });
  star.append(el("path", { d: starPath(48, 20) }));
  defs.append(star);
  const lattice = el("pattern", { id: "back-lattice", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  lattice.append(el("rect", { width: 8, height: 8, fill: "#23427a" }));
  lattice.append(el("path", { d: "M0 0H8M0 0V8", stroke: "#7f9ad0", "stroke-width": 1.2 }));
  defs.append(lattice);
  svg.append(defs);
  doc.body.prepend(svg);
  defsReady = true;
}

function starPath(outer, inner) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${(r * Math.cos(a)).toFixed(1)} ${(r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join("L")}z`;
}

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function use(id, x, y, w, h, extra = {}) {
  return el("use", { href: `#${id}`, x, y, width: w, height: h, ...extra });
}

// ------------------------------------------------------------------ drawing
// Pip positions, in a 60 x 100 card: two columns and a middle one, rows from 27 to 73, clear of the corners.
const X1 = 23, XM = 30, X2 = 37;
const T = 27, B = 73;
const PIPS = {
  1: [[XM, 50]],
  2: [[XM, T], [XM, B]],
  3: [[XM, T], [XM, 50], [XM, B]],
  4: [[X1, T], [X2, T], [X1, B], [X2, B]],
  5: [[X1, T], [X2, T], [XM, 50], [X1, B], [X2, B]],
  6: [[X1, T], [X2, T], [X1, 50], [X2, 50], [X1, B], [X2, B]],
  7: [[X1, T], [X2, T], [XM, 38.5], [X1, 50], [X2, 50], [X1, B], [X2, B]],
  8: [[X1, T], [X2, T], [XM, 38.5], [X1, 50], [X2, 50], [XM, 61.5], [X1, B], [X2, B]],
  9: [[X1, T], [X2, T], [X1, 42.3], [X2, 42.3], [XM, 50], [X1, 57.7], [X2, 57.7], [X1, B], [X2, B]],
  10: [[X1, T], [X2, T], [XM, 34.7], [X1, 42.3], [X2, 42.3], [X1, 57.7], [X2, 57.7], [XM, 65.3], [X1, B], [X2, B]],
};

/**
 * One card as an <svg> element (class "card", data-card its name), scaled by CSS.
 * options: pack ("french" | "austrian"), back (true for a face-down card), title (tooltip).
 */
export function cardSvg(name, options = {}) {
  ensureDefs();
  const { pack = "french", back = false } = options;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "card", role: "img" });
  svg.append(el("rect", { x: 0.5, y: 0.5, width: W - 1, height: H - 1, rx: 5, class: "card-edge" }));
  if (back || !name) {
    svg.classList.add("back");
    svg.setAttribute("aria-label", t("card.back"));
    drawBack(svg);
    return svg;
  }
  svg.dataset.card = name;
  const label = cardLabel(name, pack);
  svg.setAttribute("aria-label", label);
  svg.append(el("title", {}, label));
  const c = parseCard(name);
  if (c.kind === "suit") drawSuitCard(svg, c);
  else if (c.kind === "trump") drawTrump(svg, c.n, pack);
  else drawExcuse(svg, pack);
  return svg;
}

function drawBack(svg) {
  svg.append(el("rect", { x: 3.5, y: 3.5, width: W - 7, height: H - 7, rx: 3, fill: "url(#back-lattice)", stroke: "#f2f2f2", "stroke-width": 1.5 }));
  svg.append(el("circle", { cx: W / 2, cy: H / 2, r: 12, fill: "#23427a", stroke: "#f2f2f2", "stroke-width": 1.5 }));
  svg.append(use("star", W / 2 - 8, H / 2 - 8, 16, 16, { fill: "#f2d27a" }));
}

function corner(svg, text, suit, color) {
  // the index, readable when the card is mostly covered by the next one in the hand
  const g = el("g", { class: "index" });
  const rank = el("text", { x: 8, y: 15, "font-size": 14, "font-weight": 700, "text-anchor": "middle", fill: color, "font-family": "system-ui, Arial, sans-serif" }, text);
  if (text.length > 1) {
    rank.setAttribute("textLength", 13);
    rank.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  g.append(rank);
  if (suit) g.append(use(`suit-${suit}`, 3.5, 17, 9, 9));
  svg.append(g);
  const g2 = g.cloneNode(true);
  g2.setAttribute("transform", `rotate(180 ${W / 2} ${H / 2})`);
  svg.append(g2);
}

function drawSuitCard(svg, { suit, rank }) {
  svg.classList.add(isRed(suit) ? "red" : "black");
  const color = isRed(suit) ? RED : BLACK;
  corner(svg, rankShort(rank), suit, color);
  if (RANK_ORDER[rank]) {
    // a court card: a framed panel, the letter big, the suit and an emblem
    svg.append(el("rect", { x: 14, y: 13, width: 32, height: 74, rx: 3, fill: isRed(suit) ? "#fdeff1" : "#eef1f6", stroke: color, "stroke-width": 1 }));
    if (rank === "K" || rank === "Q") {
      const w = rank === "K" ? 22 : 16;
      svg.append(use("crown", W / 2 - w / 2, 18, w, w * 0.6));
    } else if (rank === "C") {
      // a horse's head, as on a chess knight
      svg.append(el("path", { d: "M24 37v-5c-2-1-3-3-1-5l5-5 1-3 2 3c4 1 7 5 7 10v5z", fill: "#8a5a2b" }));
      svg.append(el("circle", { cx: 29.5, cy: 25.5, r: 1, fill: "#fff" }));
    } else {
      svg.append(el("path", { d: "M24 31l6-12 6 12z", fill: color }));
    }
    svg.append(el("text", { x: W / 2, y: 63, "font-size": 26, "font-weight": 700, "text-anchor": "middle", fill: color, "font-family": "Georgia, 'Times New Roman', serif" }, rankShort(rank)));
    svg.append(use(`suit-${suit}`, W / 2 - 7, 68, 14, 14));
    return;
  }
  const n = Number(rank);
  const size = n === 1 ? 24 : n >= 9 ? 9 : 10;
  for (const [x, y] of PIPS[n] ?? []) {
    const pip = use(`suit-${suit}`, x - size / 2, y - size / 2, size, size);
    if (y > 50) pip.setAttribute("transform", `rotate(180 ${x} ${y})`);
    svg.append(pip);
  }
}

function drawTrump(svg, n, pack) {
  svg.classList.add("trump");
  svg.append(el("rect", { x: 2.5, y: 2.5, width: W - 5, height: H - 5, rx: 3.5, fill: "#f5efd9", stroke: "#c9b98a", "stroke-width": 1 }));
  corner(svg, String(n), null, TRUMP_INK);
  svg.querySelectorAll(".index").forEach((g) => g.append(use("star", 3.5, 19, 9, 9, { fill: "#c99a1e" })));
  const bout = n === 1 || n === 21;
  svg.append(el("ellipse", { cx: W / 2, cy: H / 2, rx: 19, ry: 23, fill: bout ? "#f3cf5b" : "#ffffff", stroke: TRUMP_INK, "stroke-width": bout ? 2 : 1 }));
  svg.append(el("text", { x: W / 2, y: H / 2 + 10, "font-size": n > 9 ? 27 : 30, "font-weight": 800, "text-anchor": "middle", fill: TRUMP_INK, "font-family": "system-ui, Arial, sans-serif" }, String(n)));
  if (pack === "austrian" && (n === 1 || n === 21)) {
    svg.append(el("text", { x: W / 2, y: 88, "font-size": 7, "text-anchor": "middle", fill: TRUMP_INK, "font-family": "system-ui, Arial, sans-serif" }, t(n === 1 ? "card.pagat" : "card.mond")));
  }
}

function drawExcuse(svg, pack) {
  svg.classList.add("excuse");
  svg.append(el("rect", { x: 2.5, y: 2.5, width: W - 5, height: H - 5, rx: 3.5, fill: "#f5efd9", stroke: "#c9b98a", "stroke-width": 1 }));
  const mark = pack === "austrian" ? "Sk" : "★";
  corner(svg, mark, null, "#7a1f7a");
  svg.append(el("circle", { cx: W / 2, cy: 46, r: 19, fill: "#f3cf5b", stroke: "#7a1f7a", "stroke-width": 2 }));
  svg.append(use("star", W / 2 - 14, 32, 28, 28, { fill: "#7a1f7a" }));
  svg.append(el("text", { x: W / 2, y: 80, "font-size": 9, "font-weight": 700, "text-anchor": "middle", fill: "#7a1f7a", "font-family": "system-ui, Arial, sans-serif" }, t(pack === "austrian" ? "skus.short" : "excuse.short")));
}
