// The hand is laid out by rank groups, and a group never breaks across rows: a row ends early whenever
// the next group is too long for what is left of it. On a phone held upright an unlucky hand (few ranks,
// long groups: six 10s, four Js) then took a third row and pushed Play below the screen. Such a hand
// flows card by card instead (a group may then break across rows), when that takes fewer rows.

let fitted = { key: null, flow: false, tight: false }; // the last hand measured, and how it was laid out
// how much closer the cards of a hand may stand to save a row (an 18-card hand on a 320 px phone had its
// big joker alone on a second row; the apps squeeze a hand into the row instead)
const SQUEEZE = ".15rem";

/** Lay `hand` (the [data-testid=hand] element, or null) out in as few rows as it can take. The same hand
 * in the same width is laid out as before without measuring it twice again (picking a card renders the
 * table, and only lifts the card). */
export function fitHand(hand) {
  if (!hand) return;
  const key = `${hand.clientWidth}|${[...hand.querySelectorAll(".group")].map((g) => `${g.className}:${g.childElementCount}`).join(",")}|`
    + [...hand.querySelectorAll(".card")].map((c) => c.dataset.key).join(",");
  if (key === fitted.key) {
    hand.classList.toggle("flow", fitted.flow);
    squeeze(hand, fitted.tight);
    return;
  }
  hand.classList.remove("flow");
  squeeze(hand, false);
  let taken = rows(hand.querySelectorAll(".group"));
  if (taken >= 2) {
    hand.classList.add("flow");
    const flowed = rows(hand.querySelectorAll(".card"));
    if (flowed >= taken) hand.classList.remove("flow");
    else taken = flowed;
  }
  if (taken >= 2) {
    squeeze(hand, true);
    if (rows(hand.querySelectorAll(".card")) >= taken) squeeze(hand, false);
  }
  fitted = { key, flow: hand.classList.contains("flow"), tight: hand.style.getPropertyValue("--overlap") !== "" };
}

/** Cards a little closer (the overlap of the screen's size, less SQUEEZE), or as the screen has them. */
function squeeze(hand, on) {
  hand.style.removeProperty("--overlap");
  if (!on) return;
  const overlap = getComputedStyle(hand).getPropertyValue("--overlap").trim();
  if (overlap) hand.style.setProperty("--overlap", `calc(${overlap} - ${SQUEEZE})`);
}

/** Fit the hand and the actions again whenever the window changes size (a phone turned sideways, say). */
export function keepHandFitted() {
  window.addEventListener("resize", () => {
    fitHand(document.querySelector("[data-testid=hand]"));
    pinActions(document.querySelector(".table > .actions"));
  });
}

// offsetTop, not the bounding box: a selected card is lifted by a transform but stays in its row
function rows(elements) {
  return new Set([...elements].map((e) => e.offsetTop)).size;
}

/**
 * Keep Play, Pass, Suggest and Sort on the screen. On a small phone a refusal, a suggestion's line or the
 * card counter made the table taller than the screen and pushed them below it, with the turn timer
 * running. The action bar sticks to the screen's bottom (CSS); this lets the rows under its first one
 * (auto-play, history, sound) hang below the screen instead of covering more of the hand.
 */
export function pinActions(actions) {
  if (!actions) return;
  const first = actions.querySelector(".row");
  const tail = first ? Math.max(0, Math.round(actions.getBoundingClientRect().bottom - first.getBoundingClientRect().bottom)) : 0;
  actions.style.setProperty("--actions-tail", `${tail}px`);
  // a backing under the buttons only where they may stand over the hand
  actions.classList.toggle("pinned", document.documentElement.scrollHeight > window.innerHeight);
}
