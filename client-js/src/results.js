// What a deal's result and the match so far say in words: the headline of a result (what the winners'
// level did, or in a match scored in points what they scored) and the match record (a line per finished
// deal, the view's `match`). Read from the levels or points the server sends; no rule is worked out here.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { teamOf } from "./present.js";

/**
 * What the winners' level did: a cap at A, a failed A attempt that sends them back, or a won match all
 * differ from the nominal upgrade of their places. `names`: { teamName(team, me), rankText(rank) }.
 */
export function resultHeadline(r, me, names) {
  const team = names.teamName(r.winner_team, me);
  const combo = r.places.map((s, i) => (teamOf(s) === r.winner_team ? t("places")[i] : null)).filter(Boolean).join("+");
  if (r.points) {
    const n = r.points[r.winner_team] - (r.points_before ?? r.points)[r.winner_team];
    return t(n === 1 ? "headPointsOne" : "headPoints", { team, combo, n });
  }
  if (r.match_won) return t("headWon", { team, combo });
  const before = (r.levels_before || r.levels)[r.winner_team];
  const after = r.levels[r.winner_team];
  if (after > before) return t("upBy", { team, combo, n: after - before });
  return t(after === before ? "headStay" : "headBack", { team, combo, level: names.rankText(after) });
}

/** The match's end as each reader takes it: `ours` true (a win), false (a loss, not a trophy), null (a
 * spectator: the winning team). */
export function matchTitle(ours, winner, scored = false) {
  if (ours === false) return t(scored ? "matchLostPoints" : "matchLost");
  return `🏆 ${t(scored ? "matchWonPoints" : "matchWon")} ${ours ? t("weWon") : t("teamWon", { team: t("teamN", { n: winner + 1, a: winner + 1, b: winner + 3 }) })}`;
}

/** A team's standing after a deal: its points in a match scored in points, else its level. */
function standing(r, team, names) {
  return r.points ? String(r.points[team]) : names.rankText(r.levels[team]);
}

/** The match so far under a result (open once the match is won); nothing to add after one deal. */
export function matchRecord(view, names) {
  const lines = view.match || [];
  const over = view.phase === "match_over";
  if (lines.length < 2) return null;
  const me = view.seat;
  return h("details", { class: "match-record", "data-testid": "match-record", open: over },
    h("summary", { text: t("matchRecord", { n: lines.length }) }),
    h("ol", {}, lines.map((r) => h("li", { "data-key": `deal-${r.deal}`, class: `t${r.winner_team}` },
      h("span", { class: "deal-no", text: `${t("deal", { n: r.deal })} · ${t("dealLevel")} ${names.rankText(r.level)}` }),
      h("span", { class: "what", text: resultHeadline(r, me, names) }),
      h("span", { class: "levels-after", text: [0, 1].map((team) => `${names.teamName(team, me)} ${standing(r, team, names)}`).join(" · ") })))));
}
