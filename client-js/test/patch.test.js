import assert from "node:assert/strict";
import { test } from "node:test";
import { applyDiff } from "../src/patch.js";

const base = { version: 3, view: { phase: "play", counts: [27, 27, 27, 27], played: [1], top: null, hand: [1, 2] } };

test("replace, add at /-, remove and nested replace apply in order", () => {
  const diff = {
    base: 3, version: 4, ops: [
      { op: "replace", path: "/counts/0", value: 26 },
      { op: "add", path: "/played/-", value: 5 },
      { op: "replace", path: "/top", value: { seat: 0, cards: [5] } },
      { op: "remove", path: "/hand" },
      { op: "add", path: "/turn", value: 1 },
    ],
  };
  const next = applyDiff(base, diff);
  assert.equal(next.version, 4);
  assert.deepEqual(next.view, { phase: "play", counts: [26, 27, 27, 27], played: [1, 5], top: { seat: 0, cards: [5] }, turn: 1 });
  assert.deepEqual(base.view.played, [1], "the old view is not mutated");
});

test("a version gap gives null so the caller resyncs", () => {
  assert.equal(applyDiff(base, { base: 2, version: 3, ops: [] }), null);
  assert.equal(applyDiff(null, { base: 3, version: 4, ops: [] }), null);
});
