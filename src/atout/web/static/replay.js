// A finished deal replayed step by step with every hand shown (/t/<id>/deals/<n>), the session's
// deals to pick from (/t/<id>/deals), and the solver's analysis of the deal. Everything comes from
// the server (GET /api/tables/<id>/deals/<n>: the board as dealt and what each action changed);
// the table, the trick and the cards are drawn by render.js and cards.js, as at the table.

import { cardLabel, cardSvg, sortHand } from "./cards.js";
import { cancelledWords, formulaText, verdictText } from "./dialogs.js";
import { h, renderCenter, renderInfo, renderSeats } from "./render.js";
import { t } from "./strings.js";
import { bidLabel, eventLine, packOf, seatName } from "./words.js";

const $ = (id) => document.getElementById(id);
const MINUS = "\u2212";
const points = (n) => String(n).replace("-", MINUS);
const signed = (n) => (n > 0 ? `+${n}` : points(n));

const path = location.pathname.match(/^\/t\/([^/]+)\/deals(?:\/([^/]+))?\/?$/) ?? [];

/** What the page shows: the table (seat names), the deal's replay, its boards step by step, the
 * step shown, and the analysis once it has come. */
export const state = {
  tableId: decodeURIComponent(path[1] ?? ""),
  dealNo: path[2] ? decodeURIComponent(path[2]) : null,
  table: null,
  seat: null,
  view: null,
  held: null,
  replay: null,
  boards: [],
  step: 0,
  analysis: null,
  analysisStatus: null,
  deals: [],
};

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = { error: response.statusText };
  }
  return { status: response.status, body };
}

function problem(text) {
  const node = $("problem");
  node.textContent = text;
  node.hidden = false;
}

// ------------------------------------------------------------------ the boards
/** Every step's board: the board as dealt, then each action's changes laid over the one before. */
function buildBoards(replay) {
  const boards = [replay.start];
  for (const step of replay.steps) {
    const before = boards[boards.length - 1];
    const { hands, ...rest } = step.set;
    const next = { ...before, ...rest, hands: [...before.hands] };
    for (const [seat, hand] of Object.entries(hands ?? {})) next.hands[Number(seat)] = hand;
    boards.push(next);
  }
  return boards;
}

/** The steps at which a trick is complete (shown whole), with the first and the last step. */
function trickStops() {
  const stops = [0];
  state.boards.forEach((b, i) => {
    if (i > 0 && b.done > state.boards[i - 1].done) stops.push(i);
  });
  stops.push(state.boards.length - 1);
  return [...new Set(stops)].sort((a, b) => a - b);
}

function go(step) {
  const last = state.boards.length - 1;
  state.step = Math.max(0, Math.min(last, step));
  history.replaceState(null, "", `#step=${state.step}`);
  draw();
}

function goTrick(direction) {
  const stops = trickStops();
  const target = direction > 0 ? stops.find((s) => s > state.step) : [...stops].reverse().find((s) => s < state.step);
  go(target ?? (direction > 0 ? state.boards.length - 1 : 0));
}

// ------------------------------------------------------------------ drawing a step
function viewAt(step) {
  const r = state.replay;
  const b = state.boards[step];
  const tricks = r.tricks.slice(0, b.done);
  // seat -1: no seat's view, and not a watcher's either (a watcher's hides the hands)
  return { ...b, game: r.start.game, rules: r.rules, players: r.players, seat: -1, tricks, scores: step === state.boards.length - 1 ? r.scores : null };
}

function draw() {
  const v = viewAt(state.step);
  state.view = v;
  // a trick just won stays on the table, its winner marked, until the next card is played
  const lastTrick = v.tricks[v.tricks.length - 1];
  state.held = !v.trick?.length && lastTrick ? { plays: lastTrick.plays, winner: lastTrick.winner } : null;
  renderSeats($("seats"), state);
  renderCenter($("center"), state);
  renderInfo($("info"), state);
  markCosts();
  drawHands(v);
  drawStepWords();
  drawMoves();
  const last = state.boards.length - 1;
  const trickNo = v.trick?.length ? v.done + 1 : v.done; // a trick just won is still shown
  $("step-count").textContent = t("replay.step", { n: state.step, total: last }) + (trickNo ? ` · ${t("replay.trick", { n: trickNo })}` : "");
  for (const button of $("steps-bar").querySelectorAll("button")) {
    const backward = button.dataset.dir === "back";
    button.disabled = backward ? state.step === 0 : state.step === last;
  }
  $("result").hidden = state.step !== last;
  document.body.dataset.step = String(state.step);
}

