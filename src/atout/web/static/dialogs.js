// The table's dialogs: the end-of-deal breakdown, the score sheet, the last trick, taking a seat.
// Every number shown comes from the server (the deal summary, the scores, the table facts).

import { hintsAtEnd } from "./advice.js";
import { cardSvg } from "./cards.js";
import { h, seatAngle } from "./render.js";
import { t } from "./strings.js";
import { bidLabel, levelWord, misereWord, packOf, seatName } from "./words.js";

const dialog = () => document.getElementById("dialog");

/** Open the dialog with a title and content; returns its body. */
export function openDialog(title, ...content) {
  const dlg = dialog();
  const body = dlg.querySelector(".dialog-body");
  body.replaceChildren(
    // the dialog's name; the focus starts on it, so that a screen reader reads the dialog from its top
    h("h2", { id: "dialog-title", tabindex: "-1", text: title }),
    ...content,
    h("div", { class: "dialog-buttons" }, h("button", { type: "button", class: "action", onclick: () => closeDialog(), text: t("button.close") })),
  );
  dlg.dataset.kind = "";
  if (!dlg.open) {
    if (typeof dlg.showModal === "function") dlg.showModal();
    else dlg.setAttribute("open", "");
  }
  body.querySelector("#dialog-title").focus();
  return body;
}

