import assert from "node:assert/strict";
import { test } from "node:test";
import { arrange, keyed, lastMoves, positions, secondsLeft, teamOf } from "../src/present.js";

// card codes: (rank - 2) * 4 + suit, suits S H C D = 0..3; jokers 52, 53
const code = (rank, suit) => (rank - 2) * 4 + "SHCD".indexOf(suit);
const cards = (groups) => groups.map((g) => g.map((c) => c.card));

test("the viewer sits at the bottom, the partner on top, the next seat on the right", () => {
  assert.deepEqual(positions(0), { bottom: 0, right: 1, top: 2, left: 3 });
  assert.deepEqual(positions(3), { bottom: 3, right: 0, top: 1, left: 2 });
  assert.deepEqual(positions(null), positions(0)); // a spectator
  assert.equal(teamOf(2), 0);
  assert.equal(teamOf(3), 1);
});

test("countdowns count whole seconds up, never below zero, and nothing without a deadline", () => {
  assert.equal(secondsLeft(100, 90_000), 10);
  assert.equal(secondsLeft(100, 90_100), 10);
  assert.equal(secondsLeft(100, 99_900), 1);
  assert.equal(secondsLeft(115, 99_990), 15, "a 15 s timer that just began shows 15, clock estimate or not");
  assert.equal(secondsLeft(100, 120_000), 0);
  assert.equal(secondsLeft(null, 0), null);
  assert.equal(secondsLeft(undefined, 0), null);
});

test("each copy of a card gets its own stable key", () => {
  assert.deepEqual(keyed([5, 9, 5]).map((c) => c.key), ["5.0", "9.0", "5.1"]);
  assert.deepEqual(keyed(null), []);
});

test("by rank: the deal's order with the level rank above A, one group per rank, jokers together", () => {
  const level = 5;
  const hand = [53, code(14, "S"), code(5, "C"), code(3, "D"), code(3, "S"), 52, code(5, "H")];
  assert.deepEqual(cards(arrange(hand, level, "rank")), [
    [code(3, "S"), code(3, "D")], [code(14, "S")], [code(5, "H"), code(5, "C")], [52, 53],
  ]);
});

test("by suit: one group per suit in rank order, jokers last", () => {
  const hand = [53, code(9, "H"), code(2, "S"), code(4, "H"), code(2, "H")];
  assert.deepEqual(cards(arrange(hand, 2, "suit")), [[code(2, "S")], [code(4, "H"), code(9, "H"), code(2, "H")], [53]]);
});

test("by plays: bigger same-rank groups first, then jokers, then the wild cards apart", () => {
  const level = 7;
  const wild = code(7, "H");
  const hand = [code(9, "S"), code(9, "H"), code(9, "C"), code(9, "D"), code(4, "S"), code(4, "D"), code(3, "C"),
    code(12, "S"), code(12, "H"), code(12, "C"), wild, code(7, "S"), 52];
  assert.deepEqual(cards(arrange(hand, level, "plays")), [
    [code(9, "S"), code(9, "H"), code(9, "C"), code(9, "D")],
    [code(12, "S"), code(12, "H"), code(12, "C")],
    [code(4, "S"), code(4, "D")],
    [code(3, "C")], [code(7, "S")], [52], [wild],
  ]);
});

test("arranging keeps every card and its key, whatever the mode", () => {
  const hand = [0, 0, 1, 17, 17, 52, 53, 53, 30];
  for (const mode of ["rank", "suit", "plays"]) {
    const flat = arrange(hand, 6, mode).flat();
    assert.deepEqual(flat.map((c) => c.card).sort((a, b) => a - b), [...hand].sort((a, b) => a - b));
    assert.deepEqual(flat.map((c) => c.key).sort(), keyed(hand).map((c) => c.key).sort());
  }
});

test("the last move of each seat in the trick", () => {
  const trick = [{ seat: 1, type: "play", cards: [4] }, { seat: 2, type: "pass" }, { seat: 1, type: "play", cards: [9] }];
  const moves = lastMoves(trick);
  assert.deepEqual(moves[1].cards, [9]);
  assert.equal(moves[2].type, "pass");
  assert.equal(moves[0], undefined);
});
