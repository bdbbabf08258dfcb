// The page of an address that holds no table (served with HTTP 404): says so in the page's
// language, with the link to the lobby. It opens no connection.
import { t } from "./strings.js";

const id = decodeURIComponent(location.pathname.match(/\/t\/([^/]+)\/?$/)?.[1] ?? "");
document.title = t("missing.title");
document.getElementById("missing-title").textContent = t("missing.title");
document.getElementById("missing-text").textContent = id ? t("missing.text", { id }) : t("missing.text.none");
document.getElementById("missing-lobby").textContent = t("missing.lobby");
document.body.dataset.ready = "true";
