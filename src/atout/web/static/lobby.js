// The lobby: create a table (rules preset, player count, options, a bot or an open seat for each
// other place, one's name), share its invite link, and list this browser's tables.

import { cardSvg } from "./cards.js";
import { api } from "./net.js";
import { h } from "./render.js";
import { forgetTable, lastName, myTables, rememberTable, setLastName } from "./store.js";
import { STRINGS, t } from "./strings.js";

const $ = (id) => document.getElementById(id);
/** The page's words for ``key`` when it has them, else the server's ``fallback`` (a preset or bot it does not know). */
const known = (key, fallback) => (key in STRINGS ? t(key) : fallback);
let games = null;

function presetOf(name) {
  return games.presets.find((p) => p.name === name) ?? games.presets[0];
}

function field(label, control, doc, slot) {
  return h("label", { class: "field" }, h("span", { text: label }), control, doc ? h("span", { class: "doc", text: doc }) : null, slot ?? null);
}

/** Where a field's problem is said: under the field itself. */
function errorSlot() {
  return h("span", { class: "error field-error", role: "alert" });
}

/** An option's words: its label, what it means, and each value's name ("option.<name>" keys). */
function optionWords(option) {
  const key = `option.${option.name}`;
  return {
    label: key in STRINGS ? t(key) : option.name.replaceAll("_", " "),
    doc: `${key}.doc` in STRINGS ? t(`${key}.doc`) : option.doc,
  };
}

function valueLabel(option, value) {
  const key = `option.${option.name}.${value}`;
  if (key in STRINGS) return t(key);
  if (typeof value === "boolean") return t(value ? "lobby.yes" : "lobby.no");
  return String(value).replaceAll("_", " ");
}

/** A field's problem as the server names it (code and params), in words. */
function problemWords(code, params, path) {
  const name = /(^|\.)name$/.test(path ?? "") ? "name." : "";
  for (const key of [`lobby.error.${name}${code}`, `lobby.error.${code}`]) {
    if (key in STRINGS) return t(key, params ?? {});
  }
  return t("lobby.error.invalid");
}

function select(name, choices, value) {
  const node = h("select", { name, id: `f-${name}` });
  for (const [v, label] of choices) node.append(h("option", { value: v, text: label, selected: String(v) === String(value) }));
  return node;
}

/** The value an option starts at under a preset: the preset's, else the default. */
function startValue(option, p) {
  return option.name in (p.options ?? {}) ? p.options[option.name] : option.default;
}

function optionControl(option, value) {
  const id = `opt-${option.name}`;
  if (option.type.startsWith("bool")) return h("input", { type: "checkbox", id, "data-option": option.name, checked: value === true });
  if (option.values && option.values.length) {
    const node = select(option.name, option.values.map((v) => [JSON.stringify(v), valueLabel(option, v)]), JSON.stringify(value));
    node.id = id;
    node.dataset.option = option.name;
    return node;
  }
  if (option.type.startsWith("int")) return h("input", { type: "number", id, "data-option": option.name, value: value ?? "", step: 1 });
  return null; // options held as objects (thresholds tables) keep their preset value
}

function readOption(node) {
  if (node.type === "checkbox") return node.checked;
  if (node.tagName === "SELECT") return JSON.parse(node.value);
  return node.value === "" ? null : Number(node.value);
}

