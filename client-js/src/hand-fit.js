// The hand is laid out by rank groups, and a group never breaks across rows: a row ends early whenever
// the next group is too long for what is left of it. On a phone held upright an unlucky hand (few ranks,
// long groups: six 10s, four Js) then took a third row and pushed Play below the screen. Such a hand
// flows card by card instead (a group may then break across rows), when that takes fewer rows.

let fitted = { key: null, flow: false }; // the last hand measured, and how it was laid out

/** Lay `hand` (the [data-testid=hand] element, or null) out in as few rows as it can take. The same hand
 * in the same width is laid out as before without measuring it twice again (picking a card renders the
 * table, and only lifts the card). */
export function fitHand(hand) {
  if (!hand) return;
  const key = `${hand.clientWidth}|${[...hand.querySelectorAll(".group")].map((g) => `${g.className}:${g.childElementCount}`).join(",")}|`
    + [...hand.querySelectorAll(".card")].map((c) => c.dataset.key).join(",");
  if (key === fitted.key) {
    hand.classList.toggle("flow", fitted.flow);
    return;
  }
  hand.classList.remove("flow");
  const byGroup = rows(hand.querySelectorAll(".group"));
  if (byGroup >= 2) {
    hand.classList.add("flow");
    if (rows(hand.querySelectorAll(".card")) >= byGroup) hand.classList.remove("flow");
  }
  fitted = { key, flow: hand.classList.contains("flow") };
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
