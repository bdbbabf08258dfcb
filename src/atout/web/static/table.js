// The table page: connects to the table's websocket (or loads a recorded view with
// ?fixture=NAME), keeps this browser's seat token, draws what the server sends and sends back
// the player's actions as their words. Every legal move comes from view.legal_actions.

import { applyUpdate } from "./delta.js";
import { canAskHint, hintedSet, hintLogLines, renderAdvice } from "./advice.js";
import { closeDialog, followDeal, showChooseSeat, showDealOver, showPreviousTrick, showScores } from "./dialogs.js";
import { api, TableSocket } from "./net.js";
import { classify, connected, handOrder, renderCenter, renderControls, renderHand, renderInfo, renderPiles, renderSeats, statusText, h } from "./render.js";
import { lastName, rememberTable, setLastName, tableEntry } from "./store.js";
import { refusalText, ruleLink } from "./refusals.js";
import { STRINGS, t } from "./strings.js";
import { eventLine, seatName } from "./words.js";

const $ = (id) => document.getElementById(id);
// The pace at which the moves of others are shown (ms between two cards, and how long a finished
// trick stays before it is gathered), chosen per table in the bar; a server whose bots do not
// pause (bot_pause 0, as in tests) is shown at once.
const PACES = { slow: { card: 1300, hold: 2000 }, normal: { card: 800, hold: 1200 }, fast: { card: 350, hold: 600 } };
const PACE_NAMES = Object.keys(PACES);

export const state = {
  tableId: null,
  seat: null,
  token: null,
  table: null,
  view: null, // the view drawn, which may lag behind the server's at the table's pace
  serverView: null, // the seat's view as the server holds it now: the last state, and every update since
  serverSeq: null,
  resyncing: false, // an update did not fit: the updates wait for the state asked for
  seq: null,
  dealNo: null,
  totals: null,
  over: null,
  error: null,
  notice: null,
  selected: null,
  discardPick: new Set(),
  discardQueue: [],
  discardNeeded: 0,
  queuedPlay: null,
  held: null,
  keyed: [],
  myTurn: false,
  pending: null,
  offered: null,
  fixture: null,
  refusals: {},
  socket: null,
  conn: null,
  pace: "normal",
  chelemAfterEcart: false,
  afterEcart: null,
  restoredEcart: null,
  hint: null, // the expert's advice for this seat: {seq, dealNo, action, reason}
  hintAsked: null, // the seq at which a hint was asked, until it comes
  hintNotes: [], // the hints used at the table: {dealNo, seat, at (events shown then)}
  hinted: new Set(), // the cards and actions the current hint points at
};

// ------------------------------------------------------------------ drawing
function render() {
  const v = state.view;
  // while the connection is lost nobody's turn is shown and no card may be clicked
  state.myTurn = Boolean(v && state.seat !== null && v.current_player === state.seat && v.legal_actions?.length && connected(state));
  if (state.held && Date.now() > state.held.until) state.held = null;
  if (!v || v.phase !== "discard") {
    state.discardPick.clear();
    if (v && state.seat !== null) sessionStorage.removeItem(ecartKey());
  } else restoreEcart();
  const actions = { act, pick, confirmDiscard, clearDiscard, toggleChelem };
  state.hinted = hintedSet(state);
  document.body.dataset.game = v?.game ?? "";
  document.body.classList.toggle("pending", Boolean(state.pending));
  document.body.classList.toggle("offline", !connected(state));
  document.body.dataset.players = String(state.table?.players ?? v?.rules?.players ?? "");
  // what sits below the felt first: its height decides the room the seats and the trick have
  renderInfo($("info"), state);
  renderControls($("controls"), state, actions);
  renderAdvice($("controls"), state, askHint);
  renderPiles($("opp-piles"), $("own-piles"), state, actions);
  renderHand($("hand"), state, actions);
  renderSeats($("seats"), state);
  renderCenter($("center"), state);
  if (v?.phase === "end") {
    const row = h("div", { class: "buttons" });
    row.append(h("button", { type: "button", class: "action", onclick: showResult, text: t("end.scores") }));
    if (!state.fixture && state.token) row.append(h("button", { type: "button", class: "action primary", onclick: nextDeal, text: t("end.next") }));
    $("controls").append(row);
  }
  // the status is a live region: it is written only when what it says changes, so that a screen
  // reader does not read "Waiting for Bruno" again at every move
  const status = document.createElement("div");
  status.className = state.myTurn ? "yours" : "";
  if (!connected(state)) status.classList.add("offline");
  if (state.error) {
    status.classList.add("error");
    // an engine refusal is said from its code and params, in words; below, a link to its rule
    const words = refusalText(state.error.reason, state.error.params, v?.game === "austrian" ? "austrian" : "french");
    status.append(h("span", { class: "message", text: words ?? state.error.message }));
    const rule = ruleLink(state.error.rule);
    if (rule) status.append(rule);
  } else {
    status.append(h("span", { text: state.notice ?? (botsWarming(state) ? t("turn.bots_warming") : statusText(state)) }));
  }
  const shown = $("status");
  if (shown.className !== status.className || shown.innerHTML !== status.innerHTML) {
    shown.className = status.className;
    shown.replaceChildren(...status.childNodes);
  }
  const game = v?.game ? t(`game.${v.game}`) : "";
  const watchers = state.table?.watchers ? t("watch.count", { n: state.table.watchers }) : "";
  $("title").textContent = [game, state.table?.preset].filter(Boolean).join(" · ");
  // how many watch, beside the deal's number: still in view on a phone, where the title is hidden
  $("deal-no").textContent = [state.dealNo ? t("scores.deal", { n: state.dealNo }) : "", watchers].filter(Boolean).join(" · ");
  document.title = `${state.myTurn ? "● " : ""}${t("title.table")}`;
  renderLog();
}

