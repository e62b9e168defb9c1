// The connection to the server: msgpack frames, request ids, reconnection with backoff,
// automatic resume of the seat whose token this browser holds, and resync on a version gap.
import { decodeMessage, encodeMessage } from "./codec.js";
import { applyDiff } from "./patch.js";

export const PROTOCOL_VERSION = 1;
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];

export function tokenKey(code) {
  return `guandan:seat:${code}`;
}

export function loadSeat(code) {
  try {
    return JSON.parse(localStorage.getItem(tokenKey(code)) || "null");
  } catch {
    return null;
  }
}

export function saveSeat(code, seat, token) {
  localStorage.setItem(tokenKey(code), JSON.stringify({ seat, token }));
  localStorage.setItem("guandan:last-room", code);
}

export function forgetSeat(code) {
  localStorage.removeItem(tokenKey(code));
  if (localStorage.getItem("guandan:last-room") === code) localStorage.removeItem("guandan:last-room");
}

export class Connection {
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers; // { onStatus, onState, onRoom, onPresence, onError, onReplaced }
    this.nextId = 1;
    this.pending = new Map();
    this.state = null; // { version, view }
    this.room = null; // { code, seat, token }
    this.attempt = 0;
    this.ws = null;
    this.closedByUs = false;
  }

  connect() {
    this.closedByUs = false;
    this.handlers.onStatus?.(this.attempt ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = async () => {
      this.attempt = 0;
      try {
        await this.request({ type: "hello", protocol: PROTOCOL_VERSION, client: "guandan-web" });
        if (this.room?.token) {
          try {
            await this.resume(this.room.code, this.room.token);
          } catch (err) {
            // the room expired or the seat token is no longer valid: back to the lobby
            forgetSeat(this.room.code);
            this.room = null;
            this.handlers.onLost?.(err);
          }
        }
        this.handlers.onStatus?.("connected");
      } catch (err) {
        this.handlers.onError?.(err);
      }
    };
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = (event) => {
      for (const { reject } of this.pending.values()) reject(new Error("connection closed"));
      this.pending.clear();
      if (event.code === 4001) {
        // another tab or device took this seat: do not fight over it
        this.handlers.onReplaced?.(event.reason);
        this.handlers.onStatus?.("replaced");
        return;
      }
      if (this.closedByUs) return;
      const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)] * (0.75 + Math.random() / 2);
      this.attempt += 1;
      this.handlers.onStatus?.("reconnecting");
      setTimeout(() => this.connect(), delay);
    };
  }

  close() {
    this.closedByUs = true;
    this.ws?.close();
  }

  request(message) {
    const id = this.nextId++;
    const frame = encodeMessage({ ...message, id });
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error("not connected"));
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(frame);
    });
  }

  async resume(code, token) {
    const ack = await this.request({ type: "resume", code, token });
    this.room = { code, seat: ack.seat ?? this.room?.seat, token };
    return ack;
  }

  adoptSeat(code, seat, token) {
    this.room = { code, seat, token };
    if (token) saveSeat(code, seat, token);
  }

  receive(data) {
    let msg;
    try {
      msg = decodeMessage(data);
    } catch (err) {
      this.handlers.onError?.(err);
      return;
    }
    switch (msg.type) {
      case "ack":
      case "welcome": {
        const waiter = this.pending.get(msg.id);
        if (waiter) {
          this.pending.delete(msg.id);
          waiter.resolve(msg.result ?? msg);
        }
        break;
      }
      case "error": {
        const waiter = msg.id != null ? this.pending.get(msg.id) : null;
        const err = Object.assign(new Error(msg.message), { code: msg.code });
        if (waiter) {
          this.pending.delete(msg.id);
          waiter.reject(err);
        } else {
          this.handlers.onError?.(err);
        }
        break;
      }
      case "snapshot":
        this.state = { version: msg.version, view: msg.view, seat: msg.seat };
        this.handlers.onState?.(this.state);
        break;
      case "diff": {
        const next = applyDiff(this.state, msg);
        if (next === null) {
          this.request({ type: "resync" }).catch((err) => this.handlers.onError?.(err));
          break;
        }
        this.state = { ...next, seat: this.state.seat };
        this.handlers.onState?.(this.state);
        break;
      }
      case "room":
        this.handlers.onRoom?.(msg);
        break;
      case "presence":
        this.handlers.onPresence?.(msg);
        break;
      default:
        break;
    }
  }
}
