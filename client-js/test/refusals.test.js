import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { REFUSAL_CODES, cardText, refusalText } from "../src/refusals.js";

// card codes: (rank - 2) * 4 + suit, suits S H C D = 0..3; jokers 52, 53
const code = (rank, suit) => (rank - 2) * 4 + "SHCD".indexOf(suit);
const ENGINE_CARD = /(?<![A-Za-z])([SHCD][2-9TJQKA]|SB|HR)(?![A-Za-z0-9])/;
// Latin letters in the Chinese page: only rank letters (QQQ66, 10 J Q K A) and "AI" are words we use
// rank letters (QQQ66), "AI" and a room's code (the one typed: K7WQ3M) are ours to show in Chinese
const latinWords = (text) => (text.match(/[A-Za-z0-9]+/g) || [])
  .filter((w) => /[A-Za-z]/.test(w) && !/^([JQKA0-9]+|AI|[A-Z0-9]{6})$/.test(w));

async function documentedCodes() {
  const doc = await readFile(new URL("../../docs/protocol.md", import.meta.url), "utf8");
  const list = doc.split("All codes:")[1].split("###")[0];
  return [...list.matchAll(/`(\w+)`/g)].map((m) => m[1]);
}

// fields as the server sends them (docs/protocol.md), with jokers, a wild card and a 10 among the cards
const FIELDS = {
  frame_too_large: { size: 20010, limit: 16384 },
  rate_limited: { rate: 30, retry_after: 0.4 },
  too_many_rooms: { retry_after: 27.2 },
  too_many_joins: { retry_after: 1 },
  too_many_attempts: { retry_after: 240 },
  protocol_mismatch: { server: 1, client: 2 },
  room_not_found: { code: "K7WQ3M" },
  bad_token: { code: "K7WQ3M" },
  room_full: { code: "K7WQ3M" },
  seat_taken: { seat: 1 },
  already_seated: { seat: 0, code: "K7WQ3M" },
  not_host: { action: "add_bot" },
  already_started: { action: "start" },
  seats_empty: { seats: [2, 3] },
  not_a_bot: { seat: 2 },
  bad_rules: { option: "joker_pair_in_full_house" },
  bad_bot: { bots: ["random", "heuristic", "strong"] },
  invalid_message: { where: ["cards"] },
  seat_lost: { seat: 1, code: "K7WQ3M" },
  already_ready: { waiting: [1, 3] },
  bad_action: { need: "cards" },
  bad_seat: { need: "seat" },
  wrong_phase: { action: "return", phase: "play" },
  not_your_turn: { action: "play", turn: 2 },
  not_your_cards: { cards: [code(9, "S")], held: 1 },
  not_a_play: { cards: [code(8, "D"), code(10, "C"), code(12, "H"), 52] },
  does_not_beat: {
    play: { kind: "single", value: 4, cards: [code(4, "S")], name: "4", name_zh: "4" },
    top: { kind: "full_house", value: 12, cards: [code(6, "S"), code(6, "H"), code(12, "S"), code(12, "H"), code(12, "C")],
      seat: 3, name: "QQQ66", name_zh: "QQQ66" },
    level: 2,
  },
  not_eligible: { card: 53, choices: [code(2, "C"), code(2, "D"), code(10, "S"), code(3, "H")] },
  match_over: { action: "play" },
};
const seatName = (i) => ["安娜", "小波", "机器人 3", "机器人 4"][i];

test("every code the server documents, and this client's own, has words in both languages", async () => {
  const documented = await documentedCodes();
  assert.ok(documented.length > 35, documented.join(" "));
  const missing = [...documented, "timeout", "not_connected"].filter((c) => !REFUSAL_CODES.includes(c));
  assert.deepEqual(missing, [], `codes without words: ${missing.join(", ")}`);
});