function renderLog() {
  const list = $("log").querySelector("ol");
  const items = (state.view?.events ?? []).map((e, i) => h("li", {}, h("span", { class: "n", text: String(i + 1) }), h("span", { text: eventLine(state, e) })));
  for (const [at, words] of hintLogLines(state).reverse()) items.splice(at, 0, h("li", { class: "hint-used" }, h("span", { class: "n" }), h("span", { text: words })));
  list.replaceChildren(...items);
  list.parentElement.scrollTop = list.parentElement.scrollHeight;
}

// ------------------------------------------------------------------ the pace of the others' moves
function pace() {
  if (state.fixture || state.table?.bot_pause === 0) return { card: 0, hold: 0 };
  return PACES[state.pace] ?? PACES.normal;
}

const pacer = { queue: [], timer: null, readyAt: 0 };

/** How long the page shows this update before it draws the next one: a card played stays alone
 * a moment, a finished trick a little longer. */
function dwell(before, msg) {
  const view = msg.view;
  if (msg.type !== "update" || !view || !before) return 0;
  const p = pace();
  if ((view.tricks?.length ?? 0) > (before.tricks?.length ?? 0)) return p.hold;
  if ((view.trick?.length ?? 0) > (before.trick?.length ?? 0)) return p.card;
  if ((view.bids?.length ?? 0) > (before.bids?.length ?? 0)) return p.card / 2;
  return 0;
}

/** The server's view after a state or an update, applied on receipt and in order (the view drawn
 * follows later); a window event "atout:view" tells it, with its seq. */
function holdServerView(view, seq) {
  state.serverView = view;
  state.serverSeq = seq;
  window.dispatchEvent(new CustomEvent("atout:view", { detail: { seq, view } }));
}

/** An update that does not fit the view held (or comes after a gap): ask once for a full state.
 * Should the connection drop meanwhile, the hello says no seq, and so brings a state too. */
function askResync() {
  state.serverView = null;
  if (state.resyncing) return;
  state.resyncing = true;
  state.socket?.send({ type: "resync" });
}

/** An update carries the seat's whole view (older servers) or what changed since the previous one:
 * the full view either way, or null when it cannot be had from what the page holds. */
function viewOfUpdate(msg) {
  if (msg.view) return msg.view;
  if (state.resyncing || state.serverView === null || msg.seq !== state.serverSeq + 1) return null;
  return applyUpdate(state.serverView, msg);
}

/** Every server message comes here: updates (and the end of the deal) wait their turn to be
 * drawn at the table's pace, each carrying the full view it leads to; a full state is drawn at once. */
function receive(msg) {
  if (msg.type === "state") {
    state.resyncing = false;
    holdServerView(msg.view ?? null, msg.seq ?? null);
    pacer.queue = [];
    pacer.readyAt = 0;
    clearTimeout(pacer.timer);
    return onMessage(msg);
  }
  if (msg.type === "update") {
    const view = viewOfUpdate(msg);
    if (!view) return askResync();
    msg.view = view;
    holdServerView(view, msg.seq ?? null);
  }
  if (msg.type === "update" || msg.type === "deal_over") {
    pacer.queue.push(msg);
    return pump();
  }
  return onMessage(msg);
}

