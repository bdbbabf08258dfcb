// Words for what the view holds: seat names, action buttons, the event log.
import { cardShort } from "./cards.js";
import { t, STRINGS } from "./strings.js";

/** "french" or "austrian": which pack the cards of this view come from. */
export function packOf(view) {
  return view?.game === "austrian" ? "austrian" : "french";
}

/** A seat's name from the table info, "you" marked: a bot's persona named in the page's
 * language ("bot.name.3"), distinct at its table; a person's own name. */
export function seatName(state, seat, { mark = true } = {}) {
  if (seat === null || seat === undefined || seat < 0) return "";
  const info = state.table?.seats?.find((s) => s.seat === seat);
  let name;
  if (info?.kind === "bot" && info.persona) name = t(`bot.name.${info.persona}`);
  else name = info?.name || (info?.kind === "bot" ? botLabel(state, info.bot) : t("seat.n", { n: seat + 1 }));
  if (mark && seat === state.seat) name += ` (${t("you")})`;
  return name;
}

/** A bot seat's level for its badge ("Expert", "Strong", "Random"…), or "" for a person. */
export function botLevel(info) {
  if (info?.kind !== "bot" || !info.bot) return "";
  const key = `bot.level.${info.bot}`;
  return key in STRINGS ? t(key) : info.bot;
}

export function botLabel(state, bot) {
  const known = state.games?.bots?.find?.((b) => (b.bot ?? b.name) === bot);
  return known?.label ?? `${t("seat.bot")} ${bot ?? ""}`.trim();
}

/** A poignée's level in words ("simple", "double", "triple"). */
export function levelWord(level) {
  const key = `poignee.level.${level}`;
  return key in STRINGS ? t(key) : String(level ?? "");
}

/** A misère's kind in words. */
export function misereWord(kind) {
  const key = `misere.kind.${kind}`;
  return key in STRINGS ? t(key) : String(kind ?? "").replaceAll("_", " ");
}

/** An action's label for a button. */
export function actionLabel(action, pack = "french") {
  const key = `action.${action}`;
  if (key in STRINGS) return t(key);
  const [verb, card] = action.split(" ");
  if (verb === "call" && card) return t("action.call", { card: cardShort(card, pack) });
  return action.replaceAll("_", " ");
}

/** A bid's word as people say it ("garde_sans" → "Garde sans"). */
export function bidLabel(bid) {
  return actionLabel(bid);
}

/** One line of the log for an event (a wire event object). */
export function eventLine(state, event) {
  const pack = packOf(state.view);
  const name = seatName(state, event.seat);
  const card = event.card ? cardShort(event.card, pack) : "";
  switch (event.kind) {
    case "bid":
      return t("log.bid", { name, bid: event.bid === "pass" ? t("bid.pass") : bidLabel(event.bid) });
    case "chelem":
      return t("log.chelem", { name, announced: actionLabel(event.announced ? "chelem" : "no_chelem") });
    case "poignee":
      return t("log.poignee", { name, level: levelWord(event.level) });
    case "trick":
      return t("log.trick", { name, number: event.number + 1 });
    case "excuse_paid":
      return t("log.excuse_paid", { name, card });
    case "talon_shown":
    case "talon_seen":
    case "talon_taken":
      return t(`log.${event.kind}`, { name, half: event.half });
    case "game":
      return t("log.game", { name, game: actionLabel(event.game) });
    default: {
      const key = `log.${event.kind}`;
      return key in STRINGS ? t(key, { name, card }) : t("log.other", { kind: event.kind });
    }
  }
}
