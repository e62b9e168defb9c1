// Inviting friends to a room: its code, a link they can open, a QR code for phones, the host's lock.
// The address the host typed (http://127.0.0.1:8765) is often one no friend can open, so the links
// come from the addresses the server says it is reached at (the welcome's `invite`).
import qrcode from "qrcode-generator";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { settingsLine } from "./options.js";
import { seatLink, seatLinkPanel } from "./seat-link.js";

/** Whether only this machine can open a URL (a loopback address or localhost). */
export function isLoopback(url) {
  const host = new URL(url).hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === "[::1]";
}

/**
 * The links to a room, best first, and whether only this machine can open them. The server's
 * addresses come first, then the page's own when it is another one (a reverse proxy the server was not
 * told about); loopback addresses are dropped unless there is nothing else.
 */
export function inviteLinks(code, invite, origin) {
  const bases = [...new Set([...(invite || []), `${origin}/`])];
  const open = bases.filter((base) => !isLoopback(base));
  const chosen = open.length ? open : bases.slice(0, 1);
  return { links: chosen.map((base) => `${base}?room=${encodeURIComponent(code)}`), local: !open.length };
}

const qrCache = new Map();

/** An SVG image (as a data URL) of a QR code of `text`; made once per text (renders are frequent). */
export function qrImage(text) {
  let url = qrCache.get(text);
  if (!url) {
    const qr = qrcode(0, "M");
    qr.addData(text);
    qr.make();
    const svg = qr.createSvgTag({ cellSize: 4, margin: 16, scalable: true });
    url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    if (qrCache.size > 8) qrCache.clear();
    qrCache.set(text, url);
  }
  return url;
}

/**
 * The room's invite panel. `deps`: { welcome, origin, isHost, copyText, share (or null), act, token (the
 * seat's, or null for a spectator) }.
 */
export function invitePanel(room, deps) {
  const { links, local } = inviteLinks(room.code, deps.welcome?.invite, deps.origin);
  const [link, ...others] = links;
  return h("section", { class: "panel code-panel", "data-testid": "invite" },
    h("div", { class: "field-label", text: t("roomCode") }),
    h("div", { class: "room-code", "data-testid": "room-code", text: room.code }),
    h("div", { class: "row center" },
      h("button", { "data-testid": "copy-code", onclick: () => deps.copyText(room.code) }, t("copyCode")),
      h("button", { "data-testid": "copy-link", onclick: () => deps.copyText(link) }, t("copyLink")),
      deps.share ? h("button", { "data-testid": "share", onclick: () => deps.share(link) }, t("share")) : null),
    // how to start the server for friends: the host's business (a guest who joined can do nothing about it)
    local ? (deps.isHost ? h("p", { class: "warn", role: "note", "data-testid": "invite-local", text: t("inviteLocal") }) : null)
      : h("figure", { class: "qr" },
        h("img", { src: qrImage(link), alt: t("qrAlt"), width: 176, height: 176, "data-testid": "invite-qr" }),
        h("figcaption", { class: "hint", text: t("scanToJoin") })),
    h("div", { class: "join-line" }, h("span", { class: "field-label", text: `${t("joinLink")} ` }),
      h("a", { href: link, class: "join-link", "data-testid": "join-link" }, link)),
    others.length ? h("div", { class: "join-line alt", "data-testid": "invite-alt" },
      h("span", { class: "field-label", text: `${t("otherAddresses")} ` }),
      others.map((other) => h("a", { href: other, class: "join-link" }, other))) : null,
    lockLine(room, deps),
    deps.token ? seatLinkPanel(seatLink(link, deps.token), deps.copyText) : null);
}

function lockLine(room, deps) {
  if (!deps.isHost) return room.locked ? h("p", { class: "hint", "data-testid": "locked", text: t("tableLocked") }) : null;
  return h("label", { class: "check lock" },
    h("input", { type: "checkbox", checked: !!room.locked, "data-testid": "lock",
      onchange: (e) => deps.act({ type: "lock", on: e.target.checked }) }),
    h("span", { text: t("lockTable") }));
}

/** Mid-match the same panel opens over the table (a friend may still take a bot's seat). */
export function inviteOverlay(room, deps, close) {
  return h("div", { class: "overlay invite-overlay", role: "dialog", "aria-modal": "true", "aria-label": t("invite"),
    onclick: (e) => { if (e.target === e.currentTarget) close(); } },
  h("div", { class: "invite-sheet" },
    invitePanel(room, deps),
    settingsLine(room.settings),
    h("div", { class: "sheet-foot" }, h("button", { class: "primary", "data-testid": "close-invite", onclick: close }, t("close")))));
}
