// The browser client: renders what the server sends, sends what the player intends.
// It holds no game rules: legality, suggestions and results all come from the server.
import { Sounds, cuesFor, muteButton, owedWords, titleFor, yourTurn } from "./alerts.js";
import { cardFace, cardRank, isWild, rankLabel } from "./cards.js";
import { h, morphChildren } from "./dom.js";
import { currentLang, serverText, spaceZh, t, tIn, toggleLang } from "./i18n.js";
import { inviteOverlay, invitePanel } from "./invite.js";
import { leaveNeedsAsking, leaveOverlay } from "./leave-confirm.js";
import { counterStrip } from "./counter.js";
import { roomOptions, settingsLine } from "./options.js";
import { readyControls } from "./ready.js";
import { refusalText } from "./refusals.js";
import { matchRecord, matchTitle, resultHeadline } from "./results.js";
import { nameSeats } from "./seat-names.js";
import { fitHand, keepHandFitted, pinActions } from "./hand-fit.js";
import { lobbyWatchers, mayTakeASeat, newSpectators, tableWatchers } from "./spectators.js";
import { keepBubblesPlaced, placeBubbles } from "./bubble-place.js";
import { groupSelected, isOneGroup, loadGroups, saveGroups, withGroups, withoutPicked } from "./hand-groups.js";
import { slideToSelect } from "./hand-swipe.js";
import { Connection, forgetSeat, leftOnPurpose, loadSeat, loadWatch, markLeft, saveSeat, serverNowMs } from "./net.js";
import { arrange, positions, secondsLeft, takenOver, teamOf } from "./present.js";
import { playLabel, tableMoves } from "./reading.js";
import { canSit, seatActions } from "./seat-actions.js";
import { takeSeatFromAddress } from "./seat-link.js";
import { PRESETS, presetLink, presetNote, rulesButton, rulesRoute, rulesScreen, watchRules } from "./rules.js";
import {
  dismissSummary, historyButton, historyDrawer, leftoverBlock, moveMark, noteMoves, pinHistory, playedCards, story,
  storyHelpers, summaryPanel, toastLayer, toggleHistory,
} from "./story.js";
import { receivedCard, tributeBox, tributeRecord } from "./tribute-box.js";
import {
  bubble, chat, chatButton, chatHelpers, chatSheet, focusChat, forgetSaid, noteSaid, toggleChat,
} from "./chat.js";

const AUTO_INTERVALS = [0.3, 0.5, 1, 2, 3, 4, 5];
const TIMERS = [0, 10, 15, 20, 30, 60];
const BOT_DELAYS = [0, 0.5, 1, 2];
const SORT_MODES = ["rank", "suit", "plays"];
const SORT_LABEL = { rank: "sortRank", suit: "sortSuit", plays: "sortPlays" };

const store = globalThis.localStorage;
const sounds = new Sounds(store);
const ui = {
  status: "connecting",
  room: null, // latest "room" message
  presence: null,
  state: null, // { version, view, seat }
  selected: new Set(), // keys (present.keyed) of the selected cards
  sortMode: SORT_MODES.includes(store.getItem("guandan:sort")) ? store.getItem("guandan:sort") : "rank",
  autoInterval: AUTO_INTERVALS.includes(Number(store.getItem("guandan:auto-interval")))
    ? Number(store.getItem("guandan:auto-interval")) : 1,
  message: null, // { text, kind: "info" | "error" }
  readings: null, // { cards, ways }: the ways the selection can be played, while the player chooses
  suggested: null, // { keys, kind, value }: the last suggestion's selection and its reading
  screen: null, // "home" | "room" | "table" | "rules": the screen last rendered
  nickname: store.getItem("guandan:nickname") || "",
  codeInput: new URLSearchParams(location.search).get("room")?.toUpperCase() || "",
  seedInput: "",
  // the create form's choices live here, not only in the DOM: a render (the connection coming up, a
  // message) rebuilds the form from this state and must not undo what the player picked
  createChoices: { preset: "standard", bots: true, timer: 0, botDelay: 1, autoNext: false, counter: false, bot: "heuristic" },
  autoWanted: null, // the auto-play switch the player just flipped, until the server answers
  inviteOpen: false, // the invite panel over the table (mid-match)
  leaveAsked: false, // Leave pressed mid-match: the question over the table
  resultFocused: null, // the result ("deal:phase") whose button took the focus when it came up
  handFocus: null, // the hand card last focused: the hand's Tab stop
  groups: null, // { room, deal, list }: the player's own groups of cards (理牌, hand-groups.js)
  busy: false,
  suggestions: 0, // how many suggestions arrived (lets tests and tools wait for the next one)
  hint: null, // { version, skip }: Suggest pressed again at the same moment asks for the next other play
  historyWasOpen: false, // the history drawer was open at the last render (focusAfterHistory)
};

const wsScheme = location.protocol === "https:" ? "wss" : "ws";
const conn = new Connection(`${wsScheme}://${location.host}/ws`, {
  onStatus(status) {
    ui.status = status;
    render();
  },
  onState(state) {
    if (!conn.room) return;
    const before = ui.state?.view;
    const view = state.view;
    ui.state = state;
    const handChanged = !before || before.deal !== view.deal || JSON.stringify(before.hand) !== JSON.stringify(view.hand);
    if (handChanged) {
      ui.selected.clear();
      ui.suggested = ui.readings = null;
    }
    const moved = !before || before.turn !== view.turn || before.phase !== view.phase
      || (before.trick || []).length !== (view.trick || []).length;
    if (handChanged || moved) ui.message = ui.readings = null; // the choice of readings was for that turn
    // a rematch's deal 1 is another hand: the groups made in this match end with it
    if (view.phase === "match_over") {
      saveGroups(store, conn.room.code, view.deal, []);
      ui.groups = null;
    }
    noteMoves(before, view);
    for (const cue of cuesFor(before, view)) sounds.play(cue);
    render();
  },
  onRoom(room) {
    if (!conn.room || room.code !== conn.room.code) return;
    const before = ui.room;
    ui.room = room;
    for (const seat of takenOver(before, room)) flash(t("tookOver", { name: room.seats[seat].nickname, bot: botName(seat) }));
    // the host left and the role fell to this seat: it now has Start and the host's controls, unannounced before
    const me = conn.room.seat;
    if (before && before.host !== room.host && room.host === me && me !== null && me !== undefined) flash(t("nowHost"));
    render();
  },
  onPresence(p) {
    const came = newSpectators(ui.presence, p);
    ui.presence = p;
    if (came.length) flash(t("nowWatching", { name: came.join(t("listSep")) }));
    render();
  },
  onSaid(msg) {
    if (tableView()) noteSaid(msg);
  },
  onError(err) {
    showError(err);
  },
  onReplaced() {
    render();
  },
  onLost(err) {
    const removed = err.fields?.by === "host"; // not a failed return to the seat: the host's choice
    const code = ui.room?.code;
    ui.room = null;
    ui.state = null;
    ui.selected.clear();
    // one the host removed may come back with the code: the door opens on Join, as the invite link does
    history.replaceState(null, "", removed && code ? `${location.pathname}?room=${code}` : location.pathname);
    if (removed && code) ui.codeInput = code;
    showMessage(() => (removed ? errorText(err) : t("lost", { reason: errorText(err) })), "error");
  },
});

// ------------------------------------------------------------------ helpers

// A message is a text, or a function that words it in the current language: a switch of language
// re-words what is on screen (a refusal keeps its code and fields, not its text).
function showMessage(text, kind = "info") {
  ui.message = text ? { text, kind } : null;
  render();
  if (kind === "error") revealLobbyMessage(); // not a flash ("copied"): the page would jump to it
}

/** Off the table the message stands above the forms: one said to a Join far down a phone's page (a wrong
 * code, a name already seated, no nickname) was drawn above the screen, unseen. */
