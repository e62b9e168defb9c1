// What a seated person can do about a lobby seat: sit in it (to choose one's partner), and the host's
// controls (a bot, an external AI, bringing someone across to partner them, freeing a person's seat).
// The server decides; these only offer what it would accept.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { teamOf } from "./present.js";

function button(testid, label, onclick, title = null) {
  return h("button", { class: "small", "data-testid": testid, title, onclick }, label);
}

/** Whether ``me`` (a seat number, or null for a spectator) may sit in the seat ``s`` of ``room``: a seated
 * person moves to an empty seat or a bot's; a spectator joins there as the server lets a newcomer, an
 * empty seat or, on a table not locked, a bot's (they had to leave and join again with the code). */
export function canSit(room, s, me) {
  if (me === null || me === undefined) return s.kind === "empty" || (s.kind === "bot" && !room.locked);
  return s.kind === "empty" || s.kind === "bot";
}

/** The buttons of seat ``i`` for ``me``; `deps`: { act, addAi, seatName, sitDown } (``sitDown(i)``: a
 * spectator takes the seat, or null when this page does not watch). Null when there are none. */
export function seatActions(room, i, me, deps) {
  const s = room.seats[i];
  const isHost = room.host === me && me !== null && me !== undefined;
  const across = isHost ? (me + 2) % 4 : null;
  // a full table chooses partners too: the host brings someone across (whoever sits there changes place)
  const partner = isHost && i !== me && i !== across && ["human", "bot"].includes(s.kind)
    && room.seats[across].kind !== "ai";
  const name = { name: deps.seatName(i) };
  const buttons = [
    canSit(room, s, me) && (me !== null && me !== undefined || deps.sitDown)
      ? button(`sit-${i}`, t("sitHere"), () => (deps.sitDown ? deps.sitDown(i) : deps.act({ type: "sit", seat: i })),
        t("sitHereTitle", { n: i + 1, team: teamOf(i) + 1 })) : null,
    partner ? button(`partner-${i}`, t("partnerMe"), () => deps.act({ type: "swap", seats: [i, across] }),
      t("partnerMeTitle", name)) : null,
    isHost && s.kind === "empty" ? button(`add-bot-${i}`, t("addBot"), () => deps.act({ type: "add_bot", seat: i })) : null,
    isHost && s.kind === "empty" ? button(`add-ai-${i}`, t("addAi"), () => deps.addAi(i)) : null,
    isHost && (s.kind === "bot" || s.kind === "ai")
      ? button(`remove-${i}`, t("removeBot"), () => deps.act({ type: "remove_bot", seat: i })) : null,
    isHost && s.kind === "human" && i !== me ? button(`remove-player-${i}`, t("removePlayer"),
      () => deps.act({ type: "remove_player", seat: i }), t("removePlayerTitle", name)) : null,
  ].filter(Boolean);
  return buttons.length ? h("span", { class: "seat-actions" }, buttons) : null;
}
