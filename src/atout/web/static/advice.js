// Hints: the expert's advice at one's turn (docs/server.md, "Hints"). The page asks with
// {"type": "hint"}; the server answers this seat alone with the action and its reason (figures the
// bot computed over the deals it imagined from this seat's view), and tells everyone "Ann used a
// hint". Here: whether a hint may be asked, what it highlights, and its reason in plain words.

import { cardLabel, cardShort } from "./cards.js";
import { t } from "./strings.js";
import { actionLabel, packOf, seatName } from "./words.js";

const h = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  node.append(...children.filter(Boolean));
  return node;
};

/** Whether the host allows hints at this table and this seat may ask one now. */
export function canAskHint(state) {
  return Boolean(!state.fixture && state.myTurn && state.table?.settings?.hints === true && state.view?.phase !== "end");
}

/** The hint that answers the view shown now (same sequence number), or null. */
export function currentHint(state) {
  const hint = state.hint;
  return hint && state.myTurn && hint.seq === state.seq && hint.dealNo === state.dealNo ? hint : null;
}

/** The cards of the hand and the action words the hint points at (an écart: all its cards). */
export function hintedSet(state) {
  const hint = currentHint(state);
  const marked = new Set();
  if (!hint) return marked;
  marked.add(hint.action);
  const [verb, card] = hint.action.split(" ");
  if (card && (verb === "play" || verb === "discard" || verb === "show")) marked.add(card);
  for (const planned of hint.reason?.best?.[0]?.plan ?? []) marked.add(planned);
  return marked;
}

/** A value in points, signed: "+41", "−60". */
function points(value) {
  const n = Math.round(value);
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n)}`;
}

/** What the expert would do, in words: "the King of hearts", "Garde", an écart's cards. */
function actionWords(action, pack) {
  const [verb, card] = action.split(" ");
  if (card && (verb === "play" || verb === "discard" || verb === "show")) return cardLabel(card, pack);
  return actionLabel(action, pack);
}

/** The hint's reason in one or two plain sentences. */
export function adviceText(state, hint) {
  const pack = packOf(state.view);
  const reason = hint.reason ?? {};
  const best = reason.best ?? [];
  const first = best[0];
  const [verb] = hint.action.split(" ");
  let line;
  if (first?.plan?.length > 1) line = t("advice.ecart", { cards: first.plan.map((c) => cardShort(c, pack)).join(" ") });
  else if (verb === "play") line = t("advice.play", { card: actionWords(hint.action, pack) });
  else line = t("advice.choose", { action: actionWords(hint.action, pack) });
  if (reason.method === "rules" || !first) return `${line} ${t("advice.rules")}`;
  const worlds = first.worlds ?? reason.worlds;
  const key = reason.method === "search" ? "advice.search" : reason.measure === "standing" ? "advice.standing" : "advice.simulation";
  line += ` ${t(key, { value: points(first.value), worlds })}`;
  const next = best[1];
  if (next && !(first.plan?.length > 1)) line += ` ${t("advice.next", { action: actionWords(next.action, pack), value: points(next.value) })}`;
  return line;
}

/** The Hint button (key h) at one's turn, "thinking" while it is worked out, then the advice. */
export function renderAdvice(root, state, ask) {
  if (!canAskHint(state)) return;
  const hint = currentHint(state);
  const asked = state.hintAsked === state.seq;
  const box = h("div", { class: "advice" });
  if (!hint) {
    box.append(
      h(
        "button",
        { type: "button", class: "action ask-hint", disabled: asked, "aria-keyshortcuts": "h", title: t("advice.button.title"), onclick: ask },
        h("kbd", { text: "h" }),
        h("span", { text: asked ? t("advice.thinking") : t("advice.button") }),
      ),
    );
  } else box.append(h("p", { class: "advice-text", role: "note", text: adviceText(state, hint) }));
  root.append(box);
}

/** How many hints a seat used in the deal shown (told by the server as they are asked). */
export function hintCount(state, seat) {
  return (state.hintNotes ?? []).filter((note) => note.dealNo === state.dealNo && note.seat === seat).length;
}

/** The log's lines for the hints used in the deal shown: [index among the events, words]. */
export function hintLogLines(state) {
  return (state.hintNotes ?? [])
    .filter((note) => note.dealNo === state.dealNo)
    .map((note) => [note.at, note.seat === state.seat ? t("advice.used.you") : t("advice.used", { name: seatName(state, note.seat, { mark: false }) })]);
}

/** The end of a deal: "Hints used: Ann 2 · Bob 1", or null when nobody used one. */
export function hintsAtEnd(state, over) {
  const used = (over?.hints ?? []).map((n, seat) => [seat, n]).filter(([, n]) => n > 0);
  if (!used.length) return null;
  return t("advice.end", { list: used.map(([seat, n]) => `${seatName(state, seat)} ${n}`).join(" · ") });
}
