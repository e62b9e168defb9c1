// The tribute box at the table's centre: who pays whom which card, who returns what (and whether the
// timer or our bot did it), and who the return still waits for, with its clock. Laid out from the view
// only; the main module lends its seat names, card drawing and countdowns.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardWord } from "./reading.js";
import { moveMark } from "./story.js";

/** The box, from the deal's start through the return phase (gone at the first play); null without one. */
export function tributeBox(view, { seatName, cardEl, countdown }) {
  const tr = view.tribute;
  if (!tr) return null;
  if (view.phase !== "return" && (view.played || []).length > 0) return null;
  const names = (seats) => seats.map(seatName).join(t("listSep"));
  if (tr.refused) return h("div", { class: "tribute", "data-testid": "tribute" }, t("refused", { names: names(tr.givers || []) }));
  // who gives whom, with "you" for this seat (it read its own name as if someone else had paid)
  const words = (key, { from, to }) => t(from === view.seat ? `${key}Me` : key,
    { from: seatName(from), to: to === view.seat ? t("you2") : seatName(to) });
  // a joker named in words too (the small card's sideways BIG/SMALL was unreadable at a phone's size)
  const card = (code) => [cardEl(code, view.level, { small: true }),
    code >= 52 ? h("span", { class: "card-word", text: cardWord(code) }) : null];
  return h("div", { class: "tribute", "data-testid": "tribute" },
    h("div", { class: "tribute-title", text: tr.kind === "double" ? t("doubleTribute") : t("singleTribute") }),
    (tr.gifts || []).map((g) => h("div", { class: "tribute-line" }, words("tributeLine", g), " ", card(g.card))),
    (tr.returns || []).map((g) => h("div", { class: "tribute-line" }, words("returnLine", g), " ", card(g.card), moveMark(g))),
    returnWait(view, names, countdown));
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