function revealLobbyMessage() {
  if (!tableView()) document.querySelector("[data-testid=message]")?.scrollIntoView({ block: "nearest" });
}

function messageText(message) {
  return typeof message?.text === "function" ? message.text() : message?.text || "";
}

function errorText(err) {
  return refusalText(err, currentLang(), seatName);
}

function showError(err) {
  ui.message = { text: () => errorText(err), kind: "error", code: err?.code };
  render();
  revealLobbyMessage();
}

async function act(message) {
  // lost mid-match, the request would wait for the connection, then go unannounced or time out: say at
  // once that nothing was sent (the seat is kept; the banner says so)
  if (ui.status === "reconnecting") {
    ui.message = { text: () => t("offlineAct"), kind: "error", code: "offline" };
    render();
    return null;
  }
  try {
    return await conn.request(message);
  } catch (err) {
    showError(err);
    return null;
  }
}

async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
    } else {
      const area = h("textarea", { readonly: true, class: "copy-buffer" }); // no inline style: the CSP forbids it
      area.value = text;
      document.body.append(area);
      area.select();
      const ok = document.execCommand("copy");
      area.remove();
      if (!ok) throw new Error("copy refused");
    }
    flash(t("copied"));
  } catch {
    showMessage(text); // at least show it, to copy by hand
  }
}

let flashTimer;
function flash(text) {
  showMessage(text);
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => {
    if (ui.message?.text === text) showMessage(null);
  }, 2000);
}

function seatKind(i) {
  return ui.room?.seats?.[i]?.kind || "empty";
}

function botName(i) {
  return `${t("bot")} ${i + 1}`;
}

/** "replaced Bot 3" under a person who took over a bot's seat; "the host removed Ann" on the seat she was
 * removed from (the others would only see the row empty). */
function replacedTag(i) {
  const s = ui.room?.seats?.[i];
  if (s?.kind === "empty" && s.removed) {
    return h("span", { class: "replaced", "data-testid": `removed-${i}`, text: t("removedByHost", { name: s.removed }) });
  }
  return s?.replaced
    ? h("span", { class: "replaced", "data-testid": `replaced-${i}`, text: t("replacedBot", { bot: botName(i) }) }) : null;
}

function inviteDeps(isHost) {
  const share = typeof navigator.share === "function"
    ? (url) => navigator.share({ title: t("title"), text: ui.room.code, url }).catch(() => {}) : null;
  return { welcome: conn.welcome, origin: location.origin, isHost, copyText, share, act, token: conn.room?.token ?? null };
}

function seatName(i) {
  const s = ui.room?.seats?.[i];
  if (!s || s.kind === "empty") return `${t("seat")} ${i + 1}`;
  if (s.kind === "bot") return botName(i);
  if (s.kind === "ai") return `${t("ai")} ${i + 1}`;
  return s.nickname || `${t("seat")} ${i + 1}`;
}

function teamName(team, me) {
  // a spectator's: "1、3号队" as the results' reasons say it ("队 1 5" read as 15 beside a level)
  if (me === null || me === undefined) return t("teamN", { n: team + 1, a: team + 1, b: team + 3 });
  return team === teamOf(me) ? t("ourTeam") : t("theirTeam");
}

function rankText(rank) {
  return rankLabel(rank);
}

function aiPaths(code) {
  try {
    return JSON.parse(store.getItem(`guandan:ai:${code}`) || "{}");
  } catch {
    return {};
  }
}

function rememberAiPath(code, seat, path) {
  const paths = aiPaths(code);
  paths[seat] = path;
  store.setItem(`guandan:ai:${code}`, JSON.stringify(paths));
}

function tableView() {
  const view = ui.state?.view;
  return view && view.phase && ui.room?.status === "playing" ? view : null;
}

// ------------------------------------------------------------------ lobby

async function createRoom() {
  const nickname = ui.nickname.trim();
  if (!nickname) return showMessage(t("needNickname"), "error");
  store.setItem("guandan:nickname", nickname);
  const choices = ui.createChoices;
  const message = {
    type: "create",
    nickname,
    preset: choices.preset,
    fill_bots: choices.bots, // bots take what is still empty at the start: friends find seats till then
    turn_timer: choices.timer > 0 ? choices.timer : null,
    bot_delay: choices.botDelay,
    auto_next: choices.timer > 0 && choices.autoNext,
    counter: choices.counter,
    bot: choices.bot,
  };
  const seed = ui.seedInput.trim();
  if (conn.welcome?.fixed_seeds && /^\d{1,15}$/.test(seed)) message.seed = Number(seed);
  ui.busy = true;
  const result = await act(message);
  ui.busy = false;
  if (result) enterRoom(result);
  else render();
}

async function joinRoom(spectator = false) {
  const nickname = ui.nickname.trim();
  const code = ui.codeInput.trim().toUpperCase();
  if (!nickname) return showMessage(t("needNickname"), "error");
  if (code.length !== 6) return showMessage(t("needCode"), "error");
  store.setItem("guandan:nickname", nickname);
  const saved = loadSeat(code);
  if (saved?.token && !spectator) {
    try {
      const result = await conn.resume(code, saved.token);
      return enterRoom({ ...result, code, token: saved.token });
    } catch (err) {
      if (err.code === "bad_token" || err.code === "room_not_found") forgetSeat(code);
    }
  }
  const result = await act(spectator ? { type: "join", code, nickname, spectator: true } : { type: "join", code, nickname });
  if (result) enterRoom({ ...result, code, watch: spectator ? nickname : null });
}

function canSitFromWatching() {
  return mayTakeASeat(ui.room, conn.room?.watch);
}

/** A spectator takes a free seat (in the lobby) or a bot's (mid-match) under the name they watch by. */
async function sitFromWatching(seat) {
  const { code, watch: nickname } = conn.room;
  const result = await act({ type: "join", code, nickname, seat });
  if (result) enterRoom({ ...result, code });
}

function enterRoom(result) {
  conn.adoptSeat(result.code, result.seat, result.token, result.watch);
  for (const a of result.ai || []) rememberAiPath(result.code, a.seat, a.path);
  const url = new URL(location.href);
  url.searchParams.set("room", result.code);
  history.replaceState(null, "", url);
  ui.message = null;
  render();
}

async function resumeLast(code) {
  const saved = loadSeat(code);
  if (!saved?.token) return render();
  try {
    const result = await conn.resume(code, saved.token);
    enterRoom({ ...result, code, token: saved.token });
  } catch (err) {
    if (err.code === "bad_token" || err.code === "room_not_found") forgetSeat(code);
    showError(err);
  }
}

function field(label, control) {
  return h("label", { class: "field" }, h("span", { class: "field-label", text: label }), control);
}

function nicknameInput() {
  return h("input", {
    name: "nickname", value: ui.nickname, maxlength: 24, autocomplete: "nickname", "data-testid": "nickname",
    placeholder: t("nickname"), oninput: (e) => (ui.nickname = e.target.value),
  });
}