function pump() {
  clearTimeout(pacer.timer);
  while (pacer.queue.length) {
    const wait = pacer.readyAt - Date.now();
    // the answer to one's own move is drawn at once
    if (wait > 0 && !state.pending) {
      pacer.timer = setTimeout(pump, wait);
      return;
    }
    const msg = pacer.queue.shift();
    const d = dwell(state.view, msg);
    onMessage(msg);
    pacer.readyAt = d ? Date.now() + d : 0;
  }
}

function setPace(name) {
  state.pace = PACES[name] ? name : "normal";
  $("btn-pace").textContent = t("pace", { pace: t(`pace.${state.pace}`) });
}

// ------------------------------------------------------------------ the écart kept over a reload
function ecartKey() {
  return `atout.ecart:${state.tableId}:${state.dealNo}:${state.seat}`;
}

function saveEcart() {
  try {
    if (state.discardPick.size) sessionStorage.setItem(ecartKey(), JSON.stringify([...state.discardPick]));
    else sessionStorage.removeItem(ecartKey());
  } catch {
    // a browser that keeps nothing: the choice is simply not kept
  }
}

/** After a reload during the écart: the cards chosen before, still in the hand and allowed. */
function restoreEcart() {
  const key = ecartKey();
  if (!state.myTurn || state.restoredEcart === key || state.discardPick.size || state.discardQueue.length) return;
  state.restoredEcart = key;
  let saved = [];
  try {
    saved = JSON.parse(sessionStorage.getItem(key) ?? "[]");
  } catch {
    saved = [];
  }
  const { cards } = classify(state.view.legal_actions);
  for (const card of Array.isArray(saved) ? saved : []) if (cards.has(card)) state.discardPick.add(card);
}

// While the server's bot workers load their compiled kernels, a bot's turn says so (table info).
function botsWarming(state) {
  const v = state.view, seat = v ? state.table?.seats?.[v.current_player] : null;
  return Boolean(state.table?.bots_warming && connected(state) && !state.myTurn && v?.phase !== "end" && (seat?.kind === "bot" || seat?.replaced_by_bot));
}

// ------------------------------------------------------------------ messages from the server
function setView(view) {
  const before = state.view;
  if (before && view && (view.tricks?.length ?? 0) > (before.tricks?.length ?? 0) && !(view.trick?.length)) {
    const last = view.tricks[view.tricks.length - 1];
    const hold = pace().hold;
    state.held = { plays: last.plays, winner: last.winner, until: Date.now() + hold };
    setTimeout(render, hold + 50);
  }
  if (view && before && view.phase !== before.phase) state.selected = null;
  state.view = view;
}

export function onMessage(msg) {
  if (typeof msg.seq === "number") state.seq = msg.seq;
  switch (msg.type) {
    case "state":
      state.synced = true;
      state.seat = msg.seat ?? null;
      state.table = msg.table ?? state.table;
      state.dealNo = msg.deal_no ?? state.dealNo;
      state.totals = msg.totals ?? state.totals;
      state.over = msg.over ?? null; // between deals: the last deal's result, reopened after a reload
      state.held = null;
      setView(msg.view ?? null);
      state.pending = null;
      state.error = null;
      if (state.seat === null && !state.fixture) offerSeat();
      break;
    case "update":
      state.dealNo = msg.deal_no ?? state.dealNo;
      setView(msg.view ?? state.view);
      state.pending = null;
      state.error = null;
      state.notice = null;
      if (msg.view?.phase !== "end") {
        state.over = null;
        if ($("dialog").dataset.kind === "end") closeDialog(); // someone dealt the next deal
      }
      break;
    case "table":
      state.table = msg.table ?? state.table;
      if (msg.table?.totals) state.totals = msg.table.totals;
      if (state.seat === null && !state.fixture) offerSeat();
      break;
    case "deal_over":
      state.over = msg;
      state.totals = msg.totals ?? state.totals;
      if (state.table && msg.scores) {
        const history = state.table.history ?? [];
        if (history.length < (msg.deal_no ?? history.length + 1)) state.table.history = [...history, msg.scores];
      }
      render();
      followDeal(state, { onNext: canDealNext() ? nextDeal : null });
      return;
    case "error":
      state.pending = null;
      state.hintAsked = null;
      state.error = {
        message: msg.code !== "illegal" && `error.${msg.code}` in STRINGS ? t(`error.${msg.code}`) : msg.message,
        rule: msg.rule ?? null,
        reason: msg.code === "illegal" ? msg.reason ?? null : null,
        params: msg.params ?? {},
      };
      state.discardQueue = [];
      state.queuedPlay = null;
      if (msg.code === "stale") state.socket?.send({ type: "resync" });
      break;
    case "hint":
      state.hintAsked = null;
      state.hint = { seq: msg.seq, dealNo: msg.deal_no, action: msg.action, reason: msg.reason ?? {} };
      break;
    case "hint_used":
      state.hintNotes = [...state.hintNotes.filter((n) => n.dealNo === msg.deal_no), { dealNo: msg.deal_no, seat: msg.seat, at: state.view?.events?.length ?? 0 }];
      break;
    case "pong":
      if (state.synced !== false) return;
      state.synced = true; // everything the hello brought has come: the view is current
      break;
    default:
      return;
  }
  render();
  followDeal(state, { onNext: canDealNext() ? nextDeal : null }); // a new deal closes the last one's result
  continueDiscard();
  continueQueuedPlay();
}

