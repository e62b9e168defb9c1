import assert from "node:assert/strict";
import { test } from "node:test";

import { groupSelected, loadGroups, saveGroups, withGroups, withoutPicked } from "../src/hand-groups.js";
import { arrange } from "../src/present.js";

const LEVEL = 2;
// 3♠ 3♥ 4♠ 5♠ 5♠(second deck) 6♠ 7♠ and the small joker
const HAND = [4, 5, 8, 12, 12, 16, 20, 52];
const codes = (groups) => groups.map((g) => g.map((c) => c.card));

test("the player's groups stand first, in the order made, the rest sorted as chosen", () => {
  const shown = withGroups(arrange(HAND, LEVEL, "rank"), [[12, 8], [52]]);
  assert.deepEqual(codes(shown), [[8, 12], [52], [4, 5], [12], [16], [20]]);
  assert.deepEqual(shown.map((g) => !!g.manual), [true, true, false, false, false, false]);
  assert.equal(new Set(shown.flat().map((c) => c.key)).size, HAND.length); // every held copy drawn once
});

test("a card played since leaves its group, and an emptied group goes", () => {
  const held = HAND.filter((c) => c !== 52 && c !== 8);
  assert.deepEqual(codes(withGroups(arrange(held, LEVEL, "rank"), [[12, 8], [52]])), [[12], [4, 5], [12], [16], [20]]);
});

test("grouping picked cards moves them out of their groups; picking one group again undoes it", () => {
  let groups = [];
  const pick = (groupsNow, cards) => {
    const shown = withGroups(arrange(HAND, LEVEL, "rank"), groupsNow);
    const keys = new Set();
    for (const code of cards) keys.add(shown.flat().find((c) => c.card === code && !keys.has(c.key)).key);
    return groupSelected(shown, keys);
  };
  groups = pick(groups, [12, 12, 16]);
  assert.deepEqual(groups, [[12, 12, 16]]);
  groups = pick(groups, [20, 16]); // the 6 moves to the new group
  assert.deepEqual(groups, [[12, 12], [16, 20]]);
  groups = pick(groups, [12, 12]); // exactly a group: back in the hand
  assert.deepEqual(groups, [[16, 20]]);
  assert.deepEqual(pick(groups, []), [[16, 20]]); // nothing picked: nothing changes
});

test("groups are kept per room and deal", () => {
  const items = new Map();
  const store = { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v), removeItem: (k) => items.delete(k) };
  saveGroups(store, "ABC123", 3, [[12, 16]]);
  assert.deepEqual(loadGroups(store, "ABC123", 3), [[12, 16]]);
  assert.deepEqual(loadGroups(store, "ABC123", 4), []); // the next deal's hand is another
  assert.deepEqual(loadGroups(store, "XYZ789", 3), []);
  saveGroups(store, "ABC123", 3, []);
  assert.equal(items.size, 0);
  items.set("guandan:groups:ABC123", "{not json");
  assert.deepEqual(loadGroups(store, "ABC123", 3), []);
});

test("cards played leave the groups they were picked from, not the other deck's copy", () => {
  // a group [5♠ 6♠] while the hand also holds the second deck's 5♠ (audit: a played group came back as
  // [other copy], and a wild card moved between groups)
  const shown = withGroups(arrange(HAND, LEVEL, "rank"), [[12, 16], [20]]);
  const playedKeys = new Set(shown[0].map((c) => c.key));
  const regrouped = withoutPicked(shown, playedKeys);
  assert.deepEqual(regrouped, [[20]]);
  const held = [4, 5, 8, 12, 20, 52]; // one 5♠ and the 6♠ gone
  assert.deepEqual(codes(withGroups(arrange(held, LEVEL, "rank"), regrouped)), [[20], [4, 5], [8], [12], [52]]);
});
