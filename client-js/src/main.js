// The browser client: renders what the server sends, sends what the player intends.
// It holds no game rules: legality, suggestions and results all come from the server.
import { cardFace, cardRank, isWild, sortCards } from "./cards.js";
import { currentLang, t, toggleLang } from "./i18n.js";
import { Connection, forgetSeat, loadSeat } from "./net.js";

const AUTO_INTERVALS = [0.3, 0.5, 1, 2, 3, 4, 5];
const PRESETS = ["standard", "national2017", "huaian", "nanjing"];

const ui = {
  status: "connecting",
  room: null, // latest "room" message
  presence: null,
  state: null, // { version, view, seat }
  selected: new Set(), // indexes into the displayed hand
  sortMode: "rank",
  message: "",
  messageKind: "info",
  nickname: localStorage.getItem("guandan:nickname") || "",
  suggestions: 0, // how many suggestions arrived (lets tests and tools wait for the next one)
};

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
const conn = new Connection(wsUrl, {
  onStatus(status) {
    ui.status = status;
    render();
  },
  onState(state) {
    const before = ui.state;
    ui.state = state;
    if (!before || before.view?.hand?.length !== state.view?.hand?.length || before.view?.deal !== state.view?.deal) {
      ui.selected.clear();
    }
    render();
  },
  onRoom(room) {
    ui.room = room;
    render();
  },
  onPresence(p) {
    ui.presence = p;
    render();
  },
  onError(err) {
    showMessage(err.message, "error");
  },
  onReplaced(reason) {
    showMessage(reason || "This seat was opened in another tab.", "error");
  },
});

function showMessage(text, kind = "info") {
  ui.message = text;
  ui.messageKind = kind;
  render();
}

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

async function act(message) {
  try {
    const result = await conn.request(message);
    return result;
  } catch (err) {
    showMessage(err.message, "error");
    return null;
  }
}

// ------------------------------------------------------------------ lobby

async function createRoom(form) {
  const nickname = form.nickname.value.trim();
  if (!nickname) return showMessage(t("nickname") + "?", "error");
  localStorage.setItem("guandan:nickname", nickname);
  const fillBots = form.bots.checked;
  const timer = Number(form.timer.value);
  const result = await act({
    type: "create",
    nickname,
    preset: form.preset.value,
    bots: fillBots ? [1, 2, 3] : [],
    turn_timer: timer > 0 ? timer : null,
    bot_delay: Number(form.botDelay.value),
  });
  if (result) enterRoom(result);
}

async function joinRoom(form) {
  const nickname = form.nickname.value.trim();
  const code = form.code.value.trim().toUpperCase();
  if (!nickname) return showMessage(t("nickname") + "?", "error");
  if (!code) return showMessage(t("code") + "?", "error");
  localStorage.setItem("guandan:nickname", nickname);
  const saved = loadSeat(code);
  if (saved?.token) {
    try {
      const result = await conn.resume(code, saved.token);
      return enterRoom({ ...result, code, token: saved.token });
    } catch {
      forgetSeat(code);
    }
  }
  const result = await act({ type: "join", code, nickname });
  if (result) enterRoom({ ...result, code });
}

function enterRoom(result) {
  conn.adoptSeat(result.code, result.seat, result.token);
  const url = new URL(location.href);
  url.searchParams.set("room", result.code);
  history.replaceState(null, "", url);
  ui.message = "";
  render();
}

