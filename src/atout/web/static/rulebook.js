// The rule book's pages (served by the server in one language): the app's language menu comes
// with i18n.js; a page asked for without ?lang= and served in another language than the one
// this browser chose is shown again in the chosen one.
import { LANG } from "./i18n.js";

const served = document.documentElement.dataset.servedLang;
const url = new URL(location.href);
if (!url.searchParams.has("lang") && served && served !== LANG) {
  url.searchParams.set("lang", LANG);
  location.replace(url.href);
} else {
  document.documentElement.lang = served ?? LANG;
  document.body.dataset.ready = "true";
}
