// How cards look. Display only: which cards are legal is always the server's answer.
const SUIT_SYMBOLS = { S: "♠", H: "♥", C: "♣", D: "♦" };
const RANKS = "23456789TJQKA";

export function cardName(code) {
  if (code === 52) return "SB";
  if (code === 53) return "HR";
  return "SHCD"[code & 3] + RANKS[code >> 2];
}

export function cardRank(code) {
  if (code >= 52) return code === 52 ? 16 : 17;
  return (code >> 2) + 2;
}

export function rankLabel(rank) {
  if (rank === 16) return "小王";
  if (rank === 17) return "大王";
  const ch = RANKS[rank - 2];
  return ch === "T" ? "10" : ch;
}

export function cardFace(code) {
  if (code === 52) return { rank: "JOKER", suit: "", symbol: "☆", red: false, joker: true };
  if (code === 53) return { rank: "JOKER", suit: "", symbol: "★", red: true, joker: true };
  const suit = "SHCD"[code & 3];
  return { rank: rankLabel(cardRank(code)), suit, symbol: SUIT_SYMBOLS[suit], red: suit === "H" || suit === "D", joker: false };
}

export function isWild(code, level) {
  return code < 52 && (code & 3) === 1 && cardRank(code) === level;
}

/** Sort for display: by the deal's rank order (level above A, jokers on top) or by suit. */
export function sortCards(cards, level, mode = "rank") {
  const order = (c) => {
    const r = cardRank(c);
    return r === level ? 15 : r;
  };
  const copy = [...cards];
  if (mode === "suit") copy.sort((a, b) => (a >= 52) - (b >= 52) || (a & 3) - (b & 3) || order(a) - order(b));
  else copy.sort((a, b) => order(a) - order(b) || a - b);
  return copy;
}