// ------------------------------------------------------------------ the player's moves
/** Ask the expert what it would do from this seat's view (the server answers this seat alone). */
function askHint() {
  if (!canAskHint(state) || state.hintAsked === state.seq || state.pending) return;
  state.error = null;
  if (state.socket?.send({ type: "hint" })) state.hintAsked = state.seq;
  render();
}

function act(action) {
  if (state.pending) return;
  state.error = null;
  state.notice = null;
  if (state.fixture) {
    const refusal = state.refusals[action];
    if (refusal) state.error = refusal;
    else state.notice = `${t("conn.fixture", { name: state.fixture })}: ${action}`;
    render();
    return;
  }
  if (state.socket?.send({ type: "action", seq: state.seq, action })) state.pending = action;
  else state.error = { message: t("conn.offline"), rule: null };
  render();
}

// A declaration only some hands are asked (a poignée, a misère) is answered "none" by playing a
// card: the page sends the refusal and then the card, so that declining takes no step of its own.
// The chelem too: the taker (in two players, each player) plays on to announce none.
const REFUSALS = { poignee: "no_poignee", misere: "no_misere", chelem: "no_chelem" };

function refusalNow() {
  const v = state.view;
  const refusal = state.myTurn ? REFUSALS[v?.phase] : null;
  return refusal && v.legal_actions.includes(refusal) ? refusal : null;
}

/** After a card was clicked at a declaration: decline each one asked, then play the card. */
function continueQueuedPlay() {
  if (!state.queuedPlay || state.pending) return;
  if (!state.myTurn) {
    state.queuedPlay = null; // declined, and another seat leads: the card waits in the hand
    return;
  }
  const refusal = refusalNow();
  if (refusal) return act(refusal);
  const card = state.queuedPlay;
  state.queuedPlay = null;
  const { cards, verb } = classify(state.view.legal_actions);
  if (verb === "play") act(cards.get(card) ?? `play ${card}`);
}

function pick(card, event) {
  const v = state.view;
  const refusal = refusalNow();
  if (refusal && classify(v.legal_actions).verb !== "show") {
    state.queuedPlay = card;
    state.selected = card;
    return act(refusal);
  }
  const { cards, verb } = classify(state.myTurn ? v?.legal_actions : []);
  // on a touch screen the first tap raises a card and the second plays it: no card goes by mistake
  const firstTouch = event?.pointerType === "touch" && verb === "play" && cards.has(card) && state.selected !== card;
  state.selected = card;
  if (!cards.size) return render();
  if (firstTouch) {
    state.error = null;
    state.notice = t("hint.tap_again");
    return render();
  }
  if (verb === "discard") {
    if (!cards.has(card)) return act(`discard ${card}`); // the server says why not
    state.error = null;
    if (state.discardPick.has(card)) state.discardPick.delete(card);
    else if (state.discardPick.size < state.discardNeeded) state.discardPick.add(card);
    saveEcart();
    return render();
  }
  return act(cards.get(card) ?? `${verb} ${card}`);
}

function confirmDiscard() {
  state.discardQueue = [...state.discardPick];
  state.afterEcart = state.view?.game === "french" ? (state.chelemAfterEcart ? "chelem" : "no_chelem") : null;
  continueDiscard();
}

function clearDiscard() {
  state.discardPick.clear();
  state.discardQueue = [];
  saveEcart();
  render();
}