function drawHands(v) {
  const root = $("hands");
  root.replaceChildren(h("h2", { text: t("replay.hands") }));
  const pack = packOf(v);
  const won = new Array(state.replay.players).fill(0);
  for (const trick of v.tricks) won[trick.winner] += 1;
  for (let seat = 0; seat < state.replay.players; seat++) {
    const cards = h("div", { class: "mini-cards hand-cards" });
    for (const card of sortHand(v.hands[seat] ?? [])) cards.append(cardSvg(card, { pack }));
    const piles = pilesOf(seat, v, pack);
    const turn = v.current_player === seat;
    root.append(
      h(
        "div",
        { class: `hand-row${turn ? " turn" : ""}`, "data-seat": seat },
        h("div", { class: "hand-name" }, h("strong", { text: seatName(state, seat) }), h("span", { class: "won", text: t("replay.tricks_won", { n: won[seat] }) })),
        cards,
        piles ? h("div", { class: "piles-label", text: t("replay.piles") }) : null,
        piles,
      ),
    );
  }
  const aside = [];
  const dealt = state.replay.record;
  if (dealt.chien) aside.push([t("replay.chien_dealt"), dealt.chien.split(" ")]);
  if (Array.isArray(dealt.talon)) dealt.talon.forEach((half, i) => aside.push([`${t("replay.talon_dealt")} · ${t(i ? "talon.second" : "talon.first")}`, half.split(" ")]));
  const laid = v.game === "austrian" ? v.discard : v.ecart;
  if (laid?.length) aside.push([t(v.game === "austrian" ? "replay.discard_pile" : "replay.ecart"), laid]);
  for (const [label, names] of aside) {
    root.append(h("div", { class: "hand-row aside" }, h("div", { class: "hand-name" }, h("strong", { text: label })), h("div", { class: "mini-cards" }, ...sortHand(names).map((c) => cardSvg(c, { pack })))));
  }
}

/** The 2-player game's piles of a seat, every card shown, the top first: the cards dealt to each
 * pile (the record) that are not played yet; null in the other games. */
function pilesOf(seat, v, pack) {
  const dealt = state.replay.record.piles?.[seat];
  if (!dealt) return null;
  const played = new Set([...v.tricks.flatMap((trick) => trick.plays), ...(v.trick ?? [])].map((p) => p.card));
  const left = dealt.map((pile) => [...pile].reverse().filter((c) => !played.has(c))).filter((pile) => pile.length);
  if (!left.length) return null;
  return h("div", { class: "piles-up" }, ...left.map((pile) => h("div", { class: "mini-cards pile-cards" }, ...pile.map((c) => cardSvg(c, { pack })))));
}

/** The step's events in words (the deal is over: nothing is hidden, the écart included). */
function drawStepWords() {
  const root = $("step-words");
  root.replaceChildren();
  const step = state.replay.steps[state.step - 1];
  if (!step) {
    root.append(h("li", { text: t("replay.dealt", { name: seatName(state, state.replay.dealer) }) }));
    return;
  }
  for (const event of step.events) {
    const text = stepEventLine(event);
    if (text) root.append(h("li", { text }));
  }
  const cost = costOf(step.index);
  if (cost) root.append(h("li", { class: "cost", text: costWords(step, cost) }));
}

function stepEventLine(event) {
  const pack = packOf(state.view);
  const name = seatName(state, event.seat);
  if (event.kind === "discard") return t("replay.discard", { name, card: cardLabel(event.card, pack) });
  if (event.kind === "talon_seen") return t("replay.talon_seen", { name, half: event.half });
  if (event.kind === "end") return t("log.end");
  return eventLine(state, event);
}

// ------------------------------------------------------------------ the analysis
function costOf(index) {
  return state.analysis?.cards?.find((c) => c.index === index && c.lost > 0) ?? null;
}

function costWords(step, cost) {
  const pack = packOf(state.view);
  const best = (cost.best_cards ?? []).map((c) => cardLabel(c, pack)).join(t("replay.or"));
  return t("replay.cost", { name: seatName(state, step.seat), card: cardLabel(cost.card, pack), lost: points(-cost.lost), best });
}

/** A badge on each card of the trick that cost its side points. */
function markCosts() {
  if (!state.analysis) return;
  const lost = new Map(state.analysis.cards.filter((c) => c.lost > 0).map((c) => [c.card, c.lost]));
  for (const slot of $("center").querySelectorAll(".trick-card")) {
    const card = slot.querySelector("svg.card")?.dataset.card;
    if (!lost.has(card)) continue;
    slot.classList.add("costly");
    slot.append(h("span", { class: "cost-badge", title: t("replay.cost.short", { lost: points(-lost.get(card)) }), text: points(-lost.get(card)) }));
  }
}

function drawMoves() {
  const list = document.querySelector("#analysis ol.moves");
  if (!list) return;
  for (const item of list.children) item.classList.toggle("current", Number(item.dataset.step) === state.step);
}

