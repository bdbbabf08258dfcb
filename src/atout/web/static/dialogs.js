// The table's dialogs: the end-of-deal breakdown, the score sheet, the last trick, taking a seat.
// Every number shown comes from the server (the deal summary, the scores, the table facts).

import { cardSvg } from "./cards.js";
import { h, seatAngle } from "./render.js";
import { t } from "./strings.js";
import { actionLabel, bidLabel, packOf, seatName } from "./words.js";

const dialog = () => document.getElementById("dialog");

/** Open the dialog with a title and content; returns its body. */
export function openDialog(title, ...content) {
  const dlg = dialog();
  const body = dlg.querySelector(".dialog-body");
  body.replaceChildren(
    h("h2", { text: title }),
    ...content,
    h("div", { class: "dialog-buttons" }, h("button", { type: "button", class: "action", onclick: () => closeDialog(), text: t("button.close") })),
  );
  dlg.dataset.kind = "";
  if (!dlg.open) {
    if (typeof dlg.showModal === "function") dlg.showModal();
    else dlg.setAttribute("open", "");
  }
  return body;
}

export function closeDialog() {
  const dlg = dialog();
  if (dlg.open) dlg.close();
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function scoreTable(state, rows, { totals, first = 1 } = {}) {
  const n = rows[0]?.length ?? totals?.length ?? 0;
  const head = h("tr", {}, h("th", { text: "" }), ...Array.from({ length: n }, (_, s) => h("th", { text: seatName(state, s) })));
  const body = rows.map((row, i) => h("tr", {}, h("th", { text: t("scores.deal", { n: i + first }) }), ...row.map((x) => h("td", { class: x < 0 ? "neg" : "", text: signed(x) }))));
  const foot = totals ? [h("tr", { class: "total" }, h("th", { text: t("scores.total") }), ...totals.map((x) => h("td", { class: x < 0 ? "neg" : "", text: signed(x) })))] : [];
  return h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, ...body, ...foot));
}

function facts(rows) {
  return h("dl", { class: "facts" }, ...rows.filter(Boolean).flatMap(([k, v]) => [h("dt", { text: k }), h("dd", { text: String(v) })]));
}

/** The breakdown of a finished deal, from the deal_over message (or the view's end event). */
export function showDealOver(state, over, { onNext } = {}) {
  const summary = over?.summary ?? null;
  const rows = [];
  const needed = state.table?.facts?.thresholds ?? null;
  if (over?.outcome && over.outcome !== "played") rows.push([t("end.result"), over.outcome]); // the engine's words
  if (summary?.game === "french" && Array.isArray(summary.points)) {
    summary.points.forEach((p, s) => rows.push([seatName(state, s), t("end.player_points", { name: "", points: p, bouts: summary.oudlers[s] }).replace(/^: /, "") + (needed ? ` (${t("end.needed")} ${needed[summary.oudlers[s]]})` : "")]));
    if (summary.petit_au_bout !== null && summary.petit_au_bout !== undefined) rows.push([t("end.petit_au_bout"), seatName(state, summary.petit_au_bout)]);
  } else if (summary?.game === "french") {
    rows.push([t("end.taker"), seatName(state, summary.taker)]);
    if (summary.partner !== undefined && summary.partner !== null && summary.partner !== summary.taker) rows.push([t("end.partner"), seatName(state, summary.partner)]);
    if (summary.dead !== undefined && summary.dead !== null) rows.push([t("end.dead"), seatName(state, summary.dead)]);
    rows.push([t("end.contract"), bidLabel(summary.contract)]);
    rows.push([t("end.bouts"), summary.oudlers]);
    rows.push([t("end.points"), summary.points + (needed ? ` / ${t("end.needed")} ${needed[summary.oudlers]}` : "")]);
    rows.push([t("end.petit_au_bout"), summary.petit_au_bout ? t(`end.side.${summary.petit_au_bout}`) : t("end.none")]);
    const poignees = (summary.poignees ?? []).map((p) => `${p.level} (${t(`end.side.${p.side}`)}${p.seat !== undefined && p.seat !== null ? `, ${seatName(state, p.seat)}` : ""})`);
    rows.push([t("end.poignee"), poignees.length ? poignees.join(", ") : t("end.none")]);
    const chelem = summary.chelem ?? {};
    const chelemText = [chelem.announced ? t("end.chelem.announced") : null, chelem.won_by ? t("end.chelem.won", { side: t(`end.side.${chelem.won_by}`) }) : null].filter(Boolean);
    rows.push([t("end.chelem"), chelemText.length ? chelemText.join(", ") : t("end.none")]);
    if (summary.misere?.length) rows.push([t("end.misere"), summary.misere.map((m) => `${seatName(state, m.seat)}: ${m.kind}`).join(", ")]);
  } else if (summary?.game === "austrian") {
    rows.push([t("end.declarer"), seatName(state, summary.declarer)]);
    rows.push([t("end.bid"), bidLabel(summary.bid)]);
    if (summary.talon_half) rows.push([t("end.talon_half"), t(summary.talon_half === 1 ? "talon.first" : "talon.second")]);
    rows.push([t("end.game_type"), actionLabel(summary.game_type)]);
    rows.push([t("end.points"), summary.points]);
  }
  const scores = over?.scores ?? state.view?.scores ?? [];
  const history = state.table?.history ?? [];
  const totals = over?.totals ?? state.totals ?? null;
  const content = [
    facts(rows),
    h("h3", { text: t("end.scores") }),
    scoreTable(state, [scores], { first: over?.deal_no ?? state.dealNo ?? 1 }),
    h("h3", { text: t("end.totals") }),
    history.length ? scoreTable(state, history, { totals }) : scoreTable(state, [], { totals }),
  ];
  const body = openDialog(t("end.title", { n: over?.deal_no ?? state.dealNo ?? "" }), ...content);
  dialog().dataset.kind = "end";
  if (onNext) {
    body.querySelector(".dialog-buttons").prepend(h("button", { type: "button", class: "action primary", onclick: onNext, text: t("end.next") }));
  }
}