export function closeDialog() {
  const dlg = dialog();
  if (dlg.open) dlg.close();
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function scoreTable(state, rows, { totals, first = 1, roles = null } = {}) {
  const n = rows[0]?.length ?? totals?.length ?? 0;
  const head = h("tr", {}, h("td", {}), ...Array.from({ length: n }, (_, s) => h("th", { text: seatName(state, s) })));
  const roleRow = roles ? [h("tr", { class: "roles" }, h("td", {}), ...roles.map((r) => h("td", { text: r })))] : [];
  const body = rows.map((row, i) => h("tr", {}, h("th", { text: t("scores.deal", { n: i + first }) }), ...row.map((x) => h("td", { class: x < 0 ? "neg" : "", text: signed(x) }))));
  const foot = totals ? [h("tr", { class: "total" }, h("th", { text: t("scores.total") }), ...totals.map((x) => h("td", { class: x < 0 ? "neg" : "", text: signed(x) })))] : [];
  return h("table", { class: "scores" }, h("thead", {}, head, ...roleRow), h("tbody", {}, ...body, ...foot));
}

const MINUS = "\u2212";
const num = (n) => (n < 0 ? `${MINUS}${-n}` : String(n));
const signedTerm = (n) => (n < 0 ? `${MINUS} ${-n}` : `+ ${n}`);
const sideWord = (side) => t(`end.side.${side}`);

/** Why a deal was cancelled, in words (the engine's outcome names the case and its seat), or null
 * for a deal played to its end. */
export function cancelledWords(state, outcome) {
  if (!outcome || outcome === "played") return null;
  const seat = /seat (\d+)/.exec(outcome);
  const name = seat ? seatName(state, Number(seat[1])) : "";
  if (outcome.startsWith("petit sec")) return t("log.petit_sec", { name });
  if (outcome.startsWith("excuse sec")) return t("log.excuse_sec", { name });
  return t("log.all_passed");
}

/** "Made by 10", "Lost by 24", "Bruno wins by 9": a deal's verdict in one line. */
export function verdictText(state, b) {
  if (!b) return t("end.verdict.cancelled");
  if (b.game === "two_player") return t("end.verdict.wins", { name: seatName(state, b.winner), n: b.margin });
  if (b.game === "austrian") return t(b.made ? "end.verdict.austrian.won" : "end.verdict.austrian.lost", { name: seatName(state, b.declarer) });
  if (b.made && b.margin === 0) return t("end.verdict.exact");
  return t(b.made ? "end.verdict.made" : "end.verdict.lost", { n: b.margin });
}

/** What the multiplied part of a term is, in figures: "(25 + 10) × 2", "10 × 2", "4 × 5". */
function termFigures(term) {
  switch (term.term) {
    case "contract":
      if (!term.contract) return `${term.base} + ${term.margin}`; // two players: nothing multiplied
      return `${term.sign < 0 ? MINUS : ""}(${term.base} + ${term.margin}) × ${term.multiplier}`;
    case "petit_au_bout":
      return term.multiplier === 1 ? num(term.value) : `${term.value < 0 ? MINUS : ""}${term.points} × ${term.multiplier}`;
    case "austrian_margin":
      return `${term.multiplier} × ${term.margin}`;
    default:
      return num(term.value);
  }
}

/** A term's name for a person: "Contract: garde", "Petit au bout, the defence", "Poignée double, Alice". */
function termLabel(state, term, b) {
  switch (term.term) {
    case "contract":
      return t("end.term.contract", { contract: b.game === "two_player" ? t("game.two_player") : bidLabel(term.contract) });
    case "petit_au_bout":
      return t("end.term.petit_au_bout.by", { side: term.side ? sideWord(term.side) : seatName(state, term.seat) });
    case "poignee":
      return t("end.term.poignee.by", { level: levelWord(term.level), who: term.seat !== null && term.seat !== undefined ? seatName(state, term.seat) : sideWord(term.side) });
    case "chelem":
      if (b.game === "two_player") return t("end.term.chelem.two");
      if (!term.made) return t("end.term.chelem.failed");
      return t(term.announced ? "end.term.chelem.announced_made" : "end.term.chelem.made");
    case "defense_chelem":
      return t("end.term.defense_chelem");
    case "partial_slam":
      return t("end.term.partial_slam");
    case "bid":
      return t("end.term.bid", { bid: bidLabel(term.bid) });
    case "austrian_margin":
      return t("end.term.austrian_margin.row");
    default:
      return term.term;
  }
}

/** The count in one line, as the rule book writes it:
 * "(25 contract + 10 margin) × 2 (garde) + 10 × 2 petit au bout + 20 poignée = 110 per defender". */
export function formulaText(state, b) {
  const parts = b.terms.map((term, i) => {
    let text;
    switch (term.term) {
      case "contract":
        text = `${term.base} ${t("end.term.base")} + ${term.margin} ${t("end.term.margin")}`;
        if (!term.contract) return text; // two players: nothing multiplied
        return `${term.sign < 0 ? MINUS : ""}(${text}) × ${term.multiplier} (${bidLabel(term.contract)})`;
      case "petit_au_bout":
        text = term.multiplier === 1 ? `${Math.abs(term.value)}` : `${term.points} × ${term.multiplier}`;
        return `${term.value < 0 ? MINUS : "+"} ${text} ${t("end.term.petit_au_bout")}`;
      case "poignee":
        return `${signedTerm(term.value)} ${t("end.term.poignee")}`;
      case "chelem":
      case "defense_chelem":
        return `${signedTerm(term.value)} ${t("end.term.chelem")}`;
      case "bid":
        return `${term.value} (${bidLabel(term.bid)})`;
      case "austrian_margin":
        return `+ ${term.multiplier} × ${term.margin} ${t("end.term.austrian_margin")}`;
      default:
        return i === 0 ? num(term.value) : `${signedTerm(term.value)} ${termLabel(state, term, b).toLowerCase()}`;
    }
  });
  const per = b.per === "defender" ? t("end.per.defender") : b.game === "austrian" ? t("end.per.winner") : t("end.per.winner.one");
  return `${parts.join(" ")} = ${num(b.unit)} ${per}`;
}

/** Who the unit goes to, in words: "Each defender pays the attack", "The attack pays each defender"... */
function totalLabel(b) {
  if (b.game === "two_player") return t("end.total.winner");
  if (b.game === "austrian") {
    if (b.per === "winner") return t("end.total.austrian");
    return t(b.unit >= 0 === b.made ? "end.total.pays.declarer" : "end.total.receives.declarer");
  }
  return t(b.unit >= 0 ? "end.total.pays" : "end.total.receives");
}

function termsTable(state, b) {
  const rows = b.terms.map((term) =>
    h("tr", {}, h("th", { text: termLabel(state, term, b) }), h("td", { class: "figures", text: termFigures(term) }), h("td", { class: term.value < 0 ? "neg" : "", text: signed(term.value) })),
  );
  const value = b.game === "french" ? Math.abs(b.unit) : b.unit;
  rows.push(h("tr", { class: "sum" }, h("th", { text: totalLabel(b) }), h("td", { class: "figures", text: "" }), h("td", { text: String(value) })));
  return h("table", { class: "scores terms" }, h("tbody", {}, ...rows));
}

function detailLines(state, over, b) {
  const s = over?.summary;
  const lines = [];
  if (b?.game === "french") {
    let line = t("end.detail.french", { name: seatName(state, b.taker), contract: bidLabel(b.contract), multiplier: b.multiplier, points: b.points, bouts: b.bouts, needed: b.needed });
    if (b.counted !== b.points) line += ` · ${t("end.detail.counted", { points: b.points, counted: b.counted })}`;
    if (b.rounded_margin !== b.margin) line += ` · ${t("end.detail.rounded", { margin: b.margin, rounded: b.rounded_margin })}`;
    lines.push(line);
    if (b.partner !== null && b.partner !== undefined && b.partner !== b.taker) lines.push(`${t("end.partner")}: ${seatName(state, b.partner)}`);
    if (b.dead !== null && b.dead !== undefined) lines.push(`${t("end.dead")}: ${seatName(state, b.dead)}`);
  } else if (b?.game === "two_player") {
    b.points.forEach((p, seat) => lines.push(`${seatName(state, seat)}: ${t("end.player_points", { name: "", points: p, bouts: b.bouts[seat] }).replace(/^: /, "")} (${t("end.needed")} ${b.needed[seat]})`));
  } else if (b?.game === "austrian") {
    const game = t(b.game_type === "36_or_more" ? "end.game.1" : "end.game.2");
    let line = t("end.detail.austrian", { name: seatName(state, b.declarer), bid: bidLabel(b.bid), game, points: b.points, total: b.total });
    if (b.talon_half) line += ` · ${t("end.talon_half")}: ${t(b.talon_half === 1 ? "talon.first" : "talon.second")}`;
    if (!b.made) line += ` · ${t("end.detail.austrian.winners", { points: b.winners_points })}`;
    lines.push(line);
  } else if (s === null || s === undefined) {
    const cancelled = cancelledWords(state, over?.outcome);
    if (cancelled) lines.push(cancelled);
  }
  if (s?.misere?.length) lines.push(`${t("end.misere")}: ${s.misere.map((m) => `${seatName(state, m.seat)} ${misereWord(m.kind)}`).join(", ")}`);
  return lines.map((text) => h("p", { class: "detail", text }));
}

/** The breakdown of a finished deal (deal_over, a state between deals, or the view's end event):
 * the verdict, the count term by term, each seat's share, and the session sheet beside it. */
export function showDealOver(state, over, { onNext } = {}) {
  const b = over?.breakdown ?? null;
  const told = b || cancelledWords(state, over?.outcome) !== null; // a played deal told without its breakdown has no verdict
  const explained = [...(told ? [h("p", { class: `verdict ${b && !b.made ? "lost" : "made"}`, text: verdictText(state, b) })] : []), ...detailLines(state, over, b)];
  if (b) explained.push(h("h3", { text: t("end.formula") }), h("p", { class: "formula", text: formulaText(state, b) }), termsTable(state, b));
  const hintsUsed = hintsAtEnd(state, over);
  if (hintsUsed) explained.push(h("p", { class: "hints-used", text: hintsUsed }));
  const scores = over?.scores ?? state.view?.scores ?? [];
  const roles = b ? b.shares.map((sh) => t(`end.role.${sh.role}`) + (sh.times !== null && sh.times !== undefined && Math.abs(sh.times) > 1 ? ` · ${t("end.times", { times: sh.times, unit: Math.abs(b.unit) })}` : "")) : null;
  const history = state.table?.history ?? [];
  const totals = over?.totals ?? state.totals ?? null;
  const sheet = [
    h("h3", { text: t("end.scores") }),
    scoreTable(state, [scores], { first: over?.deal_no ?? state.dealNo ?? 1, roles }),
    h("h3", { text: t("end.totals") }),
    scoreTable(state, history, { totals }),
  ];
  const body = openDialog(t("end.title", { n: over?.deal_no ?? state.dealNo ?? "" }), h("div", { class: "end-grid" }, h("div", { class: "end-explained" }, ...explained), h("div", { class: "end-sheet" }, ...sheet)));
  const dlg = dialog();
  dlg.dataset.kind = "end";
  dlg.dataset.deal = String(over?.deal_no ?? state.dealNo ?? "");
  if (onNext) {
    body.querySelector(".dialog-buttons").prepend(h("button", { type: "button", class: "action primary", "data-next": "", onclick: onNext, text: t("end.next") }));
  }
  const table = state.table?.table_id;
  if (table) body.querySelector(".dialog-buttons").append(h("a", { class: "action", "data-replay": "", href: `/t/${encodeURIComponent(table)}/deals/${over?.deal_no ?? state.dealNo}`, text: t("replay.link") }));
}

/** Keep the end-of-deal dialog in step with the table after each message: opened once when a deal
 * is over (also after a reload between deals), closed as soon as another deal is on. */
export function followDeal(state, { onNext } = {}) {
  const dlg = dialog();
  const over = state.view?.phase === "end" ? state.over : null;
  if (!over) {
    if (dlg.dataset.kind === "end" && dlg.open) closeDialog();
    return;
  }
  const no = String(over.deal_no ?? state.dealNo ?? "");
  if (state.shownDeal === no) return;
  state.shownDeal = no;
  if (dlg.open && dlg.dataset.kind !== "end") return; // another dialog the person opened stays
  showDealOver(state, over, { onNext });
}

/** The running score sheet. */
export function showScores(state) {
  const history = state.table?.history ?? [];
  const totals = state.totals ?? state.table?.totals ?? null;
  if (!history.length && !totals) return openDialog(t("scores"), h("p", { text: t("scores.none") }));
  const table = state.table?.table_id;
  const replays = table ? h("p", {}, h("a", { class: "action", "data-replays": "", href: `/t/${encodeURIComponent(table)}/deals`, text: t("replay.session") })) : null;
  return openDialog(t("scores"), scoreTable(state, history, { totals }), replays);
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
  const watch = h("button", { type: "button", class: "action", onclick: () => closeDialog(), text: t("watch.just") });
  const body = openDialog(t("choose.title"), h("label", {}, h("span", { text: t("choose.name") }), name), h("div", { class: "buttons" }, ...buttons, watch));
  name.focus();
  return body;
}