function lobbyScreen() {
  const params = new URLSearchParams(location.search);
  const code = params.get("room") || "";
  const nickInput = () => h("input", { name: "nickname", value: ui.nickname, maxlength: 24, required: true,
    "aria-label": t("nickname"), placeholder: t("nickname"), "data-testid": "nickname",
    oninput: (e) => (ui.nickname = e.target.value) });
  const createForm = h("form", { class: "panel", "data-testid": "create-form",
    onsubmit: (e) => { e.preventDefault(); createRoom(e.target); } },
    h("h2", { text: t("create") }),
    nickInput(),
    h("label", {}, t("preset"), " ", h("select", { name: "preset", "data-testid": "preset" },
      PRESETS.map((p) => h("option", { value: p, text: p })))),
    h("label", {}, h("input", { type: "checkbox", name: "bots", checked: true, "data-testid": "fill-bots" }), " ",
      t("bots")),
    h("label", {}, t("timer"), " ", h("select", { name: "timer", "data-testid": "timer" },
      [0, 15, 30, 60].map((s) => h("option", { value: s, text: s ? `${s} ${t("seconds")}` : t("off") })))),
    h("label", {}, t("botSpeed"), " ", h("select", { name: "botDelay", "data-testid": "bot-delay" },
      [1, 0.5, 2, 0].map((s) => h("option", { value: s, text: `${s} ${t("seconds")}` })))),
    h("button", { type: "submit", class: "primary", "data-testid": "create" }, t("create")));
  const joinForm = h("form", { class: "panel", "data-testid": "join-form",
    onsubmit: (e) => { e.preventDefault(); joinRoom(e.target); } },
    h("h2", { text: t("join") }),
    nickInput(),
    h("input", { name: "code", value: code, maxlength: 6, placeholder: t("code"), "aria-label": t("code"),
      class: "code-input", "data-testid": "join-code", autocapitalize: "characters" }),
    h("button", { type: "submit", class: "primary", "data-testid": "join" }, t("join")));
  return h("main", { class: "lobby" }, code ? [joinForm, createForm] : [createForm, joinForm]);
}

function roomLobby() {
  const room = ui.room;
  const me = conn.room?.seat;
  const isHost = room.host === me;
  const link = `${location.origin}/?room=${room.code}`;
  const copy = async () => {
    try {
      if (navigator.share) await navigator.share({ title: t("title"), text: room.code, url: link });
      else await navigator.clipboard.writeText(link);
      showMessage(t("copied"));
    } catch {
      showMessage(link);
    }
  };
  return h("main", { class: "room-lobby" },
    h("div", { class: "panel" },
      h("div", { class: "label", text: t("roomCode") }),
      h("div", { class: "room-code", "data-testid": "room-code", text: room.code }),
      h("div", { class: "row" },
        h("button", { onclick: copy, "data-testid": "copy-link" }, `${t("copy")} / ${t("share")}`),
        h("a", { href: link, class: "join-link", "data-testid": "join-link" }, link))),
    h("ol", { class: "panel seats", "data-testid": "seats" },
      room.seats.map((s, i) => h("li", { "data-testid": `seat-${i}` },
        h("span", { class: "seat-no", text: `${t("seat")} ${i + 1}` }),
        h("span", { class: "seat-name", text: s.kind === "empty" ? t("empty") : s.kind === "bot" ? `🤖 ${s.nickname || t("bot")}` : s.nickname }),
        i === room.host ? h("span", { class: "badge", text: t("host") }) : null,
        i === me ? h("span", { class: "badge you", text: t("you") }) : null,
        isHost && s.kind === "empty" ? h("button", { onclick: () => act({ type: "add_bot", seat: i }) }, t("addBot")) : null,
        isHost && s.kind === "bot" ? h("button", { onclick: () => act({ type: "remove_bot", seat: i }) }, t("removeBot")) : null))),
    isHost ? h("button", { class: "primary big", "data-testid": "start", onclick: () => act({ type: "start" }) }, t("start")) : h("p", { text: t("waiting") }));
}

// ------------------------------------------------------------------ table

function cardEl(code, level, opts = {}) {
  const f = cardFace(code);
  const wild = isWild(code, level);
  const cls = ["card", f.red ? "red" : "black", f.joker ? "joker" : "", wild ? "wild" : "",
    cardRank(code) === level && !wild ? "level" : "", opts.selected ? "selected" : "", opts.eligible ? "eligible" : "",
    opts.small ? "small" : ""].filter(Boolean).join(" ");
  const label = f.joker ? (code === 53 ? "大王" : "小王") : `${f.symbol}${f.rank}`;
  const inner = [h("span", { class: "rank", text: f.joker ? (code === 53 ? "大" : "小") : f.rank }),
    h("span", { class: "suit", text: f.symbol })];
  if (opts.onclick) {
    return h("button", { class: cls, onclick: opts.onclick, "aria-pressed": opts.selected ? "true" : "false",
      "aria-label": label + (wild ? ` (${t("wild")})` : ""), "data-card": code, "data-testid": "hand-card" }, inner);
  }
  return h("span", { class: cls, "aria-label": label, "data-card": code }, inner);
}