/** A card picked in the list: its step, the table brought into view to show it. */
function showMove(step) {
  go(step);
  $("stage").scrollIntoView({ block: "nearest" });
}

/** A fact the analysis found in hindsight, in words: the contract with best play, another bid
 * with the same card play, a better écart. A kind this page does not know is left out. */
function hindsightLine(fact) {
  const p = fact.params ?? {};
  const pack = packOf(state.view);
  switch (fact.kind) {
    case "contract":
      if (p.needed === undefined) return t(p.made ? "replay.hindsight.contract.won" : "replay.hindsight.contract.beaten", p);
      return t(p.made ? "replay.hindsight.contract.made" : "replay.hindsight.contract.lost", { ...p, margin: Math.abs(p.margin) });
    case "bid":
      return t("replay.hindsight.bid", { ...p, contract: bidLabel(p.contract), actual_contract: bidLabel(p.actual_contract), score: signed(p.score), actual_score: signed(p.actual_score) });
    case "ecart":
      return t("replay.hindsight.ecart", { ...p, discard: cardLabel(p.discard, pack), instead_of: cardLabel(p.instead_of, pack) });
    default:
      return null;
  }
}

function drawAnalysis() {
  const root = $("analysis");
  root.hidden = false;
  root.replaceChildren(h("h2", { text: t("replay.analysis") }));
  if (state.analysisStatus === "computing") {
    root.append(h("p", { class: "computing", text: t("replay.analysis.computing") }));
    return;
  }
  if (state.analysisStatus !== "ready") {
    root.append(h("p", { text: t("replay.analysis.none") }));
    if (state.analysisError) root.append(h("p", { class: "small", text: state.analysisError }));
    return;
  }
  const a = state.analysis;
  root.append(h("p", { class: "open-hands", text: t("replay.analysis.open") }));
  root.append(h("p", { class: "totals", text: t("replay.analysis.totals", { best: a.best, actual: a.actual, trick: a.from_trick }) }));
  for (const fact of a.hindsight ?? []) {
    const text = hindsightLine(fact);
    if (text) root.append(h("p", { class: "hindsight", text }));
  }
  const costly = a.cards.filter((c) => c.lost > 0);
  if (!costly.length) root.append(h("p", { text: t("replay.analysis.clean") }));
  const list = h("ol", { class: "moves" });
  for (const step of state.replay.steps) {
    if (!step.action.startsWith("play ")) continue;
    const cost = costOf(step.index);
    const card = step.action.slice(5);
    const text = cost ? costWords(step, cost) : t("replay.played", { name: seatName(state, step.seat), card: cardLabel(card, packOf(state.view)) });
    const trick = state.boards[step.index].done + 1;
    const item = h("li", { class: cost ? "costly" : "", "data-step": step.index + 1 }, h("span", { class: "move-trick", title: t("replay.trick", { n: trick }), text: String(trick) }), h("button", { type: "button", class: "move", onclick: () => showMove(step.index + 1), text }));
    list.append(item);
  }
  root.append(h("h3", { text: t("replay.moves") }), list);
  drawMoves();
  draw();
}

async function loadAnalysis() {
  const { status, body } = await getJson(`/api/tables/${encodeURIComponent(state.tableId)}/deals/${encodeURIComponent(state.dealNo)}/analysis`);
  if (status === 202) {
    state.analysisStatus = "computing";
    drawAnalysis();
    setTimeout(loadAnalysis, 1500);
    return;
  }
  if (status === 200 && body?.analysis) {
    state.analysis = body.analysis;
    state.analysisStatus = "ready";
  } else {
    state.analysisStatus = "none";
    state.analysisError = body?.error ?? null;
  }
  drawAnalysis();
}

// ------------------------------------------------------------------ the result and the deals
function drawResult() {
  const r = state.replay;
  const root = $("result");
  root.replaceChildren(h("h2", { text: t("replay.result") }));
  const b = r.breakdown;
  const cancelled = cancelledWords(state, r.outcome);
  if (b) root.append(h("p", { class: `verdict ${b.made ? "made" : "lost"}`, text: verdictText(state, b) }), h("p", { class: "formula", text: formulaText(state, b) }));
  else if (cancelled) root.append(h("p", { text: cancelled }));
  const head = h("tr", {}, ...r.scores.map((_, s) => h("th", { text: seatName(state, s) })));
  const row = h("tr", {}, ...r.scores.map((x) => h("td", { class: x < 0 ? "neg" : "", text: signed(x) })));
  root.append(h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, row)));
}

function contractWords(deal) {
  const s = deal.summary;
  if (!s) return cancelledWords(state, deal.outcome) ?? "";
  const who = s.taker ?? s.declarer;
  const contract = s.contract ?? s.bid;
  if (who === undefined || who === null || !contract) return t("game.two_player");
  return t("contract.line", { name: seatName(state, who), contract: bidLabel(contract) });
}