function lobbyScreen() {
  const last = store.getItem("guandan:last-room");
  const resumable = last && loadSeat(last)?.token ? last : null;
  const choices = ui.createChoices;
  const createForm = h("form", { class: "panel", "data-testid": "create-form",
    onsubmit: (e) => { e.preventDefault(); createRoom(); } },
    h("h2", { text: t("create") }),
    field(t("nickname"), nicknameInput()),
    field(t("preset"), h("span", { class: "preset-pick" },
      h("select", { name: "preset", "data-testid": "preset", onchange: (e) => { choices.preset = e.target.value; render(); } },
        PRESETS.map((p) => h("option", { value: p, selected: p === choices.preset, text: tIn("presets", p) }))),
      presetLink(choices.preset))),
    presetNote(choices.preset),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "bots", checked: choices.bots, "data-testid": "fill-bots",
      onchange: (e) => (choices.bots = e.target.checked) }),
      h("span", { text: t("bots") })),
    h("div", { class: "row two" },
      field(t("timer"), h("select", { name: "timer", "data-testid": "timer", onchange: (e) => { choices.timer = Number(e.target.value); render(); } },
        TIMERS.map((s) => h("option", { value: s, selected: s === choices.timer, text: s ? `${s} ${t("seconds")}` : t("off") })))),
      field(t("botSpeed"), h("select", { name: "botDelay", "data-testid": "bot-delay", onchange: (e) => (choices.botDelay = Number(e.target.value)) },
        BOT_DELAYS.map((s) => h("option", { value: s, selected: s === choices.botDelay, text: `${s} ${t("seconds")}` }))))),
    // what a timeout does, before anyone meets it: a bomb or a joker may be the suggestion
    choices.timer ? h("p", { class: "hint", "data-testid": "timer-note", text: t("timerNote") }) : null,
    roomOptions(choices),
    conn.welcome?.fixed_seeds ? h("details", { class: "advanced" }, h("summary", { text: t("advanced") }),
      field(t("seed"), h("input", { name: "seed", inputmode: "numeric", value: ui.seedInput, "data-testid": "seed",
        oninput: (e) => (ui.seedInput = e.target.value) }))) : null,
    h("button", { type: "submit", class: "primary", "data-testid": "create", disabled: ui.busy }, t("create")));
  const joinForm = h("form", { class: "panel", "data-testid": "join-form",
    onsubmit: (e) => { e.preventDefault(); joinRoom(false); } },
    h("h2", { text: t("join") }),
    field(t("nickname"), nicknameInput()),
    field(t("code"), h("input", { name: "code", value: ui.codeInput, maxlength: 6, placeholder: "K7WQ3M",
      class: "code-input", "data-testid": "join-code", autocapitalize: "characters", autocomplete: "off", spellcheck: "false",
      oninput: (e) => (ui.codeInput = e.target.value.toUpperCase()) })),
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary grow", "data-testid": "join" }, t("join")),
      h("button", { type: "button", "data-testid": "watch", onclick: () => joinRoom(true) }, t("watch"))));
  const linked = new URLSearchParams(location.search).get("room");
  return h("main", { class: "lobby" },
    h("section", { class: "hero" }, h("div", { class: "hero-cards", "aria-hidden": "true" },
      [53, 49, 37].map((c) => cardEl(c, 2, { small: false }))),
    h("p", { class: "subtitle", text: t("subtitle") })),
    resumable && resumable !== linked ? h("div", { class: "panel resume" },
      h("button", { class: "primary", "data-testid": "resume", onclick: () => resumeLast(resumable) },
        t("resumeRoom", { code: resumable }))) : null,
    linked ? [joinForm, createForm] : [createForm, joinForm]);
}

function roomLobby() {
  const room = ui.room;
  const me = conn.room?.seat;
  const sitDown = canSitFromWatching() ? sitFromWatching : null;
  const isHost = room.host === me && me !== null && me !== undefined;
  const paths = aiPaths(room.code);
  const settings = room.settings || {};
  const seatRow = (s, i) => {
    const online = ui.presence?.connected?.[i];
    const aiUrl = s.kind === "ai" && paths[i] ? `${wsScheme}://${location.host}${paths[i]}` : null;
    return h("li", { class: `seat-row kind-${s.kind}`, "data-testid": `seat-${i}` },
      h("div", { class: "seat-main" },
        h("span", { class: `team-chip t${teamOf(i)}`, text: `${t("team")} ${teamOf(i) + 1}` }),
        h("span", { class: "seat-no", text: `${t("seat")} ${i + 1}` }),
        s.kind === "human" || s.kind === "ai"
          ? h("span", { class: `dot ${online ? "on" : "off"}`, title: online ? t("connected") : t("offline") }) : null,
        h("span", { class: "seat-name", text: s.kind !== "empty" ? seatName(i) : settings.fill_bots ? t("emptyBotAtStart") : t("empty") }),
        replacedTag(i),
        s.kind === "ai" ? h("span", { class: "badge ai", text: t("ai") }) : null,
        i === room.host ? h("span", { class: "badge", text: t("host") }) : null,
        i === me ? h("span", { class: "badge you", text: t("you") }) : null,
        seatActions(room, i, me, { act, addAi, seatName, sitDown })),
      aiUrl ? h("div", { class: "ai-url" },
        h("span", { class: "field-label", text: t("aiUrlHint") }),
        h("div", { class: "row" },
          h("input", { readonly: true, value: aiUrl, class: "grow mono", "data-testid": `ai-url-${i}`, "aria-label": t("aiUrl"),
            onclick: (e) => e.target.select() }),
          h("button", { class: "small", "data-testid": `copy-ai-${i}`, onclick: () => copyText(aiUrl) }, t("copy")))) : null);
  };
  return h("main", { class: "room-lobby" },
    invitePanel(room, inviteDeps(isHost)),
    h("section", { class: "panel" },
      h("ol", { class: "seats", "data-testid": "seats" }, room.seats.map(seatRow)),
      isHost && room.seats.some((s) => s.kind === "empty") ? h("p", { class: "hint", text: t("seatsEmptyHint") }) : null,
      room.seats.some((s) => canSit(room, s, me)) && (sitDown || (me !== null && me !== undefined))
        ? h("p", { class: "hint", "data-testid": "sit-hint", text: t(sitDown ? "sitHintWatching" : "sitHint") }) : null,
      settingsLine(settings),
      lobbyWatchers(ui.presence)),
    isHost ? h("button", { class: "primary big", "data-testid": "start", onclick: () => act({ type: "start" }) }, t("start"))
      : h("p", { class: "waiting", text: t("waiting") }));
}

async function addAi(seat) {
  const result = await act({ type: "add_ai", seat });
  if (result?.path) {
    rememberAiPath(ui.room.code, result.seat ?? seat, result.path);
    render();
  }
}

// ------------------------------------------------------------------ cards

function cardEl(code, level, opts = {}) {
  const f = cardFace(code);
  const wild = isWild(code, level);
  const levelCard = !f.joker && cardRank(code) === level && !wild;
  const cls = ["card", f.red ? "red" : "black", f.joker ? "joker" : "", wild ? "wild" : "", levelCard ? "level" : "",
    opts.selected ? "selected" : "", opts.eligible ? "eligible" : "", opts.dim ? "dim" : "",
    opts.small ? "small" : "", opts.mid ? "mid" : "", opts.received ? "received" : ""].filter(Boolean).join(" ");
  const name = f.joker ? (code === 53 ? (currentLang() === "en" ? "big joker" : "大王") : (currentLang() === "en" ? "small joker" : "小王"))
    : `${f.symbol}${f.rank}`;
  const label = name + (wild ? ` (${t("wild")})` : levelCard ? ` (${t("level")})` : "") + (opts.eligible ? ` (${t("canReturn")})` : "")
    + (opts.received ? ` (${t(opts.received === "return" ? "receivedBack" : "received")})` : "");
  const inner = [
    h("span", { class: `rank ${f.rank === "10" ? "ten" : ""}`, text: f.joker ? t(code === 53 ? "bigJoker" : "smallJoker") : f.rank }),
    h("span", { class: "suit", text: f.symbol }),
    wild ? h("span", { class: "mark", text: t("wildShort") }) : levelCard ? h("span", { class: "mark", text: t("levelShort") }) : null,
    // a ring marks it; the chip only where it hides no wild or level mark
    opts.received && !wild && !levelCard
      ? h("span", { class: "got", text: t(opts.received === "return" ? "receivedBackShort" : "receivedShort") }) : null,
  ];
  if (opts.onclick) {
    // one Tab stop for the whole hand (the arrow keys move between its cards), not 27 before Play
    return h("button", { type: "button", class: cls, onclick: opts.onclick, "aria-pressed": opts.selected ? "true" : "false",
      tabindex: opts.tabStop ? "0" : "-1", "aria-label": label, "data-card": code, "data-key": opts.key, "data-testid": "hand-card" }, inner);
  }
  return h("span", { class: cls, role: "img", "aria-label": label, "data-card": code }, inner);
}

