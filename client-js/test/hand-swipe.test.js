import assert from "node:assert/strict";
import { test } from "node:test";
import { swept } from "../src/hand-swipe.js";

const order = ["a", "b", "c", "d", "e", "f"];
const keys = (set) => [...set].sort().join("");

test("a slide from an unselected card selects every card it crossed, either way", () => {
  assert.equal(keys(swept(order, new Set(), "b", "e")), "bcde");
  assert.equal(keys(swept(order, new Set(), "e", "b")), "bcde");
  assert.equal(keys(swept(order, new Set(["a", "f"]), "b", "d")), "abcdf");
});

test("a slide from a selected card unselects; cards outside the slide keep their state", () => {
  assert.equal(keys(swept(order, new Set(["b", "c", "d", "f"]), "c", "e")), "bf");
  assert.equal(keys(swept(order, new Set(["a", "c"]), "c", "c")), "a");
});

test("a slide back over cards gives them their state back (it is always measured from the start)", () => {
  const before = new Set(["e"]);
  swept(order, before, "a", "f");
  assert.equal(keys(swept(order, before, "a", "b")), "abe");
  assert.equal(keys(before), "e", "the selection it started from is not changed");
  assert.equal(keys(swept(order, before, "x", "b")), "e", "a key no longer in the hand changes nothing");
});