function toggleChelem() {
  state.chelemAfterEcart = !state.chelemAfterEcart;
  render();
}

/** The écart goes one card per action; send the next chosen card when it is our turn again. */
function continueDiscard() {
  if (state.pending || !state.myTurn) return;
  const { cards, verb } = classify(state.view.legal_actions);
  if (!state.discardQueue.length) {
    // the écart laid aside, the chelem question comes: answered as chosen beside the écart
    const after = state.afterEcart;
    if (after && state.view.phase === "chelem") {
      state.afterEcart = null;
      state.chelemAfterEcart = false;
      if (state.view.legal_actions.includes(after)) act(after);
    } else if (verb !== "discard") state.afterEcart = null;
    return;
  }
  if (verb !== "discard") {
    state.discardQueue = [];
    return;
  }
  const card = state.discardQueue.shift();
  state.discardPick.delete(card);
  saveEcart();
  if (state.fixture) {
    const then = state.afterEcart ? ` · ${state.afterEcart}` : "";
    state.notice = `${t("conn.fixture", { name: state.fixture })}: discard ${[card, ...state.discardQueue].join(" ")}${then}`;
    state.discardQueue = [];
    state.afterEcart = null;
    return render();
  }
  act(cards.get(card) ?? `discard ${card}`);
}

function showResult() {
  let over = state.over;
  if (!over && state.view?.phase === "end") {
    const end = [...(state.view.events ?? [])].reverse().find((e) => e.kind === "end");
    over = { summary: end?.summary ?? null, scores: state.view.scores, totals: state.totals, deal_no: state.dealNo, outcome: "played" };
  }
  if (!over) return;
  showDealOver(state, over, { onNext: !state.fixture && state.token ? nextDeal : null });
}

const canDealNext = () => !state.fixture && Boolean(state.token);

async function nextDeal() {
  closeDialog();
  try {
    await api(`/api/tables/${encodeURIComponent(state.tableId)}/next`, { method: "POST", body: {}, token: state.token });
  } catch (error) {
    if (error.status === 409 && error.field === "state") return; // someone else dealt it already
    state.error = { message: error.message, rule: null };
    render();
  }
}

function offerSeat() {
  // offer the open seats once; again only when they change (a spectator may close the dialog)
  const open = JSON.stringify((state.table?.seats ?? []).filter((s) => s.kind === "open").map((s) => s.seat));
  if (document.getElementById("dialog").open || open === state.offered) return;
  state.offered = open;
  if (open === "[]") return; // a full table: the page watches (its banner says so)
  showChooseSeat(state, {
    defaultName: lastName(),
    onSit: async (seat, name) => {
      try {
        // the token this page holds goes along: the server refuses a second seat to one person
        const answer = await api(`/api/tables/${encodeURIComponent(state.tableId)}/seats/${seat}/claim`, { method: "POST", body: { name }, token: state.token });
        setLastName(name);
        rememberTable(state.tableId, { seat, token: answer.token, name, game: state.table?.game, players: state.table?.players, preset: state.table?.preset });
        state.token = answer.token;
        closeDialog();
        state.socket.reconnect(answer.token);
      } catch (error) {
        state.error = { message: error.message, rule: null };
        render();
      }
    },
  });
}

// ------------------------------------------------------------------ keyboard
function selectable() {
  const v = state.view;
  const { cards } = classify(state.myTurn ? v?.legal_actions : []);
  const order = handOrder(v);
  if (v?.game === "two_player") order.push(...(v.own_tops ?? []).filter(Boolean));
  return cards.size ? order.filter((c) => cards.has(c)) : order;
}

function onKey(event) {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.target instanceof HTMLButtonElement && (event.key === "Enter" || event.key === " ")) return; // the button's own
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const dlgOpen = $("dialog").open;
  if (event.key === "Escape") {
    if (dlgOpen) closeDialog();
    else clearDiscard();
    return;
  }
  if (dlgOpen) return;
  const cards = selectable();
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    if (!cards.length) return;
    const i = cards.indexOf(state.selected);
    const step = event.key === "ArrowLeft" ? -1 : 1;
    state.selected = cards[i < 0 ? (step > 0 ? 0 : cards.length - 1) : (i + step + cards.length) % cards.length];
    event.preventDefault();
    render();
  } else if (event.key === "Enter" || event.key === " ") {
    const { verb } = classify(state.myTurn ? state.view?.legal_actions : []);
    const full = verb === "discard" && state.discardNeeded > 0 && state.discardPick.size === state.discardNeeded;
    if (event.key === "Enter" && full) confirmDiscard(); // Enter lays the chosen cards aside
    else if (state.selected) pick(state.selected);
    event.preventDefault();
  } else if (/^[1-9]$/.test(event.key)) {
    const n = Number(event.key) - 1;
    if (state.keyed.length) {
      if (n < state.keyed.length) act(state.keyed[n]);
    } else if (n < cards.length) {
      state.selected = cards[n];
      render();
    }
  } else if (event.key === "p" && state.keyed.includes("pass")) act("pass");
  else if (event.key === "l") showPreviousTrick(state);
  else if (event.key === "h") askHint();
  else if (event.key === "s") showScores(state);
}