// ------------------------------------------------------------------ table

/** The hand as drawn: the player's own groups (理牌) first, the rest sorted as chosen. */
function handGroups(view) {
  return withGroups(arrange(view.hand || [], view.level, ui.sortMode), ownGroups(view));
}

function ownGroups(view) {
  const room = conn.room?.code;
  if (ui.groups?.room !== room || ui.groups?.deal !== view.deal) {
    ui.groups = { room, deal: view.deal, list: loadGroups(store, room, view.deal) };
  }
  return ui.groups.list;
}

/** 理牌: the picked cards make a group of their own (or, picked as one group, go back in the hand). */
function groupPicked(view) {
  if (!ui.selected.size) return;
  selectionChanged(); // a choice open was for those cards picked (it then played others)
  setGroups(groupSelected(handGroups(view), ui.selected));
  ui.selected.clear();
  render();
}

function setGroups(list) {
  ui.groups.list = list;
  saveGroups(store, ui.groups.room, ui.groups.deal, list);
}

/** Send a play or a return of the picked cards; once it is taken, they leave the groups they were in. */
async function actWithPicked(view, message) {
  const regrouped = withoutPicked(handGroups(view), ui.selected); // (handGroups loads ui.groups)
  const done = await act(message);
  if (done) setGroups(regrouped);
  return done;
}

function selectedCards(view) {
  return handGroups(view).flat().filter((c) => ui.selected.has(c.key)).map((c) => c.card);
}

function myTurn(view) {
  return view.phase === "play" && view.turn === view.seat && view.seat !== null && view.seat !== undefined;
}

/** What the player owes now (their play, or a card to return) with its countdown; null when nothing. */
function owedMove(view) {
  if (!yourTurn(view)) return null;
  return { text: owedWords(view),
    timer: countdown(view.deadlines?.[view.seat] ?? view.deadline, "rules-countdown", "big") };
}

function owesReturn(view) {
  return view.phase === "return" && (view.return_choices || []).length > 0;
}

// A selection that can be played more than one way (a wild card: x4567 as 34567 or 45678, a straight
// flush or a straight) is offered as a choice, in the server's order (its default first); the rules
// that find the ways are the server's (RULES.md §3).
async function playSelected(view) {
  const cards = selectedCards(view);
  if (!cards.length) return showMessage(t("needCards"), "error");
  const suggested = ui.suggested;
  if (suggested && suggested.keys === [...ui.selected].sort().join(",") && suggested.kind) {
    return playAs(cards, suggested);
  }
  const found = await act({ type: "readings", cards });
  if (!found) return;
  const ways = found.readings || [];
  if (ways.length > 1) {
    ui.readings = { cards, ways };
    render();
    return;
  }
  await playAs(cards, ways[0]);
}

async function playAs(cards, way) {
  ui.readings = null;
  ui.suggested = null;
  const named = way ? { kind: way.kind, value: way.value } : {};
  if (await actWithPicked(tableView(), { type: "play", cards, ...named })) {
    ui.selected.clear();
    ui.message = null;
  }
  render();
}

function cancelReadings() {
  ui.readings = null;
  ui.message = null;
  render();
}

// worded as the table words the play once made ("straight flush 5-9"; the server's own name said
// "straight flush 56789" beside it); a server without the layout: its name
function readingLabel(way) {
  if (way.cards && way.as) return playLabel({ type: "play", ...way });
  const name = serverText(way.name, way.name_zh);
  return way.kind === "straight_flush" || way.kind === "joker_bomb" ? name : `${tIn("kinds", way.kind) || way.kind} ${name}`;
}

// over the foot of the table, out of its flow: in it, the choice and its prompt pushed Play below a
// phone's screen (320x568: 92 px too tall)
function readingsBar() {
  const { cards, ways } = ui.readings;
  return h("div", { class: "readings", role: "group", "aria-label": t("chooseReading"), "data-testid": "readings" },
    h("p", { class: "readings-prompt", text: t("chooseReading") }),
    h("div", { class: "row center" },
      ways.map((way, i) => h("button", { class: i === 0 ? "primary" : "", "data-testid": `reading-${i}`,
        onclick: () => playAs(cards, way) }, `${i + 1}. ${readingLabel(way)}`)),
      h("button", { "data-testid": "reading-cancel", onclick: cancelReadings }, t("cancel"))));
}

async function pass() {
  if (await act({ type: "pass" })) {
    ui.selected.clear();
    render();
  }
}

async function suggest(view) {
  const version = ui.state?.version;
  const skip = ui.hint?.version === version ? ui.hint.skip + 1 : 0;
  const result = await act(skip ? { type: "suggest", skip } : { type: "suggest" });
  ui.hint = { version, skip };
  if (!result) return;
  ui.selected.clear();
  const action = result.action || {};
  const want = [...(action.cards || (action.card !== undefined && action.card !== null ? [action.card] : []))];
  for (const c of handGroups(view).flat()) {
    const k = want.indexOf(c.card);
    if (k >= 0) {
      ui.selected.add(c.key);
      want.splice(k, 1);
    }
  }
  // Play right after Suggest plays the suggested reading, without asking how
  ui.suggested = action.type === "play" ? { keys: [...ui.selected].sort().join(","), kind: action.kind, value: action.value } : null;
  ui.suggestions += 1;
  showMessage(() => `${t("suggest")}${t("colon")}${serverText(result.reason, result.reason_zh) || (action.type === "pass" ? t("pass") : "")}`,
    "info");
  // pressed with a pointer, Suggest kept the focus, and Enter (play) pressed it again: the keys go to the
  // cards suggested
  if (document.activeElement?.dataset?.testid === "suggest") {
    document.querySelector("[data-testid=hand] .card.selected")?.focus({ preventScroll: true });
  }
}

async function returnSelected(view) {
  const cards = selectedCards(view);
  if (cards.length !== 1) {
    return showMessage(t("chooseReturn", { name: seatName(giverTo(view, view.seat)) }), "error");
  }
  if (await actWithPicked(view, { type: "return", card: cards[0] })) {
    ui.selected.clear();
    render();
  }
}

function giverTo(view, seat) {
  return (view.tribute?.gifts || []).find((g) => g.to === seat)?.from ?? seat;
}

async function setAuto(on) {
  ui.autoWanted = on; // the switch stays where the player put it while diffs arrive meanwhile
  render();
  await act(on ? { type: "auto", on: true, interval: ui.autoInterval } : { type: "auto", on: false });
  ui.autoWanted = null; // from now on the server's word (an error leaves it as it was)
  render();
}

async function setAutoInterval(value) {
  ui.autoInterval = value;
  store.setItem("guandan:auto-interval", String(value));
  const view = tableView();
  if (view && autoOn(view)) await setAuto(true);
}

function cycleSort() {
  ui.sortMode = SORT_MODES[(SORT_MODES.indexOf(ui.sortMode) + 1) % SORT_MODES.length];
  store.setItem("guandan:sort", ui.sortMode);
  render();
}

function timeText(left) {
  return currentLang() === "en" ? `${left} s` : `${left}秒`;
}

function countdown(deadline, testid, cls = "") {
  if (deadline === null || deadline === undefined) return null;
  const left = secondsLeft(deadline, serverNowMs());
  return h("span", { class: `countdown ${cls} ${left <= 5 ? "urgent" : ""}`, "data-deadline": deadline, "data-testid": testid,
    role: "timer", "aria-label": t("deadline") }, timeText(left));
}

