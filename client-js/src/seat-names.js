// The server explains a deal's result by seat and team numbers ("Team 1 won with 1st+2nd…",
// "1、3号队以头游+二游取胜…", "Seat 2 was 1st 3 deals running…"), the same text for everyone. At the
// table people go by their names, and nobody sees seat numbers, so the numbers become names here.

const NUMBERED = /\b[Tt]eam ([12])\b|\bSeat ([1-4])\b|([12])、[34]号队|([1-4])号/g;

/** `text` with its seat and team numbers (1-based, team 1 = seats 1 and 3) replaced by `name(seat)`
 * (0-based), in one pass so that a name holding such words is left as it is. Chinese is spaced where a
 * name meets the characters by ``spaceZh`` (i18n.js), with the rest of the server's text. */
export function nameSeats(text, name) {
  if (!text) return text;
  return text.replace(NUMBERED, (match, team, seat, teamZh, seatZh) => {
    // "Anna & Bo's team": the sentences around it are written for one team ("was at A", "its attempt")
    if (team) return `${name(team - 1)} & ${name(+team + 1)}'s team`;
    return teamZh ? `${name(teamZh - 1)}、${name(+teamZh + 1)}` : name((seat || seatZh) - 1);
  });
}