function drawDeals() {
  const root = $("deals");
  root.hidden = false;
  root.replaceChildren(h("h2", { text: t("replay.deals") }));
  if (!state.deals.length) {
    root.append(h("p", { text: t("replay.deals.none") }));
    return;
  }
  const n = state.table.players;
  const head = h("tr", {}, h("th", { text: "" }), h("th", { text: t("end.contract") }), ...Array.from({ length: n }, (_, s) => h("th", { text: seatName(state, s) })));
  const rows = state.deals.map((deal) => {
    const current = String(deal.deal_no) === String(state.dealNo);
    const link = h("a", { href: `/t/${encodeURIComponent(state.tableId)}/deals/${deal.deal_no}`, "aria-current": current ? "page" : null, text: t("scores.deal", { n: deal.deal_no }) });
    return h("tr", { class: current ? "current" : "" }, h("th", {}, link), h("td", { text: contractWords(deal) }), ...deal.scores.map((x) => h("td", { class: x < 0 ? "neg" : "", text: signed(x) })));
  });
  root.append(h("table", { class: "scores deals-list" }, h("thead", {}, head), h("tbody", {}, ...rows)));
}

// ------------------------------------------------------------------ the controls
function controls() {
  const bar = $("steps-bar");
  const button = (key, dir, action, kbd) =>
    h("button", { type: "button", class: "action", "data-dir": dir, "data-step-button": key, title: `${t(`replay.${key}`)} (${kbd})`, "aria-label": t(`replay.${key}`), onclick: action }, h("span", { class: "glyph", "aria-hidden": "true", text: GLYPHS[key] }), h("span", { class: "word", text: t(`replay.${key}`) }));
  bar.replaceChildren(
    button("start", "back", () => go(0), "Home"),
    button("trick_back", "back", () => goTrick(-1), "↑"),
    button("back", "back", () => go(state.step - 1), "←"),
    button("forward", "forward", () => go(state.step + 1), "→"),
    button("trick_forward", "forward", () => goTrick(1), "↓"),
    button("end", "forward", () => go(state.boards.length - 1), "End"),
  );
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || ["INPUT", "SELECT", "TEXTAREA"].includes(event.target?.tagName)) return;
    const moves = { ArrowRight: () => go(state.step + 1), ArrowLeft: () => go(state.step - 1), ArrowDown: () => goTrick(1), ArrowUp: () => goTrick(-1), PageDown: () => goTrick(1), PageUp: () => goTrick(-1), Home: () => go(0), End: () => go(state.boards.length - 1) };
    if (!state.boards.length || !(event.key in moves)) return;
    event.preventDefault();
    moves[event.key]();
  });
}

const GLYPHS = { start: "|◀", trick_back: "◀◀", back: "◀", forward: "▶", trick_forward: "▶▶", end: "▶|" };

async function copyLink() {
  const url = location.href;
  let done = false;
  try {
    await navigator.clipboard.writeText(url);
    done = true;
  } catch {
    done = false;
  }
  $("copied").textContent = done ? t("replay.copied") : url;
}

// ------------------------------------------------------------------ loading
async function main() {
  document.title = t("replay.title");
  $("btn-copy").textContent = t("replay.copy");
  $("btn-copy").addEventListener("click", copyLink);
  const toTable = $("to-table");
  toTable.href = `/t/${encodeURIComponent(state.tableId)}`;
  toTable.textContent = t("replay.to_table");
  const list = await getJson(`/api/tables/${encodeURIComponent(state.tableId)}/deals`);
  if (list.status !== 200) {
    problem(list.body?.error ?? t("replay.error"));
    document.body.dataset.ready = "true";
    return;
  }
  state.table = list.body;
  state.deals = list.body.deals;
  $("title").textContent = state.dealNo ? t("replay.heading", { n: state.dealNo }) : t("replay.deals");
  drawDeals();
  if (state.dealNo === null) {
    document.body.dataset.ready = "true";
    return;
  }
  const got = await getJson(`/api/tables/${encodeURIComponent(state.tableId)}/deals/${encodeURIComponent(state.dealNo)}`);
  if (got.status !== 200) {
    problem(got.status === 409 ? t("replay.unfinished") : got.body?.error ?? t("replay.error"));
    document.body.dataset.ready = "true";
    return;
  }
  state.replay = got.body;
  state.table = { ...state.table, seats: got.body.seats, players: got.body.players };
  state.boards = buildBoards(got.body);
  document.body.dataset.players = String(got.body.players);
  for (const id of ["stage", "hands"]) $(id).hidden = false;
  controls();
  drawResult();
  const asked = Number(/step=(\d+)/.exec(location.hash)?.[1] ?? 0);
  go(asked);
  document.body.dataset.ready = "true";
  await loadAnalysis();
}

main();