function seatBox(view, seat, position) {
  const { moves, previous } = tableMoves(view);
  const last = moves[seat];
  const place = (view.finished || []).indexOf(seat);
  const kind = seatKind(seat);
  // one's own dot goes grey the moment this browser loses the server (the presence it holds is stale)
  const connected = seat === view.seat && ui.status !== "connected" ? false : ui.presence?.connected?.[seat];
  const auto = view.auto?.[seat];
  const pending = (view.pending || []).includes(seat) && ["play", "return"].includes(view.phase);
  const count = view.counts?.[seat] ?? 0;
  return h("div", { class: `seat-box ${position} t${teamOf(seat)} ${pending ? "turn" : ""} ${seat === view.seat ? "me" : ""}`,
    "data-testid": `table-seat-${seat}` },
    bubble(seat),
    h("div", { class: "who" },
      kind === "human" || kind === "ai"
        ? h("span", { class: `dot ${connected === false ? "off" : "on"}`, title: connected === false ? t("offline") : t("connected"),
          "data-testid": `online-${seat}`, "data-online": connected === false ? "no" : "yes" }) : null,
      h("span", { class: "name", text: seatName(seat) }),
      seat === view.seat ? [h("span", { class: "badge you", text: t("you") }), chatButton()] : null,
      kind === "ai" ? h("span", { class: "badge ai", text: t("ai") }) : null),
    replacedTag(seat),
    // a spectator takes a bot's seat mid-match, the one they choose (joining gave them the first bot's)
    kind === "bot" && view.seat == null && canSitFromWatching() && !ui.room?.locked
      ? h("button", { class: "small sit", "data-testid": `sit-${seat}`, onclick: () => sitFromWatching(seat),
        title: t("sitHereTitle", { n: seat + 1, team: teamOf(seat) + 1 }) }, t("sitHere")) : null,
    h("div", { class: "meta" },
      h("span", { class: `count ${count <= 10 && count > 0 ? "low" : ""}`, "data-testid": `count-${seat}` },
        h("strong", { text: count }), ` ${t(count === 1 ? "card" : "cards")}`),
      place >= 0 ? h("span", { class: `badge place p${place}`, text: t("places")[place] }) : null,
      auto ? h("span", { class: `badge auto ${auto}`, "data-testid": `auto-${seat}`, "data-auto": auto,
        text: t({ dropout: "autoDropout", left: "autoLeft" }[auto] ?? "autoPlayer") }) : null,
      // dropped, and the bot not yet playing (the grace period): said in words, not only by a grey dot
      !auto && connected === false && seat !== view.seat && ["human", "ai"].includes(kind)
        ? h("span", { class: "badge offline", "data-testid": `offline-${seat}` }, t("offlineWait"),
          // how long the table waits before our bot plays for them
          // the line may break before the separator, never after it ("waiting · 12 s" ran out of a side seat)
          view.takeover?.[seat]
            ? [" ", h("span", { class: "nowrap" }, h("span", { class: "sep", text: "· " }), countdown(view.takeover[seat], `takeover-${seat}`))]
            : null)
        : null,
      auto ? null : countdown(view.deadlines?.[seat], `countdown-${seat}`)), // our bot or auto-play acts first
    h("div", { class: `last-play ${previous ? "previous" : ""}` },
      last ? (last.type === "pass" ? h("span", { class: "pass-label", text: t("passed") })
        : playedCards(last, view.level)) : null,
      last ? moveMark(last) : null));
}

/** A team at A: which attempt at passing it comes next, and of how many the room's rules allow (the
 * last one marked: failing it sends the team back to 2). A deal played at A is an attempt for every team
 * at A (at the other team's A too, RULES.md §8: it once said "next" of a deciding attempt); while the
 * deal is at a lower level, or over (its attempt already counted), the chip says which comes next, muted. */
function aAttempt(view, team) {
  if (view.levels[team] !== 14) return null;
  const n = (view.a_failures?.[team] ?? 0) + 1;
  const of = ui.room?.settings?.rules?.a_attempts;
  const now = view.level === 14 && (view.phase === "play" || view.phase === "return");
  const [text, title] = now ? ["aTry", "aTryTitle"] : ["aNext", "aNextTitle"];
  const suffix = of ? "Of" : "";
  return h("small", { class: `a-try ${now ? "" : "next"} ${now && of && n >= of ? "last" : ""}`,
    "data-testid": `a-try-${team}`, title: t(title + suffix, { n, of }) }, t(text + suffix, { n, of }));
}

function levelsBar(view) {
  const me = view.seat;
  const scored = Boolean(view.points); // a match scored in points: each team's score, every deal at 2
  const chip = (team) => h("span", { class: `level-chip t${team} ${!scored && view.level_team === team ? "playing" : ""}` },
    h("span", { class: "chip-label", text: teamName(team, me) }),
    scored ? h("strong", { "data-testid": `points-${team}`, text: String(view.points[team]) }) : h("strong", { text: rankText(view.levels[team]) }),
    scored ? h("small", { class: "a-try next", text: t("pointsUnit") }) : aAttempt(view, team));
  const wildCard = (view.level - 2) * 4 + 1;
  const ours = me === null || me === undefined ? 0 : teamOf(me); // 我方 on the left for every player
  return h("div", { class: "levels", "data-testid": "levels" },
    chip(ours),
    h("span", { class: "deal-level", "data-testid": "deal-level" },
      h("span", { class: "chip-label", text: scored ? dealOf(view) : t("deal", { n: view.deal }) }),
      h("span", {}, `${t("dealLevel")} `, h("strong", { text: rankText(view.level) })),
      h("span", { class: "wild-chip", title: t("wild") }, cardEl(wildCard, view.level, { small: true }), h("span", { text: t("wild") }))),
    chip(1 - ours));
}

/** "Deal 3 of 6", or "Extra deal 1" once a scored match's deals are played and the score is level. */
function dealOf(view) {
  const of = view.rules?.match_deals;
  return view.deal > of ? t("extraDeal", { n: view.deal - of }) : t("dealOf", { n: view.deal, of });
}

/** The lead passed from `from` (out of cards, its play unbeaten) to `to`: 接风 when they are partners. */
function leadPassed(from, to, me) {
  const key = (teamOf(from) === teamOf(to) ? "takeover" : "leadPasses") + (to === me ? "Me" : "");
  return t(key, { from: seatName(from), to: seatName(to) });
}

function centerBox(view) {
  const { top, previous } = tableMoves(view); // a trick just won stays until the next play
  const turnSeat = view.turn;
  let turnLine = null;
  if (view.paused) { // the bots wait for the people too: "bot plays" beside a seat would say otherwise
    turnLine = h("div", { class: "turn-line paused", "data-testid": "paused", text: t("paused") });
  } else if (view.phase === "play" && turnSeat !== null && turnSeat !== undefined) {
    // the trick's winner went out and the lead passed on (接风 when it is to the partner): said so
    const passed = previous && top && top.seat !== turnSeat ? leadPassed(top.seat, turnSeat, view.seat) : null;
    const clocked = !view.auto?.[turnSeat]; // a seat our bot or auto-play acts for moves long before its timer
    turnLine = myTurn(view)
      ? h("div", { class: "turn-line mine", "data-testid": "your-turn", "data-takeover": passed ? "yes" : null },
        passed ?? t("yourTurn"), " ", clocked ? countdown(view.deadline, "countdown", "big") : null)
      : h("div", { class: "turn-line", "data-testid": "turn-of", "data-takeover": passed ? "yes" : null },
        passed ?? t("turnOf", { name: seatName(turnSeat) }), " ", clocked ? countdown(view.deadline, "countdown") : null);
  }
  return h("div", { class: "table-center", "data-testid": "table-top" },
    top ? h("div", { class: `top-play ${previous ? "previous" : ""}` },
      h("div", { class: "top-label", "data-testid": "top-label" }, previous ? `${t("lastTrick")} · ` : null,
        // the play's name breaks as one ("straight 8 9 10 J" left a lone "Q" on a phone's second line)
        h("strong", { text: seatName(top.seat) }), " · ", h("span", { class: "play-name", text: playLabel(top) }), moveMark(top)),
      playedCards(top, view.level, { big: true, testid: "top-cards" })) : null,
    tributeBox(view, { seatName, cardEl, countdown }),
    turnLine);
}

