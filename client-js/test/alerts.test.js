import assert from "node:assert/strict";
import { test } from "node:test";
import { Sounds, cuesFor, titleFor, yourTurn } from "../src/alerts.js";
import { setLang } from "../src/i18n.js";

const view = (over) => ({ seat: 0, deal: 1, phase: "play", turn: 1, history: [], trick: [], return_choices: [], ...over });

test("cues: your turn, a bomb, a deal's end; nothing for the first view", () => {
  assert.deepEqual(cuesFor(null, view({ turn: 0 })), []);
  assert.deepEqual(cuesFor({}, view({ turn: 0 })), ["turn"], "the game starts (the lobby's view is {}) on your turn");
  assert.deepEqual(cuesFor(view({ turn: 3 }), view({ turn: 0 })), ["turn"]);
  assert.deepEqual(cuesFor(view({ turn: 0 }), view({ turn: 0 })), [], "still your turn: no second ring");
  const bomb = { seat: 3, type: "play", kind: "bomb", cards: [1, 2, 3, 4], by: "bot" };
  assert.deepEqual(cuesFor(view({ turn: 3 }), view({ turn: 0, trick: [bomb] })), ["bomb", "turn"]);
  const over = view({ phase: "deal_over", turn: null });
  assert.deepEqual(cuesFor(view(), over), ["deal_end"]);
  assert.deepEqual(cuesFor(over, over), []);
  assert.deepEqual(cuesFor(over, view({ deal: 2, phase: "return", turn: null, return_choices: [5] })), ["turn"]);
  assert.deepEqual(cuesFor(view({ seat: null }), view({ seat: null, turn: null })), [], "a spectator has no turn");
});

test("the title says when it is your turn", () => {
  setLang("zh");
  assert.equal(titleFor(view({ turn: 0 }), "掼蛋 · ABCDEF"), "▶ 轮到你出牌 · 掼蛋 · ABCDEF");
  assert.equal(titleFor(view(), "掼蛋 · ABCDEF"), "掼蛋 · ABCDEF");
  assert.equal(titleFor(null, "掼蛋"), "掼蛋");
  setLang("en");
  assert.equal(titleFor(view({ phase: "return", turn: null, return_choices: [3] }), "Guandan"), "▶ Return · Guandan");
  setLang("zh");
  assert.equal(yourTurn(view({ phase: "return", turn: null })), false, "no card owed");
});

test("mute is remembered, and a muted cue is noted but not played", () => {
  const saved = new Map();
  const storage = { getItem: (k) => saved.get(k) ?? null, setItem: (k, v) => saved.set(k, v) };
  const sounds = new Sounds(storage);
  assert.equal(sounds.muted, false);
  sounds.setMuted(true);
  assert.equal(new Sounds(storage).muted, true);
  sounds.play("turn"); // no AudioContext in node: nothing would sound anyway, but nothing breaks
  assert.deepEqual(sounds.played, [{ cue: "turn", muted: true }]);
  sounds.setMuted(false);
  sounds.play("bomb");
  assert.deepEqual(sounds.played.at(-1), { cue: "bomb", muted: false });
  assert.equal(new Sounds(storage).muted, false);
});
