// The server explains a deal's result by seat and team numbers ("Team 1 won with 1st+2nd…",
// "1、3号队以头游+二游取胜…", "Seat 2 was 1st 3 deals running…"), the same text for everyone. At the
// table people go by their names, and nobody sees seat numbers, so the numbers become names here.

const NUMBERED = /\b[Tt]eam ([12])\b|\bSeat ([1-4])\b|([12])、[34]号队|([1-4])号/g;

/** `text` with its seat and team numbers (1-based, team 1 = seats 1 and 3) replaced by `name(seat)`
 * (0-based), in one pass so that a name holding such words is left as it is. */
export function nameSeats(text, name) {
  if (!text) return text;
  return text.replace(NUMBERED, (match, team, seat, teamZh, seatZh, at) => {
    // "Anna & Bo's team": the sentences around it are written for one team ("was at A", "its attempt")
    if (team) return `${name(team - 1)} & ${name(+team + 1)}'s team`;
    const named = teamZh ? `${name(teamZh - 1)}、${name(+teamZh + 1)}` : name((seat || seatZh) - 1);
    return spaced(named, text[at - 1], text[at + match.length]);
  });
}

const CJK = /[\u3400-\u9fff]/;
const LATIN = /[A-Za-z0-9]/;

/** A name in Chinese text set off by a space where Latin meets Chinese ("机器人 4 以头游", not "机器人 4以头游"). */
function spaced(named, before, after) {
  const left = before && CJK.test(before) && LATIN.test(named[0]) ? " " : "";
  const right = after && CJK.test(after) && LATIN.test(named[named.length - 1]) ? " " : "";
  return `${left}${named}${right}`;
}
