// The room options of the create form that came with the ready check and the card counter, and how
// the room's settings line names them.
import { h } from "./dom.js";
import { t, tIn } from "./i18n.js";

function check(name, testid, checked, label, onchange) {
  return h("label", { class: "check" },
    h("input", { type: "checkbox", name, checked, "data-testid": testid, onchange: (e) => onchange(e.target.checked) }),
    h("span", { text: label }));
}

const BOTS = ["heuristic", "strong"]; // the server's bot names (engine.bots.BOTS) a room may choose

/** Which of our bots plays the bot seats (and for dropped or auto-playing players). */
function botChoice(choices) {
  return h("label", { class: "field" }, h("span", { class: "field-label", text: t("botLevel") }),
    h("select", { name: "bot", "data-testid": "bot-level", onchange: (e) => (choices.bot = e.target.value) },
      BOTS.map((b) => h("option", { value: b, selected: b === choices.bot, text: t("botNames")[b] }))));
}

/** The bots' level, the counter switch, and (at a timed table only) the timed auto-continue; `choices`
 * keeps them. */
export function roomOptions(choices) {
  return [
    botChoice(choices),
    check("counter", "counter-option", choices.counter, t("counterOption"), (on) => (choices.counter = on)),
    choices.timer > 0 ? check("autoNext", "auto-next", choices.autoNext, t("autoNext"), (on) => (choices.autoNext = on)) : null,
  ];
}

function optionsLine(settings) {
  return (settings.bot && settings.bot !== "heuristic" ? ` · ${t("botLevel")}${t("colon")}${t("botNames")[settings.bot] ?? settings.bot}` : "")
    + (settings.counter ? ` · ${t("counter")}` : "") + (settings.auto_next ? ` · ${t("autoNext")}` : "");
}

/** The room's settings in one line: in the waiting room, and in the invite sheet over the table (a
 * friend who came in mid-match reads there which rules the table plays). */
export function settingsLine(settings) {
  const timer = settings.turn_timer ? `${settings.turn_timer} ${t("seconds")}` : t("off");
  return h("p", { class: "hint settings-line", "data-testid": "settings" },
    `${t("preset")}${t("colon")}${tIn("presets", settings.preset) || settings.preset || "?"} · ${t("timer")}${t("colon")}${timer}`
    + ` · ${t("botSpeed")}${t("colon")}${settings.bot_delay ?? 1} ${t("seconds")}${optionsLine(settings)}`);
}