function buildForm() {
  const form = $("create");
  form.replaceChildren();
  const p0 = games.presets[0];
  const presetSel = select("preset", games.presets.map((p) => [p.name, known(`preset.${p.name}`, p.title ?? p.name)]), p0.name);
  const presetDoc = h("p", { class: "preset-doc" });
  const playersSel = select("players", [], 4);
  const seats = h("div", { class: "seats" });
  const name = h("input", { type: "text", id: "f-name", maxlength: 40, value: lastName() || t("lobby.name.default") });
  const options = h("div", { class: "option-list" });
  const error = h("div", { class: "error", role: "alert" });
  // each field's problem is said under it: "preset", "players", "name", "seats.N", "options.<name>"
  const slots = { preset: errorSlot(), players: errorSlot(), name: errorSlot(), seats: errorSlot(), hints: errorSlot() };
  const allowHints = h("input", { type: "checkbox", id: "f-hints", checked: true });

  const botChoices = [["open", t("lobby.seat.open")], ...games.bots.map((b) => [`bot:${b.bot}`, t("lobby.seat.bot", { label: `${known(`bot.label.${b.bot}`, b.label)} (${known(`bot.time.${b.bot}`, b.time)})` })])];
  const drawSeats = () => {
    const n = Number(playersSel.value);
    const before = [...seats.querySelectorAll("select")].map((s) => s.value);
    seats.replaceChildren(h("div", { class: "seat-row" }, h("span", { text: t("seat.n", { n: 1 }) }), h("span", { text: t("lobby.seat.you") })));
    for (let s = 1; s < n; s++) {
      const sel = select(`seat-${s}`, botChoices, before[s - 1] ?? "bot:expert:fast");
      slots[`seats.${s}`] = errorSlot();
      seats.append(h("div", { class: "seat-row" }, h("label", { for: sel.id, text: t("seat.n", { n: s + 1 }) }), sel, slots[`seats.${s}`]));
    }
  };
  const drawOptions = () => {
    const p = presetOf(presetSel.value);
    options.replaceChildren();
    const austrian = (p.game ?? p.options?.game) === "austrian";
    for (const option of games.options) {
      if (option.name === "game" || option.name === "players") continue;
      if (option.name.startsWith("austrian_") !== austrian) continue; // each game's own options
      const control = optionControl(option, startValue(option, p));
      if (!control) continue;
      const words = optionWords(option);
      slots[`options.${option.name}`] = errorSlot();
      options.append(h("label", { class: "option", for: control.id }, h("span", { class: "option-name", text: words.label }), control, h("span", { class: "doc", text: words.doc }), slots[`options.${option.name}`]));
    }
  };
  const onPreset = () => {
    const p = presetOf(presetSel.value);
    presetDoc.textContent = known(`preset.${p.name}.about`, p.description ?? "");
    const allowed = p.players ?? [4];
    const keep = Number(playersSel.value);
    playersSel.replaceChildren(...allowed.map((n) => h("option", { value: n, text: String(n) })));
    playersSel.value = String(allowed.includes(keep) ? keep : allowed.includes(4) ? 4 : allowed[0]);
    drawSeats();
    drawOptions();
  };
  presetSel.addEventListener("change", onPreset);
  playersSel.addEventListener("change", drawSeats);

  form.append(
    field(t("lobby.preset"), presetSel, null, slots.preset),
    presetDoc,
    field(t("lobby.players"), playersSel, null, slots.players),
    field(t("lobby.name"), name, null, slots.name),
    h("h3", { text: t("lobby.seats") }),
    seats,
    slots.seats,
    field(t("advice.allow"), allowHints, t("advice.allow.doc"), slots.hints),
    h("details", { class: "options" }, h("summary", { text: t("lobby.options") }), options),
    error,
    h("button", { type: "submit", class: "action primary", id: "f-submit", text: t("lobby.submit") }),
  );
  onPreset();

  /** Say a problem under its field (the nearest one the path names), or above the button. */
  const showProblem = (path, code, params, message) => {
    const parts = (path ?? "").split(".");
    const where = path === "seats.0.name" ? "name" : [parts.slice(0, 2).join("."), parts[0]].find((k) => k in slots);
    if (!where || !code) {
      error.textContent = message;
      return;
    }
    slots[where].textContent = problemWords(code, params, path);
    if (where.startsWith("options.")) options.closest("details").open = true;
    slots[where].parentElement?.querySelector("input, select")?.focus();
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    for (const slot of Object.values(slots)) slot.textContent = "";
    const p = presetOf(presetSel.value);
    const chosen = {};
    for (const node of options.querySelectorAll("[data-option]")) {
      const option = games.options.find((o) => o.name === node.dataset.option);
      const value = readOption(node);
      if (value === null && option.type.startsWith("int") && !option.type.includes("null")) {
        showProblem(`options.${option.name}`, "whole_number", {}); // an emptied number: said at once
        return;
      }
      if (JSON.stringify(value) !== JSON.stringify(startValue(option, p))) chosen[option.name] = value;
    }
    const me = name.value.trim() || t("lobby.name.default");
    setLastName(me);
    const seatList = [{ kind: "human", name: me }];
    for (const sel of seats.querySelectorAll("select")) {
      seatList.push(sel.value === "open" ? { kind: "open" } : { kind: "bot", bot: sel.value.slice(4) });
    }
    const body = { preset: p.name, players: Number(playersSel.value), options: chosen, seats: seatList, sit: 0, hints: allowHints.checked };
    try {
      $("f-submit").disabled = true;
      const answer = await api("/api/tables", { method: "POST", body });
      rememberTable(answer.table_id, { seat: answer.seat, token: answer.token, name: me, preset: p.name, players: body.players, game: p.game, created: Date.now() });
      const url = new URL(answer.url ?? `/t/${answer.table_id}`, location.origin).href;
      if (seatList.some((s) => s.kind === "open")) showCreated(url);
      else location.href = url;
      drawMine();
    } catch (e) {
      showProblem(e.field, e.code, e.params, e.field ? t("lobby.error.form") : e.message);
    } finally {
      $("f-submit").disabled = false;
    }
  });
}

