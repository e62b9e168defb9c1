import assert from "node:assert/strict";
import { test } from "node:test";
import { setLang } from "../src/i18n.js";
import { cardWord, newMoves, playLabel, tableMoves, tricksOf } from "../src/reading.js";

// card codes: (rank - 2) * 4 + suit, suits S H C D = 0..3; jokers 52, 53
const code = (rank, suit) => (rank - 2) * 4 + "SHCD".indexOf(suit);
const play = (seat, kind, cards, extra = {}) => ({ seat, type: "play", kind, value: 0, cards, by: "human", ...extra });
const pass = (seat, by = "bot") => ({ seat, type: "pass", by });

test("a wild straight is labelled by the ranks it reads as, in each language", () => {
  // level 2: the wild ♥2 as the 4 of 45678 (the server's layout and `as`)
  const straight = play(0, "straight", [code(2, "H"), code(5, "S"), code(6, "C"), code(7, "D"), code(8, "S")], { as: [4, 5, 6, 7, 8] });
  setLang("zh");
  assert.equal(playLabel(straight), "顺子 45678");
  setLang("en");
  assert.equal(playLabel(straight), "straight 4-8");
  setLang("zh");
});

test("other kinds: ranks as read, tens spaced, jokers by name", () => {
  setLang("zh");
  const fullHouse = play(1, "full_house", [code(12, "S"), code(12, "H"), code(12, "D"), code(6, "S"), code(6, "C")]);
  assert.equal(playLabel(fullHouse), "三带二 QQQ66");
  assert.equal(playLabel(play(1, "pair", [code(10, "S"), code(10, "C")])), "对子 10 10");
  assert.equal(playLabel(play(1, "single", [53])), "大王");
  assert.equal(playLabel(play(1, "pair", [52, 52])), "一对小王");
  assert.equal(playLabel(play(1, "joker_bomb", [52, 52, 53, 53])), "天王炸");
  assert.equal(playLabel(pass(2)), "过");
  assert.equal(cardWord(53), "大王");
  setLang("en");
  assert.equal(playLabel(fullHouse), "full house Qs over 6s");
  assert.equal(playLabel(play(1, "bomb", [code(9, "S"), code(9, "C"), code(9, "D"), code(9, "H")])), "4-card bomb of 9s");
  assert.equal(playLabel(play(1, "tube", [12, 13, 16, 17, 20, 21])), "tube 5-7");
  assert.equal(playLabel(play(1, "single", [52])), "small joker");
  assert.equal(playLabel(pass(2)), "Pass");
  assert.equal(cardWord(code(3, "S")), "♠3");
  setLang("zh");
});

const won = [play(0, "single", [4]), play(1, "single", [8]), pass(2), pass(3), pass(0)];
const lead = play(1, "pair", [12, 13], { by: "away" });

test("the deal's tricks: the finished ones, then the one under way", () => {
  assert.deepEqual(tricksOf({ history: [won], trick: [lead] }), [won, [lead]]);
  assert.deepEqual(tricksOf({ history: [won], trick: [] }), [won]);
  assert.deepEqual(tricksOf({}), []);
});

test("a trick just won stays on the table until the next play", () => {
  const shown = tableMoves({ phase: "play", history: [won], trick: [] });
  assert.equal(shown.previous, true);
  assert.equal(shown.top, won[1]);
  assert.equal(shown.moves[0], won[4]);
  const next = tableMoves({ phase: "play", history: [won], trick: [lead] });
  assert.equal(next.previous, false);
  assert.equal(next.top, lead);
  assert.deepEqual(next.moves.filter(Boolean), [lead]);
  assert.equal(tableMoves({ phase: "return", history: [], trick: [] }).top, null);
  assert.equal(tableMoves({ phase: "deal_over", history: [won], trick: [] }).top, null);
});

test("new moves are those made in the same deal, across a trick's end", () => {
  const before = { phase: "play", deal: 1, history: [], trick: won.slice(0, 3) };
  assert.deepEqual(newMoves(before, { phase: "play", deal: 1, history: [won], trick: [] }), won.slice(3));
  assert.deepEqual(newMoves(before, { phase: "play", deal: 1, history: [won], trick: [lead] }), [...won.slice(3), lead]);
  assert.deepEqual(newMoves(before, { phase: "return", deal: 2, history: [], trick: [] }), []);
  assert.deepEqual(newMoves(null, { phase: "play", deal: 1, history: [won], trick: [] }), []);
});
