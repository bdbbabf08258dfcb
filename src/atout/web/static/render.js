// Drawing the table from the state: the seats around the felt, the trick in the middle, what is
// shown face up (chien, talon halves, poignées, 2-player piles), the hand and the controls.
// Nothing here decides a rule: what may be played comes from view.legal_actions.

import { BOUTS, cardLabel, cardShort, cardSvg, sortHand } from "./cards.js";
import { t } from "./strings.js";
import { actionLabel, bidLabel, botLevel, levelWord, packOf, seatName } from "./words.js";
import { hintCount } from "./advice.js";

const h = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
};
export { h };

/** The card actions, the calls and the other actions among the legal ones. */
export function classify(legal = []) {
  const cards = new Map();
  const calls = [];
  const buttons = [];
  let verb = null;
  for (const action of legal) {
    const [word, card] = action.split(" ");
    if ((word === "play" || word === "discard" || word === "show") && card) {
      cards.set(card, action);
      verb = word;
    } else if (word === "call" && card) calls.push(action);
    else buttons.push(action);
  }
  return { cards, calls, buttons, verb };
}

/** Whether this page watches without a seat: its view is the public one (seat null). */
export function watching(state) {
  return Boolean(state.view && state.view.seat === null && !state.fixture);
}

/** A watched seat's cards in hand, as backs with their count: the cards dealt less those it
 * played (the 2-player hands and a dead player's are not drawn). */
function handBacks(state, seat) {
  const v = state.view;
  const size = state.table?.facts?.hand_size;
  if (!watching(state) || !size || v.game === "two_player" || v.phase === "end") return null;
  if (v.rules?.five_player_mode === "dead_player" && seat === v.dealer) return null;
  let played = (v.trick ?? []).filter((p) => p.seat === seat).length;
  for (const trick of v.tricks ?? []) played += trick.plays.filter((p) => p.seat === seat).length;
  const n = Math.max(0, size - played);
  return h("div", { class: "backs", role: "img", "aria-label": t("watch.cards", { name: seatName(state, seat), n }) }, cardSvg(null, { back: true }), h("span", { class: "count", text: String(n) }));
}

/** Where a seat sits around the table, as an angle (degrees, 0 = right, 90 = top). */
export function seatAngle(state, seat) {
  const n = state.table?.players ?? state.view?.players ?? state.view?.rules?.players ?? 4;
  const me = state.seat ?? 0;
  const rel = (((seat - me) % n) + n) % n;
  const clockwise = state.view?.rules?.play_direction === "clockwise";
  return -90 + (clockwise ? -1 : 1) * ((rel * 360) / n);
}

function place(node, angle, rx, ry) {
  const a = (angle * Math.PI) / 180;
  node.style.left = `${50 + rx * Math.cos(a)}%`;
  node.style.top = `${50 - ry * Math.sin(a)}%`;
}

function seatCount(state) {
  return state.table?.players ?? state.view?.rules?.players ?? (state.view?.game === "two_player" ? 2 : 4);
}

function role(state, seat) {
  const v = state.view;
  if (!v) return null;
  if (v.game === "austrian") return v.declarer === seat ? t("seat.declarer") : null;
  if (v.taker === seat) return t("seat.taker");
  if (v.partner === seat && v.partner !== v.taker) return t("seat.partner");
  return null;
}

function lastBid(view, seat) {
  const bids = (view?.bids ?? []).filter((b) => b.seat === seat);
  return bids.length ? bids[bids.length - 1].bid : null;
}

