import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeMessage, encodeMessage } from "../src/codec.js";

test("messages round-trip through msgpack", () => {
  const msg = { type: "play", id: 7, cards: [0, 53, 21] };
  const bytes = encodeMessage(msg);
  assert.ok(bytes instanceof Uint8Array);
  assert.deepEqual(decodeMessage(bytes), msg);
  assert.deepEqual(decodeMessage(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)), msg);
});

test("a frame that is not a message is rejected", () => {
  assert.throws(() => decodeMessage(encodeMessage([1, 2, 3])), /not a message/);
  assert.throws(() => decodeMessage(encodeMessage({ noType: true })), /not a message/);
});
