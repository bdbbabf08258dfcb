// The page's language: the one chosen in the menu (remembered by this browser), else the first
// of the browser's languages that atout speaks, else English. Its words come from the server's
// copy of the gettext catalogue "page" (/i18n/<lang>.json: strings.js key → text); English is
// strings.js itself, so an English page loads nothing more.

export const LANGUAGES = { en: "English", fr: "Français", cs: "Čeština", ja: "日本語", zh: "中文" };
const KEY = "atout.lang";

function normalize(tag) {
  const code = String(tag ?? "").toLowerCase().split(/[-_.@]/)[0];
  return code in LANGUAGES ? code : null;
}

function chosen() {
  try {
    return normalize(localStorage.getItem(KEY));
  } catch {
    return null;
  }
}

function pick() {
  const fromUrl = normalize(new URLSearchParams(location.search).get("lang"));
  if (fromUrl) return fromUrl;
  const remembered = chosen();
  if (remembered) return remembered;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = normalize(tag);
    if (code) return code;
  }
  return "en";
}

async function load(lang) {
  if (lang === "en") return {};
  try {
    const response = await fetch(`/i18n/${lang}.json`);
    return response.ok ? await response.json() : {};
  } catch {
    return {};
  }
}

/** The page's language code. */
export const LANG = pick();
/** The words of that language: strings.js key → text (the keys it lacks stay English). */
export const CATALOG = await load(LANG);
document.documentElement.lang = LANG;

/** Speak ``lang`` from now on: remembered, and the page is shown again in it. */
export function setLanguage(lang) {
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // a browser that keeps nothing still switches for this page
  }
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  if (normalize(lang) !== normalize(new URLSearchParams(location.search).get("lang"))) {
    url.searchParams.set("lang", lang);
  }
  location.replace(url.href);
}

/** The language menu: each language named in itself. */
export function languageMenu() {
  const menu = document.createElement("select");
  menu.id = "lang";
  menu.className = "lang";
  menu.setAttribute("aria-label", "Language · Langue · Jazyk · 言語 · 语言");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.selected = code === LANG;
    menu.append(option);
  }
  menu.addEventListener("change", () => setLanguage(menu.value));
  return menu;
}

// every page offers the menu at the end of its header
const header = document.querySelector("body > header");
if (header && !document.getElementById("lang")) header.append(languageMenu());
