import assert from "node:assert/strict";
import { test } from "node:test";
import { inviteLinks, isLoopback, qrImage } from "../src/invite.js";
import { takenOver } from "../src/present.js";

test("loopback addresses are the ones only this machine can open", () => {
  for (const url of ["http://127.0.0.1:8765/", "http://127.8.0.1/", "http://localhost:1/", "http://[::1]:8765/", "http://a.localhost/"]) {
    assert.equal(isLoopback(url), true, url);
  }
  for (const url of ["http://192.168.1.5:8765/", "https://gd.example.org/", "http://[fd00::2]:8765/", "http://127.example/"]) {
    assert.equal(isLoopback(url), false, url);
  }
});

test("invite links come from the server's addresses, not the one the host typed", () => {
  const lan = ["http://192.168.1.5:8765/", "http://10.0.0.7:8765/"];
  assert.deepEqual(inviteLinks("K7WQ3M", lan, "http://127.0.0.1:8765"), {
    links: ["http://192.168.1.5:8765/?room=K7WQ3M", "http://10.0.0.7:8765/?room=K7WQ3M"], local: false });
  // the page's own address, when another reachable one (a proxy the server was not told about), comes last
  assert.deepEqual(inviteLinks("K7WQ3M", lan, "https://gd.example.org").links.at(-1), "https://gd.example.org/?room=K7WQ3M");
  assert.equal(inviteLinks("K7WQ3M", lan, "http://192.168.1.5:8765").links.length, 2, "no duplicate");
  // a server on loopback behind a proxy: the page's address is the one to share
  assert.deepEqual(inviteLinks("K7WQ3M", ["http://127.0.0.1:8765/"], "https://gd.example.org"),
    { links: ["https://gd.example.org/?room=K7WQ3M"], local: false });
  // nothing but loopback: one link, and the panel warns
  assert.deepEqual(inviteLinks("K7WQ3M", ["http://127.0.0.1:8765/"], "http://127.0.0.1:8765"),
    { links: ["http://127.0.0.1:8765/?room=K7WQ3M"], local: true });
  // an older server names none: the page's own address
  assert.deepEqual(inviteLinks("K7WQ3M", undefined, "http://127.0.0.1:8765").links, ["http://127.0.0.1:8765/?room=K7WQ3M"]);
});

test("the QR code is an SVG image, made once per link", () => {
  const url = qrImage("http://192.168.1.5:8765/?room=K7WQ3M");
  assert.match(url, /^data:image\/svg\+xml;charset=utf-8,/);
  assert.match(decodeURIComponent(url), /<svg[^>]*viewBox="0 0 \d+ \d+"[\s\S]*<path d="M/);
  assert.equal(qrImage("http://192.168.1.5:8765/?room=K7WQ3M"), url);
  assert.notEqual(qrImage("http://192.168.1.5:8765/?room=ABCDEF"), url);
});

test("the table hears of a person who took over a bot's seat, once", () => {
  const seat = (kind, nickname, replaced = null) => ({ kind, nickname, replaced });
  const before = { code: "K7WQ3M", seats: [seat("human", "Ann"), seat("bot", "Bot 2"), seat("human", "Bo"), seat("bot", "Bot 4")] };
  const after = { ...before, seats: [before.seats[0], before.seats[1], before.seats[2], seat("human", "Cy", "Bot 4")] };
  assert.deepEqual(takenOver(before, after), [3]);
  assert.deepEqual(takenOver(after, after), [], "the next room message says nothing new");
  assert.deepEqual(takenOver(null, after), [], "a newcomer's first room message");
  assert.deepEqual(takenOver({ ...before, code: "ZZZZZZ" }, after), [], "another room");
});
