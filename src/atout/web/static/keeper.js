// The score keeper of a real table (docs/score-keeper.md): /score starts a sheet (the players, the
// rules), /score/<id> shows it. A deal is entered in a few taps (who took, the contract, bouts,
// points, the bonuses) and sent to the server, which checks and counts it by the rule book; the
// page shows what the server counted: the count term by term, the running totals and a graph.
// Only the phone holding the sheet's edit token may change it; the plain link reads it.

import { formulaText, verdictText } from "./dialogs.js";
import { api } from "./net.js";
import { h } from "./render.js";
import { STRINGS, t } from "./strings.js";
import { bidLabel, levelWord, misereWord } from "./words.js";

const main = document.getElementById("keeper");
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#e08a00"];
const DASHES = ["", "", "7 4", "2 4", "10 3 2 3"]; // equal totals draw one line over another: both stay seen
const TOKEN_KEY = (id) => `atout.sheet.${id}`;
const MINUS = "\u2212";
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `${MINUS}${-n}` : "0");

function savedToken(id) {
  try {
    return localStorage.getItem(TOKEN_KEY(id));
  } catch {
    return null;
  }
}

function saveToken(id, token) {
  try {
    localStorage.setItem(TOKEN_KEY(id), token);
  } catch {
    // a browser that keeps nothing edits for this visit only
  }
}

const MINE_KEY = "atout.sheets";

