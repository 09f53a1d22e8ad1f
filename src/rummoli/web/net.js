// Talking to the server: JSON over HTTP, and one websocket per table that reconnects by itself.

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message || `the server answered ${status}`);
    this.status = status;
    this.code = body?.error?.code;
    this.rule = body?.error?.rule;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const answer = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await answer.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!answer.ok) throw new ApiError(answer.status, data);
  return data;
}

/**
 * The live connection to one table. `onMessage(msg)` gets welcome/update/next_hand/seats/error messages;
 * `onStatus(state, text)` hears "connecting" | "open" | "lost" | "closed".
 * After a drop it reconnects (0.5 s, 1 s, 2 s ... at most 8 s) with the last seq it saw, so the
 * server sends only what was missed.
 */
export class TableSocket {
  constructor(tableId, token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.seq = null;
    this.tries = 0;
    this.stopped = false;
    this.everOpen = false;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.onStatus(this.everOpen ? "lost" : "connecting");
    ws.addEventListener("open", () => {
      const hello = { type: "hello", token: this.token || null };
      hello.since = this.seq === null ? 0 : this.seq;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "welcome") {
        this.onStatus("open", this.everOpen ? "reconnected" : "connected");
        this.everOpen = true;
        this.tries = 0;
      }
      if (msg.seq !== undefined && (msg.type === "welcome" || msg.type === "update")) this.seq = msg.seq;
      this.onMessage(msg);
    });
    ws.addEventListener("close", (e) => {
      if (this.stopped) return;
      if (e.code === 4003 || e.code === 4004 || e.code === 4001) {
        this.stopped = true;
        this.onStatus("closed", e.reason || "closed");
        return;
      }
      this.onStatus("lost");
      const wait = Math.min(8000, 500 * 2 ** this.tries++);
      this.timer = setTimeout(() => this.connect(), wait);
    });
  }

  act(action, seq) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type: "act", seq, action }));
    return true;
  }

  /** Between hands: this person is ready for the next one (`seq`: the view the hand ended at). */
  next(seq) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type: "next", seq }));
    return true;
  }

  /** Any other message (a chat line): false when not connected. */
  send(message) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