function displayedHand(view) {
  const hand = view.hand || [];
  if (ui.sortMode === "suit") return sortCards(hand, view.level, "suit");
  if (ui.sortMode === "plays") {
    // group equal ranks, bigger groups first: a display aid only
    const byRank = new Map();
    for (const c of sortCards(hand, view.level)) {
      const r = c >= 52 ? c : cardRank(c);
      byRank.set(r, [...(byRank.get(r) || []), c]);
    }
    return [...byRank.values()].sort((a, b) => b.length - a.length).flat();
  }
  return sortCards(hand, view.level);
}

function seatName(i) {
  const s = ui.room?.seats?.[i];
  if (!s) return `${t("seat")} ${i + 1}`;
  return s.kind === "bot" ? `🤖 ${s.nickname || t("bot")}` : s.nickname || `${t("seat")} ${i + 1}`;
}

function playLabel(move, level) {
  if (!move) return null;
  if (move.type === "pass") return h("span", { class: "pass-label", text: t("passed") });
  return h("span", { class: "played" }, move.cards.map((c) => cardEl(c, level, { small: true })));
}

function seatBox(view, seat, position) {
  const lastMove = [...(view.trick || [])].reverse().find((m) => m.seat === seat);
  const out = (view.finished || []).indexOf(seat);
  const connected = ui.presence?.connected?.[seat];
  const auto = view.auto?.[seat] || ui.presence?.auto?.[seat];
  const isTurn = view.turn === seat && view.phase === "play";
  return h("div", { class: `seat-box ${position} ${isTurn ? "turn" : ""}`, "data-testid": `table-seat-${seat}` },
    h("div", { class: "who" },
      ui.room?.seats?.[seat]?.kind === "bot" ? null
        : h("span", { class: `dot ${connected === false ? "off" : "on"}`, title: connected === false ? t("offline") : t("connected") }),
      h("span", { class: "name", text: seatName(seat) + (seat === view.seat ? ` (${t("you")})` : "") }),
      h("span", { class: "team", text: `${t("team")} ${(seat % 2) + 1}` })),
    h("div", { class: "count", "data-testid": `count-${seat}`, text: `${view.counts[seat]} ${t("cards")}` }),
    auto ? h("div", { class: "badge auto", text: t("onAuto") }) : null,
    out >= 0 ? h("div", { class: "badge", text: t("places")[out] }) : null,
    isTurn && view.deadline ? h("div", { class: "deadline", "data-deadline": view.deadline }, deadlineText(view.deadline)) : null,
    h("div", { class: "last-play" }, playLabel(lastMove, view.level)));
}

function deadlineText(deadline) {
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  return `${left} ${t("seconds")} ${t("deadline")}`;
}

function rankText(rank) {
  return rank === 10 ? "10" : "  23456789TJQKA"[rank].replace("T", "10");
}

function selectedCards(view) {
  const hand = displayedHand(view);
  return [...ui.selected].map((i) => hand[i]).filter((c) => c !== undefined);
}

async function playSelected(view) {
  const cards = selectedCards(view);
  if (!cards.length) return showMessage(t("play") + "?", "error");
  const ok = await act({ type: "play", cards });
  if (ok) {
    ui.selected.clear();
    ui.message = "";
    render();
  }
}

async function suggest(view) {
  const result = await act({ type: "suggest" });
  if (!result) return;
  ui.selected.clear();
  const action = result.action || {};
  const want = [...(action.cards || (action.card !== undefined ? [action.card] : []))];
  displayedHand(view).forEach((c, i) => {
    const k = want.indexOf(c);
    if (k >= 0) {
      ui.selected.add(i);
      want.splice(k, 1);
    }
  });
  ui.suggestions += 1;
  showMessage(`${t("suggest")}: ${result.reason || (action.type === "pass" ? t("pass") : "")}`);
}

async function returnSelected(view) {
  const cards = selectedCards(view);
  if (cards.length !== 1) return showMessage(t("chooseReturn"), "error");
  if (await act({ type: "return", card: cards[0] })) {
    ui.selected.clear();
    render();
  }
}

