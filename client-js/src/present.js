// Pure display helpers (no DOM, no rules): where seats sit on screen, how the hand is laid out,
// countdowns. Unit-tested in test/present.test.js.
import { cardRank, isWild, sortCards } from "./cards.js";

/** Screen positions around the table, the viewer at the bottom (a spectator sees seat 1 there). */
export function positions(me) {
  const base = me === null || me === undefined ? 0 : me;
  return { bottom: base, right: (base + 1) % 4, top: (base + 2) % 4, left: (base + 3) % 4 };
}

export function teamOf(seat) {
  return seat % 2;
}

/** Whole seconds left until a deadline in unix seconds (null: no deadline), never negative. */
export function secondsLeft(deadline, nowMs = Date.now()) {
  if (deadline === null || deadline === undefined) return null;
  // a few ms of clock estimate must not show "16" for a 15 s timer that just began
  return Math.max(0, Math.ceil(deadline - nowMs / 1000 - 0.05));
}

/**
 * Stable keys for the cards of a hand: the code and which copy of it (two decks), e.g. "12.0", "12.1".
 * A selection kept as keys survives re-sorting and other seats' moves.
 */
export function keyed(hand) {
  const seen = new Map();
  return (hand || []).map((card) => {
    const n = seen.get(card) || 0;
    seen.set(card, n + 1);
    return { card, key: `${card}.${n}` };
  });
}

function rankOrder(card, level) {
  const r = cardRank(card);
  return r === level ? 15 : r;
}

/**
 * The hand as groups for display, each a list of {card, key}:
 * - "rank": the deal's rank order (level rank above A, jokers on top), one group per rank (the jokers
 *   together);
 * - "suit": one group per suit (jokers last), each in rank order;
 * - "plays": same-rank groups, bigger groups first (bombs, triples, pairs, singles), then the jokers,
 *   then the wild cards apart.
 * Display only: which of these cards can be played together is always the server's answer.
 */
export function arrange(hand, level, mode = "rank") {
  const cards = keyed(hand);
  const byKey = new Map(cards.map((c) => [c.key, c]));
  const sortedKeys = (list, how) => {
    // sortCards sorts codes; re-attach the keys in order, copy by copy
    const pool = new Map();
    for (const c of list) pool.set(c.card, [...(pool.get(c.card) || []), c.key]);
    return sortCards(list.map((c) => c.card), level, how).map((code) => byKey.get(pool.get(code).shift()));
  };
  const groupBy = (list, keyOf) => {
    const groups = [];
    let last;
    for (const c of list) {
      const k = keyOf(c.card);
      if (groups.length && k === last) groups[groups.length - 1].push(c);
      else groups.push([c]);
      last = k;
    }
    return groups;
  };
  if (mode === "suit") {
    return groupBy(sortedKeys(cards, "suit"), (c) => (c >= 52 ? "J" : c & 3));
  }
  const byRank = groupBy(sortedKeys(cards, "rank"), (c) => (c >= 52 ? "jokers" : cardRank(c)));
  if (mode !== "plays") return byRank;
  const wild = [];
  const jokers = [];
  const groups = [];
  for (const g of byRank) {
    if (g[0].card >= 52) {
      jokers.push(...g);
      continue;
    }
    const plain = g.filter((c) => !isWild(c.card, level));
    wild.push(...g.filter((c) => isWild(c.card, level)));
    if (plain.length) groups.push(plain);
  }
  groups.sort((a, b) => b.length - a.length || rankOrder(a[0].card, level) - rankOrder(b[0].card, level));
  return [...groups, ...(jokers.length ? [jokers] : []), ...(wild.length ? [wild] : [])];
}

/** The last move of each seat in the current trick (undefined: none yet). */
export function lastMoves(trick) {
  const out = [undefined, undefined, undefined, undefined];
  for (const m of trick || []) out[m.seat] = m;
  return out;
}

/** Seats a person took over from a bot between two `room` messages (the table is told who replaced whom). */
export function takenOver(before, after) {
  if (!before || !after || before.code !== after.code) return [];
  return after.seats.flatMap((s, i) => (s.kind === "human" && s.replaced && before.seats[i]?.kind === "bot" ? [i] : []));
}
