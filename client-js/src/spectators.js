// Who watches the table. Anyone with the code may watch (the lock keeps newcomers to watching), and the
// players were never told: nothing on their screens showed a spectator there. The server's presence
// carries the spectators (a count and their names); here they are told when one comes, and see them.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const told = new Set(); // the names already announced on this page: a spectator's reload is no news

/** The names that watch in `after` and did not in `before` (presence messages; none on the first one),
 * each told once a page. */
export function newSpectators(before, after) {
  const now = after.spectator_names || [];
  const was = new Set(before ? before.spectator_names || [] : now);
  const come = now.filter((name) => !was.has(name) && !told.has(name));
  for (const name of now) told.add(name);
  return come;
}

/** Whether a page watching ``room`` under ``name`` (null: not watching) may take a seat by that name: not
 * one a seated person holds (the server would refuse it, and a spectator has no field to give another). */
export function mayTakeASeat(room, name) {
  const wanted = name?.trim().toLowerCase();
  return Boolean(wanted) && !(room?.seats || []).some((s) => s.kind === "human" && s.nickname?.trim().toLowerCase() === wanted);
}

/** "Watching: Dee, Eve" under the lobby's seats, or nothing. */
export function lobbyWatchers(presence) {
  const names = presence?.spectator_names || [];
  if (!presence?.spectators) return null;
  const more = presence.spectators - names.length;
  const list = names.join(t("listSep")) + (more > 0 ? ` ${t("andMore", { n: more })}` : "");
  return h("p", { class: "hint", "data-testid": "watchers", text: t("watchingNames", { names: list }) });
}

/** "2 watching" beside the table's history and sound buttons (the names in its title), or nothing. */
export function tableWatchers(presence) {
  if (!presence?.spectators) return null;
  return h("span", { class: "watching", "data-testid": "watchers", title: (presence.spectator_names || []).join(t("listSep")),
    text: t("watchingCount", { n: presence.spectators }) });
}