// The server explains every result in both languages (the rules live there, not here).
function resultReason(r) {
  const text = nameSeats(serverText(r.reason, r.reason_zh), playedBy);
  return currentLang() === "zh" ? spaceZh(text) : text;
}

/** Who played seat `i` in the result on screen: one who left a won match is still named there. */
function playedBy(i) {
  return ui.room?.seats?.[i]?.left || seatName(i);
}

/** The seats whose players left the won match (and did not come back to them), for the result's foot. */
function leavers() {
  return (ui.room?.seats || []).map((s, seat) => ({ seat, name: s.left, back: s.kind === "human" && s.nickname === s.left }))
    .filter((x) => x.name && !x.back);
}

function resultPanel(view) {
  const r = view.last_result;
  if (!r) return null;
  const me = view.seat;
  const over = view.phase === "match_over";
  const seated = me !== null && me !== undefined;
  const winner = view.match_winner ?? r.winner_team;
  const title = over
    ? matchTitle(seated ? winner === teamOf(me) : null, winner, Boolean(r.points))
    : `${t("result")} · ${t("deal", { n: r.deal })}`;
  // a match scored in points says the score before and after; else the levels
  const [label, before, after, show] = r.points
    ? [t("scoreLine"), r.points_before ?? r.points, r.points, String] : [t("levelsAfter"), r.levels_before || r.levels, r.levels, rankText];
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "result-title" },
    h("div", { class: `panel result ${over ? "match-over" : ""}`, "data-testid": "deal-result" },
      h("h2", { id: "result-title", "data-testid": over ? "match-won" : "result-title", text: title }),
      h("ol", { class: "places" }, r.places.map((s, i) => h("li", { class: `t${teamOf(s)} ${s === me ? "me" : ""}` },
        h("span", { class: `badge place p${i}`, text: t("places")[i] }),
        h("span", { class: "grow", text: playedBy(s) }),
        h("span", { class: `team-chip t${teamOf(s)}`, text: teamName(teamOf(s), me) })))),
      h("p", { class: "upgrade", "data-testid": "result-upgrade" }, resultHeadline(r, me, { teamName, rankText })),
      h("p", { class: "levels-line", "data-testid": "levels-line" }, `${label}${t("colon")}`,
        (seated && teamOf(me) === 1 ? [1, 0] : [0, 1]).map((team) => h("span", { class: `level-change t${team}` }, // ours first, as the top bar
          `${teamName(team, me)} ${show(before[team])} → `, h("strong", { text: show(after[team]) })))),
      r.reason ? h("p", { class: "reason", "data-testid": "result-reason" }, h("span", { class: "field-label", text: `${t("reason")}${t("colon")}` }), resultReason(r))
        : null,
      matchRecord(view, { teamName, rankText }),
      leftoverBlock(view),
      h("button", { class: "small", "data-testid": "result-history", onclick: () => toggleHistory(true) }, t("history")),
      // kept in sight at the panel's foot while the rest scrolls (a phone shows only part of the result)
      h("div", { class: "result-foot" }, readyControls(view, { seatName, act, leave, autoOn: autoOn(view), stopAuto: () => setAuto(false), leavers: leavers(),
          countdown }))));
}

/** Auto-play as the switch shows it: the player's pending choice, else the server's. */
function autoOn(view) {
  return ui.autoWanted ?? (view.autoplay !== null && view.autoplay !== undefined);
}

function autoControls(view) {
  const on = autoOn(view);
  const interval = ui.autoWanted ? ui.autoInterval : view.autoplay ?? ui.autoInterval; // pending: the player's pick
  return h("div", { class: `auto-controls ${on ? "on" : ""}` },
    h("label", { class: "check" },
      h("input", { type: "checkbox", checked: on, "data-testid": "auto-toggle", onchange: (e) => setAuto(e.target.checked) }),
      h("span", { text: t("auto") })),
    on ? h("select", { "data-testid": "auto-interval", "aria-label": `${t("auto")} ${t("interval")}`,
      onchange: (e) => setAutoInterval(Number(e.target.value)) },
      AUTO_INTERVALS.map((s) => h("option", { value: s, selected: Number(interval) === s, text: `${s} ${t("seconds")}` }))) : null);
}

/** Other cards picked: the choice of readings was for the ones before, and so was a refusal ("not a
 * legal play: ♠3 ♠6" stood with nothing picked). */
function selectionChanged() {
  if (ui.readings) cancelReadings();
  if (ui.message?.kind === "error") ui.message = null;
}

function toggleCard(view, key) {
  selectionChanged();
  if (ui.selected.has(key)) ui.selected.delete(key);
  else {
    if (owesReturn(view)) ui.selected.clear();
    ui.selected.add(key);
  }
  render();
}

function handArea(view) {
  const me = view.seat;
  if (me === null || me === undefined) return h("p", { class: "spectator", "data-testid": "spectator", text: t("spectator") });
  const returning = owesReturn(view);
  const eligible = new Set(view.return_choices || []);
  const groups = handGroups(view);
  if (!groups.length) {
    const place = (view.finished || []).indexOf(me);
    return h("p", { class: "hand-empty", text: place >= 0 ? `${t("finished")} · ${t("places")[place]}` : "" });
  }
  // the hand's one Tab stop: the card last focused while it is still held, else the first
  const stop = groups.some((g) => g.some(({ key }) => key === ui.handFocus)) ? ui.handFocus : groups[0][0].key;
  // the card just received (tribute, or a payer's return) stands out: one copy of it, as the apps do
  const got = receivedCard(view);
  const giftKey = got ? groups.flat().find(({ card }) => card === got.card)?.key ?? null : null;
  return h("div", { class: `hand ${returning ? "returning" : ""}`, "data-testid": "hand", role: "group", "aria-label": t("yourHand") },
    groups.map((g) => h("span", { class: g.manual ? "group manual" : "group" }, g.map(({ card, key }) => cardEl(card, view.level, {
      key, tabStop: key === stop, selected: ui.selected.has(key), eligible: returning && eligible.has(card), dim: returning && !eligible.has(card),
      received: key === giftKey ? got.kind : null, onclick: () => toggleCard(view, key),
    })))));
}

function actionBar(view) {
  const me = view.seat;
  if (me === null || me === undefined) return null;
  const returning = owesReturn(view);
  const online = ui.status === "connected"; // offline nothing can be sent
  const mine = myTurn(view) && online;
  // with cards picked the sort button groups them (理牌, as in the apps); else it cycles the sort
  const grouping = ui.selected.size > 0 && !returning;
  const undo = grouping && isOneGroup(handGroups(view), ui.selected);
  const [sortMain, sortSub] = grouping ? [t("group"), t(undo ? "groupUndo" : "groupMake")] : [t("sort"), t(SORT_LABEL[ui.sortMode])];
  return h("div", { class: "actions" },
    ui.readings && mine ? readingsBar() : null,
    h("div", { class: "row center" },
      returning
        ? h("button", { class: "primary", "data-testid": "return", disabled: !online, onclick: () => returnSelected(view) }, t("returnCard"))
        : [h("button", { class: "primary", "data-testid": "play", disabled: !mine || !ui.selected.size, onclick: () => playSelected(view) }, t("play")),
          h("button", { "data-testid": "pass", disabled: !mine || !view.top, onclick: pass }, t("pass"))],
      h("button", { "data-testid": "suggest", disabled: !(mine || returning) || !online, onclick: () => suggest(view) }, t("suggest")),
      // two spans: on a narrow phone they stack, so the four buttons keep to one row
      h("button", { class: "sort", "data-testid": "sort", "data-does": grouping ? "group" : "sort",
        onclick: grouping ? () => groupPicked(view) : cycleSort, "aria-label": `${sortMain}·${sortSub}` },
        h("span", { text: sortMain }), h("span", { class: "sort-mode", text: sortSub }))),
    h("div", { class: "row center" }, autoControls(view), storyControls()),
    h("p", { class: "shortcuts", text: t("shortcuts") }));
}