// ------------------------------------------------------------------ the felt
export function renderSeats(root, state) {
  root.replaceChildren();
  const n = seatCount(state);
  const v = state.view;
  for (let seat = 0; seat < n; seat++) {
    const info = state.table?.seats?.find((s) => s.seat === seat) ?? {};
    const chips = [];
    if (v && v.dealer === seat) chips.push(h("span", { class: "chip dealer", title: t("seat.dealer"), text: t("seat.dealer.short") }));
    const r = role(state, seat);
    if (r) chips.push(h("span", { class: "chip role", text: r }));
    if (v && v.phase === "bidding") {
      const bid = lastBid(v, seat);
      if (bid) chips.push(h("span", { class: `chip bid${bid === "pass" ? " pass" : ""}`, text: bidLabel(bid) }));
    }
    for (const p of v?.poignees ?? []) {
      if (p.seat === seat) chips.push(h("span", { class: "chip poignee", text: t("poignee.shown", { name: "", level: levelWord(p.level) }).replace(/^: /, "") }));
    }
    if (info.kind === "bot") chips.push(h("span", { class: "chip bot", title: t("bot.badge.title", { level: botLevel(info) }), text: botLevel(info) }));
    if (info.replaced_by_bot) chips.push(h("span", { class: "chip away", text: t("seat.replaced") }));
    else if (info.kind === "human" && info.connected === false) chips.push(h("span", { class: "chip away", text: t("seat.away") }));
    if (info.kind === "open") chips.push(h("span", { class: "chip open", text: t("seat.open") }));
    const hintsUsed = hintCount(state, seat);
    if (hintsUsed) chips.push(h("span", { class: "chip hints-used", title: t("advice.chip.title"), text: t("advice.chip", { n: hintsUsed }) }));
    const turn = v && v.current_player === seat;
    const node = h(
      "div",
      { class: `seat${turn ? " turn" : ""}${seat === state.seat ? " me" : ""}`, "data-seat": seat },
      h("div", { class: "seat-name", text: seatName(state, seat) }),
      h("div", { class: "chips" }, ...chips),
      handBacks(state, seat),
    );
    place(node, seatAngle(state, seat), seat === state.seat ? 0 : 43, 41);
    root.append(node);
  }
  keepInside(root.children, root.parentElement);
}

/** Slide absolutely placed boxes back inside their container, so that no name is cut at an edge. */
function keepInside(nodes, container) {
  if (!container?.clientWidth) return;
  const box = container.getBoundingClientRect();
  const margin = 4;
  for (const node of nodes) {
    const r = node.getBoundingClientRect();
    let dx = 0;
    let dy = 0;
    if (r.left < box.left + margin) dx = box.left + margin - r.left;
    else if (r.right > box.right - margin) dx = box.right - margin - r.right;
    if (r.top < box.top + margin) dy = box.top + margin - r.top;
    else if (r.bottom > box.bottom - margin) dy = box.bottom - margin - r.bottom;
    if (dx) node.style.left = `${r.left + r.width / 2 + dx - box.left}px`;
    if (dy) node.style.top = `${r.top + r.height / 2 + dy - box.top}px`;
  }
}

export function renderInfo(root, state) {
  root.replaceChildren();
  const v = state.view;
  if (!v) return;
  const pack = packOf(v);
  const ended = watching(state) && v.phase === "end" && Boolean(state.over?.hands);
  root.classList.toggle("watching-end", ended);
  if (watching(state)) root.append(h("div", { class: "watching-banner", text: t(ended ? "watch.banner_end" : "watch.banner") }));
  const parts = [t(`phase.${v.phase}`)];
  if (v.game === "french" && v.taker !== null && v.taker !== undefined && v.contract) {
    let line = t("contract.line", { name: seatName(state, v.taker), contract: bidLabel(v.contract) });
    if (v.called_card) line += ` · ${t("contract.called", { card: cardShort(v.called_card, pack) })}`;
    if (v.chelem_announced) line += ` · ${t("chelem.announced")}`;
    parts.push(line);
  }
  if (v.game === "two_player" && v.chelem_announced_by !== null && v.chelem_announced_by !== undefined) {
    parts.push(t("chelem.announced_by", { name: seatName(state, v.chelem_announced_by) }));
  }
  if (v.game === "austrian" && v.declarer !== null && v.declarer !== undefined && v.bid) {
    let line = t("contract.line", { name: seatName(state, v.declarer), contract: bidLabel(v.bid) });
    if (v.talon_half) line += ` · ${t(v.talon_half === 1 ? "talon.first" : "talon.second")}`;
    if (v.game_type) line += ` · ${actionLabel(v.game_type)}`;
    parts.push(line);
  }
  root.append(h("div", { class: "info-line", text: parts.join(" — ") }));
  const rows = h("div", { class: "shown" });
  const shown = (label, names) => {
    const cards = h("div", { class: "mini-cards" });
    for (const c of sortHand(names)) cards.append(cardSvg(c, { pack }));
    rows.append(h("div", { class: "shown-row" }, h("span", { class: "label", text: label }), cards));
  };
  if ((v.tricks?.length ?? 0) === 0 && ["chelem", "play", "poignee", "excuse_sec", "misere"].includes(v.phase)) {
    // until the first trick is over: what was turned up or laid aside, and the poignées shown
    if (v.game === "french" && v.chien) shown(t("chien"), v.chien);
    const aside = v.game === "austrian" ? v.discard : v.ecart;
    const mine = v.seat === (v.game === "austrian" ? v.declarer : v.taker);
    if (aside?.length) shown(t(mine ? (v.game === "austrian" ? "discard" : "ecart") : "ecart.shown"), aside);
    for (const p of v.poignees ?? []) shown(t("poignee.shown", { name: seatName(state, p.seat), level: levelWord(p.level) }), p.cards);
  }
  if (ended) {
    // the deal is over and public: every hand as it was dealt
    state.over.hands.forEach((hand, seat) => hand.length && shown(t("watch.dealt", { name: seatName(state, seat) }), hand));
  }
  if (rows.childElementCount) root.append(rows);
}

