// The room options of the create form that came with the ready check and the card counter, and how
// the room's settings line names them.
import { h } from "./dom.js";
import { t } from "./i18n.js";

function check(name, testid, checked, label, onchange) {
  return h("label", { class: "check" },
    h("input", { type: "checkbox", name, checked, "data-testid": testid, onchange: (e) => onchange(e.target.checked) }),
    h("span", { text: label }));
}

/** The counter switch, and (at a timed table only) the timed auto-continue; `choices` keeps them. */
export function roomOptions(choices) {
  return [
    check("counter", "counter-option", choices.counter, t("counterOption"), (on) => (choices.counter = on)),
    choices.timer > 0 ? check("autoNext", "auto-next", choices.autoNext, t("autoNext"), (on) => (choices.autoNext = on)) : null,
  ];
}

export function optionsLine(settings) {
  return (settings.counter ? ` · ${t("counter")}` : "") + (settings.auto_next ? ` · ${t("autoNext")}` : "");
}