function resultPanel(view) {
  const r = view.last_result;
  if (!r) return null;
  return h("div", { class: "panel result", "data-testid": "deal-result" },
    h("h2", { text: view.phase === "match_over" ? t("matchWon") : t("result") }),
    h("ol", { class: "places" }, r.places.map((s, i) => h("li", {}, `${t("places")[i]}: ${seatName(s)}`))),
    h("p", { text: `${t("winner")}: ${t("team")} ${r.winner_team + 1} · ${t("upgrade")} +${r.upgrade}` }),
    h("p", { text: `${t("levels")}: ${t("team")} 1 ${rankText(r.levels[0])} · ${t("team")} 2 ${rankText(r.levels[1])}` }),
    r.reason ? h("p", { class: "reason", "data-testid": "result-reason", text: r.reason }) : null,
    view.phase === "deal_over" && view.seat !== null && view.seat !== undefined
      ? h("button", { class: "primary", "data-testid": "next-deal", onclick: () => act({ type: "next_deal" }) }, t("nextDeal"))
      : null);
}

function tributeInfo(view) {
  const tr = view.tribute;
  if (!tr) return null;
  if (tr.refused) return h("div", { class: "tribute", text: t("refused") });
  return h("div", { class: "tribute" },
    (tr.gifts || []).map((g) => h("span", {}, `${t("tribute")} ${seatName(g.from)} → ${seatName(g.to)} `, cardEl(g.card, view.level, { small: true }))),
    (tr.returns || []).map((g) => h("span", {}, ` ${t("returnCard")} ${seatName(g.from)} → ${seatName(g.to)} `, cardEl(g.card, view.level, { small: true }))));
}

function autoControls(view) {
  const mine = view.auto?.[view.seat];
  return h("label", { class: "auto-toggle" },
    h("input", { type: "checkbox", checked: !!mine, "data-testid": "auto-toggle",
      onchange: (e) => act({ type: "auto", on: e.target.checked, interval: Number(document.querySelector("[data-testid=auto-interval]")?.value || 1) }) }),
    ` ${t("auto")} `,
    mine ? h("select", { "data-testid": "auto-interval", "aria-label": t("interval"),
      onchange: (e) => act({ type: "auto", on: true, interval: Number(e.target.value) }) },
      AUTO_INTERVALS.map((s) => h("option", { value: s, selected: (view.auto_interval?.[view.seat] ?? 1) === s, text: `${s} ${t("seconds")}` }))) : null);
}

