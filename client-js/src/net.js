// The connection to the server: msgpack frames, request ids, reconnection with backoff,
// automatic resume of the seat whose token this browser holds, and resync on a version gap.
import { decodeMessage, encodeMessage } from "./codec.js";
import { applyDiff } from "./patch.js";

// How far the server's clock is ahead of this device's (deadlines come on the server's clock).
let clockOffsetMs = 0;

/** The current time on the server's clock, in ms. */
export function serverNowMs() {
  return Date.now() + clockOffsetMs;
}

export const PROTOCOL_VERSION = 1;
export const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const REQUEST_TIMEOUT_MS = 15000;
const HEARTBEAT_MS = 25000;
// Resume errors that mean the seat is gone for good (anything else is retried).
const FATAL_RESUME = new Set(["bad_token", "room_not_found"]);

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
  localStorage.removeItem(leftKey(code));
}

/** A seat left on purpose mid-match is kept for Resume, but the site no longer reopens it by itself (a
 * player who left to start another room was pulled back to the old table at every visit). */
function leftKey(code) {
  return `guandan:left:${code}`;
}

export function markLeft(code) {
  localStorage.setItem(leftKey(code), "1");
}

export function leftOnPurpose(code) {
  return localStorage.getItem(leftKey(code)) === "1";
}

/** Where a spectator's nickname in a room is kept, so a reload watches again (its link's Join would take
 * a seat). */
function watchKey(code) {
  return `guandan:watch:${code}`;
}

export function loadWatch(code) {
  return localStorage.getItem(watchKey(code));
}

export function forgetSeat(code) {
  localStorage.removeItem(tokenKey(code));
  localStorage.removeItem(watchKey(code));
  localStorage.removeItem(`guandan:ai:${code}`);
  localStorage.removeItem(leftKey(code));
  if (localStorage.getItem("guandan:last-room") === code) localStorage.removeItem("guandan:last-room");
}

/** The delay before reconnection attempt `attempt` (0-based), with +-25% jitter. */
export function backoff(attempt, random = Math.random) {
  return BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] * (0.75 + random() / 2);
}

function codedError(code, message, local = false) {
  return Object.assign(new Error(message), { code, local });
}