function cardGroup(label, names, pack, count = 3) {
  const cards = h("div", { class: `group-cards${(names?.length ?? count) > 4 ? " wide" : ""}` });
  if (names) for (const c of sortHand(names)) cards.append(cardSvg(c, { pack }));
  else for (let i = 0; i < count; i++) cards.append(cardSvg(null, { back: true }));
  return h("div", { class: "group" }, h("div", { class: "label", text: label }), cards);
}

/** The angle of each seat's card in the trick: toward its seat (two players: on a slant, so that
 * the two cards sit side by side below the piles). */
function trickAngle(state, seat) {
  return seatAngle(state, seat) + (seatCount(state) === 2 ? 20 : 0);
}

function overlapArea(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Each card of the trick toward its player, as close to the middle as it may be while no card
 * covers another, a seat or the piles: the place of
 * every seat's card is fixed for the trick (an ellipse through all the seats' angles), no two
 * touch, and the cards get smaller only when the table is too small for them.
 */
function layoutTrick(root, slots, state) {
  const W = root.clientWidth;
  const H = root.clientHeight;
  const first = slots[0][0].firstChild.getBoundingClientRect();
  if (!W || !H || !first.width) return;
  const ratio = first.height / first.width;
  const origin = root.getBoundingClientRect();
  const obstacles = [...document.querySelectorAll("#seats .seat, #opp-piles:not([hidden]) .pile-row, #opp-piles:not([hidden]) .label")].map((n) => {
    const r = n.getBoundingClientRect();
    return { x: r.left - origin.left - 3, y: r.top - origin.top - 3, w: r.width + 6, h: r.height + 6 };
  });
  const n = seatCount(state);
  const angles = Array.from({ length: n }, (_, seat) => (trickAngle(state, seat) * Math.PI) / 180);
  const rectsFor = (rx, ry, w, h) =>
    angles.map((a) => ({ x: W / 2 + rx * Math.cos(a) - w / 2, y: H / 2 - ry * Math.sin(a) - h / 2, w, h }));
  const fits = (rects) => {
    for (let i = 0; i < rects.length; i++) {
      const r = rects[i];
      if (r.x < 0 || r.y < 0 || r.x + r.w > W || r.y + r.h > H) return false;
      for (const o of obstacles) if (overlapArea(r, o) > 0) return false;
      for (let j = i + 1; j < rects.length; j++) if (overlapArea(grown(r, gap), rects[j]) > 0) return false;
    }
    return true;
  };
  const gap = 4;
  const grown = (r, d) => ({ x: r.x - d, y: r.y - d, w: r.w + 2 * d, h: r.h + 2 * d });
  let best = null;
  for (let scale = 1; scale > 0.5 && !best; scale -= 0.08) {
    const w = first.width * scale;
    const h = w * ratio;
    const steps = 24;
    for (let i = 0; i <= steps; i++) {
      for (let j = 0; j <= steps; j++) {
        const rx = ((W - w) / 2) * (i / steps);
        const ry = ((H - h) / 2) * (j / steps);
        const cost = rx / W + ry / H; // as near the middle as the cards allow
        if (best && cost >= best.cost) continue;
        const rects = rectsFor(rx, ry, w, h);
        if (fits(rects)) best = { cost, rects, w };
      }
    }
  }
  if (!best) {
    // a table too small for any layout: the cards as small as allowed, spread to the edges
    const w = first.width * 0.5;
    best = { rects: rectsFor((W - w) / 2, (H - w * ratio) / 2, w, w * ratio), w };
  }
  for (const [slot, seat] of slots) {
    const r = best.rects[seat];
    slot.style.left = `${r.x + r.w / 2}px`;
    slot.style.top = `${r.y + r.h / 2}px`;
    slot.firstChild.style.width = `${best.w}px`;
  }
}

