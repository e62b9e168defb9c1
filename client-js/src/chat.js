// Quick phrases (快捷语), as the Guandan apps have them: a seated player picks one of ten canned phrases
// and the table sees it in a bubble at that seat for a few seconds. The server carries only the
// phrase's number (docs/protocol.md, say / said): the words are the client's (i18n.js), so each reader
// sees them in their own and nothing typed by anyone reaches the others.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const BUBBLE_MS = 4000;

export const chat = {
  open: false, // the list of phrases is up
  refocus: false, // the list just opened or closed: the focus follows once drawn
  bubbles: new Map(), // seat -> { phrase, timer }: what each seat said last, while it shows
};

let draw = { render: () => {}, say: async () => {} };

/** The main module lends its render and a way to send `say` (answered by an ack or a refusal). */
export function chatHelpers(helpers) {
  draw = helpers;
}

/** The words of phrase `n` in the reader's language (i18n.js `phrases`, in the server's order). */
export function phraseText(phrase) {
  return t("phrases")[phrase] ?? "";
}

/** A `said` message: the bubble at that seat, replacing the one before it. */
export function noteSaid(msg) {
  const old = chat.bubbles.get(msg.seat);
  if (old) clearTimeout(old.timer);
  const bubble = { phrase: msg.phrase };
  bubble.timer = setTimeout(() => {
    if (chat.bubbles.get(msg.seat) === bubble) chat.bubbles.delete(msg.seat);
    draw.render();
  }, BUBBLE_MS);
  chat.bubbles.set(msg.seat, bubble);
  draw.render();
}

/** A new table (another room, a left one): nothing said there is shown. */
export function forgetSaid() {
  for (const { timer } of chat.bubbles.values()) clearTimeout(timer);
  chat.bubbles.clear();
  chat.open = false;
}

export function toggleChat(open = !chat.open) {
  chat.open = open;
  chat.refocus = true;
  draw.render();
}

/** After a render: the keys go to the list when it opens, and back to Say when it closes (they stayed on
 * Say behind the list, then fell to the page). */
export function focusChat(root) {
  if (!chat.refocus) return;
  chat.refocus = false;
  root.querySelector(chat.open ? "[data-testid=phrase-0]" : "[data-testid=chat-open]")?.focus({ preventScroll: true });
}

/** Beside one's own name at the table (the rows of controls are full on a phone held sideways). */
export function chatButton() {
  return h("button", { class: "chat-open", "data-testid": "chat-open", "aria-expanded": chat.open ? "true" : "false",
    onclick: () => toggleChat() }, t("chat"));
}

/** The bubble beside `seat`'s box (style.css .said places it) while its phrase shows, else null. */
export function bubble(seat) {
  const said = chat.bubbles.get(seat);
  return said ? h("div", { class: "said", role: "status", "data-testid": `said-${seat}`, "data-phrase": said.phrase,
    text: phraseText(said.phrase) }) : null;
}

/** The list of phrases, over the table while open; a phrase picked is said and the list goes. */
export function chatSheet() {
  if (!chat.open) return null;
  return h("div", { class: "overlay", onclick: (e) => { if (e.target === e.currentTarget) toggleChat(false); } },
    h("div", { class: "panel chat-sheet", role: "dialog", "aria-modal": "true", "aria-labelledby": "chat-title",
      "data-testid": "chat" },
      h("h2", { id: "chat-title", text: t("chatTitle") }),
      h("div", { class: "phrases" }, t("phrases").map((text, phrase) =>
        h("button", { "data-testid": `phrase-${phrase}`, onclick: () => { toggleChat(false); draw.say(phrase); }, text }))),
      h("button", { class: "primary", "data-testid": "chat-close", onclick: () => toggleChat(false) }, t("close"))));
}