export class Connection {
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers; // { onStatus, onState, onRoom, onPresence, onError, onReplaced, onLost }
    this.nextId = 1;
    this.pending = new Map();
    this.state = null; // { version, view, seat }
    this.room = null; // { code, seat, token }
    this.attempt = 0;
    this.ws = null;
    this.closedByUs = false;
    this.replaced = false;
    this.retryTimer = null;
    this.retryAt = null; // when the next reconnection attempt is due (ms), for the banner
    this.resyncing = false;
    this.heartbeat = null;
    this.status = "connecting";
    this.snapshots = 0; // how many snapshots arrived (tests and tools watch resyncs with it)
    this.readyWaiters = [];
  }

  setStatus(status) {
    this.status = status;
    if (status === "connected") {
      for (const waiter of this.readyWaiters.splice(0)) waiter.resolve();
    } else if (status === "replaced") {
      for (const waiter of this.readyWaiters.splice(0)) waiter.reject(codedError("not_connected", "not connected", true));
    }
    this.handlers.onStatus?.(status);
  }

  /** Resolves once the connection is up (hello done, seat resumed); rejects after `timeoutMs`. */
  whenReady(timeoutMs) {
    if (this.status === "connected") return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      const timer = setTimeout(() => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== waiter);
        reject(codedError("not_connected", "not connected", true));
      }, timeoutMs);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
      waiter.reject = (err) => {
        clearTimeout(timer);
        reject(err);
      };
      this.readyWaiters.push(waiter);
    });
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAt = null;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    this.closedByUs = false;
    this.replaced = false;
    this.setStatus(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => this.opened(ws);
    ws.onmessage = (event) => {
      if (ws === this.ws) this.receive(event.data);
    };
    ws.onclose = (event) => this.closed(ws, event);
  }

  async opened(ws) {
    try {
      const early = { early: true };
      // the welcome says what this server allows (fixed seeds only on a test server)
      this.welcome = await this.request({ type: "hello", protocol: PROTOCOL_VERSION, client: "guandan-web" }, undefined, early);
      if (this.room?.token || this.room?.watch) {
        try {
          if (this.room.token) await this.resume(this.room.code, this.room.token, early);
          // a spectator has no token: watch again under the same nickname
          else await this.request({ type: "join", code: this.room.code, nickname: this.room.watch, spectator: true }, undefined, early);
        } catch (err) {
          if (!FATAL_RESUME.has(err.code)) throw err; // busy, unavailable, a dropped connection: retry
          // the room expired or the seat token is no longer valid: back to the lobby
          forgetSeat(this.room.code);
          this.room = null;
          this.state = null;
          this.handlers.onLost?.(err);
        }
      }
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.setStatus("connected");
      this.startHeartbeat();
    } catch (err) {
      if (ws !== this.ws) return;
      if (err.code === "protocol_mismatch") {
        this.handlers.onError?.(err);
        return;
      }
      ws.close(); // onclose schedules the next attempt
    }
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    this.stopHeartbeat();
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(codedError("not_connected", "connection closed", true));
    }
    this.pending.clear();
    this.resyncing = false;
    if (event.code === 4001) {
      // another tab or device took this seat: do not fight over it
      this.replaced = true;
      this.handlers.onReplaced?.(event.reason);
      this.setStatus("replaced");
      return;
    }
    if (this.closedByUs) return;
    if (event.code === 4003 && !this.room) {
      this.connect(); // the seat went (said already): a fresh connection for the door, no waiting
      return;
    }
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    const delay = backoff(this.attempt);
    this.attempt += 1;
    this.retryAt = Date.now() + delay;
    this.setStatus("reconnecting");
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Reconnect at once (the network came back, the tab became visible, the player asked). */
  reconnectNow() {
    if (this.closedByUs || this.replaced) return; // a replaced tab waits for the player to take the seat back
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.connect();
  }

  /** After "replaced": take the seat back in this tab (the other one is replaced in turn). */
  takeBack() {
    this.attempt = 0;
    this.connect();
  }

  /** The network is reported gone: drop the socket now instead of waiting for TCP to notice. */
  dropped() {
    if (this.ws && this.ws.readyState <= WebSocket.OPEN && !this.closedByUs && !this.replaced) this.ws.close();
  }

  close() {
    this.closedByUs = true;
    this.stopHeartbeat();
    this.ws?.close();
  }

  startHeartbeat() {
    this.stopHeartbeat();
    // a connection that silently died (phone asleep, Wi-Fi change) is noticed by an unanswered hello
    this.heartbeat = setInterval(() => {
      if (globalThis.document?.visibilityState === "hidden") return;
      this.request({ type: "hello", protocol: PROTOCOL_VERSION, client: "guandan-web" }).catch((err) => {
        if (err.code === "timeout") this.ws?.close();
      });
    }, HEARTBEAT_MS);
  }

  stopHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /**
   * Send one message; resolves with its ack's result, rejects with the error (err.code). A message sent
   * while the connection is still (re)opening waits for it, up to the timeout; `early` messages (hello,
   * the automatic resume) go out at once.
   */
  request(message, timeoutMs = REQUEST_TIMEOUT_MS, { early = false } = {}) {
    if (!early && this.status !== "connected" && !this.replaced && !this.closedByUs) {
      return this.whenReady(timeoutMs).then(() => this.request(message, timeoutMs, { early: true }));
    }
    const id = this.nextId++;
    const frame = encodeMessage({ ...message, id });
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(codedError("not_connected", "not connected", true));
        return;
      }
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(codedError("timeout", "no answer from the server", true));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, sentAt: Date.now() });
      this.ws.send(frame);
    });
  }

  async resume(code, token, options = {}) {
    const ack = await this.request({ type: "resume", code, token }, undefined, options);
    this.room = { code, seat: ack.seat ?? this.room?.seat, token };
    saveSeat(code, this.room.seat, token); // a seat link brings the token alone: the seat is known now
    return ack;
  }

  /** Remember the seat taken by create/join (`watch`: a spectator's nickname, to watch again). */
  adoptSeat(code, seat, token, watch = null) {
    this.room = { code, seat, token, watch };
    if (token) {
      saveSeat(code, seat, token);
      localStorage.removeItem(watchKey(code)); // a spectator who sat down: a reload resumes the seat
    } else if (watch) localStorage.setItem(watchKey(code), watch);
  }

  leaveRoom() {
    this.room = null;
    this.state = null;
    this.resyncing = false;
  }

  resync() {
    if (this.resyncing) return;
    this.resyncing = true;
    this.request({ type: "resync" }).catch((err) => {
      this.resyncing = false;
      this.handlers.onError?.(err);
    });
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
      case "welcome": {
        // the server read its clock about halfway between our hello and its welcome
        const sentAt = this.pending.get(msg.id)?.sentAt;
        if (typeof msg.time === "number") clockOffsetMs = msg.time * 1000 - (sentAt === undefined ? Date.now() : (sentAt + Date.now()) / 2);
      }
      // falls through: a welcome answers its hello like an ack
      case "ack": {
        const waiter = this.pending.get(msg.id);
        if (waiter) {
          this.pending.delete(msg.id);
          clearTimeout(waiter.timer);
          waiter.resolve(msg.result ?? msg);
        }
        break;
      }
      case "error": {
        const waiter = msg.id != null ? this.pending.get(msg.id) : null;
        // a limit's refusal says when to try again (retry_after, seconds): worded like any other field
        const fields = msg.retry_after == null ? msg.fields || {} : { ...msg.fields, retry_after: msg.retry_after };
        const err = Object.assign(codedError(msg.code, msg.message), { fields });
        if (waiter) {
          this.pending.delete(msg.id);
          clearTimeout(waiter.timer);
          waiter.reject(err);
        } else if (msg.code === "unavailable" && this.room) {
          // the server could not send a snapshot: ask again (a resync already acked would otherwise
          // stay "on its way" for ever, and every diff after it would be dropped)
          this.resyncing = false;
          this.resync();
        } else if (msg.code === "seat_lost" && this.room) {
          // the seat is someone else's now, or empty: its token opens nothing, so no resume is tried
          // when the server closes this connection (that would only replace why with "bad token")
          forgetSeat(this.room.code);
          this.room = null;
          this.state = null;
          this.handlers.onLost?.(err);
        } else if (msg.code !== "replaced") {
          this.handlers.onError?.(err);
        }
        break;
      }
      case "snapshot":
        this.snapshots += 1;
        this.resyncing = false;
        this.state = { version: msg.version, view: msg.view, seat: msg.seat };
        if (this.room?.token && msg.seat != null && msg.seat !== this.room.seat) {
          // moved to another lobby seat (sit, swap): the token goes with the person, the seat number follows
          this.room = { ...this.room, seat: msg.seat };
          saveSeat(this.room.code, msg.seat, this.room.token);
        }
        this.handlers.onState?.(this.state);
        break;
      case "diff": {
        if (this.resyncing) break; // a fresh snapshot is on its way
        const next = applyDiff(this.state, msg);
        if (next === null) {
          this.resync();
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
      case "said":
        this.handlers.onSaid?.(msg);
        break;
      default:
        break;
    }
  }
}
