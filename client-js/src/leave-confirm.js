// Leaving a match under way is asked first: the bot takes the seat at once, and a stray tap on the
// top bar's Leave (close to the language and rules buttons on a phone) would hand the partner a bot.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Whether Leave is asked first: a player's seat in a match still under way goes on without them. */
export function leaveNeedsAsking(room, view) {
  return room?.status === "playing" && !!view && view.seat !== null && view.seat !== undefined
    && view.phase !== "match_over";
}

/** The question over the table; `stay` closes it (also a tap beside it, or Escape), `go` leaves; `code`:
 * the room's, named in the way back. */
export function leaveOverlay({ stay, go, code }) {
  return h("div", { class: "overlay leave-overlay", role: "alertdialog", "aria-modal": "true",
    "aria-labelledby": "leave-title", "aria-describedby": "leave-text", "data-testid": "leave-confirm",
    onclick: (e) => { if (e.target === e.currentTarget) stay(); } },
  h("div", { class: "leave-sheet" },
    h("h2", { id: "leave-title", text: t("leaveTitle") }),
    h("p", { id: "leave-text", text: t("leaveText", { code }) }),
    h("div", { class: "row center" },
      h("button", { class: "primary", "data-testid": "leave-stay", onclick: stay }, t("leaveStay")),
      h("button", { "data-testid": "leave-go", onclick: go }, t("leave")))));
}
