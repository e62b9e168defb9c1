// The deal's story as data, for display (no DOM, no rules): a play's words as read, tricks from the
// server's history, what the table shows of the trick, which moves are new. Unit-tested in
// test/reading.test.js. The server lays each play out and says what each wild card stands for; this
// only words it.
import { cardFace, cardRank, rankLabel } from "./cards.js";
import { t, tIn } from "./i18n.js";
import { lastMoves } from "./present.js";

/** Moves made for a player by someone else, marked wherever they are shown (the history's `by`). */
export const MARKED = new Set(["away", "timer", "autoplay", "ai_fallback"]);
/** Moves the whole table is told about as they happen: the turn timer's and the dropout bot's. */
export const TOASTED = new Set(["away", "timer"]);
const SEQUENCES = new Set(["straight", "straight_flush", "tube", "plate"]);
const TEMPLATES = { single: "playSingle", pair: "playPair", triple: "playTriple", bomb: "playBomb", full_house: "playFullHouse" };

/** The rank each card of a play stands for, in the server's order (its `as`, else each card's own). */
export function playRanks(move) {
  return move.as || move.cards.map(cardRank);
}

/** A rank as a word: 2..A, and the jokers in the player's language. */
export function rankWord(rank) {
  return rank >= 16 ? t("jokers")[rank - 16] : rankLabel(rank);
}

/** One physical card in words (a returned tribute card in the summary): ♠3, 大王. */
export function cardWord(code) {
  if (code >= 52) return t("jokers")[code - 52];
  const face = cardFace(code);
  return `${face.symbol}${face.rank}`;
}

function ranksText(ranks) {
  const words = ranks.map(rankWord);
  return words.join(words.some((w) => w.length > 1) ? " " : "");
}

/** A move as players say it: "顺子 45678" / "straight 4-8", "对子 88" / "pair of 8s", "过" / "Pass". */
export function playLabel(move) {
  if (move.type !== "play") return t("pass");
  const kind = move.kind;
  const name = tIn("kinds", kind) || kind;
  if (kind === "joker_bomb") return name;
  const ranks = playRanks(move);
  if ((kind === "single" || kind === "pair") && ranks[0] >= 16) return t("jokers")[ranks[0] - 16 + (kind === "pair" ? 2 : 0)];
  const first = rankWord(ranks[0]);
  const last = rankWord(ranks[ranks.length - 1]);
  const vars = { kind: name, ranks: ranksText(ranks), r: first, n: ranks.length, lo: first, hi: last, t: first, p: last };
  return t(SEQUENCES.has(kind) ? "playSeq" : TEMPLATES[kind] || "playSeq", vars);
}

/** The deal's tricks so far: the finished ones (the view's `history`), then the one under way. */
export function tricksOf(view) {
  const trick = view.trick || [];
  return [...(view.history || []), ...(trick.length ? [trick] : [])];
}

/**
 * What the table shows of the trick: each seat's last move and the play on top, laid out as read. Once
 * a trick is won it stays on the table (`previous`) until the next play opens another.
 */
export function tableMoves(view) {
  const history = view.history || [];
  const previous = view.phase === "play" && !(view.trick || []).length && history.length > 0;
  const shown = previous ? history[history.length - 1] : view.trick || [];
  const plays = shown.filter((m) => m.type === "play");
  return { moves: lastMoves(shown), top: plays[plays.length - 1] || null, previous };
}

/** The moves made between two views of the same deal ([] across deals). */
export function newMoves(before, after) {
  if (!before?.phase || !after?.phase || before.deal !== after.deal) return [];
  return tricksOf(after).flat().slice(tricksOf(before).flat().length);
}