/** The sheets this browser keeps, newest first: ``{id, names, at}``. */
function mySheets() {
  try {
    const list = JSON.parse(localStorage.getItem(MINE_KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((s) => typeof s?.id === "string") : [];
  } catch {
    return [];
  }
}

function rememberSheet(sheet) {
  const list = [{ id: sheet.id, names: sheet.names, at: Date.now() }, ...mySheets().filter((s) => s.id !== sheet.id)];
  try {
    localStorage.setItem(MINE_KEY, JSON.stringify(list.slice(0, 20)));
  } catch {
    // nothing kept: the sheet's link still opens it
  }
}

function minePanel() {
  const list = mySheets();
  if (!list.length) return null;
  const items = list.map((s) => h("li", {}, h("a", { href: `/score/${encodeURIComponent(s.id)}`, text: (s.names ?? []).join(", ") || s.id }), " ", h("span", { class: "hint", text: new Date(s.at).toLocaleDateString(document.documentElement.lang) })));
  return h("section", { class: "panel", id: "mine-panel" }, h("h2", { text: t("keeper.mine") }), h("ul", { class: "my-sheets", id: "my-sheets" }, ...items));
}

// ---------------------------------------------------------------- small pieces

/** A row of buttons of which one is chosen; ``onPick(value)`` when one is tapped. */
function choices(field, options, chosen, onPick) {
  return h(
    "div",
    { class: "choices", role: "group", "data-field": field },
    ...options.map(([value, label]) =>
      h("button", {
        type: "button",
        class: `choice${value === chosen ? " on" : ""}`,
        "aria-pressed": value === chosen ? "true" : "false",
        "data-value": JSON.stringify(value),
        onclick: () => onPick(value),
        text: label,
      }),
    ),
  );
}

/** A titled part of the form, with the line where the server's refusal of that field is said. */
function section(name, title, ...content) {
  return h("fieldset", { class: "entry-part", "data-section": name }, h("legend", { text: title }), ...content, h("p", { class: "error field-error", role: "alert" }));
}

/** A refusal in words: the server's code and params (a field named by its label), else the field. */
function refusalWords(error) {
  const field = error.params?.field ?? baseField(error.field);
  const params = { ...(error.params ?? {}), field: `keeper.field.${field}` in STRINGS ? t(`keeper.field.${field}`) : t("keeper.field.deal") };
  const key = `keeper.error.${error.code}`;
  if (error.code && key in STRINGS) return t(key, params);
  if (error.code && `lobby.error.${error.code}` in STRINGS) return t(`lobby.error.${error.code}`, params);
  return t("keeper.error.field", params);
}

function baseField(path) {
  return String(path ?? "").replace(/^deal\./, "").split(/[.[]/)[0];
}

// ---------------------------------------------------------------- starting a sheet

async function startPage() {
  document.title = t("keeper.title");
  const games = await api("/api/games");
  const form = h("form", { id: "start", autocomplete: "off" });
  const state = { preset: "fft", players: 4, mode: "called_king" };
  const names = [];
  const draw = () => {
    const p = games.presets.find((x) => x.name === state.preset) ?? games.presets[0];
    if (!p.players.includes(state.players)) state.players = p.players.includes(4) ? 4 : p.players[0];
    const presetMenu = h("select", { id: "k-preset", name: "preset" });
    for (const x of games.presets) {
      const label = `preset.${x.name}` in STRINGS ? t(`preset.${x.name}`) : x.title;
      presetMenu.append(h("option", { value: x.name, text: label, selected: x.name === state.preset }));
    }
    presetMenu.addEventListener("change", () => {
      state.preset = presetMenu.value;
      draw();
    });
    const playerCount = choices("players", p.players.map((n) => [n, String(n)]), state.players, (n) => {
      state.players = n;
      draw();
    });
    const mode =
      state.players === 5 && p.game === "french"
        ? field(t("keeper.five"), choices("five_player_mode", [["called_king", t("keeper.five.called_king")], ["dead_player", t("keeper.five.dead_player")]], state.mode, (m) => {
            state.mode = m;
            draw();
          }))
        : null;
    const inputs = Array.from({ length: state.players }, (_, i) => {
      const input = h("input", { type: "text", id: `k-name-${i}`, maxlength: 40, value: names[i] ?? "", placeholder: t("seat.n", { n: i + 1 }), "aria-label": t("keeper.name", { n: i + 1 }) });
      input.addEventListener("input", () => {
        names[i] = input.value;
      });
      return h("div", { class: "name-row" }, input, h("span", { class: "error field-error", "data-error": `names.${i}`, role: "alert" }));
    });
    const parts = [
      field(t("lobby.preset"), presetMenu),
      field(t("lobby.players"), playerCount),
      mode,
      h("p", { class: "hint", text: t("keeper.names.order") }),
      h("div", { class: "names" }, ...inputs),
      h("p", { class: "error", id: "start-error", role: "alert" }),
      h("button", { type: "submit", class: "action primary big", id: "k-start", text: t("keeper.start") }),
    ];
    form.replaceChildren(...parts.filter((part) => part !== null));
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      names: Array.from({ length: state.players }, (_, i) => (names[i] ?? "").trim() || t("seat.n", { n: i + 1 })),
      preset: state.preset,
      options: state.players === 5 && state.mode === "dead_player" ? { five_player_mode: "dead_player" } : {},
    };
    try {
      const answer = await api("/api/sheets", { method: "POST", body });
      saveToken(answer.sheet_id, answer.token);
      location.href = answer.url;
    } catch (error) {
      const slot = form.querySelector(`[data-error="${error.field}"]`) ?? form.querySelector("#start-error");
      slot.textContent = error.code ? refusalWords(error) : error.message;
    }
  });
  draw();
  const parts = [h("section", { class: "panel" }, h("h2", { text: t("keeper.new") }), h("p", { class: "hint", text: t("keeper.about") }), form), minePanel()];
  main.replaceChildren(...parts.filter((part) => part !== null));
}

/** A labelled control of the start form: a menu inside its label, a row of buttons named by it. */
function field(label, control) {
  if (control.tagName === "SELECT") return h("label", { class: "field" }, h("span", { text: label }), control);
  control.setAttribute("aria-label", label);
  return h("div", { class: "field" }, h("span", { text: label, "aria-hidden": "true" }), control);
}

// ---------------------------------------------------------------- the sheet

const page = { sheet: null, token: null, editing: null, entry: null };

/** The names as the table's own words read them (dialogs.js): each seat its player's name. */
function people() {
  return { seat: null, table: { seats: page.sheet.names.map((name, seat) => ({ seat, kind: "human", name })) } };
}

const nameOf = (seat) => page.sheet.names[seat] ?? "";

async function sheetPage(id) {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("edit");
  if (fromLink) {
    saveToken(id, fromLink);
    history.replaceState(null, "", location.pathname + location.search);
  }
  page.token = savedToken(id);
  try {
    page.sheet = await api(`/api/sheets/${encodeURIComponent(id)}`);
  } catch (error) {
    document.title = t("keeper.title");
    main.replaceChildren(h("section", { class: "panel" }, h("h2", { text: t("keeper.missing") }), h("p", { text: t("keeper.missing.text") }), h("a", { href: "/score", class: "action-link", text: t("keeper.new") })));
    return;
  }
  if (page.token) rememberSheet(page.sheet);
  page.entry = blankEntry();
  drawSheet();
}

function blankEntry() {
  const s = page.sheet;
  if (s.game === "austrian") return { declarer: null, bid: "threesome", talon_half: 1, game_type: "36_or_more", points: null };
  if (s.players === 2) return { first_points: null, first_bouts: null, petit_au_bout: null, chelem_announced_by: null, chelem_won_by: null };
  // the partner stays unchosen (undefined) until tapped: "alone" is a choice, not a default
  return { taker: null, partner: undefined, dead: null, contract: null, oudlers: null, points: null, petit_au_bout: null, poignees: {}, chelem_announced: false, chelem_won_by: null, misere: {}, partial_announced: false, partial_made: false };
}

/** The entry of the form as a deal summary (rule book §9), for the server to check and count. */
function dealOf(e) {
  const s = page.sheet;
  if (s.game === "austrian") {
    return { declarer: e.declarer, bid: e.bid, talon_half: e.bid === "solo" ? null : e.talon_half, game_type: e.game_type, points: e.points };
  }
  if (s.players === 2) {
    const points = e.first_points === null ? null : [e.first_points, 91 - e.first_points];
    const oudlers = e.first_bouts === null ? null : [e.first_bouts, 3 - e.first_bouts];
    const deal = { points, oudlers, petit_au_bout: e.petit_au_bout };
    if (s.facts.two_player_chelem) deal.chelem = { announced_by: e.chelem_announced_by, won_by: e.chelem_won_by };
    return deal;
  }
  const deal = { taker: e.taker, contract: e.contract, oudlers: e.oudlers, points: e.points, petit_au_bout: e.petit_au_bout };
  if (s.facts.five_player_mode === "called_king") deal.partner = e.partner ?? null;
  if (s.facts.five_player_mode === "dead_player") deal.dead = e.dead;
  deal.poignees = Object.entries(e.poignees).map(([seat, level]) => ({ side: sideOf(e, Number(seat)), level, seat: Number(seat) }));
  deal.chelem = { announced: e.chelem_announced, won_by: e.chelem_won_by };
  if (s.facts.misere) deal.misere = Object.entries(e.misere).map(([seat, kind]) => ({ seat: Number(seat), kind }));
  if (s.facts.partial_slam) deal.partial_slam = { announced: e.partial_announced, made: e.partial_made };
  return deal;
}

function sideOf(e, seat) {
  return seat === e.taker || (e.partner !== null && e.partner !== undefined && seat === e.partner) ? "attack" : "defense";
}

/** A choice the form needs before the deal can be sent, not given yet: its field, else null. */
function unchosen(e) {
  const five = page.sheet.facts.five_player_mode;
  if (five === "called_king" && e.partner === undefined) return "partner";
  if (five === "dead_player" && e.dead === null) return "dead";
  return null;
}

/** The form filled with a deal of the sheet, to edit it. */
function entryOf(summary) {
  const s = page.sheet;
  const e = blankEntry();
  if (s.game === "austrian") return { ...e, ...summary, talon_half: summary.talon_half ?? 1 };
  if (s.players === 2) {
    return { ...e, first_points: summary.points[0], first_bouts: summary.oudlers[0], petit_au_bout: summary.petit_au_bout ?? null, chelem_announced_by: summary.chelem?.announced_by ?? null, chelem_won_by: summary.chelem?.won_by ?? null };
  }
  return {
    ...e,
    taker: summary.taker,
    partner: summary.partner ?? null,
    dead: summary.dead ?? null,
    contract: summary.contract,
    oudlers: summary.oudlers,
    points: summary.points,
    petit_au_bout: summary.petit_au_bout ?? null,
    poignees: Object.fromEntries((summary.poignees ?? []).filter((p) => p.seat !== undefined && p.seat !== null).map((p) => [p.seat, p.level])),
    chelem_announced: summary.chelem?.announced ?? false,
    chelem_won_by: summary.chelem?.won_by ?? null,
    misere: Object.fromEntries((summary.misere ?? []).map((m) => [m.seat, m.kind])),
    partial_announced: summary.partial_slam?.announced ?? false,
    partial_made: summary.partial_slam?.made ?? false,
  };
}

function drawSheet() {
  const s = page.sheet;
  document.title = `${t("keeper.title")}: ${s.names.join(", ")}`;
  const parts = [totalsPanel(), graphPanel()];
  if (page.token) parts.push(entryPanel());
  parts.push(dealsPanel(), sharePanel());
  main.replaceChildren(...parts);
}

function gameName() {
  const s = page.sheet;
  const game = s.game === "austrian" ? t("game.austrian") : s.players === 2 ? t("game.two_player") : t("game.french");
  const preset = `preset.${s.preset}` in STRINGS ? t(`preset.${s.preset}`) : s.preset;
  const five = s.facts.five_player_mode ? ` · ${t(`keeper.five.${s.facts.five_player_mode}`)}` : "";
  if (s.game === "austrian" || s.preset !== "fft") return `${preset}${five}`;
  return s.players === 2 ? game : `${game}, ${t("keeper.players", { n: s.players })}${five}`;
}

function totalsPanel() {
  const s = page.sheet;
  const best = Math.max(...s.totals);
  const cells = s.names.map((name, seat) =>
    h(
      "div",
      { class: `total${s.deals.length && s.totals[seat] === best ? " lead" : ""}`, "data-seat": seat },
      h("span", { class: "swatch", style: `background:${COLORS[seat]}` }),
      h("span", { class: "who", text: name }),
      h("span", { class: `points${s.totals[seat] < 0 ? " neg" : ""}`, "data-total": seat, text: signed(s.totals[seat]) }),
    ),
  );
  return h(
    "section",
    { class: "panel totals-panel" },
    h("h2", { text: t("keeper.totals") }),
    h("p", { class: "hint", text: `${gameName()} · ${t("keeper.deals", { n: s.deals.length })}` }),
    h("div", { class: "totals", id: "totals" }, ...cells),
    page.token ? null : h("p", { class: "read-only", id: "read-only", text: t("keeper.read_only") }),
  );
}

/** The running totals as an SVG graph: one line per player, deal 0 at 0. */
function graphPanel() {
  const s = page.sheet;
  if (!s.deals.length) return h("section", { class: "panel", id: "graph-panel" }, h("h2", { text: t("keeper.graph") }), h("p", { class: "hint", text: t("keeper.graph.none") }));
  const W = 360;
  const H = 180;
  const pad = { l: 40, r: 8, t: 8, b: 22 };
  const series = s.names.map((_, seat) => [0, ...s.deals.map((d) => d.totals[seat])]);
  const all = series.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(0, ...all);
  const span = hi - lo || 1;
  const x = (i) => pad.l + ((W - pad.l - pad.r) * i) / s.deals.length;
  const y = (v) => pad.t + ((H - pad.t - pad.b) * (hi - v)) / span;
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph", id: "graph", role: "img" });
  svg.setAttribute("aria-label", t("keeper.graph.label", { n: s.deals.length }));
  svg.append(el("line", { x1: pad.l, x2: W - pad.r, y1: y(0), y2: y(0), class: "zero" }));
  for (const v of [hi, lo]) {
    if (v === 0) continue;
    const label = el("text", { x: pad.l - 4, y: y(v) + 4, "text-anchor": "end", class: "axis" });
    label.textContent = signed(v);
    svg.append(label);
  }
  const zero = el("text", { x: pad.l - 4, y: y(0) + 4, "text-anchor": "end", class: "axis" });
  zero.textContent = "0";
  svg.append(zero);
  const step = Math.max(1, Math.ceil(s.deals.length / 8));
  for (let i = step; i <= s.deals.length; i += step) {
    const label = el("text", { x: x(i), y: H - 6, "text-anchor": "middle", class: "axis" });
    label.textContent = String(i);
    svg.append(label);
  }
  series.forEach((values, seat) => {
    const line = el("polyline", { points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "), stroke: COLORS[seat], "stroke-dasharray": DASHES[seat], class: "series", "data-seat": seat });
    const title = el("title", {});
    title.textContent = `${s.names[seat]}: ${signed(values.at(-1))}`;
    line.append(title);
    svg.append(line);
  });
  const legend = h("div", { class: "legend" }, ...s.names.map((name, seat) => h("span", {}, h("span", { class: "swatch", style: `background:${COLORS[seat]}` }), name)));
  return h("section", { class: "panel", id: "graph-panel" }, h("h2", { text: t("keeper.graph") }), svg, legend);
}

function dealsPanel() {
  const s = page.sheet;
  const items = [...s.deals].reverse().map((d) => {
    const b = d.breakdown;
    const scores = h("div", { class: "deal-scores" }, ...s.names.map((name, seat) => h("span", { class: d.scores[seat] < 0 ? "neg" : "" }, h("span", { class: "who", text: name }), " ", h("b", { text: signed(d.scores[seat]) }))));
    const buttons = page.token
      ? h(
          "div",
          { class: "deal-buttons" },
          h("button", { type: "button", class: "action", "data-edit": d.n, onclick: () => startEdit(d), text: t("keeper.edit") }),
          d.n === s.deals.length ? h("button", { type: "button", class: "action", id: "undo", onclick: () => undo(d.n), text: t("keeper.undo") }) : null,
        )
      : null;
    return h(
      "li",
      { class: "deal", "data-deal": d.n },
      h("div", { class: "deal-head" }, h("b", { text: t("scores.deal", { n: d.n }) }), h("span", { class: "what", text: dealLine(d) }), h("span", { class: `verdict ${b.made ? "made" : "lost"}`, text: verdictText(people(), b) })),
      scores,
      h("details", { class: "count" }, h("summary", { text: t("end.formula") }), ...detailLines(d), h("p", { class: "formula", text: formulaText(people(), b) })),
      buttons,
    );
  });
  return h("section", { class: "panel", id: "deals-panel" }, h("h2", { text: t("keeper.deal_list") }), items.length ? h("ol", { class: "deals", id: "deals" }, ...items) : h("p", { class: "hint", text: t("scores.none") }));
}

/** "Ann: garde, 2 bouts, 49 points" — what a deal was, in words. */
function dealLine(d) {
  const b = d.breakdown;
  const sm = d.summary;
  if (b.game === "french") {
    const partner = b.partner !== null && b.partner !== undefined ? ` + ${nameOf(b.partner)}` : "";
    return t("keeper.line.french", { name: nameOf(b.taker) + partner, contract: bidLabel(b.contract), bouts: b.bouts, points: b.points });
  }
  if (b.game === "two_player") return t("keeper.line.two", { first: nameOf(0), second: nameOf(1), a: b.points[0], b: b.points[1] });
  const half = sm.talon_half ? ` ${sm.talon_half}` : "";
  return t("keeper.line.austrian", { name: nameOf(b.declarer), bid: bidLabel(b.bid) + half, game: t(b.game_type === "36_or_more" ? "end.game.1" : "end.game.2"), points: b.points });
}

function detailLines(d) {
  const b = d.breakdown;
  const lines = [];
  if (b.game === "french") {
    lines.push(t("end.detail.french", { name: nameOf(b.taker), contract: bidLabel(b.contract), multiplier: b.multiplier, points: b.points, bouts: b.bouts, needed: b.needed }));
    if (b.counted !== b.points) lines.push(t("end.detail.counted", { points: b.points, counted: b.counted }));
    if (b.dead !== null && b.dead !== undefined) lines.push(`${t("end.dead")}: ${nameOf(b.dead)}`);
  } else if (b.game === "austrian") {
    lines.push(t("end.detail.austrian", { name: nameOf(b.declarer), bid: bidLabel(b.bid), game: t(b.game_type === "36_or_more" ? "end.game.1" : "end.game.2"), points: b.points, total: b.total }));
  } else {
    b.points.forEach((p, seat) => lines.push(`${nameOf(seat)}: ${t("end.player_points", { name: "", points: p, bouts: b.bouts[seat] }).replace(/^: /, "")} (${t("end.needed")} ${b.needed[seat]})`));
  }
  if (d.summary.misere?.length) lines.push(`${t("end.misere")}: ${d.summary.misere.map((m) => `${nameOf(m.seat)} ${misereWord(m.kind)}`).join(", ")}`);
  return lines.map((text) => h("p", { class: "detail", text }));
}

function sharePanel() {
  const s = page.sheet;
  const link = new URL(s.url, location.origin).href;
  const copy = (text, button) => async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = t("keeper.copied");
    } catch {
      button.textContent = text;
    }
  };
  const readButton = h("button", { type: "button", class: "action", id: "copy-link", text: t("keeper.copy") });
  readButton.addEventListener("click", copy(link, readButton));
  const rows = [
    h("p", { class: "hint", text: t("keeper.share.read") }),
    h("div", { class: "share-row" }, h("input", { type: "text", readonly: true, id: "share-link", value: link, "aria-label": t("keeper.share") }), readButton),
  ];
  if (page.token) {
    const editLink = `${link}#edit=${page.token}`;
    const editButton = h("button", { type: "button", class: "action", id: "copy-edit-link", text: t("keeper.copy.edit") });
    editButton.addEventListener("click", copy(editLink, editButton));
    rows.push(h("p", { class: "hint", text: t("keeper.share.edit") }), h("div", { class: "share-row" }, editButton));
  }
  const base = `/api/sheets/${encodeURIComponent(s.id)}`;
  rows.push(
    h("div", { class: "share-row downloads" }, h("a", { class: "action-link", href: `${base}/export.csv`, download: `score-${s.id}.csv`, id: "csv", text: t("keeper.csv") }), h("a", { class: "action-link", href: `${base}/export.json`, download: `score-${s.id}.json`, id: "json", text: t("keeper.json") })),
    h("p", { class: "hint" }, h("a", { href: "/score", text: t("keeper.new") })),
  );
  return h("section", { class: "panel", id: "share-panel" }, h("h2", { text: t("keeper.share") }), ...rows);
}

// ---------------------------------------------------------------- entering a deal

function seatChoices(field, chosen, onPick, { extra = [], skip = [] } = {}) {
  const seats = page.sheet.names.map((name, seat) => [seat, name]).filter(([seat]) => !skip.includes(seat));
  return choices(field, [...seats, ...extra], chosen, onPick);
}

/** The points: a number pad (inputmode) and steps, with what the bouts need. */
function pointsControl(value, { max, onChange, needed }) {
  const input = h("input", { type: "text", inputmode: "decimal", id: "k-points", class: "points-input", value: value ?? "", "aria-label": t("keeper.field.points") });
  const set = (v) => {
    const clamped = Math.max(0, Math.min(max, v));
    input.value = String(clamped);
    onChange(clamped);
  };
  input.addEventListener("input", () => {
    const text = input.value.replace(",", ".").trim();
    onChange(text === "" ? null : Number(text));
  });
  const step = (d) => h("button", { type: "button", class: "action step", "data-step": d, onclick: () => set((Number(input.value.replace(",", ".")) || 0) + d), text: d > 0 ? `+${d}` : `${MINUS}${-d}` });
  return h("div", { class: "points-row" }, step(-5), step(-1), input, step(1), step(5), needed ? h("span", { class: "needed", id: "needed", text: needed }) : null);
}

function entryPanel() {
  const s = page.sheet;
  const e = page.entry;
  const redraw = () => {
    const old = document.getElementById("entry");
    const fresh = entryPanel();
    old.replaceWith(fresh);
  };
  const set = (key) => (value) => {
    e[key] = value;
    redraw();
  };
  const parts = [];
  if (s.game === "austrian") {
    parts.push(section("declarer", t("keeper.field.declarer"), seatChoices("declarer", e.declarer, set("declarer"))));
    parts.push(section("bid", t("keeper.field.bid"), choices("bid", ["threesome", "solo"].map((b) => [b, bidLabel(b)]), e.bid, set("bid"))));
    if (e.bid === "threesome") parts.push(section("talon_half", t("end.talon_half"), choices("talon_half", [[1, t("talon.first")], [2, t("talon.second")]], e.talon_half, set("talon_half"))));
    const games = [["36_or_more", t("end.game.1")], ...(s.facts.austrian_game2 ? [["35_or_less", t("end.game.2")]] : [])];
    parts.push(section("game_type", t("end.game_type"), choices("game_type", games, e.game_type, set("game_type"))));
    parts.push(section("points", t("keeper.field.points.declarer", { total: s.facts.austrian_total }), pointsControl(e.points, { max: s.facts.austrian_total, onChange: (v) => (e.points = v) })));
  } else if (s.players === 2) {
    const first = nameOf(0);
    const second = nameOf(1);
    parts.push(section("oudlers", t("keeper.field.bouts.of", { name: first }), choices("oudlers", [0, 1, 2, 3].map((n) => [n, String(n)]), e.first_bouts, set("first_bouts")), e.first_bouts === null ? null : h("p", { class: "hint", text: t("keeper.other.bouts", { name: second, n: 3 - e.first_bouts }) })));
    const other = h("p", { class: "hint", id: "other-points", text: e.first_points === null ? "" : t("keeper.other.points", { name: second, n: 91 - e.first_points }) });
    parts.push(
      section(
        "points",
        t("keeper.field.points.of", { name: first }),
        pointsControl(e.first_points, {
          max: 91,
          onChange: (v) => {
            e.first_points = v;
            other.textContent = v === null || Number.isNaN(v) ? "" : t("keeper.other.points", { name: second, n: 91 - v });
          },
        }),
        other,
      ),
    );
    parts.push(section("petit_au_bout", t("end.petit_au_bout"), seatChoices("petit_au_bout", e.petit_au_bout, set("petit_au_bout"), { extra: [[null, t("keeper.nobody")]] })));
    if (s.facts.two_player_chelem) {
      parts.push(
        section(
          "chelem",
          t("end.chelem"),
          h("p", { class: "hint", text: t("keeper.chelem.announced_by") }),
          seatChoices("chelem_announced_by", e.chelem_announced_by, set("chelem_announced_by"), { extra: [[null, t("keeper.nobody")]] }),
          h("p", { class: "hint", text: t("keeper.chelem.won_by") }),
          seatChoices("chelem_won_by", e.chelem_won_by, set("chelem_won_by"), { extra: [[null, t("keeper.nobody")]] }),
        ),
      );
    }
  } else {
    const five = s.facts.five_player_mode;
    parts.push(section("taker", t("keeper.field.taker"), seatChoices("taker", e.taker, set("taker"), { skip: e.dead === null ? [] : [e.dead] })));
    if (five === "dead_player") parts.push(section("dead", t("keeper.field.dead"), seatChoices("dead", e.dead, set("dead"), { skip: e.taker === null ? [] : [e.taker] })));
    parts.push(section("contract", t("keeper.field.contract"), choices("contract", s.facts.contracts.map((c) => [c, bidLabel(c)]), e.contract, set("contract"))));
    if (five === "called_king") parts.push(section("partner", t("keeper.field.partner"), seatChoices("partner", e.partner, set("partner"), { skip: e.taker === null ? [] : [e.taker], extra: [[null, t("keeper.alone")]] })));
    parts.push(section("oudlers", t("keeper.field.oudlers"), choices("oudlers", [0, 1, 2, 3].map((n) => [n, String(n)]), e.oudlers, set("oudlers"))));
    const needed = e.oudlers === null ? null : t("keeper.needed", { n: s.facts.needed[e.oudlers] });
    parts.push(section("points", t("keeper.field.points"), pointsControl(e.points, { max: 91, onChange: (v) => (e.points = v), needed })));
    parts.push(section("petit_au_bout", t("end.petit_au_bout"), choices("petit_au_bout", [[null, t("keeper.nobody")], ["attack", t("end.side.attack")], ["defense", t("end.side.defense")]], e.petit_au_bout, set("petit_au_bout"))));
    parts.push(bonusesPart(e, redraw));
  }
  const editing = page.editing;
  const submit = h("button", { type: "submit", class: "action primary big", id: "k-save", text: editing ? t("keeper.save", { n: editing }) : t("keeper.add") });
  const cancel = editing ? h("button", { type: "button", class: "action", id: "k-cancel", onclick: cancelEdit, text: t("keeper.cancel") }) : null;
  const form = h("form", { class: "entry", autocomplete: "off" }, ...parts, h("p", { class: "error", id: "entry-error", role: "alert" }), h("div", { class: "entry-buttons" }, submit, cancel));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send();
  });
  const title = editing ? t("keeper.editing", { n: editing }) : t("keeper.new_deal", { n: s.deals.length + 1 });
  return h("section", { class: `panel entry-panel${editing ? " editing" : ""}`, id: "entry" }, h("h2", { text: title }), form);
}

