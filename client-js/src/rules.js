// The rules page: docs/rules.md and docs/rules.zh.md, bundled as text and shown in the player's
// language. Hash routes: #rules is the page, #rules-<id> one of its headings (#rules-nanjing: a preset).
// Only our own bundled documents are turned into HTML here, never anything from the server.
import en from "../../docs/rules.md";
import zh from "../../docs/rules.zh.md";
import { h } from "./dom.js";
import { TEXT, currentLang, setLang, t, tIn } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";

/** The presets a room may be created with, as engine/rules.py names them (a test keeps them equal). */
export const PRESETS = ["standard", "national2017", "huaian", "nanjing", "competition2020", "club", "points6", "points8"];

const PREFIX = "rules-";
const ROUTE = /^#rules(?:-(.+))?$/;
const SOURCES = { en, zh };
// a link in one document to the other switches the page's language
const OTHER_DOC = { "rules.md": { href: "#rules", "data-lang": "en" }, "rules.zh.md": { href: "#rules", "data-lang": "zh" } };
const rendered = {}; // language -> <article> template, parsed once

let rerender = () => {};
let enteredFromApp = false; // whether Back can simply go back in the history

/** The open rules route: { id } (the heading's id, or null for the top), or null when the page is closed. */
export function rulesRoute() {
  const m = ROUTE.exec(location.hash);
  if (!m) return null;
  let id = null;
  try {
    id = m[1] ? PREFIX + decodeURIComponent(m[1]) : null;
  } catch {
    // a mangled address (#rules-%E4): the top of the page
  }
  return { id };
}

function rulesHref(anchor) {
  return anchor ? `#${PREFIX}${anchor}` : "#rules";
}

function article(lang) {
  if (!rendered[lang]) {
    const el = h("article", { class: "rules-doc", lang: lang === "zh" ? "zh-CN" : "en", "data-testid": "rules-doc",
      "data-static": `rules-${lang}` });
    el.innerHTML = renderMarkdown(SOURCES[lang], PREFIX, OTHER_DOC);
    namePresets(el, lang);
    dropForDevelopers(el);
    rendered[lang] = el;
  }
  return rendered[lang].cloneNode(true);
}

/**
 * The presets by the names the create form gives them: the documents head each preset's section and
 * column with its code (`nanjing`: the ids and the protocol's word), which a player who chose "南京"
 * did not recognise. The code stays beside the name, smaller. The presets' table (one column each) is
 * marked wide: it may take the screen's width, its first column kept in sight while it scrolls.
 */
function namePresets(el, lang) {
  const names = TEXT[lang].presets;
  // the code beside the name unless the name says it ("Nanjing nanjing" read doubled)
  const same = (code) => names[code].toLowerCase().replace(/[^a-z0-9]/g, "") === code;
  const label = (code) => (same(code) ? [document.createTextNode(names[code])]
    : [document.createTextNode(`${names[code]} `), h("code", { class: "preset-code", text: code })]);
  for (const heading of el.querySelectorAll("h3")) {
    const code = heading.textContent.trim();
    if (PRESETS.includes(code)) heading.replaceChildren(...label(code));
  }
  for (const table of el.querySelectorAll("table")) {
    const head = [...(table.tHead?.rows[0]?.cells || [])];
    const named = head.filter((cell) => PRESETS.includes(cell.textContent.trim()));
    if (!named.length) continue;
    for (const cell of named) cell.replaceChildren(...label(cell.textContent.trim()));
    table.classList.add("wide");
  }
}

// the documents' sections for those who write clients (the protocol's options, JSON): not the players'
const DEVELOPERS_ONLY = ["房间选项", "room-options"].map((id) => PREFIX + id);

/** The rules page without the developers' sections (their lines in the contents gone, the links to them
 * in the text left as words: they jumped to the top of the page). */
function dropForDevelopers(el) {
  for (const id of DEVELOPERS_ONLY) {
    const heading = el.querySelector(`h2[id="${id}"]`);
    if (!heading) continue;
    el.querySelector(`li > a[href="#${id}"]:first-child`)?.closest("li")?.remove();
    for (const link of el.querySelectorAll(`a[href="#${id}"]`)) link.replaceWith(...link.childNodes);
    for (let next = heading.nextElementSibling; next && next.tagName !== "H2";) {
      const after = next.nextElementSibling;
      next.remove();
      next = after;
    }
    heading.remove();
  }
}

function scrollToRoute() {
  const route = rulesRoute();
  if (!route) return;
  const target = route.id && document.getElementById(route.id);
  if (target) target.scrollIntoView();
  else window.scrollTo(0, 0);
}

function closeRules() {
  if (enteredFromApp) {
    history.back();
    return;
  }
  history.replaceState(null, "", location.pathname + location.search);
  rerender();
}

// Links inside the page move within it (replacing the history entry, so Back still leaves the page);
// a link to the other language's document switches the language.
function onPageClick(e) {
  const link = e.target.closest?.("a[href^='#']");
  if (!link || !link.closest(".rules-doc")) return;
  e.preventDefault();
  if (link.dataset.lang) {
    setLang(link.dataset.lang);
    history.replaceState(null, "", "#rules");
    rerender();
  } else {
    history.replaceState(null, "", link.getAttribute("href"));
  }
  scrollToRoute();
}

/** The page itself, in the current language. Opened from a table, it covers the turn line: while the
 * player owes a move, `turn` (what they owe and its countdown) stays over the page with the way back. */
export function rulesScreen(turn = null) {
  const note = turn && h("div", { class: "rules-turn", role: "alert", "data-testid": "rules-turn" },
    h("span", { class: "rules-turn-text" }, turn.text, " ", turn.timer),
    h("button", { class: "small primary", "data-testid": "rules-to-table", onclick: closeRules }, t("toTable")));
  return h("main", { class: "rules-page", "data-testid": "rules-page", onclick: onPageClick }, note, article(currentLang()));
}

/** The top bar's way in and out: "Rules" on every other screen, "Back" on the rules page. In a room
 * with other rules than the standard ones it opens at the room's preset (a friend who came in
 * mid-match learns there which rules the table plays). */
export function rulesButton(preset) {
  if (rulesRoute()) return h("button", { class: "small", "data-testid": "rules-back", onclick: closeRules }, `← ${t("back")}`);
  const own = preset && preset !== "standard" && PRESETS.includes(preset) ? preset : null;
  const label = own ? `${t("rules")}${t("colon")}${tIn("presets", own)}` : t("rules");
  return h("a", { class: "button small", href: rulesHref(own), title: label, "aria-label": label,
    "data-testid": "rules-link" }, t("rules"));
}

/** The "?" next to the create form's preset choice: straight to that preset's section. */
export function presetLink(preset) {
  const label = `${t("rules")}${t("colon")}${tIn("presets", preset)}`;
  return h("a", { class: "help-link", href: rulesHref(preset), title: label, "aria-label": label,
    "data-testid": "preset-rules" }, "?");
}

/** One line under the preset choice that says what sets the preset apart. */
export function presetNote(preset) {
  return h("p", { class: "hint preset-note", "data-testid": "preset-note", text: tIn("presetNotes", preset) });
}

/** Follow the hash: render on every change, and scroll to the section asked for. */
export function watchRules(render) {
  rerender = render;
  window.addEventListener("hashchange", (e) => {
    enteredFromApp = !!rulesRoute() && (enteredFromApp || !ROUTE.test(new URL(e.oldURL).hash));
    render();
    scrollToRoute();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && rulesRoute()) closeRules();
  });
  scrollToRoute();
}
