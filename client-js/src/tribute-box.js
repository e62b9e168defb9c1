// The tribute box at the table's centre: who pays whom which card, who returns what (and whether the
// timer or our bot did it), and who the return still waits for, with its clock. Laid out from the view
// only; the main module lends its seat names, card drawing and countdowns.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardWord } from "./reading.js";
import { moveMark } from "./story.js";

/** The box, from the deal's start through the return phase (gone at the first play); null without one. */
export function tributeBox(view, { seatName, cardEl, countdown }) {
  if (!view.tribute) return null;
  if (view.phase !== "return" && (view.played || []).length > 0) return null;
  const names = (seats) => seats.map(seatName).join(t("listSep"));
  return h("div", { class: "tribute", "data-testid": "tribute" },
    tributeLines(view, { seatName, cardEl }), view.tribute.refused ? null : returnWait(view, names, countdown));
}

/** The deal's tribute at the top of its history: the box goes at the first play (two seconds into the
 * deal with bots at their pace), and which cards changed hands is the table's to know all deal long. */
export function tributeRecord(view, helpers) {
  return view.tribute ? h("section", { class: "tribute tribute-record", "data-testid": "history-tribute" },
    tributeLines(view, helpers)) : null;
}

/** Who paid whom which card and who returned what, or the refusal. */
function tributeLines(view, { seatName, cardEl }) {
  const tr = view.tribute;
  // two givers hold them "between them" (it read as if each held both)
  const givers = tr.givers || [];
  const named = (seat) => (seat === view.seat ? t("you2") : seatName(seat)); // "you", as in the lines below
  if (tr.refused) return t(givers.length > 1 ? "refusedTwo" : "refused", { names: givers.map(named).join(t("listSep")) });
  // who gives whom, with "you" for this seat (it read its own name as if someone else had paid)
  const words = (key, { from, to }) => t(from === view.seat ? `${key}Me` : key,
    { from: seatName(from), to: named(to) });
  // a joker named in words too (the small card's sideways BIG/SMALL was unreadable at a phone's size)
  const card = (code) => [cardEl(code, view.level, { small: true }),
    code >= 52 ? h("span", { class: "card-word", text: cardWord(code) }) : null];
  return [
    h("div", { class: "tribute-title", text: tr.kind === "double" ? t("doubleTribute") : t("singleTribute") }),
    (tr.gifts || []).map((g) => h("div", { class: "tribute-line" }, words("tributeLine", g), " ", card(g.card))),
    (tr.returns || []).map((g) => h("div", { class: "tribute-line" }, words("returnLine", g), " ", card(g.card), moveMark(g))),
  ];
}

/** Who still owes a return, and the clock. The seat that owes one is told so in the message line
 * (which card, to whom): here it is not named to itself. */
function returnWait(view, names, countdown) {
  const pending = view.phase === "return" ? view.tribute.pending || [] : [];
  if (!pending.length) return null;
  const others = pending.filter((seat) => seat !== view.seat);
  const clock = countdown(view.deadline, "countdown");
  if (!others.length && !clock) return null;
  return h("div", { class: "tribute-line waiting-line" },
    others.length ? [t("waitReturn", { names: names(others) }), " "] : null, clock);
}

/**
 * The tribute card this seat was just handed and still holds unplayed, with what it was: the tribute
 * received ("gift", while returns are made and until this seat's first play) or the card returned to
 * a payer ("return", until its first play: the box that told it goes at the deal's first play, at
 * once when a bot leads). Null when there is none.
 */
export function receivedCard(view) {
  const tr = view.tribute;
  const me = view.seat;
  if (!tr || tr.refused || me === null || me === undefined) return null;
  const unplayed = view.phase === "return" || (view.phase === "play" && (view.counts || [])[me] === 27);
  if (!unplayed) return null;
  const gift = (tr.gifts || []).find((g) => g.to === me);
  if (gift) return { card: gift.card, kind: "gift" };
  const back = view.phase === "play" ? (tr.returns || []).find((g) => g.to === me) : undefined;
  return back ? { card: back.card, kind: "return" } : null;
}