/** Poignées, chelem, misères and partial slam: folded away, as most deals have none. */
function bonusesPart(e, redraw) {
  const s = page.sheet;
  const inPlay = s.names.map((_, seat) => seat).filter((seat) => seat !== e.dead);
  const rows = inPlay.map((seat) => {
    const level = e.poignees[seat] ?? null;
    return h(
      "div",
      { class: "bonus-row" },
      h("span", { class: "who", text: nameOf(seat) }),
      choices(`poignee-${seat}`, [[null, "—"], ...["simple", "double", "triple"].map((l) => [l, levelWord(l)])], level, (v) => {
        if (v === null) delete e.poignees[seat];
        else e.poignees[seat] = v;
        redraw();
      }),
    );
  });
  const misere = s.facts.misere
    ? section(
        "misere",
        t("end.misere"),
        ...inPlay.map((seat) =>
          h(
            "div",
            { class: "bonus-row" },
            h("span", { class: "who", text: nameOf(seat) }),
            choices(`misere-${seat}`, [[null, "—"], ...s.facts.misere_kinds.map((k) => [k, misereWord(k)])], e.misere[seat] ?? null, (v) => {
              if (v === null) delete e.misere[seat];
              else e.misere[seat] = v;
              redraw();
            }),
          ),
        ),
      )
    : null;
  const toggle = (key, label) =>
    h("label", { class: "check" }, h("input", { type: "checkbox", "data-field": key, checked: e[key], onchange: (ev) => { e[key] = ev.target.checked; } }), label);
  const partial = s.facts.partial_slam ? section("partial_slam", t("keeper.field.partial_slam"), toggle("partial_announced", t("end.chelem.announced")), toggle("partial_made", t("keeper.made"))) : null;
  const open = Object.keys(e.poignees).length > 0 || e.chelem_announced || e.chelem_won_by !== null || Object.keys(e.misere).length > 0 || e.partial_announced || e.partial_made;
  const chelem = section(
    "chelem",
    t("end.chelem"),
    toggle("chelem_announced", t("keeper.chelem.announced")),
    h("p", { class: "hint", text: t("keeper.chelem.won_by") }),
    choices("chelem_won_by", [[null, t("keeper.nobody")], ["attack", t("end.side.attack")], ["defense", t("end.side.defense")]], e.chelem_won_by, (v) => {
      e.chelem_won_by = v;
      redraw();
    }),
  );
  return h("details", { class: "bonuses", id: "bonuses", open }, h("summary", { text: t("keeper.bonuses") }), section("poignees", t("keeper.field.poignees"), ...rows), chelem, misere, partial);
}

