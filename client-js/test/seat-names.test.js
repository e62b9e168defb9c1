import assert from "node:assert/strict";
import { test } from "node:test";
import { spaceZh } from "../src/i18n.js";
import { nameSeats } from "../src/seat-names.js";

const names = ["Anna", "Bot 2", "Bo", "Bot 4"];
const name = (seat) => names[seat];

test("a result's team and seat numbers read as the players' names, in both languages", () => {
  assert.equal(nameSeats("Team 1 won with 1st+2nd: up 3 from 2 to 5.", name),
    "Anna & Bo's team won with 1st+2nd: up 3 from 2 to 5.");
  assert.equal(nameSeats("Team 2 failed its A attempt 2 of 2 and falls back to 2.", name),
    "Bot 2 & Bot 4's team failed its A attempt 2 of 2 and falls back to 2.");
  assert.equal(nameSeats("Seat 3 was 1st 3 deals running: bonus 1 for team 1.", name),
    "Bo was 1st 3 deals running: bonus 1 for Anna & Bo's team.");
  // Chinese as the result shows it: named here, spaced (where a letter or digit meets a character) by spaceZh
  const shown = (text, who = name) => spaceZh(nameSeats(text, who));
  assert.equal(shown("2、4号队以头游+四游取胜，仍为A级。"), "Bot 2、Bot 4 以头游+四游取胜，仍为 A 级。");
  assert.equal(shown("4号连续3局末游：2、4号队降1级。"), "Bot 4 连续 3 局末游：Bot 2、Bot 4 降 1 级。");
  // only where Latin meets Chinese: a Chinese name needs no space, nor a name before punctuation
  const zh = ["安娜", "机器人 2", "小春", "机器人 4"];
  assert.equal(shown("1、3号队以头游+二游取胜；由2号先出。", (s) => zh[s]), "安娜、小春以头游+二游取胜；由机器人 2 先出。");
});

test("names are put in once: a nickname that looks like a number is left alone", () => {
  const odd = ["Team 2", "1号", "x", "y"];
  assert.equal(nameSeats("Team 1 won.", (s) => odd[s]), "Team 2 & x's team won.");
  assert.equal(spaceZh(nameSeats("1、3号队取胜", (s) => odd[s])), "Team 2、x 取胜");
  assert.equal(nameSeats("", name), "");
  assert.equal(nameSeats(undefined, name), undefined);
  assert.equal(nameSeats("Won with 1st+3rd: up 2.", name), "Won with 1st+3rd: up 2.");
});
