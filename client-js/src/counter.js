// The card counter (记牌器), a room option: per rank, how many cards are still out in the other three
// hands, as the server counted them from this seat's own view. Only laid out here.
import { rankLabel } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SPECIAL = ["big_joker", "small_joker", "wild", "level"];
const SPECIAL_LABEL = { big_joker: "bigJoker", small_joker: "smallJoker", wild: "wildShort", level: "levelShort" };

/** The counter's keys in the order players read them: the jokers, the level cards, then A down to 2. */
export function counterOrder(counts) {
  const ranks = Object.keys(counts).filter((k) => !SPECIAL.includes(k)).sort((a, b) => Number(b) - Number(a));
  return [...SPECIAL.filter((k) => k in counts), ...ranks];
}

export function counterStrip(view) {
  const counts = view.counter;
  if (!counts) return null;
  return h("div", { class: "counter", "data-testid": "counter", role: "group", "aria-label": t("counter") },
    h("span", { class: "counter-title", text: t("counter") }),
    counterOrder(counts).map((key) => h("span", { class: `counter-cell ${counts[key] ? "" : "gone"} ${SPECIAL.includes(key) ? key : ""}`,
      "data-rank": key },
    h("span", { class: "counter-rank", text: SPECIAL.includes(key) ? t(SPECIAL_LABEL[key]) : rankLabel(Number(key)) }),
    h("strong", { class: "counter-n", text: counts[key] }))));
}