async function send() {
  const s = page.sheet;
  const form = document.querySelector("#entry form");
  form.querySelectorAll(".field-error, #entry-error").forEach((node) => (node.textContent = ""));
  const missingPart = unchosen(page.entry);
  if (missingPart) {
    showRefusal({ field: `deal.${missingPart}`, code: "missing_part", params: { field: missingPart } });
    return;
  }
  const deal = dealOf(page.entry);
  const path = page.editing ? `/api/sheets/${s.id}/deals/${page.editing}` : `/api/sheets/${s.id}/deals`;
  try {
    page.sheet = await api(path, { method: page.editing ? "PUT" : "POST", body: { version: s.version, deal }, token: page.token });
    page.editing = null;
    page.entry = blankEntry();
    drawSheet();
  } catch (error) {
    showRefusal(error);
  }
}

function showRefusal(error) {
  if (error.status === 409 && error.code === "sheet_changed") {
    const box = document.getElementById("entry-error");
    box.replaceChildren(t("keeper.changed"), " ", h("button", { type: "button", class: "action", id: "reload", onclick: reload, text: t("keeper.reload") }));
    return;
  }
  const base = baseField(error.field);
  const slot = document.querySelector(`#entry [data-section="${base}"] .field-error`) ?? document.getElementById("entry-error");
  if (base === "poignees" || base === "chelem" || base === "misere" || base === "partial_slam") document.getElementById("bonuses")?.setAttribute("open", "");
  slot.textContent = error.code ? refusalWords(error) : error.message;
  slot.scrollIntoView?.({ block: "center" });
}

