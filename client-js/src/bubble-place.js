// Where a quick phrase's bubble (chat.js) stands: beside its seat, on felt that holds nothing the player
// reads. Fixed places beside each box suited one screen and hid the turn line, one's own name or another
// bubble on the next (320x568 upright, 568x320 sideways, a long trick on the table): this tries the places
// around the box and takes the first that hides nothing, else the one that hides least.

/** What a bubble must never hide: the trick, whose turn it is, names, counts, the hand and its buttons, and
 * what the table says to the player (a refusal: "too fast" came under one's own bubble at 320x568). */
const MUST_SEE = [
  "[data-testid=top-cards]", "[data-testid=top-label]", ".turn-line", ".seat-box .who", ".seat-box .meta",
  "[data-testid=hand] .card", ".actions button", ".levels", ".counter", ".topbar", ".table > .message:not(:empty)",
].join(", ");
/** Better left in sight (a seat's last play, a box's felt): hidden only where nothing else will do. */
const BETTER_SEEN = ".seat-box .last-play, .seat-box";
const MUST_WEIGHT = 20;
const OFF_SCREEN_WEIGHT = 100;
const GAP = 4;

/** Place every bubble in `root` (after each render and on a resize: the layout they avoid changed). */
export function placeBubbles(root) {
  // the others' first: one's own phrase is only an echo of what one said, and takes what is left
  const bubbles = [...root.querySelectorAll(".said")].sort((a, b) => isOwn(a) - isOwn(b));
  if (!bubbles.length) return;
  const must = rects(root, MUST_SEE);
  const better = rects(root, BETTER_SEEN);
  const screen = { left: 0, top: 0, right: document.documentElement.clientWidth, bottom: window.innerHeight };
  for (const bubble of bubbles) {
    const box = bubble.offsetParent;
    if (!box) continue;
    const frame = box.getBoundingClientRect();
    const place = bestPlace(bubble, frame, box.className, { must, better, screen });
    // one's own echo never hides what the table says (a refusal: "too fast" came under it at 320x568)
    const rect = { left: place.x, top: place.y, right: place.x + place.w, bottom: place.y + place.h };
    const hidden = isOwn(bubble) && must.some((k) => overlap(rect, k) > 0);
    bubble.style.visibility = hidden ? "hidden" : "";
    if (hidden) continue;
    bubble.style.maxWidth = `${place.width}px`;
    bubble.style.left = `${place.x - frame.left - box.clientLeft}px`;
    bubble.style.top = `${place.y - frame.top - box.clientTop}px`;
    must.push(rect);
  }
}

function isOwn(bubble) {
  return Boolean(bubble.offsetParent?.classList.contains("me"));
}

/** Place them again whenever the window changes size (after the hand is fitted: its listener came first). */
export function keepBubblesPlaced() {
  window.addEventListener("resize", () => placeBubbles(document));
}

function rects(root, selector) {
  return [...root.querySelectorAll(selector)].map((e) => e.getBoundingClientRect()).filter((r) => r.width && r.height);
}

/** The least-hiding place around `seat` (a rect) for the bubble at each width it may take. */
function bestPlace(bubble, seat, seatClass, avoid) {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const wide = Math.min(13 * rem, 0.6 * avoid.screen.right);
  const widths = [...new Set([wide, Math.max(4.2 * rem, Math.min(seat.width - 2 * GAP, wide)), 4.2 * rem])];
  let best = null;
  for (const width of widths) {
    bubble.style.maxWidth = `${width}px`;
    const { width: w, height: h } = bubble.getBoundingClientRect();
    for (const [x, y] of spots(seat, w, h, seatClass)) {
      const cost = costOf({ left: x, top: y, right: x + w, bottom: y + h }, avoid);
      if (!best || cost < best.cost) best = { x, y, w, h, width, cost };
      if (cost === 0) return best;
    }
  }
  return best;
}

/** Places beside a seat's box, the likeliest first: toward the middle of the table, then outward. */
function spots(seat, w, h, seatClass) {
  const start = seat.left;
  const center = seat.left + (seat.width - w) / 2;
  const end = seat.right - w;
  const below = seat.bottom + GAP;
  const above = seat.top - GAP - h;
  const rightOf = seat.right + GAP;
  const leftOf = seat.left - GAP - w;
  const beside = [seat.top, seat.bottom - h, seat.top + (seat.height - h) / 2];
  const inside = seat.bottom - GAP - h;
  const around = (x) => beside.map((y) => [x, y]);
  if (seatClass.includes("bottom")) {
    // last, over its own last play (at 320x568 the felt around one's box holds the turn line and the message)
    return [[center, above], [start, above], [end, above], ...around(rightOf), ...around(leftOf),
      [center, seat.bottom + GAP], [start, below], [end, below], [end - GAP, seat.top + (seat.height - h) / 2]];
  }
  if (seatClass.includes("top")) {
    return [[start, below], [end, below], [center, below], ...around(rightOf), ...around(leftOf),
      [start + GAP, inside], [end - GAP, inside]];
  }
  const inward = seatClass.includes("left") ? rightOf : leftOf;
  const near = seatClass.includes("left") ? start : end;
  return [[near, below], ...around(inward), [near, above], [center, below], [near + GAP, inside],
    [end - GAP, inside], [start + GAP, inside]];
}

function costOf(r, { must, better, screen }) {
  let cost = OFF_SCREEN_WEIGHT * (area(r) - overlap(r, screen));
  for (const k of must) cost += MUST_WEIGHT * overlap(r, k);
  for (const k of better) cost += overlap(r, k);
  return cost;
}

function overlap(a, b) {
  return Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
}

function area(r) {
  return (r.right - r.left) * (r.bottom - r.top);
}