test("no refusal shows an engine card code, and the Chinese ones no English", () => {
  for (const codeName of REFUSAL_CODES) {
    for (const fields of [FIELDS[codeName] || {}, {}]) {
      const err = { code: codeName, fields, message: `${codeName}: D8 CT HQ is not a legal play (HR SB)` };
      const zh = refusalText(err, "zh", seatName);
      const en = refusalText(err, "en", seatName);
      for (const [lang, text] of [["zh", zh], ["en", en]]) {
        assert.ok(text && !/undefined|null|NaN|\{|\[object/.test(text), `${codeName} ${lang}: ${text}`);
        assert.doesNotMatch(text, ENGINE_CARD, `${codeName} ${lang}: ${text}`);
      }
      assert.deepEqual(latinWords(zh), [], `${codeName} zh: ${zh}`);
      assert.match(zh, /[\u4e00-\u9fff]/, `${codeName} zh: ${zh}`);
      assert.notEqual(zh, en);
    }
  }
});

test("refusals name cards by their faces and plays as read", () => {
  const zh = (c) => refusalText({ code: c, fields: FIELDS[c] }, "zh", seatName);
  const en = (c) => refusalText({ code: c, fields: FIELDS[c] }, "en", seatName);
  assert.equal(zh("not_a_play"), "不是合法牌型：♦8 ♣10 ♥Q 小王");
  assert.equal(en("not_a_play"), "Not a play: ♦8 ♣10 ♥Q small joker");
  assert.equal(zh("does_not_beat"), "你的单张 4 管不上机器人 4 的三带二 QQQ66");
  assert.equal(en("does_not_beat"), "Your single 4 does not beat 机器人 4's full house QQQ66");
  const jokers = { ...FIELDS.does_not_beat, top: { kind: "pair", value: 17, cards: [53, 53], seat: 1,
    name: "the two big jokers", name_zh: "一对大王" } };
  assert.equal(refusalText({ code: "does_not_beat", fields: jokers }, "zh", seatName), "你的单张 4 管不上小波的一对大王");
  assert.equal(refusalText({ code: "does_not_beat", fields: jokers }, "en", seatName), "Your single 4 does not beat 小波's two big jokers");
  assert.equal(zh("not_eligible"), "大王 不能还；可以还：♣2 ♦2 ♠10 ♥3");
  assert.equal(zh("not_your_turn"), "还没轮到你，现在轮到机器人 3");
  assert.equal(zh("not_your_cards"), "你只有 1 张 ♠9");
  assert.equal(zh("already_ready"), "你已经准备好了，正在等小波、机器人 4");
  // a name or a seat's number meets the characters with a space, as does_not_beat's always did
  assert.equal(zh("seats_empty"), "机器人 3、机器人 4 还空着：补机器人或等玩家加入");
  const bella = (i) => ["Bella", "小波", "机器人 3", "机器人 4"][i];
  assert.equal(refusalText({ code: "not_your_turn", fields: { action: "pass", turn: 0 } }, "zh", bella), "还没轮到你，现在轮到 Bella");
  // a taken seat by its number, and who sits there ("安娜已经有人了" named the person as a seat)
  assert.equal(zh("seat_taken"), "座位 2 已经有人了：小波");
  assert.equal(en("seat_taken"), "Seat 2 is taken by 小波");
  assert.equal(refusalText({ code: "seat_taken", fields: { seat: 1 } }, "zh"), "座位 2 已经有人了");
});

test("the two jokers are told apart in both languages", () => {
  assert.equal(cardText(53, "zh"), "大王");
  assert.equal(cardText(52, "zh"), "小王");
  assert.equal(cardText(53, "en"), "big joker");
  assert.equal(cardText(52, "en"), "small joker");
  assert.equal(cardText(code(10, "H"), "en"), "♥10");
});

test("a code without words: a plain sentence in Chinese, the server's message in English", () => {
  const err = { code: "from_the_future", fields: {}, message: "something new went wrong" };
  assert.equal(refusalText(err, "zh"), "操作没有成功");
  assert.equal(refusalText(err, "en"), "something new went wrong");
});
