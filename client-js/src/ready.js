// The result screen's way on: the ready check. "Next deal" (or "rematch" after a won match) says this
// seat is ready; the server starts the deal once nobody is waited for, so each player keeps the result on
// screen until then, and sees whom the table waits for. Who counts as ready is the server's word (the
// view's `ready`), never worked out here.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The seats the table still waits for ([] when the view carries no ready check). */
export function waitingFor(view) {
  return (view.ready || []).map((ok, seat) => (ok ? null : seat)).filter((seat) => seat !== null);
}

/**
 * The buttons and the waiting line under a deal's (or the match's) result. A player on auto-play is
 * counted ready by the server and the result covers the switch: they are told, and may stop it here.
 * `leavers`: the seats whose players left the won match ({ seat, name }), each told with who sits there now.
 */
export function readyControls(view, { seatName, act, leave, autoOn = false, stopAuto = () => {}, leavers = [],
  countdown = () => null }) {
  const me = view.seat;
  const seated = me !== null && me !== undefined;
  const over = view.phase === "match_over";
  const waiting = waitingFor(view);
  const pressed = seated && view.ready?.[me] === true && waiting.length > 0;
  // the player is not named to themselves (their button is the call): the others, or that only they are left
  const others = waiting.filter((seat) => seat !== me);
  const text = others.length
    ? t(over ? "waitRematch" : "waitReady", { names: others.map(seatName).join(t("listSep")) })
    : t(over ? "othersRematch" : "othersReady");
  const line = waiting.length ? h("p", { class: "hint ready-line", "data-testid": "ready-waiting", text }) : null;
  // the server deals on by itself (a timed room's auto_next, auto-play): say when, counted down
  const soon = !over && view.next_deal_at != null
    ? h("p", { class: "hint", "data-testid": "next-deal-in" }, t("nextDealIn"), " ", countdown(view.next_deal_at, "next-deal-countdown"))
    : null;
  // someone left the won match: "everyone else wants a rematch" counted the bot in their seat
  const gone = over ? leavers.map(({ seat, name }) => h("p", { class: "hint", "data-testid": `left-match-${seat}`,
    text: t("leftMatch", { name, now: seatName(seat) }) })) : [];
  if (!seated) return [...gone, line || h("p", { class: "hint", text: t(over ? "matchOver" : "waitNext") }), soon];
  const main = over
    ? h("button", { class: "primary", "data-testid": "rematch", disabled: pressed, onclick: () => act({ type: "new_match" }) },
      pressed ? t("rematchAsked") : t("rematch"))
    : h("button", { class: "primary", "data-testid": "next-deal", disabled: pressed, onclick: () => act({ type: "next_deal" }) },
      pressed ? t("readyDone") : t("nextDeal"));
  const auto = autoOn && !over
    ? h("p", { class: "hint auto-line", "data-testid": "result-auto" }, t("autoStillOn"), " ",
      h("button", { class: "small", "data-testid": "result-auto-stop", onclick: stopAuto }, t("autoStop")))
    : null;
  return [auto, ...gone, line, soon, h("div", { class: "row center" }, main,
    over ? h("button", { "data-testid": "back-to-lobby", onclick: leave }, t("backToLobby")) : null)];
}
