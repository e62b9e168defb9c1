import assert from "node:assert/strict";
import { test } from "node:test";

// the bits of a browser that net.js touches
const storage = new Map();
globalThis.localStorage = {
  getItem: (k) => (storage.has(k) ? storage.get(k) : null),
  setItem: (k, v) => storage.set(k, String(v)),
  removeItem: (k) => storage.delete(k),
};
globalThis.WebSocket = class { static CONNECTING = 0; static OPEN = 1; static CLOSING = 2; static CLOSED = 3; };

const { decodeMessage, encodeMessage } = await import("../src/codec.js");
const { BACKOFF_MS, Connection, backoff, forgetSeat, loadSeat, saveSeat } = await import("../src/net.js");

function connected() {
  const states = [];
  const conn = new Connection("ws://test/ws", { onState: (s) => states.push(s) });
  const sent = [];
  conn.ws = { readyState: 1, send: (frame) => sent.push(decodeMessage(frame)), close() {} };
  conn.status = "connected";
  return { conn, sent, states };
}

const snapshot = { type: "snapshot", version: 5, seat: 0, view: { phase: "play", counts: [27, 27, 27, 27], played: [] } };

test("a snapshot then its diffs build the view; a gap asks for one resync and waits for it", () => {
  const { conn, sent, states } = connected();
  conn.receive(encodeMessage(snapshot));
  conn.receive(encodeMessage({ type: "diff", base: 5, version: 6, ops: [["+", "/played/-", 7]] }));
  assert.deepEqual(conn.state.view.played, [7]);
  assert.equal(conn.state.version, 6);
  assert.equal(conn.state.seat, 0);
  conn.receive(encodeMessage({ type: "diff", base: 8, version: 9, ops: [] })); // 7 and 8 went missing
  conn.receive(encodeMessage({ type: "diff", base: 9, version: 10, ops: [] }));
  assert.deepEqual(sent.map((m) => m.type), ["resync"], "one resync, not one per diff");
  assert.equal(conn.state.version, 6, "diffs are not applied over a gap");
  conn.receive(encodeMessage({ ...snapshot, version: 10, view: { ...snapshot.view, played: [7, 8, 9] } }));
  assert.equal(conn.resyncing, false);
  conn.receive(encodeMessage({ type: "diff", base: 10, version: 11, ops: [["=", "/phase", "deal_over"]] }));
  assert.equal(conn.state.view.phase, "deal_over");
  assert.equal(states.length, 4);
});

test("a diff that does not apply to the view is mended by a resync too", () => {
  const { conn, sent } = connected();
  conn.receive(encodeMessage(snapshot));
  conn.receive(encodeMessage({ type: "diff", base: 5, version: 6, ops: [["=", "/nothing/3", 1]] }));
  assert.deepEqual(sent.map((m) => m.type), ["resync"]);
  assert.equal(conn.state.version, 5);
});

test("a snapshot the server could not send after acking the resync is asked for again", async () => {
  const { conn, sent } = connected();
  conn.room = { code: "ABCDEF", seat: 0, token: "t" };
  conn.receive(encodeMessage(snapshot));
  conn.receive(encodeMessage({ type: "diff", base: 7, version: 8, ops: [] })); // a gap: resync
  const first = sent.at(-1);
  assert.equal(first.type, "resync");
  conn.receive(encodeMessage({ type: "ack", id: first.id, result: { code: "ABCDEF" } }));
  await Promise.resolve();
  conn.receive(encodeMessage({ type: "error", code: "unavailable", message: "could not load the room; send resync" }));
  assert.deepEqual(sent.map((m) => m.type), ["resync", "resync"]);
  conn.receive(encodeMessage({ ...snapshot, version: 8 }));
  conn.receive(encodeMessage({ type: "diff", base: 8, version: 9, ops: [["+", "/played/-", 4]] }));
  assert.deepEqual(conn.state.view.played, [4], "diffs apply again");
  for (const waiter of conn.pending.values()) clearTimeout(waiter.timer);
});

test("requests get ids and resolve with their ack, or reject with the server's error code", async () => {
  const { conn, sent } = connected();
  const ok = conn.request({ type: "suggest" });
  const bad = conn.request({ type: "play", cards: [1, 2] });
  assert.deepEqual(sent.map((m) => [m.type, m.id]), [["suggest", 1], ["play", 2]]);
  conn.receive(encodeMessage({ type: "error", id: 2, code: "does_not_beat", message: "pair of 3s does not beat pair of 9s" }));
  conn.receive(encodeMessage({ type: "ack", id: 1, result: { action: { type: "pass" }, reason: "why" } }));
  assert.deepEqual(await ok, { action: { type: "pass" }, reason: "why" });
  await assert.rejects(bad, (err) => err.code === "does_not_beat" && /does not beat/.test(err.message));
});

test("a request without a connection, or without an answer, fails with a code", async () => {
  const { conn } = connected();
  conn.ws.readyState = 3;
  await assert.rejects(conn.request({ type: "pass" }), (err) => err.code === "not_connected");
  conn.ws.readyState = 1;
  await assert.rejects(conn.request({ type: "pass" }, 10), (err) => err.code === "timeout");
});

test("seat tokens live in localStorage per room", () => {
  saveSeat("ABC234", 2, "tok");
  assert.deepEqual(loadSeat("ABC234"), { seat: 2, token: "tok" });
  assert.equal(localStorage.getItem("guandan:last-room"), "ABC234");
  assert.equal(loadSeat("ZZZ999"), null);
  forgetSeat("ABC234");
  assert.equal(loadSeat("ABC234"), null);
  assert.equal(localStorage.getItem("guandan:last-room"), null);
});

test("reconnection backs off, with jitter, up to a ceiling", () => {
  assert.equal(backoff(0, () => 0.5), BACKOFF_MS[0]);
  assert.equal(backoff(1, () => 0), BACKOFF_MS[1] * 0.75);
  assert.equal(backoff(99, () => 1), BACKOFF_MS[BACKOFF_MS.length - 1] * 1.25);
});

test("a message sent while the connection is still opening waits for it", async () => {
  const { conn, sent } = connected();
  conn.status = "connecting";
  const answer = conn.request({ type: "create", nickname: "Ann" });
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(sent, [], "nothing goes out before hello and resume are done");
  conn.setStatus("connected");
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(sent.map((m) => m.type), ["create"]);
  conn.receive(encodeMessage({ type: "ack", id: sent[0].id, result: { code: "ABC234", seat: 0, token: "t" } }));
  assert.equal((await answer).code, "ABC234");
  conn.status = "reconnecting";
  await assert.rejects(conn.request({ type: "pass" }, 10), (err) => err.code === "not_connected");
});
