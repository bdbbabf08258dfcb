// Talking to the server: JSON over REST, and the table's websocket with hello, resync and
// reconnection (SERVER-CONTRACT.md).

/** A REST call; resolves to the JSON answer, or throws an Error carrying the server's message. */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new Error(data?.error ?? `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.field = data?.field ?? null;
    error.code = data?.code ?? null; // a field's problem, for the page to say in words
    error.params = data?.params ?? {};
    throw error;
  }
  return data;
}

const CLOSE_SLOW = 4008;
const CLOSE_FLOOD = 4029;
const CLOSE_NO_TABLE = 4404;

/**
 * The table's websocket. onMessage(msg) gets every server message; onStatus(state) gets
 * "connecting" | "online" | "offline" | "slow" | "flood" | "gone". It says hello with the token and the last seq seen, and
 * reconnects after a drop.
 */
export class TableSocket {
  constructor(tableId, { token, onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token ?? null;
    this.onMessage = onMessage;
    this.onStatus = onStatus ?? (() => {});
    this.lastSeq = null;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.pingTimer = null;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  open() {
    this.closed = false;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.onStatus("online");
      this.send({ type: "hello", token: this.token, last_seq: this.lastSeq });
      // the pong comes after every message the hello brings (a state, or those missed): then the page is in step
      this.send({ type: "ping" });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (typeof msg?.seq === "number") this.lastSeq = msg.seq;
      this.onMessage(msg);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws || this.closed) return;
      // the server's close codes (docs/server.md): no such table, or a page that flooded it,
      // is not retried; a page too slow to read reconnects at once and catches up
      if (event.code === CLOSE_NO_TABLE || event.code === CLOSE_FLOOD) {
        this.closed = true;
        this.onStatus(event.code === CLOSE_NO_TABLE ? "gone" : "flood");
        return;
      }
      const slow = event.code === CLOSE_SLOW;
      this.onStatus(slow ? "slow" : "offline");
      const delay = slow ? 0 : Math.min(10000, 500 * 2 ** this.retry++);
      setTimeout(() => !this.closed && this.open(), delay);
    });
  }

  /** Say hello again as someone else (after taking a seat). */
  reconnect(token) {
    this.token = token;
    this.lastSeq = null;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.close();
    }
    this.open();
  }

  send(msg) {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    this.ws?.close();
  }
}