// ------------------------------------------------------------------ start
async function loadFixture(name) {
  state.fixture = name;
  $("conn").textContent = t("conn.fixture", { name });
  try {
    const response = await fetch(new URL(`fixtures/${encodeURIComponent(name)}.json`, import.meta.url));
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    const data = await response.json();
    state.refusals = data.refusals ?? {};
    state.tableId = data.messages?.[0]?.table?.table_id ?? name;
    for (const msg of data.messages ?? []) receive(msg);
    document.body.dataset.ready = "true";
  } catch (error) {
    state.error = { message: t("error.fixture", { name, message: error.message }), rule: null };
    render();
    document.body.dataset.ready = "error";
  }
}

function tableIdFromUrl() {
  const params = new URLSearchParams(location.search);
  if (params.get("table")) return params.get("table");
  const match = location.pathname.match(/\/t\/([^/]+)\/?$/);
  return match ? decodeURIComponent(match[1]) : null;
}

function setupBar() {
  $("btn-previous").textContent = t("button.previous");
  $("btn-scores").textContent = t("button.scores");
  $("btn-log").textContent = t("button.log");
  setPace("normal");
  $("btn-invite").textContent = t("invite");
  $("home").title = t("button.lobby");
  // what a screen reader names: the player's part of the page, the hand's cards, the log
  $("me").setAttribute("aria-label", t("a11y.me"));
  $("hand").setAttribute("aria-label", t("a11y.hand"));
  $("log").setAttribute("aria-label", t("button.log"));
  $("btn-previous").addEventListener("click", () => showPreviousTrick(state));
  $("btn-scores").addEventListener("click", () => showScores(state));
  $("btn-pace").addEventListener("click", () => {
    setPace(PACE_NAMES[(PACE_NAMES.indexOf(state.pace) + 1) % PACE_NAMES.length]);
    try {
      localStorage.setItem(`atout.pace:${state.tableId}`, state.pace);
    } catch {
      // not kept: the pace holds until the page is left
    }
  });
  $("btn-log").addEventListener("click", () => {
    $("log").hidden = !$("log").hidden;
    renderLog();
  });
  $("btn-invite").addEventListener("click", async () => {
    const link = `${location.origin}/t/${encodeURIComponent(state.tableId ?? "")}`;
    try {
      await navigator.clipboard.writeText(link);
      $("btn-invite").textContent = t("button.copied");
    } catch {
      window.prompt(t("invite"), link);
    }
    setTimeout(() => ($("btn-invite").textContent = t("invite")), 2000);
  });
  document.addEventListener("keydown", onKey);
  let resizing = null; // the hand's rows and the trick's spread depend on the window's size
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(render, 150);
  });
}

function start() {
  setupBar();
  const params = new URLSearchParams(location.search);
  const fixture = params.get("fixture");
  if (fixture) return loadFixture(fixture);
  state.tableId = tableIdFromUrl();
  if (!state.tableId) {
    state.error = { message: t("error.no_table"), rule: null };
    return render();
  }
  try {
    setPace(localStorage.getItem(`atout.pace:${state.tableId}`) ?? "normal");
  } catch {
    setPace("normal");
  }
  const entry = tableEntry(state.tableId);
  state.token = entry?.token ?? null;
  state.seat = entry?.seat ?? null;
  state.socket = new TableSocket(state.tableId, {
    token: state.token,
    onMessage: receive,
    onStatus: (s) => {
      $("conn").textContent = t(`conn.${s}`);
      $("conn").dataset.state = s;
      state.conn = s;
      if (s !== "online") state.synced = false;
      else if (state.resyncing) state.socket.lastSeq = null; // the answer to a resync may have been lost
      render();
    },
  });
  state.socket.open();
  render();
}

start();
