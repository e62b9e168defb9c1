// The story of the deal on screen: plays laid out as read (wild cards in their place, marked with the
// rank they stand for), marks on moves made for a player, the history drawer, the leftover hands at
// the deal's end, toasts when the timer plays, the dropout bot takes a seat over or its player is back,
// and the summary a returning player gets of what was played in their name. Everything here comes
// from the view (server/story.py).
import { yourTurn } from "./alerts.js";
import { isWild } from "./cards.js";
import { h } from "./dom.js";
import { t, tIn } from "./i18n.js";
import { MARKED, TOASTED, cardWord, newMoves, playLabel, playRanks, rankWord, tricksOf } from "./reading.js";

const TOAST_MS = 5000;
const MAX_TOASTS = 3;
const AWAY_MARKS = new Set(["dropout", "left"]); // the view's auto marks of a seat our bot plays for

/** Open drawer, dismissed summary, live toasts: tests and tools read it as globalThis.guandan.story. */
export const story = { open: false, dismissed: null, toasts: [], pinned: true, awayTold: new Set() };
let draw = { cardEl: null, seatName: String, render() {}, countdown: () => null };

/** The main module's card drawing, seat names, countdowns and render, which the pieces here use. */
export function storyHelpers(helpers) {
  draw = helpers;
}

export function toggleHistory(open = !story.open) {
  story.open = open;
  if (open) story.pinned = true; // it opens at the latest trick, which is what a player looks back for
  draw.render();
}

/** After each render: an open drawer that was at its end stays at its end as plays come in. */
export function pinHistory(root) {
  const drawer = root.querySelector("[data-testid=history]");
  if (drawer && story.pinned) drawer.scrollTop = drawer.scrollHeight;
}

function followScroll(e) {
  const el = e.currentTarget;
  story.pinned = el.scrollTop + el.clientHeight >= el.scrollHeight - 8;
}

/** A play's cards in the order it reads; a wild card carries the rank it stands for. */
export function playedCards(move, level, opts = {}) {
  const ranks = playRanks(move);
  const size = opts.big ? { mid: true } : { small: true };
  return h("span", { class: `played ${opts.big ? "big" : ""}`, "data-testid": opts.testid },
    move.cards.map((code, i) => {
      const card = draw.cardEl(code, level, size);
      if (!isWild(code, level)) return card;
      const rank = rankWord(ranks[i]);
      return h("span", { class: "stand-in", "data-as": ranks[i], title: t("standsFor", { rank }) },
        card, h("span", { class: "as-rank", "aria-label": t("standsFor", { rank }), text: rank }));
    }));
}

/** A small mark on a move our bot, the timer or auto-play made; `words` spells it out. */
export function moveMark(move, words = false) {
  if (!MARKED.has(move.by)) return null;
  const name = tIn("by", move.by);
  return h("span", { class: `badge by ${move.by}`, "data-testid": "by-mark", "data-by": move.by, title: name,
    text: words ? name : tIn("byShort", move.by) });
}

export function historyButton() {
  return h("button", { class: "small", "data-testid": "history-open", "aria-expanded": story.open ? "true" : "false",
    onclick: () => toggleHistory() }, t("history"));
}

function moveRow(move, level) {
  return h("li", { class: `move ${move.type}`, "data-testid": "move", "data-seat": move.seat, "data-by": move.by,
    "data-type": move.type, "data-kind": move.kind, "data-cards": (move.cards || []).join(",") },
    h("span", { class: "who", text: draw.seatName(move.seat) }),
    h("span", { class: "what", text: playLabel(move) }),
    moveMark(move, true),
    move.type === "play" ? playedCards(move, level) : null);
}

/** Every seat's cards still in hand once the deal is over (the whole table sees them then). */
export function leftoverBlock(view) {
  if (!view.leftover) return null;
  return h("section", { class: "leftover", "data-testid": "leftover" },
    h("h3", { text: t("leftover") }),
    view.leftover.map((cards, seat) => h("div", { class: "leftover-seat", "data-testid": `leftover-${seat}`,
      "data-cards": cards.join(",") },
      h("span", { class: "who", text: draw.seatName(seat) }),
      cards.length ? h("span", { class: "played" }, cards.map((c) => draw.cardEl(c, view.level, { small: true })))
        : h("span", { class: "hint", text: t("outOfCards") }))));
}

