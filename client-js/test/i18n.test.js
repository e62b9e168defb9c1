import assert from "node:assert/strict";
import { test } from "node:test";
import { TEXT, currentLang, serverText, setLang, t, tIn } from "../src/i18n.js";

test("Chinese is the default language", () => {
  assert.equal(currentLang(), "zh");
  assert.equal(t("play"), "出牌");
});

test("every label exists in both languages", () => {
  const zh = new Set(Object.keys(TEXT.zh));
  const en = new Set(Object.keys(TEXT.en));
  assert.deepEqual([...zh].filter((k) => !en.has(k)), []);
  assert.deepEqual([...en].filter((k) => !zh.has(k)), []);
  for (const table of ["kinds", "presets", "presetNotes", "by", "byShort"]) {
    assert.deepEqual(Object.keys(TEXT.zh[table]).sort(), Object.keys(TEXT.en[table]).sort(), table);
  }
  assert.equal(TEXT.zh.places.length, 4);
  assert.equal(TEXT.en.places.length, 4);
});

test("placeholders are filled, and English is the fallback", () => {
  setLang("en");
  assert.equal(t("deal", { n: 3 }), "Deal 3");
  assert.equal(t("turnOf", { name: "Bo" }), "Waiting for Bo");
  setLang("zh");
  assert.equal(t("deal", { n: 3 }), "第 3 局");
  assert.equal(tIn("kinds", "straight_flush"), "同花顺");
  assert.equal(t("no-such-label"), "no-such-label");
});

test("a Chinese name meets the characters around it without a space, a Latin one or a number with one", () => {
  setLang("zh");
  assert.equal(t("refused", { names: "你" }), "抗贡：你有两张大王，本局不进贡"); // it read "你 有两张大王"
  assert.equal(t("refused", { names: "Bella" }), "抗贡：Bella 有两张大王，本局不进贡");
  assert.equal(t("refused", { names: "机器人 2" }), "抗贡：机器人 2 有两张大王，本局不进贡");
  assert.equal(t("takeover", { from: "小波", to: "机器人 2" }), "小波出完了，机器人 2 接风");
  assert.equal(t("turnOf", { name: "安娜" }), "等待安娜出牌");
  assert.equal(t("turnOf", { name: "Bo" }), "等待 Bo 出牌");
  assert.equal(t("deal", { n: 3 }), "第 3 局");
  assert.equal(t("aTryOf", { n: 2, of: 3 }), "第2/3次");
});

test("every label the client asks for is there", async () => {
  const { readFile, readdir } = await import("node:fs/promises");
  const src = new URL("../src/", import.meta.url);
  const files = (await readdir(src)).filter((f) => f.endsWith(".js"));
  const source = (await Promise.all(files.map((f) => readFile(new URL(f, src), "utf8")))).join("\n");
  const used = new Set([...source.matchAll(/\bt\("(\w+)"/g)].map((m) => m[1]));
  assert.ok(used.size > 50);
  assert.deepEqual([...used].filter((k) => !(k in TEXT.zh) || !(k in TEXT.en)), []);
});

test("the server's reasons show in the chosen language, English when there is no Chinese", () => {
  const reply = { reason: "play 99: the lowest pair that beats 88", reason_zh: "出99：能管88的最小对子" };
  setLang("zh");
  assert.equal(serverText(reply.reason, reply.reason_zh), "出99：能管88的最小对子");
  assert.equal(serverText("pass", undefined), "pass", "an older server: English only");
  assert.equal(serverText("pass", ""), "pass");
  setLang("en");
  assert.equal(serverText(reply.reason, reply.reason_zh), "play 99: the lowest pair that beats 88");
  setLang("zh");
});

test("English shows no Chinese text or full-width punctuation, except the switch back to Chinese", async () => {
  const cjk = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;
  const found = [];
  const walk = (value, path) => {
    if (typeof value === "string") {
      if (cjk.test(value) && path !== "language") found.push(`${path}: ${value}`);
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
    }
  };
  walk(TEXT.en, "");
  assert.deepEqual(found, []);
  // separators (": ", ", ") come from t("colon") and t("listSep"); Chinese lives in the language tables
  const { readFile, readdir } = await import("node:fs/promises");
  const src = new URL("../src/", import.meta.url);
  // the language tables, and seat-names.js, which reads the server's own Chinese wording
  const tables = ["i18n.js", "refusals.js", "story-text.js", "seat-names.js"];
  const files = (await readdir(src)).filter((f) => f.endsWith(".js") && !tables.includes(f));
  for (const f of files) {
    const code = (await readFile(new URL(f, src), "utf8")).split("\n").filter((line) => !/^\s*(\/\/|\/?\*)/.test(line));
    assert.deepEqual(code.filter((line) => /[\u3000-\u303f\uff00-\uffef]/.test(line)), [], f);
  }
});
