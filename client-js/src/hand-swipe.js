// Selecting cards by sliding over them, as the Guandan apps do: a straight or a tube is one stroke on a
// phone instead of five or six taps. Press a card and slide: every card between it and the one under the
// finger takes the opposite of the pressed card's state (select, or unselect); cards slid back over get
// their state back. A press that never leaves its card stays a tap (the card's own click handles it).

/** The selection after a slide from key `from` to key `to` over the hand's keys in `order`, starting
 * from the selection `before` (a Set of keys). */
export function swept(order, before, from, to) {
  const a = order.indexOf(from);
  const b = order.indexOf(to);
  const after = new Set(before);
  if (a < 0 || b < 0) return after;
  const select = !before.has(from);
  for (let i = Math.min(a, b); i <= Math.max(a, b); i++) {
    if (select) after.add(order[i]);
    else after.delete(order[i]);
  }
  return after;
}

const CARD = "[data-testid=hand]:not(.returning) [data-key]"; // one card is returned: nothing to slide

/** Listen for slides over the hand, once. `selected()` is the current selection; `select(keys)` makes
 * `keys` the selection (and renders). */
export function slideToSelect({ selected, select }) {
  let slide = null; // { order, before, from, last, moved }
  let swallowClick = false;
  document.addEventListener("pointerdown", (e) => {
    const card = e.button === 0 && e.target.closest?.(CARD);
    if (!card) return;
    const order = [...card.closest("[data-testid=hand]").querySelectorAll("[data-key]")].map((c) => c.dataset.key);
    slide = { order, before: new Set(selected()), from: card.dataset.key, last: card.dataset.key, moved: false };
  });
  document.addEventListener("pointermove", (e) => {
    if (!slide) return;
    const key = document.elementFromPoint(e.clientX, e.clientY)?.closest?.(CARD)?.dataset.key;
    if (!key || key === slide.last) return;
    slide.last = key;
    slide.moved = true;
    select(swept(slide.order, slide.before, slide.from, key));
  });
  const end = () => {
    if (slide?.moved) { // the card under the pointer would take the release as a tap
      swallowClick = true;
      setTimeout(() => { swallowClick = false; }, 0);
    }
    slide = null;
  };
  document.addEventListener("pointerup", end);
  document.addEventListener("pointercancel", end);
  document.addEventListener("click", (e) => {
    if (swallowClick && e.target.closest?.(CARD)) e.stopPropagation();
  }, true);
}