/** The deal's tricks in order, in a drawer over the table (a sheet from below on phones). */
export function historyDrawer(view) {
  if (!story.open) return null;
  const tricks = tricksOf(view);
  return h("aside", { class: "story-drawer", role: "dialog", "aria-label": t("history"), "data-testid": "history",
    "data-key": "history", onscroll: followScroll },
    h("header", { class: "story-head" },
      h("h2", { text: t("historyTitle", { n: view.deal }) }),
      h("button", { class: "small", "data-testid": "history-close", onclick: () => toggleHistory(false) }, t("close"))),
    draw.tributeRecord?.(view),
    tricks.length ? h("ol", { class: "tricks" }, tricks.map((trick, i) => h("li", { class: "trick", "data-testid": "trick" },
      h("h3", { text: t("trickN", { n: i + 1 }) }),
      h("ol", { class: "moves" }, trick.map((m) => moveRow(m, view.level))))))
      : h("p", { class: "hint", text: t("noPlays") }),
    leftoverBlock(view));
}

function summaryKey(box) {
  return `${box.n}:${JSON.stringify(box.moves[box.moves.length - 1])}`;
}

/** For a player back at the table: what our bot (or the timer) did in their name meanwhile. */
export function summaryPanel(view) {
  const box = view.in_your_name;
  if (!box || story.dismissed === summaryKey(box)) return null;
  const dismiss = () => dismissSummary(view);
  // closed as the other sheets are: a tap beside it, Escape (dismissSummary), or its button, kept in view
  return h("div", { class: "overlay", onclick: (e) => { if (e.target === e.currentTarget) dismiss(); } },
    h("div", { class: "panel result story-summary", role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title",
      "data-testid": "in-your-name" },
      h("h2", { id: "summary-title", text: t("inYourName") }),
      h("p", { text: t(box.n === 1 ? "inYourNameLineOne" : "inYourNameLine", { n: box.n }) }),
      h("ol", { class: "moves" }, box.moves.map((m, i) => h("li", { class: `move ${m.type}`, "data-testid": "summary-move",
        "data-type": m.type, "data-by": m.by, "data-deal": m.deal, "data-cards": (m.cards || [m.card]).join(",") },
        // the deal named where it begins ("Deal 1" on every row read as a list of deals)
        h("span", { class: "who", text: i && box.moves[i - 1].deal === m.deal ? "" : t("deal", { n: m.deal }) }),
        h("span", { class: "what", text: m.type === "return"
          ? t("returned", { card: cardWord(m.card), name: draw.seatName(m.to) }) : playLabel(m) }),
        moveMark(m, true),
        m.type === "play" ? playedCards(m, view.level) : null))),
      box.n > box.moves.length ? h("p", { class: "hint", text: t(box.n - box.moves.length === 1 ? "earlierOne" : "earlier", { n: box.n - box.moves.length }) }) : null,
      h("div", { class: "result-foot" },
        // the table under it may be waiting for this player, on a clock: said here
        yourTurn(view) ? h("p", { class: "turn-line mine", "data-testid": "summary-your-turn" },
          view.phase === "return" ? t("returnCard") : t("yourTurn"), " ", draw.countdown(view.deadline, "countdown")) : null,
        h("button", { class: "primary", "data-testid": "in-your-name-ok", onclick: dismiss }, t("gotIt")))));
}

/** Close the summary of what was played in your name, if it is up; whether it was. */
export function dismissSummary(view) {
  const box = view?.in_your_name;
  if (!box || story.dismissed === summaryKey(box)) return false;
  story.dismissed = summaryKey(box);
  draw.render();
  return true;
}