function tableScreen() {
  const { view } = ui.state;
  const me = view.seat;
  const spectator = me === null || me === undefined;
  const base = spectator ? 0 : me;
  const hand = displayedHand(view);
  const returning = view.phase === "return" && (view.return_choices || []).length > 0;
  const eligible = new Set(view.return_choices || []);
  const myTurn = view.phase === "play" && view.turn === me;
  const header = h("div", { class: "levels", "data-testid": "levels" },
    h("span", {}, `${t("team")} 1: ${rankText(view.levels[0])}`),
    h("span", { class: "deal-level" }, `${t("deal")} `, h("strong", { text: rankText(view.level) }),
      " · ", t("wild"), " ", cardEl((view.level - 2) * 4 + 1, view.level, { small: true })),
    h("span", {}, `${t("team")} 2: ${rankText(view.levels[1])}`));
  const top = view.top;
  const center = h("div", { class: "center", "data-testid": "table-top" },
    top ? [h("div", { class: "label", text: `${t("lastPlay")}: ${seatName(top.seat)}` }),
      h("div", { class: "played big" }, top.cards.map((c) => cardEl(c, view.level)))] : null,
    tributeInfo(view),
    myTurn ? h("div", { class: "your-turn", "data-testid": "your-turn", text: t("yourTurn") }) : null);
  const handRow = spectator ? h("p", { class: "spectator", text: t("spectator") }) :
    h("div", { class: "hand", "data-testid": "hand" }, hand.map((c, i) => cardEl(c, view.level, {
      selected: ui.selected.has(i), eligible: returning && eligible.has(c),
      onclick: () => {
        if (ui.selected.has(i)) ui.selected.delete(i);
        else {
          if (returning) ui.selected.clear();
          ui.selected.add(i);
        }
        render();
      },
    })));
  const actions = spectator ? null : h("div", { class: "actions" },
    returning ? [h("span", { class: "hint", text: t("chooseReturn") }),
      h("button", { class: "primary", "data-testid": "return", onclick: () => returnSelected(view) }, t("returnCard"))]
      : [h("button", { class: "primary", "data-testid": "play", disabled: !myTurn, onclick: () => playSelected(view) }, t("play")),
        h("button", { "data-testid": "pass", disabled: !myTurn || !top, onclick: () => act({ type: "pass" }).then((ok) => ok && ui.selected.clear()) }, t("pass"))],
    h("button", { "data-testid": "sort", onclick: () => {
      ui.sortMode = { rank: "suit", suit: "plays", plays: "rank" }[ui.sortMode];
      ui.selected.clear();
      render();
    } }, `${t("sort")} (${t({ rank: "sortRank", suit: "sortSuit", plays: "sortPlays" }[ui.sortMode])})`),
    h("button", { "data-testid": "suggest", disabled: !(myTurn || returning), onclick: () => suggest(view) }, t("suggest")),
    autoControls(view));
  return h("main", { class: "table" },
    header,
    h("div", { class: "ring" },
      seatBox(view, (base + 2) % 4, "top"),
      seatBox(view, (base + 3) % 4, "left"),
      center,
      seatBox(view, (base + 1) % 4, "right"),
      seatBox(view, base, "bottom")),
    ["deal_over", "match_over"].includes(view.phase) ? resultPanel(view) : null,
    h("div", { class: `message ${ui.messageKind}`, role: "status", "data-testid": "message", text: ui.message }),
    handRow,
    actions);
}

// ------------------------------------------------------------------ shell

function render() {
  const root = document.getElementById("app");
  const status = ui.status === "connected" ? null
    : h("div", { class: "status-banner", "data-testid": "status", text: ui.status === "reconnecting" ? t("reconnecting") : ui.status });
  const bar = h("header", {},
    h("h1", { text: t("title") }),
    ui.room ? h("span", { class: "code-small", text: ui.room.code }) : null,
    h("button", { class: "lang", "data-testid": "lang", onclick: () => { toggleLang(); render(); } }, t("language")),
    ui.room ? h("button", { onclick: leave, "data-testid": "leave" }, t("leave")) : null);
  let screen;
  if (ui.state?.view && ui.room?.status === "playing" && ui.state.view.phase) screen = tableScreen();
  else if (ui.room) screen = roomLobby();
  else screen = lobbyScreen();
  const messageInLobby = !(ui.state?.view?.phase) && ui.message
    ? h("div", { class: `message ${ui.messageKind}`, role: "status", "data-testid": "message", text: ui.message }) : null;
  root.replaceChildren(bar, status || "", messageInLobby || "", screen);
  document.documentElement.lang = currentLang() === "zh" ? "zh-CN" : "en";
}

async function leave() {
  const code = ui.room?.code;
  await act({ type: "leave" });
  if (code) forgetSeat(code);
  ui.room = null;
  ui.state = null;
  conn.room = null;
  history.replaceState(null, "", location.pathname);
  render();
}

document.addEventListener("keydown", (e) => {
  if (!ui.state?.view || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const view = ui.state.view;
  if (e.key === "Enter" && view.phase === "play" && view.turn === view.seat) playSelected(view);
  else if (e.key === "p" && view.phase === "play" && view.turn === view.seat) act({ type: "pass" });
  else if (e.key === "s") suggest(view);
  else if (e.key === "Escape") {
    ui.selected.clear();
    render();
  }
});

// Resume the seat this browser holds for the room in the link (or the last room), then connect.
const linked = new URLSearchParams(location.search).get("room") || localStorage.getItem("guandan:last-room");
const saved = linked ? loadSeat(linked) : null;
if (saved?.token) conn.room = { code: linked, seat: saved.seat, token: saved.token };
conn.connect();
setInterval(() => {
  if (ui.state?.view?.deadline) render();
}, 1000);
render();

globalThis.guandan = { ui, conn };