/** The deal's history and the sound switch, next to auto-play (a spectator's only controls). */
function storyControls() {
  return [historyButton(), muteButton(sounds, render), tableWatchers(ui.presence)];
}

function tableScreen(view) {
  const pos = positions(view.seat);
  const returning = owesReturn(view);
  const hint = returning && !ui.message
    ? { text: t("chooseReturn", { name: seatName(giverTo(view, view.seat)) }), kind: "hint" } : ui.message;
  return h("main", { class: `table phase-${view.phase}` },
    // for screen readers: the turn line is redrawn, this one stays and is read out when it changes
    h("p", { class: "sr-only", "aria-live": "polite", "data-testid": "announce", text: myTurn(view) ? t("yourTurn") : "" }),
    levelsBar(view),
    counterStrip(view),
    h("div", { class: "ring" },
      seatBox(view, pos.top, "top"),
      seatBox(view, pos.left, "left"),
      centerBox(view),
      seatBox(view, pos.right, "right"),
      seatBox(view, pos.bottom, "bottom")),
    h("div", { class: `message ${hint?.kind || ""}`, role: hint?.kind === "error" ? "alert" : "status", "data-testid": "message",
      "data-code": hint?.code, text: messageText(hint) }),
    handArea(view),
    actionBar(view) ?? h("div", { class: "actions" }, h("div", { class: "row center" }, storyControls())),
    ["deal_over", "match_over"].includes(view.phase) ? resultPanel(view) : null,
    summaryPanel(view),
    chatSheet(),
    historyDrawer(view),
    toastLayer(view));
}

// ------------------------------------------------------------------ shell

function banner() {
  if (ui.status === "connected") return null;
  if (ui.status === "replaced") {
    return h("div", { class: "status-banner replaced", "data-testid": "status", role: "alert" },
      h("span", { text: t("replaced") }),
      h("button", { class: "small", "data-testid": "take-back", onclick: () => conn.takeBack() }, t("takeBack")));
  }
  if (ui.status === "reconnecting") {
    const s = conn.retryAt ? Math.max(0, Math.ceil((conn.retryAt - Date.now()) / 1000)) : 0;
    const view = tableView();
    const seated = view?.seat !== null && view?.seat !== undefined;
    // at the table: over the foot (its buttons wait for the connection), not over the levels
    return h("div", { class: `status-banner ${view ? "at-foot" : ""}`, "data-testid": "status", role: "status" },
      h("span", { text: t("reconnecting") }),
      seated ? h("span", { class: "seat-kept", text: t("offlineSeat") }) : null,
      conn.retryAt ? h("span", { class: "retry", "data-retry-at": conn.retryAt }, t("retryIn", { s })) : null,
      h("button", { class: "small", "data-testid": "retry-now", onclick: () => conn.reconnectNow() }, t("retryNow")));
  }
  return h("div", { class: "status-banner", "data-testid": "status", role: "status", text: t("connecting") });
}

