import assert from "node:assert/strict";
import { test } from "node:test";
import { applyDiff, expandOps } from "../src/patch.js";

const base = { version: 3, view: { phase: "play", counts: [27, 27, 27, 27], played: [1], top: null, hand: [1, 2] } };

test("replace, add at /-, remove and nested replace apply in order", () => {
  const diff = {
    base: 3, version: 4, ops: [
      ["=", "/counts/0", 26],
      ["+", "/played/-", 5],
      ["=", "/top", { seat: 0, cards: [5] }],
      ["-", "/hand"],
      ["+", "/turn", 1],
    ],
  };
  const next = applyDiff(base, diff);
  assert.equal(next.version, 4);
  assert.deepEqual(next.view, { phase: "play", counts: [26, 27, 27, 27], played: [1, 5], top: { seat: 0, cards: [5] }, turn: 1 });
  assert.deepEqual(base.view.played, [1], "the old view is not mutated");
});

test("wire tuples expand to RFC 6902 ops", () => {
  assert.deepEqual(expandOps([["+", "/a/-", 1], ["-", "/b"], ["=", "/c", null]]), [
    { op: "add", path: "/a/-", value: 1 }, { op: "remove", path: "/b" }, { op: "replace", path: "/c", value: null },
  ]);
  assert.throws(() => expandOps([["?", "/a", 1]]));
  assert.throws(() => expandOps([{ op: "add", path: "/a", value: 1 }]));
});

test("a version gap gives null so the caller resyncs", () => {
  assert.equal(applyDiff(base, { base: 2, version: 3, ops: [] }), null);
  assert.equal(applyDiff(null, { base: 3, version: 4, ops: [] }), null);
});

test("a diff that does not fit the view gives null (resync) and leaves the view alone", () => {
  assert.equal(applyDiff(base, { base: 3, version: 4, ops: [["=", "/nope/0", 1]] }), null);
  assert.equal(applyDiff(base, { base: 3, version: 4, ops: [["-", "/missing"]] }), null);
  assert.equal(applyDiff(base, { base: 3, version: 4, ops: [["!", "/counts"]] }), null);
  assert.deepEqual(base.view.counts, [27, 27, 27, 27]);
});

test("the protocol document's example diff applies as written", () => {
  const view = { hand: [1, 2, 4], counts: [27, 27, 27, 27], turn: 0, top: null, trick: [], played: [], pending: [0] };
  const next = applyDiff({ version: 6, view }, { base: 6, version: 7, ops: [
    ["=", "/hand", [4]],
    ["=", "/counts", [25, 27, 27, 27]],
    ["=", "/turn", 1],
    ["=", "/top", { seat: 0, kind: "pair", value: 15, cards: [1, 2] }],
    ["+", "/trick/-", { seat: 0, type: "play", kind: "pair", value: 15, cards: [1, 2] }],
    ["+", "/played/-", 1],
    ["+", "/played/-", 2],
    ["=", "/pending", [1]],
  ] });
  assert.equal(next.version, 7);
  assert.deepEqual(next.view.played, [1, 2]);
  assert.equal(next.view.trick[0].kind, "pair");
  assert.equal(next.view.turn, 1);
});