/** Read the sheet again (another phone changed it); what is being entered stays. */
async function reload() {
  page.sheet = await api(`/api/sheets/${page.sheet.id}`);
  if (page.editing && page.editing > page.sheet.deals.length) page.editing = null;
  drawSheet();
}

function startEdit(d) {
  page.editing = d.n;
  page.entry = entryOf(d.summary);
  drawSheet();
  document.getElementById("entry").scrollIntoView?.({ block: "start" });
}

function cancelEdit() {
  page.editing = null;
  if (page.token) rememberSheet(page.sheet);
  page.entry = blankEntry();
  drawSheet();
}

async function undo(n) {
  if (!confirm(t("keeper.undo.confirm", { n }))) return;
  try {
    page.sheet = await api(`/api/sheets/${page.sheet.id}/deals/${n}`, { method: "DELETE", body: { version: page.sheet.version }, token: page.token });
    if (page.editing === n) cancelEdit();
    else drawSheet();
  } catch (error) {
    if (error.status === 409) await reload();
    document.getElementById("entry-error")?.replaceChildren(error.code ? refusalWords(error) : error.message);
  }
}

// ---------------------------------------------------------------- start

const id = /^\/score\/([^/]+)$/.exec(location.pathname)?.[1];
document.getElementById("keeper-title").textContent = t("keeper.title");
if (id) sheetPage(decodeURIComponent(id));
else startPage();