function render() {
  const root = document.getElementById("app");
  if (!root) return;
  const focusedKey = document.activeElement?.getAttribute?.("data-key");
  const view = tableView();
  const bar = h("header", { class: "topbar" },
    h("h1", {}, h("span", { class: "logo", "aria-hidden": "true", text: "♠♥" }), t("title")),
    // at the table the room's code opens the invite panel (a friend may still take a bot's seat)
    view ? h("button", { class: "code-small invite", "data-testid": "header-code", title: t("invite"), "aria-label": `${t("invite")} ${ui.room.code}`,
      onclick: () => { ui.inviteOpen = true; render(); } }, ui.room.code)
      : ui.room ? h("span", { class: "code-small", "data-testid": "header-code", text: ui.room.code }) : null,
    rulesButton(ui.room?.settings?.preset),
    h("button", { class: "small lang", "data-testid": "lang", lang: currentLang() === "zh" ? "en" : "zh",
      onclick: () => { toggleLang(); render(); } }, t("language")),
    ui.room ? h("button", { class: "small", onclick: askLeave, "data-testid": "leave" }, t("leave")) : null);
  const place = rulesRoute() ? "rules" : view ? "table" : ui.room ? "room" : "home";
  let screen;
  // what a timer just played for the player reading the rules is said there too
  if (place === "rules") screen = [rulesScreen(owedMove(view)), view ? toastLayer(view, { onlyMine: true }) : null];
  else if (place === "table") screen = tableScreen(view);
  else if (place === "room") screen = roomLobby();
  else screen = lobbyScreen();
  const lobbyMessage = !view && ui.message
    ? h("div", { class: `message ${ui.message.kind}`, role: ui.message.kind === "error" ? "alert" : "status", "data-testid": "message",
      "data-code": ui.message.code, text: messageText(ui.message) }) : null;
  const invite = view && ui.inviteOpen
    ? inviteOverlay(ui.room, inviteDeps(ui.room.host === view.seat), () => { ui.inviteOpen = false; render(); }) : null;
  const asked = ui.leaveAsked && leaveNeedsAsking(ui.room, view)
    ? leaveOverlay({ stay: () => setLeaveAsked(false), go: leave, code: ui.room.code }) : null;
  const next = h("div", {}, bar, banner(), lobbyMessage, screen, invite, asked);
  morphChildren(root, next);
  // a new screen opens at its top: the room's code, not the middle of its seats because Create
  // was pressed far down the form (the rules page scrolls to the section asked for itself)
  const newScreen = place !== ui.screen;
  if (newScreen && place !== "rules") window.scrollTo(0, 0);
  ui.screen = place;
  if (newScreen) focusNewScreen(root, place);
  fitHand(root.querySelector("[data-testid=hand]"));
  pinActions(root.querySelector(".table > .actions"));
  pinHistory(root);
  focusChat(root);
  placeBubbles(root);
  focusResult(root, view);
  focusAfterHistory(root);
  document.documentElement.lang = currentLang() === "zh" ? "zh-CN" : "en";
  document.title = titleFor(view, ui.room ? `${t("title")} · ${ui.room.code}` : `${t("title")} Guandan`);
  if (place === "table" && focusLost()) {
    // the card in focus redrawn, or gone with a play; a sheet closed (Leave, the summary, the invite): the
    // hand keeps the keys, which had fallen to the page
    (focusedKey && root.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`)
      || root.querySelector(HAND_STOP))?.focus({ preventScroll: true });
  }
}

/** The focused element went (replaced or removed): the keys fell to the page. */
function focusLost() {
  return !document.activeElement || document.activeElement === document.body;
}

const RESULT_BUTTON = "[data-testid=next-deal]:enabled, [data-testid=rematch]:enabled";
const HAND_STOP = "[data-testid=hand] .card[tabindex='0']"; // the hand's one Tab stop

/** A result that comes up takes the focus to its button (a keyboard player reached it only after every
 * control behind it), once per result: a player who moves on from it is left where they are. */
function focusResult(root, view) {
  const shown = view && ["deal_over", "match_over"].includes(view.phase) ? `${view.deal}:${view.phase}` : null;
  if (shown === ui.resultFocused) return;
  ui.resultFocused = shown;
  if (shown && !ui.leaveAsked && !ui.inviteOpen) {
    root.querySelector(RESULT_BUTTON)?.focus({ preventScroll: true });
  }
}

/** Create, gone with its screen, hands the keys to the room's Start, not to the page (at the table the
 * hand takes them at the end of render, as whenever they fall to the page there). */
function focusNewScreen(root, place) {
  if (place === "room" && focusLost()) root.querySelector("[data-testid=start]")?.focus({ preventScroll: true });
}

/** The history just closed: the keys go back to the result's button, else to the hand (they stayed on the
 * History button, and Enter, meant for Next deal or Play, opened the history again). */
function focusAfterHistory(root) {
  if (ui.historyWasOpen && !story.open) {
    const to = root.querySelector(RESULT_BUTTON)
      ?? root.querySelector(HAND_STOP);
    to?.focus({ preventScroll: true });
  }
  ui.historyWasOpen = story.open;
}

/** Countdowns tick in place, without a full render. */
function tick() {
  const now = serverNowMs();
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const left = secondsLeft(Number(el.dataset.deadline), now);
    const text = timeText(left);
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("urgent", left <= 5);
  }
  for (const el of document.querySelectorAll("[data-retry-at]")) {
    el.textContent = t("retryIn", { s: Math.max(0, Math.ceil((Number(el.dataset.retryAt) - now) / 1000)) });
  }
}

function askLeave() {
  if (leaveNeedsAsking(ui.room, tableView())) setLeaveAsked(true);
  else leave();
}

function setLeaveAsked(on) {
  ui.leaveAsked = on;
  render();
  if (on) document.querySelector("[data-testid=leave-stay]")?.focus();
}

async function leave() {
  ui.leaveAsked = false;
  const code = ui.room?.code;
  const view = tableView();
  // a seat mid-match stays the player's to resume; a spectator who leaves has stopped watching
  const keepSeat = ui.room?.status === "playing" && view?.phase !== "match_over" && !conn.room?.watch;
  if (conn.status === "connected") await conn.request({ type: "leave" }).catch(() => null);
  if (code && !keepSeat) forgetSeat(code);
  else if (code) markLeft(code);
  conn.leaveRoom();
  ui.room = null;
  ui.state = null;
  ui.presence = null;
  ui.selected.clear();
  ui.message = null;
  ui.inviteOpen = false;
  forgetSaid();
  history.replaceState(null, "", location.pathname);
  render();
}

// ------------------------------------------------------------------ keyboard

function moveFocus(delta, edge) {
  const cards = [...document.querySelectorAll("[data-testid=hand] .card")];
  if (!cards.length) return;
  let i = cards.indexOf(document.activeElement);
  if (edge === "start") i = 0;
  else if (edge === "end") i = cards.length - 1;
  else i = i < 0 ? 0 : Math.max(0, Math.min(cards.length - 1, i + delta));
  cards[i].focus();
}

// Tab back into the hand returns to the card last focused (its tabindex moves with the focus at once,
// before any render: Tab may come right after an arrow key)
document.addEventListener("focusin", (e) => {
  const card = e.target.closest?.("[data-testid=hand] .card");
  if (!card) return;
  ui.handFocus = card.dataset.key;
  for (const other of document.querySelectorAll("[data-testid=hand] .card[tabindex='0']")) other.tabIndex = -1;
  card.tabIndex = 0;
});

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  const tag = e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || tag === "SUMMARY") return;
  if (ui.leaveAsked) { // the question over the table takes the keys: Tab stays on its two buttons
    if (e.key === "Escape") setLeaveAsked(false);
    else if (e.key === "Tab") {
      e.preventDefault();
      const stay = document.activeElement?.dataset?.testid === "leave-stay";
      document.querySelector(`[data-testid=${stay ? "leave-go" : "leave-stay"}]`)?.focus();
    }
    return;
  }
  if (chat.open) { // the list of phrases takes the keys: Enter on a phrase must not play the picked cards
    if (e.key === "Escape") toggleChat(false);
    return;
  }
  const view = tableView();
  if (!view || view.seat === null || view.seat === undefined || rulesRoute()) return;
  const onCard = e.target.classList?.contains("card") && !!e.target.closest("[data-testid=hand]");
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const focusedKey = onCard ? e.target.dataset.key : null;
  switch (key) {
    case "ArrowLeft":
    case "ArrowRight":
      e.preventDefault();
      moveFocus(key === "ArrowLeft" ? -1 : 1);
      return;
    case "Home":
    case "End":
      if (!onCard) return;
      e.preventDefault();
      moveFocus(0, key === "Home" ? "start" : "end");
      return;
    case "ArrowUp":
    case "ArrowDown":
      if (!focusedKey) return;
      e.preventDefault();
      if ((key === "ArrowUp") !== ui.selected.has(focusedKey)) toggleCard(view, focusedKey);
      return;
    case "Enter":
      if (tag === "BUTTON" && !onCard) return; // Enter on a button presses that button
      e.preventDefault();
      if (owesReturn(view)) returnSelected(view);
      else if (myTurn(view) && ui.readings) playAs(ui.readings.cards, ui.readings.ways[0]);
      else if (myTurn(view)) playSelected(view);
      else if (view.phase === "deal_over" && !view.ready?.[view.seat]) act({ type: "next_deal" });
      else if (view.phase === "match_over" && !view.ready?.[view.seat]) act({ type: "new_match" });
      return;
    case "p":
      if (myTurn(view) && view.top) pass();
      return;
    case "s":
      if (myTurn(view) || owesReturn(view)) suggest(view);
      return;
    case "r":
      cycleSort();
      return;
    case "g":
      if (!owesReturn(view)) groupPicked(view);
      return;
    case "a":
      setAuto(view.autoplay === null || view.autoplay === undefined);
      return;
    case "Escape":
      if (story.open) return toggleHistory(false);
      if (dismissSummary(view)) return;
      if (!ui.readings) ui.selected.clear(); // first Escape closes the choice, the next clears the selection
      ui.readings = null;
      ui.message = null;
      render();
      return;
    default:
      if (ui.readings && /^[1-9]$/.test(key)) {
        const way = ui.readings.ways[Number(key) - 1];
        if (way) playAs(ui.readings.cards, way);
      }
  }
});

// ------------------------------------------------------------------ start

// Resume the seat this browser holds for the room in the link (or the last room, unless it was left on
// purpose: the start page offers Resume for it), then connect.
const brought = takeSeatFromAddress(location, history); // a seat link from another device
if (brought) saveSeat(brought.code, null, brought.token); // the snapshot tells the seat
const lastRoom = store.getItem("guandan:last-room");
const linked = new URLSearchParams(location.search).get("room")?.toUpperCase()
  || (lastRoom && !leftOnPurpose(lastRoom) ? lastRoom : null);
const saved = linked ? loadSeat(linked) : null;
if (saved?.token) conn.room = { code: linked, seat: saved.seat, token: saved.token };
else if (linked && loadWatch(linked)) conn.room = { code: linked, seat: null, watch: loadWatch(linked) };
keepHandFitted();
keepBubblesPlaced();
slideToSelect({
  selected: () => ui.selected,
  select: (keys) => {
    selectionChanged();
    ui.selected = keys;
    render();
  },
});
window.addEventListener("online", () => conn.reconnectNow());
window.addEventListener("offline", () => conn.dropped());
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") conn.reconnectNow();
});
// the story is of the match on screen: after a won match it names who played a seat, also one who left
storyHelpers({ cardEl, seatName: playedBy, render, countdown, tributeRecord: (view) => tributeRecord(view, { seatName: playedBy, cardEl }) });
chatHelpers({ render, say: (phrase) => act({ type: "say", phrase }) });
document.addEventListener("pointerdown", () => sounds.muted || sounds.unlock()); // audio starts after a gesture
conn.connect();
setInterval(tick, 250);
render();
watchRules(render);

globalThis.guandan = { ui, conn, render, sounds, story };