export function renderCenter(root, state) {
  root.replaceChildren();
  const v = state.view;
  if (!v) return;
  const pack = packOf(v);
  let plays = v.trick ?? [];
  let winner = null;
  if (!plays.length && state.held) {
    plays = state.held.plays;
    winner = state.held.winner;
  }
  if (plays.length) {
    const trick = h("div", { class: `trick${winner !== null ? " done" : ""}` });
    const slots = [];
    plays.forEach(({ seat, card }, i) => {
      const svg = cardSvg(card, { pack });
      svg.setAttribute("aria-label", t("log.play", { name: seatName(state, seat), card: cardLabel(card, pack) })); // who played it, for a screen reader
      const slot = h("div", { class: `trick-card${seat === winner ? " winner" : ""}${i === 0 ? " led" : ""}`, "data-seat": seat }, svg);
      // the first card of the trick: who led it
      if (i === 0) slot.append(h("span", { class: "led-badge", text: t("trick.led") }));
      slots.push([slot, seat]);
      trick.append(slot);
    });
    root.append(trick);
    layoutTrick(root, slots, state);
    return;
  }
  const groups = h("div", { class: "groups" });
  if (v.game === "french" && v.chien && ["discard", "call"].includes(v.phase)) {
    groups.append(cardGroup(t("chien"), v.chien, pack));
  }
  if (v.game === "austrian" && ["talon", "discard", "game"].includes(v.phase)) {
    groups.append(cardGroup(t("talon.first"), v.first_half, pack));
    groups.append(cardGroup(t("talon.second"), v.second_half, pack));
  }
  if (groups.childElementCount) root.append(groups);
}

/** The 2-player piles: the opponent's across the table, one's own above the hand. */
export function renderPiles(oppRoot, ownRoot, state, actions) {
  oppRoot.replaceChildren();
  ownRoot.replaceChildren();
  const v = state.view;
  if (v?.game !== "two_player") {
    oppRoot.hidden = ownRoot.hidden = true;
    return;
  }
  oppRoot.hidden = ownRoot.hidden = false;
  const { cards } = classify(state.myTurn ? v.legal_actions : []);
  const draw = (root, tops, sizes, own) => {
    for (let i = 0; i < tops.length; i++) {
      const size = sizes[i] ?? 0;
      const top = tops[i];
      const pile = h("div", { class: `pile${size === 0 ? " empty" : ""}`, "data-size": size });
      if (size > 1 || (size === 1 && !top)) pile.append(h("div", { class: "under" }, cardSvg(null, { back: true })));
      if (size > 0) {
        const svg = top ? cardSvg(top) : cardSvg(null, { back: true });
        const face = h("div", { class: "top" }, svg);
        if (own && top && cards.size) {
          face.classList.add(cards.has(top) ? "legal" : "illegal");
          face.addEventListener("click", (event) => actions.pick(top, event));
          if (state.selected === top) face.classList.add("selected");
        }
        pile.append(face);
      }
      pile.append(h("span", { class: "pile-size", text: String(size) }));
      root.append(pile);
    }
  };
  const opp = seatCount(state) === 2 ? 1 - (state.seat ?? 0) : null;
  oppRoot.append(h("div", { class: "label", text: t("piles.opponent", { name: seatName(state, opp) }) }));
  const oppRow = h("div", { class: "pile-row" });
  draw(oppRow, v.opponent_tops, v.opponent_pile_sizes, false);
  oppRoot.append(oppRow);
  const ownRow = h("div", { class: "pile-row" });
  draw(ownRow, v.own_tops, v.own_pile_sizes, true);
  ownRoot.append(ownRow);
}

// ------------------------------------------------------------------ the hand
/** The cards of the hand in display order (the 2-player pile tops are drawn with the piles). */
export function handOrder(view) {
  return sortHand(view?.hand ?? []);
}

