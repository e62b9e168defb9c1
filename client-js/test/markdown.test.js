import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { TEXT } from "../src/i18n.js";
import { renderMarkdown, slugify } from "../src/markdown.js";

const doc = (name) => readFile(new URL(`../../docs/${name}`, import.meta.url), "utf8");
const ids = (html) => [...html.matchAll(/<h\d id="([^"]+)"/g)].map((m) => m[1]);
const links = (html) => [...html.matchAll(/<a href="#([^"]+)"/g)].map((m) => m[1]);

test("heading anchors are made as GitHub makes them", () => {
  assert.equal(slugify("Tribute, return and refusal"), "tribute-return-and-refusal");
  assert.equal(slugify("Passing A and the end of the match"), "passing-a-and-the-end-of-the-match");
  assert.equal(slugify("领出、跟牌与过牌"), "领出跟牌与过牌");
  assert.equal(slugify("过A与整场结束"), "过a与整场结束");
  assert.equal(slugify("first_leader"), "first_leader");
});

test("ids and in-page links carry the prefix; other files become plain text or the links given", () => {
  const html = renderMarkdown(
    "# Top\n\n## Part\n\n## Part\n\nSee [part](#part), [the site](https://example.org/x), "
    + "[the protocol](protocol.md) and [中文](rules.zh.md).\n\n### `nanjing`\n",
    "p-", { "rules.zh.md": { href: "#p", "data-lang": "zh" } });
  assert.deepEqual(ids(html), ["p-top", "p-part", "p-part-1", "p-nanjing"]);
  assert.match(html, /<h3 id="p-nanjing"><code>nanjing<\/code><\/h3>/);
  assert.match(html, /<a href="#p-part">part<\/a>/);
  assert.match(html, /<a href="https:\/\/example.org\/x">the site<\/a>/);
  assert.match(html, /, the protocol and /);
  assert.match(html, /<a href="#p" data-lang="zh">中文<\/a>/);
});

for (const name of ["rules.md", "rules.zh.md"]) {
  test(`${name}: every in-page link leads to a heading, and every preset has its anchor`, async () => {
    const html = renderMarkdown(await doc(name), "rules-");
    const found = new Set(ids(html));
    const broken = links(html).filter((id) => !found.has(id));
    assert.deepEqual(broken, []);
    assert.ok(links(html).length > 15, "the contents link to the sections");
    for (const preset of Object.keys(TEXT.en.presets)) {
      assert.ok(found.has(`rules-${preset}`), preset);
    }
  });
}