/** Note the moves new in this view: the table is told when the timer played, and when the dropout bot
 * takes a seat over; each of its later moves for someone else was a toast too, three at once covering the
 * levels and the seat across, while the seat's badge already said the bot plays it. */
export function noteMoves(before, after) {
  const moves = [...newReturns(before, after), ...newMoves(before, after)];
  for (const move of moves) {
    // the seats whose takeover was told, deal after deal, until their player acts or is back
    const told = story.awayTold.has(move.seat);
    if (move.by === "away") story.awayTold.add(move.seat);
    else story.awayTold.delete(move.seat);
    if (!TOASTED.has(move.by) || (move.by === "away" && move.seat !== after.seat && told)) continue;
    addToast({ move, me: after.seat });
  }
  for (const seat of backAtTheTable(before, after)) {
    // "Bo is away: the bot played …" stayed up after Bo was back: his return replaces it
    story.awayTold.delete(seat);
    story.toasts = story.toasts.filter((x) => x.move.seat !== seat);
    addToast({ move: { seat, type: "back", by: "back" }, me: after.seat });
  }
  // the server put this seat on auto-play: its turn timer ran out twice in a row (超时托管)
  const mine = after?.seat;
  if (before?.autoplay == null && after?.autoplay != null && moves.some((m) => m.seat === mine && m.by === "timer")) {
    addToast({ move: { seat: mine, type: "autoOn", by: "timer" }, me: mine });
  }
}

function addToast(toast) {
  story.toasts = [...story.toasts, toast].slice(-MAX_TOASTS); // a resync after a long gap: the latest few
  setTimeout(() => dropToast(toast), TOAST_MS);
}

/** The other seats whose player came back while our bot played for them (dropped out or left). */
function backAtTheTable(before, after) {
  if (!before?.auto || !after?.auto || before.deal !== after.deal) return [];
  const back = (mark, seat) => seat !== after.seat && !mark && AWAY_MARKS.has(before.auto[seat]);
  return after.auto.flatMap((mark, seat) => (back(mark, seat) ? [seat] : []));
}

/** Tribute cards returned between two views of a deal, as moves (a timer's return was told to nobody). */
function newReturns(before, after) {
  if (!before?.phase || !after?.phase || before.deal !== after.deal) return [];
  return (after.tribute?.returns || []).slice((before.tribute?.returns || []).length)
    .map((r) => ({ seat: r.from, type: "return", card: r.card, to: r.to, by: r.by }));
}

const TOAST_OF = { pass: "Pass", return: "Return", play: "" };

function toastText({ move, me }) {
  if (move.type === "back") return t("toastBack", { name: draw.seatName(move.seat) });
  if (move.type === "autoOn") return t("toastAutoOn");
  const mine = move.seat === me;
  const key = (move.by === "timer" ? "toastTimer" : "toastAway") + (mine ? "Me" : "") + TOAST_OF[move.type];
  const card = move.type === "return" ? cardWord(move.card) : null;
  return t(key, { name: draw.seatName(move.seat), play: move.type === "play" ? playLabel(move) : null, card });
}

/** The toasts over the table; none while the summary of moves made in one's name is up (it lists them,
 * and they piled up over it and the levels). `onlyMine`: those of moves made for this seat. */
export function toastLayer(view, { onlyMine = false } = {}) {
  const summaryUp = view?.in_your_name && story.dismissed !== summaryKey(view.in_your_name);
  const shown = onlyMine ? story.toasts.filter((x) => x.move.seat === view.seat) : story.toasts;
  return h("div", { class: "toasts", "aria-live": "polite", "data-testid": "toasts" },
    summaryUp ? null : shown.map((x) => h("div", { class: `toast ${x.move.by}`, "data-testid": "toast", "data-by": x.move.by,
      "data-seat": x.move.seat, "data-type": x.move.type, text: toastText(x), onclick: () => dropToast(x) })));
}

/** A tap puts a toast away at once: on a phone it stands over the levels for its few seconds. */
function dropToast(toast) {
  story.toasts = story.toasts.filter((x) => x !== toast);
  draw.render();
}