function showCreated(url) {
  const link = h("input", { type: "text", readonly: true, value: url, "aria-label": t("invite") });
  const copy = h("button", { type: "button", class: "action", text: t("button.copy") });
  copy.addEventListener("click", async () => {
    link.select();
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      document.execCommand?.("copy");
    }
    copy.textContent = t("button.copied");
  });
  $("created").replaceChildren(h("div", { class: "created" }, h("span", { text: t("lobby.created") }), link, copy, h("a", { class: "action primary", href: url, text: t("lobby.mine.open") })));
}

function drawMine() {
  const list = $("mine");
  const tables = myTables();
  if (!tables.length) {
    list.replaceChildren(h("li", { text: t("lobby.mine.none") }));
    return;
  }
  list.replaceChildren(
    ...tables.map((entry) => {
      const when = entry.created ? new Date(entry.created).toLocaleString() : "";
      const state = h("span", { class: "when", text: [entry.preset, entry.players ? t("lobby.mine.players", { n: entry.players }) : "", when].filter(Boolean).join(" · ") });
      const forget = h("button", { type: "button", class: "action", text: t("lobby.mine.forget") });
      forget.addEventListener("click", () => {
        forgetTable(entry.table_id);
        drawMine();
      });
      api(`/api/tables/${encodeURIComponent(entry.table_id)}`)
        .then((info) => (state.textContent += ` · ${t("scores.deal", { n: info.deal_no ?? "?" })} · ${info.state ?? ""}`))
        .catch(() => {});
      return h("li", {}, h("a", { href: `/t/${encodeURIComponent(entry.table_id)}`, text: entry.table_id }), state, forget);
    }),
  );
}

async function start() {
  $("logo").append(cardSvg("T21"));
  $("lobby-subtitle").textContent = t("lobby.subtitle");
  $("create-title").textContent = t("lobby.create");
  $("mine-title").textContent = t("lobby.mine");
  $("keeper-link").textContent = t("lobby.keeper");
  $("rules-link").textContent = t("rulebook.title");
  drawMine();
  $("create").append(h("p", { text: t("lobby.loading") }));
  try {
    games = await api("/api/games");
    buildForm();
  } catch (e) {
    $("create").replaceChildren(h("p", { class: "error", text: t("error.network", { message: e.message }) }));
  }
  document.body.dataset.ready = "true";
}

start();
