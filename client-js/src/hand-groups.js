// 理牌: the player's own groups of cards, as the Guandan apps have them. Selected cards pressed into a
// group stand apart at the hand's left, in the order they were made, whatever the sort; the rest of the
// hand is sorted as chosen. A group keeps to the deal (the next deal's hand is another), to the cards
// still held (played ones leave it), and to this browser (kept in localStorage across a reload).
// Display only: which cards can be played together is always the server's answer.

/** The groups kept for `room` and `deal` (lists of card codes), or none. */
export function loadGroups(store, room, deal) {
  try {
    const saved = JSON.parse(store.getItem(groupsKey(room)) || "null");
    return saved && saved.deal === deal && Array.isArray(saved.groups) ? saved.groups : [];
  } catch {
    return [];
  }
}

export function saveGroups(store, room, deal, groups) {
  if (groups.length) store.setItem(groupsKey(room), JSON.stringify({ deal, groups }));
  else store.removeItem(groupsKey(room));
}

function groupsKey(room) {
  return `guandan:groups:${room}`;
}

/**
 * The hand as laid out (`arranged`: groups of { card, key }) with the player's `groups` first: each
 * takes one held copy per code it lists (a card played since is gone from it; an emptied group goes),
 * its cards in the sort's order. Returns the groups to draw, the player's ones marked `manual`.
 */
export function withGroups(arranged, groups) {
  if (!groups.length) return arranged;
  const order = arranged.flat();
  const free = new Map(); // code -> its held copies not yet in a group, in the sort's order
  for (const c of order) free.set(c.card, [...(free.get(c.card) || []), c]);
  const taken = new Set();
  const own = [];
  for (const codes of groups) {
    const group = codes.map((code) => free.get(code)?.shift()).filter(Boolean);
    if (!group.length) continue;
    group.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    for (const c of group) taken.add(c.key);
    group.manual = true;
    own.push(group);
  }
  const rest = arranged.map((g) => g.filter((c) => !taken.has(c.key))).filter((g) => g.length);
  return [...own, ...rest];
}

/**
 * The groups (card codes) after the player pressed 理牌 with the cards of `selected` (keys) picked in the
 * hand as drawn (`shown`, from withGroups): those cards leave the groups they were in and make a new one,
 * the last; picking exactly one group's cards and pressing again puts them back in the hand.
 */
export function groupSelected(shown, selected) {
  const picked = shown.flat().filter((c) => selected.has(c.key));
  const kept = withoutPicked(shown, selected);
  return isOneGroup(shown, selected) || !picked.length ? kept : [...kept, picked.map((c) => c.card)];
}

/** Whether the cards picked are exactly one of the player's groups (理牌 then undoes it). */
export function isOneGroup(shown, selected) {
  return shown.some((g) => g.manual && g.length === selected.size && g.every((c) => selected.has(c.key)));
}

/**
 * The groups (card codes) once the cards of `selected` (keys, in the hand as drawn) have left the hand:
 * worked out from the copies picked, before the hand changes. (Told only "one ♠6 fewer", a group
 * would claim the other deck's ♠6 in its place.)
 */
export function withoutPicked(shown, selected) {
  return shown.filter((g) => g.manual).map((g) => g.filter((c) => !selected.has(c.key)).map((c) => c.card))
    .filter((g) => g.length);
}
