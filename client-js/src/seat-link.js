// Taking one's seat to another device or browser. The seat belongs to whoever holds its token, and the
// token lives in the browser that sat down: a player who opened the invite in a chat app's built-in
// browser, or whose phone died, had no way back into their seat (joining again under their name is
// refused, and another name seats them elsewhere, often against their partner). The seat link carries
// the token in the URL's fragment, which browsers never send to a server.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { qrImage } from "./invite.js";

const KEY = "seat";

/** The link that opens this seat on another device: the invite link with the token in its fragment. */
export function seatLink(inviteLink, token) {
  return `${inviteLink}#${KEY}=${encodeURIComponent(token)}`;
}

/** The seat token a page was opened with (a seat link), taken out of the address bar at once: it must
 * not stay in the history or be copied on as an invite. Returns { code, token } or null. */
export function takeSeatFromAddress(location, history) {
  const match = /^#seat=([^&]+)$/.exec(location.hash);
  const code = new URLSearchParams(location.search).get("room")?.toUpperCase();
  if (!match || !code) return null;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    return { code, token: decodeURIComponent(match[1]) };
  } catch {
    return null; // a mangled link: the page opens as the plain invite
  }
}

/** "Continue on another device": folded, since the link is the seat itself and must not be shared. */
export function seatLinkPanel(link, copyText) {
  return h("details", { class: "seat-link", "data-testid": "seat-link" },
    h("summary", { text: t("seatLinkTitle") }),
    h("p", { class: "warn", role: "note", text: t("seatLinkWarn") }),
    h("img", { src: qrImage(link), alt: t("seatLinkQr"), width: 160, height: 160, "data-testid": "seat-link-qr" }),
    h("div", { class: "row" },
      h("input", { readonly: true, value: link, class: "grow mono", "aria-label": t("seatLinkTitle"),
        "data-testid": "seat-link-url", onclick: (e) => e.target.select() }),
      h("button", { class: "small", "data-testid": "copy-seat-link", onclick: () => copyText(link) }, t("copy"))));
}