export function renderHand(root, state, actions) {
  // the keyboard stays in the hand across a redraw: the focus goes back to the card chosen
  const focused = root.contains(document.activeElement);
  const byKeyboard = Boolean(root.querySelector(".slot:focus-visible"));
  const v = state.view;
  if (!v) {
    drawnHands.delete(root);
    return root.replaceChildren();
  }
  const pack = packOf(v);
  const { cards, verb } = classify(state.myTurn ? v.legal_actions : []);
  root.classList.toggle("acting", cards.size > 0);
  root.setAttribute("aria-multiselectable", verb === "discard" ? "true" : "false");
  const order = handOrder(v);
  const choosable = (c) => (cards.size ? cards.has(c) : order.includes(c));
  if (byKeyboard && !choosable(state.selected)) state.selected = order.find((c) => cards.has(c)) ?? order[0] ?? null;
  const current = order.includes(state.selected) ? state.selected : order.find((c) => cards.has(c)) ?? order[0];
  // the hand as last drawn (another seat's move): left as it is, and the keyboard's focus with it,
  // so that a screen reader does not read the focused card again
  const drawn = JSON.stringify([order, [...cards.keys()], verb, [...state.discardPick], state.selected, [...(state.hinted ?? [])], pack, root.clientWidth]);
  if (drawnHands.get(root) === drawn && root.childElementCount) return;
  drawnHands.set(root, drawn);
  root.replaceChildren();
  const slots = [];
  for (const name of order) {
    const svg = cardSvg(name, { pack });
    // one card of the hand is reached by Tab (the chosen one, else the first playable), the arrows move on
    const slot = h("div", { class: "slot", role: "option", tabindex: name === current ? "0" : "-1", "data-card": name }, svg);
    if (cards.size) {
      slot.classList.add(cards.has(name) ? "legal" : "illegal");
      slot.setAttribute("aria-disabled", cards.has(name) ? "false" : "true");
    }
    if (verb === "discard" && state.discardPick.has(name)) slot.classList.add("picked");
    if (state.selected === name) slot.classList.add("selected");
    if (state.hinted?.has(name)) slot.classList.add("hinted");
    slot.setAttribute("aria-selected", String(verb === "discard" ? state.discardPick.has(name) : state.selected === name));
    slot.addEventListener("focus", () => chooseByKeyboard(root, slot, state, verb));
    slot.addEventListener("click", (event) => actions.pick(name, event));
    slots.push(slot);
  }
  // one row, or two when the cards would overlap so much that their corners get hard to read
  // (each card must show more than half its width)
  const row = h("div", { class: "hand-row" }, ...slots);
  root.append(row);
  const cardWidth = slots[0]?.firstChild?.getBoundingClientRect().width ?? 0;
  const room = root.clientWidth - 8;
  if (slots.length > 8 && cardWidth && (room - cardWidth) / (slots.length - 1) < cardWidth * 0.52) {
    const half = Math.ceil(slots.length / 2);
    root.replaceChildren(h("div", { class: "hand-row" }, ...slots.slice(0, half)), h("div", { class: "hand-row" }, ...slots.slice(half)));
    root.classList.add("two-rows");
  } else root.classList.remove("two-rows");
  if (focused) {
    restoringFocus = true; // the focus given back chooses nothing (the chosen card may be a 2-player pile's)
    slots.find((slot) => slot.tabIndex === 0)?.focus({ preventScroll: true });
    restoringFocus = false;
  }
}

let restoringFocus = false;
const drawnHands = new WeakMap(); // each hand's root → what it shows (the key of its last drawing)

/** A card reached by Tab becomes the chosen one, as the arrows choose it (a tap or a click chooses
 * by its own handler, so that a first tap only raises a card). */
function chooseByKeyboard(root, slot, state, verb) {
  if (restoringFocus || !slot.matches(":focus-visible") || state.selected === slot.dataset.card) return;
  state.selected = slot.dataset.card;
  for (const other of root.querySelectorAll(".slot")) {
    other.classList.toggle("selected", other === slot);
    other.tabIndex = other === slot ? 0 : -1;
    if (verb !== "discard") other.setAttribute("aria-selected", String(other === slot));
  }
}

