// The server explains a deal's result by seat and team numbers ("Team 1 won with 1st+2nd…",
// "1、3号队以头游+二游取胜…", "Seat 2 was 1st 3 deals running…"), the same text for everyone. At the
// table people go by their names, and nobody sees seat numbers, so the numbers become names here.

const NUMBERED = /\b[Tt]eam ([12])\b|\bSeat ([1-4])\b|([12])、[34]号队|([1-4])号/g;

/** `text` with its seat and team numbers (1-based, team 1 = seats 1 and 3) replaced by `name(seat)`
 * (0-based), in one pass so that a name holding such words is left as it is. */
export function nameSeats(text, name) {
  if (!text) return text;
  return text.replace(NUMBERED, (_, team, seat, teamZh, seatZh) => {
    // "Anna & Bo's team": the sentences around it are written for one team ("was at A", "its attempt")
    if (team) return `${name(team - 1)} & ${name(+team + 1)}'s team`;
    if (teamZh) return `${name(teamZh - 1)}、${name(+teamZh + 1)}`;
    return name((seat || seatZh) - 1);
  });
}
