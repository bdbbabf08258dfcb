// This browser's tables and seat tokens, kept in localStorage under one key.

const KEY = "atout.tables";

function readAll() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}

function writeAll(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    // private mode or a full storage: the page still works, it just forgets
  }
}

/** Every table this browser knows, newest first: [{table_id, seat, token, name, ...}]. */
export function myTables() {
  return Object.values(readAll()).sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
}

/** What this browser knows of one table (its seat and token), or null. */
export function tableEntry(tableId) {
  return readAll()[tableId] ?? null;
}

/** Remember (or update) a table: merges the fields given. */
export function rememberTable(tableId, fields) {
  const data = readAll();
  data[tableId] = { table_id: tableId, created: Date.now(), ...(data[tableId] ?? {}), ...fields };
  writeAll(data);
  return data[tableId];
}

/** Forget a table and its token. */
export function forgetTable(tableId) {
  const data = readAll();
  delete data[tableId];
  writeAll(data);
}

/** The name this browser used last. */
export function lastName() {
  try {
    return localStorage.getItem("atout.name") ?? "";
  } catch {
    return "";
  }
}

export function setLastName(name) {
  try {
    localStorage.setItem("atout.name", name);
  } catch {
    // ignored, as above
  }
}