// ------------------------------------------------------------------ the controls
export function renderControls(root, state, actions) {
  root.replaceChildren();
  const v = state.view;
  if (!v) return;
  const pack = packOf(v);
  const facts = state.table?.facts ?? null;
  const { cards, calls, buttons, verb } = classify(state.myTurn ? v.legal_actions : []);
  const keyed = [];
  const button = (action, extra) => {
    const n = keyed.length + 1;
    const b = h(
      "button",
      { type: "button", class: `action${action === "pass" ? " pass" : ""}${state.hinted?.has(action) ? " hinted" : ""}`, "data-action": action, onclick: () => actions.act(action) },
      n <= 9 ? h("kbd", { text: String(n) }) : null,
      h("span", { text: actionLabel(action, pack) }),
      extra ?? null,
    );
    keyed.push(action);
    return b;
  };
  if (verb === "discard") {
    const needed = Math.max(0, (v.chien?.length ?? v.first_half?.length ?? 3) - ((v.ecart ?? v.discard ?? []).length));
    state.discardNeeded = needed;
    root.append(
      h("div", { class: "hint", text: `${t("hint.discard", { n: needed })} · ${t("hint.discard_more", { chosen: state.discardPick.size, n: needed })}` }),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", class: "action primary", disabled: state.discardPick.size !== needed, onclick: () => actions.confirmDiscard(), text: t("hint.discard_confirm") }),
        h("button", { type: "button", class: "action", disabled: state.discardPick.size === 0, onclick: () => actions.clearDiscard(), text: t("hint.discard_clear") }),
        // the chelem is decided right after the écart: offered here, "no chelem" unless pressed
        v.game === "french"
          ? h("button", {
              type: "button",
              class: `action toggle${state.chelemAfterEcart ? " on" : ""}`,
              "aria-pressed": state.chelemAfterEcart ? "true" : "false",
              onclick: () => actions.toggleChelem(),
              text: t("hint.chelem_toggle"),
            })
          : null,
      ),
    );
  }
  if (calls.length) {
    root.append(h("div", { class: "hint", text: t("hint.call") }));
    const row = h("div", { class: "buttons calls" });
    for (const action of calls) {
      const card = action.split(" ")[1];
      const b = button(action, cardSvg(card, { pack }));
      b.classList.add("call");
      row.append(b);
    }
    root.append(row);
  }
  if (buttons.length) {
    const bidding = v.phase === "bidding";
    const hintKey =
      verb === "show"
        ? "hint.show"
        : { bidding: "hint.bid", talon: "hint.talon", game: "hint.game", poignee: "hint.poignee", misere: "hint.misere", chelem: "hint.chelem_offer" }[v.phase];
    const hints = [];
    if (hintKey) hints.push(t(hintKey));
    if (bidding && facts?.thresholds && v.game === "french") {
      const bouts = (v.hand ?? []).filter((c) => BOUTS.includes(c)).length;
      hints.push(t("hint.bouts", { bouts, points: facts.thresholds[bouts] }));
    }
    if (v.phase === "poignee" && facts?.poignee_levels) {
      hints.push(t("hint.poignee_levels", { levels: facts.poignee_levels.join(" / ") }));
    }
    if (hints.length) root.append(h("div", { class: "hint", text: hints.join(" · ") }));
    const row = h("div", { class: `buttons${v.phase === "chelem" ? " discreet" : ""}` });
    for (const action of buttons) {
      const contract = facts?.contracts?.find?.((c) => c.name === action);
      const extra = contract ? h("span", { class: "mult", text: t("multiplier", { m: contract.multiplier }) }) : null;
      row.append(button(action, extra));
    }
    root.append(row);
  }
  if (verb === "play" && cards.size) root.append(h("div", { class: "hint", text: t(touchScreen() ? "hint.play_touch" : "hint.play") }));
  state.keyed = keyed;
}

/** Whether the page is live: a fixture, or a connection that is open (while it is lost, nobody's
 * turn is shown and no card may be clicked). */
export function connected(state) {
  // after a reconnection the view is the old one until what the hello brings has come (synced)
  return Boolean(state.fixture) || !state.conn || (state.conn === "online" && state.synced !== false);
}

/** A phone or a tablet: no arrows and no Enter, a finger on the cards. */
export function touchScreen() {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
}

export function statusText(state) {
  const v = state.view;
  if (!connected(state)) return t(state.conn === "online" ? "conn.connecting" : `conn.${state.conn}`);
  if (!v) return state.table?.state === "waiting" ? t("turn.waiting_players") : "";
  if (v.phase === "end" || v.current_player < 0) return t("turn.over");
  if (state.myTurn) return t("turn.yours");
  return t("turn.waiting", { name: seatName(state, v.current_player) });
}