/** The running score sheet. */
export function showScores(state) {
  const history = state.table?.history ?? [];
  const totals = state.totals ?? state.table?.totals ?? null;
  if (!history.length && !totals) return openDialog(t("scores"), h("p", { text: t("scores.none") }));
  return openDialog(t("scores"), scoreTable(state, history, { totals }));
}

/** The last finished trick, each card by its player. */
export function showPreviousTrick(state) {
  const tricks = state.view?.tricks ?? [];
  if (!tricks.length) return openDialog(t("trick.previous"), h("p", { text: t("trick.none") }));
  const last = tricks[tricks.length - 1];
  const pack = packOf(state.view);
  const area = h("div", { class: "trick previous" });
  for (const { seat, card } of last.plays) {
    const slot = h("div", { class: `trick-card${seat === last.winner ? " winner" : ""}` }, cardSvg(card, { pack }), h("span", { class: "who", text: seatName(state, seat) }));
    const a = (seatAngle(state, seat) * Math.PI) / 180;
    slot.style.left = `${50 + 28 * Math.cos(a)}%`;
    slot.style.top = `${50 - 26 * Math.sin(a)}%`;
    area.append(slot);
  }
  return openDialog(t("trick.previous"), area, h("p", { text: t("trick.won", { name: seatName(state, last.winner) }) }));
}

/** Choose an open seat at a table where this browser has none. */
export function showChooseSeat(state, { onSit, defaultName }) {
  const open = (state.table?.seats ?? []).filter((s) => s.kind === "open");
  if (!open.length) return openDialog(t("choose.title"), h("p", { text: t("choose.none") }));
  const name = h("input", { type: "text", id: "sit-name", maxlength: 40, value: defaultName ?? "", "aria-label": t("choose.name") });
  const buttons = open.map((s) => h("button", { type: "button", class: "action primary", onclick: () => onSit(s.seat, name.value.trim()), text: `${t("button.sit")}: ${t("seat.n", { n: s.seat + 1 })}` }));
  name.addEventListener("keydown", (event) => event.key === "Enter" && buttons[0].click());
  const body = openDialog(t("choose.title"), h("label", {}, h("span", { text: t("choose.name") }), name), h("div", { class: "buttons" }, ...buttons));
  name.focus();
  return body;
}
