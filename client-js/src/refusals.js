// Refusals in the player's language. The server sends a code and plain fields (cards as codes, plays
// with their names in both languages, seats, the phase), never words to show: the words are here, for
// every code the server (docs/protocol.md) or this client can give, so a switch of language re-words
// what is on screen and the Chinese page never shows the server's English message.
import { cardRank, rankLabel } from "./cards.js";
import { TEXT, spaceZh } from "./i18n.js";

const SUITS = ["♠", "♥", "♣", "♦"];

/** One card as players write it: ♠9, ♥10; the jokers by name (大王/小王, big joker/small joker). */
export function cardText(code, lang) {
  if (code === 53) return lang === "en" ? "big joker" : "大王";
  if (code === 52) return lang === "en" ? "small joker" : "小王";
  return `${SUITS[code & 3]}${rankLabel(cardRank(code))}`;
}

function cardsText(codes, lang) {
  return (codes || []).map((c) => cardText(c, lang)).join(" ");
}

/** A play named as read ("对子 99", "三带二 QQQ66", "同花顺 34567"): the server's name, our kind label. */
function playText(play, lang) {
  const name = lang === "en" ? play.name : play.name_zh;
  if (!name) return cardsText(play.cards, lang);
  if (play.kind === "straight_flush" || play.kind === "joker_bomb") return name;
  // a joker or two by name alone: "大王", "一对大王", "big joker" (not "single the big joker")
  if (play.cards?.length && play.cards.every((c) => c >= 52)) return name.replace(/^the /, "");
  const kind = TEXT[lang].kinds[play.kind];
  return kind ? `${kind} ${name}` : name;
}

const WORDS = {
  zh: {
    seat: (i) => `座位 ${i + 1}`,
    list: (items) => items.join("、"),
    actions: {
      play: "出牌", pass: "过牌", return: "还贡", next_deal: "开始下一局", add_bot: "添加机器人",
      add_ai: "添加外部 AI", remove_bot: "移除机器人", remove_player: "请玩家离座", sit: "换座位", swap: "调换座位", start: "开始游戏", leave: "离开座位", lock: "锁定或解锁牌桌",
    },
    phases: { play: "正在出牌", return: "正在还贡", deal_over: "本局已结束", match_over: "比赛已结束" },
    needs: { type: "动作类型", cards: "要出的牌", card: "要还的牌", seat: "座位" },
    generic: "操作没有成功",
    codes: {
      bad_msgpack: () => "服务器读不懂收到的数据，请刷新页面",
      binary_required: () => "数据格式不对，请刷新页面",
      frame_too_large: (f) => (f.size ? `这条消息太大了（${f.size} 字节，最多 ${f.limit} 字节）` : "这条消息太大了"),
      rate_limited: (f) => (f.rate ? `操作太快了（每秒最多 ${f.rate} 次），请稍等` : "操作太快了，请稍等"),
      too_many_rooms: (f) => `创建房间太频繁，请 ${wait(f, "zh")} 后再试`,
      too_many_joins: (f) => `加入房间太频繁，请 ${wait(f, "zh")} 后再试`,
      too_many_attempts: (f) => `房间号或座位凭证错误的次数太多，请 ${wait(f, "zh")} 后再试`,
      unknown_type: () => "服务器不认识这个请求，请刷新页面",
      invalid_message: () => "请求的格式不对，请刷新页面",
      duplicate_id: () => "这个请求已经处理过了",
      hello_required: () => "还没连上服务器，请刷新页面",
      protocol_mismatch: (f) => (f.server ? `页面版本（${f.client}）和服务器（${f.server}）不一致，请刷新页面` : "页面版本和服务器不一致，请刷新页面"),
      room_not_found: (f) => (f.code ? `没有房间 ${f.code}：房间号不对，或房间已过期` : "没有这个房间：房间号不对，或房间已过期"),
      bad_token: () => "这个座位凭证已失效，回不到原来的座位",
      nickname_taken: (f) => `「${f.nickname ?? "这个昵称"}」已经在这个房间有座位了：在当初入座的浏览器里打开游戏，`
        + "或用那里「邀请」中的「在另一台设备上继续」把座位带过来；不是你的话，请换一个昵称",
      seat_taken: (f, w) => (f.seat != null ? `${w.seatNo(f.seat)}已经有人了${w.who(f.seat, "：")}` : "这个座位已经有人了"),
      room_full: (f) => (f.locked ? "房间已满：房主锁定了牌桌，机器人不让座，可以观战" : "房间已满，可以观战"),
      already_seated: (f, w) => (f.seat != null ? `你已经坐在${w.seatName(f.seat)}，先离开再换` : "你已经有座位了"),
      not_in_room: () => "请先加入房间",
      not_seated: () => "观战者不能操作",
      not_host: (f, w) => `只有房主可以${w.action(f.action) || "这样做"}`,
      already_started: (f, w) => (f.action === "leave" ? "游戏已经开始，座位会为你保留" : `游戏已经开始，不能再${w.action(f.action) || "这样做"}`),
      not_started: () => "游戏还没开始",
      seats_empty: (f, w) => (f.seats?.length ? `${w.seats(f.seats)}还空着：补机器人或等玩家加入` : "还有空位：补机器人或等玩家加入"),
      not_a_bot: (f, w) => (f.seat != null ? `${w.seatName(f.seat)}不是机器人` : "这个座位不是机器人"),
      not_a_player: (f, w) => (f.seat != null ? `${w.seatName(f.seat)}没有别的玩家` : "这个座位没有别的玩家"),
      bad_bot: () => "没有这种机器人",
      match_not_over: () => "比赛还没结束",
      bad_rules: () => "规则设置无效",
      replaced: () => "这个座位已在另一个标签页或设备上打开",
      seat_lost: (f) => (f.by === "host" ? "房主请你离开了座位：可以用房间号重新加入" : "你的座位已经给了别人"),
      seed_not_allowed: () => "这个服务器不允许指定洗牌种子",
      already_ready: (f, w) => (f.waiting?.length ? `你已经准备好了，正在等${w.seats(f.waiting)}` : "你已经准备好了"),
      busy: () => "服务器忙，请再试一次",
      unavailable: () => "服务器暂时不可用，请稍后再试",
      internal: () => "服务器出错了，请再试一次",
      bad_action: (f, w) => (f.need ? `动作不完整：缺少${w.need(f.need)}` : "动作不完整"),
      bad_seat: () => "座位号无效",
      wrong_phase: (f, w) => (f.phase && f.action ? `${w.phase(f.phase)}，现在不能${w.action(f.action)}` : "现在不能这样做"),
      not_your_turn: (f, w) => (f.action === "return" ? "你不用还贡" : f.turn != null ? `还没轮到你，现在轮到${w.seatName(f.turn)}` : "现在不用你操作"),
      not_your_cards: (f, w) => (!f.cards?.length ? "这些牌不在你手里" : f.held ? `你只有 ${f.held} 张 ${w.cards(f.cards)}` : `你手里没有 ${w.cards(f.cards)}`),
      cannot_pass_lead: () => "你是首家，不能过，请出牌",
      not_a_play: (f, w) => (f.kind && w.kind(f.kind) ? `这几张牌不能当${w.kind(f.kind)}出：${w.cards(f.cards)}`
        : f.cards?.length ? `不是合法牌型：${w.cards(f.cards)}` : "不是合法牌型"),
      does_not_beat: (f, w) => (f.play && f.top ? `你的${w.play(f.play)}管不上${w.seatName(f.top.seat)}的${w.play(f.top)}` : "管不上"),
      not_eligible: (f, w) => (f.card != null ? `${w.cards([f.card])} 不能还；可以还：${w.cards(f.choices)}` : "这张牌不能还"),
      match_over: () => "比赛已结束",
      timeout: () => "服务器没有响应",
      not_connected: () => "还没连上服务器",
    },
  },
  en: {
    seat: (i) => `seat ${i + 1}`,
    list: (items) => items.join(", "),
    actions: {
      play: "play", pass: "pass", return: "return a card", next_deal: "start the next deal", add_bot: "add a bot",
      add_ai: "add an external AI", remove_bot: "remove a bot", remove_player: "remove a player", sit: "change seats", swap: "swap seats", start: "start the game", leave: "leave the seat",
      lock: "lock or unlock the table",
    },
    phases: { play: "Cards are being played", return: "Cards are being returned", deal_over: "The deal is over",
      match_over: "The match is over" },
    needs: { type: "its type", cards: "the cards to play", card: "the card to return", seat: "a seat" },
    generic: "That did not work",
    codes: {
      bad_msgpack: () => "The server could not read what this page sent: reload the page",
      binary_required: () => "The server could not read what this page sent: reload the page",
      frame_too_large: (f) => (f.size ? `That message is too big (${f.size} bytes, at most ${f.limit})` : "That message is too big"),
      rate_limited: (f) => (f.rate ? `Too fast (at most ${f.rate} actions a second): wait a moment` : "Too fast: wait a moment"),
      too_many_rooms: (f) => `Too many rooms created from your address: try again in ${wait(f, "en")}`,
      too_many_joins: (f) => `Too many joins from your address: try again in ${wait(f, "en")}`,
      too_many_attempts: (f) => `Too many wrong room codes or seat tokens: try again in ${wait(f, "en")}`,
      unknown_type: () => "The server does not know that request: reload the page",
      invalid_message: () => "That request was not well formed: reload the page",
      duplicate_id: () => "That request was handled already",
      hello_required: () => "Not connected to the server yet: reload the page",
      protocol_mismatch: (f) => (f.server ? `This page (version ${f.client}) does not match the server (${f.server}): reload the page`
        : "This page does not match the server: reload the page"),
      room_not_found: (f) => (f.code ? `There is no room ${f.code} (a wrong code, or it expired)` : "There is no such room (a wrong code, or it expired)"),
      bad_token: () => "This seat's pass is no longer valid: you cannot get back into the seat",
      nickname_taken: (f) => `${f.nickname ?? "That nickname"} already has a seat in this room: open the game in the browser`
        + " that took it, or bring the seat here with “Continue on another device” under Invite there; someone else? Choose another nickname",
      seat_taken: (f, w) => (f.seat != null ? `Seat ${f.seat + 1} is taken${w.who(f.seat, " by ")}` : "That seat is taken"),
      room_full: (f) => (f.locked ? "The room is full: the host locked the table, so bots keep their seats; you can watch"
        : "The room is full: you can watch"),
      already_seated: (f, w) => (f.seat != null ? `You already sit in ${w.seatName(f.seat)}: leave it first` : "You already have a seat"),
      not_in_room: () => "Join a room first",
      not_seated: () => "Spectators cannot act",
      not_host: (f, w) => `Only the host may ${w.action(f.action) || "do that"}`,
      already_started: (f, w) => (f.action === "leave" ? "The game has started: your seat is kept for you"
        : `The game has started: you cannot ${w.action(f.action) || "do that"} now`),
      not_started: () => "The game has not started",
      seats_empty: (f, w) => (f.seats?.length ? `${w.seats(f.seats)} still empty: add bots or wait for players`
        : "Some seats are empty: add bots or wait for players"),
      not_a_bot: (f, w) => (f.seat != null ? `${w.seatName(f.seat)} is not a bot` : "That seat is not a bot"),
      not_a_player: (f, w) => (f.seat != null ? `${w.seatName(f.seat)} holds no other player` : "That seat holds no other player"),
      bad_bot: () => "There is no such bot",
      match_not_over: () => "The match is not over yet",
      bad_rules: (f) => (f.option ? `Unknown or wrong rule option: ${f.option}` : f.preset ? `Unknown rules: ${f.preset}` : "Those rules are not valid"),
      replaced: () => "This seat was opened in another tab or device",
      seat_lost: (f) => (f.by === "host" ? "The host removed you from your seat: the room code lets you join again" : "Your seat was given to someone else"),
      seed_not_allowed: () => "This server does not let a room choose its shuffle",
      already_ready: (f, w) => (f.waiting?.length ? `You are ready: waiting for ${w.seats(f.waiting)}` : "You are ready already"),
      busy: () => "The server is busy: try again",
      unavailable: () => "The server is unavailable for now: try again shortly",
      internal: () => "The server failed: try again",
      bad_action: (f, w) => (f.need ? `That action lacks ${w.need(f.need)}` : "That action is incomplete"),
      bad_seat: () => "No such seat",
      wrong_phase: (f, w) => (f.phase && f.action ? `${w.phase(f.phase)}: you cannot ${w.action(f.action)} now` : "You cannot do that now"),
      not_your_turn: (f, w) => (f.action === "return" ? "You owe no card to return"
        : f.turn != null ? `Not your turn: it is ${w.seatName(f.turn)}'s` : "Nothing for you to do now"),
      not_your_cards: (f, w) => (!f.cards?.length ? "Those cards are not in your hand"
        : f.held ? `You hold only ${f.held} ${w.cards(f.cards)}` : `You do not hold ${w.cards(f.cards)}`),
      cannot_pass_lead: () => "You lead this trick: play something, you cannot pass",
      not_a_play: (f, w) => (f.kind && w.kind(f.kind) ? `These cards cannot be played as a ${w.kind(f.kind)}: ${w.cards(f.cards)}`
        : f.cards?.length ? `Not a play: ${w.cards(f.cards)}` : "Not a play"),
      does_not_beat: (f, w) => (f.play && f.top ? `Your ${w.play(f.play)} does not beat ${w.seatName(f.top.seat)}'s ${w.play(f.top)}`
        : "That does not beat the play on the table"),
      not_eligible: (f, w) => (f.card != null ? `You may not return ${w.cards([f.card])}; you may return ${w.cards(f.choices)}`
        : "You may not return that card"),
      match_over: () => "The match is over",
      timeout: () => "No answer from the server",
      not_connected: () => "Not connected to the server",
    },
  },
};

/** Every code with words (the server's, docs/protocol.md, and this client's own). */
export const REFUSAL_CODES = Object.keys(WORDS.zh.codes);

/**
 * A refusal (`{code, fields, message}`) in `lang`; `seatName(i)` names a seat as the table shows it.
 * A code without words gets a plain sentence (and, in English, the server's message).
 */
/** How long a limit asks to wait, from its retry_after (seconds), rounded up. */
function wait(f, lang) {
  const s = Math.max(1, Math.ceil(Number(f.retry_after) || 1));
  if (s < 120) return lang === "en" ? `${s} s` : `${s} 秒`;
  const m = Math.ceil(s / 60);
  return lang === "en" ? `${m} min` : `${m} 分钟`;
}

export function refusalText(err, lang, seatName) {
  const words = WORDS[lang === "en" ? "en" : "zh"];
  const fields = err?.fields || {};
  const lookup = (table) => (key) => words[table][key];
  const w = {
    seatName: (i) => (seatName ? seatName(i) : words.seat(i)),
    seatNo: (i) => words.seat(i),
    who: (i, sep) => (seatName ? sep + seatName(i) : ""), // who sits there, when the table is known
    seats: (seats) => words.list(seats.map((i) => (seatName ? seatName(i) : words.seat(i)))),
    cards: (codes) => cardsText(codes, lang === "en" ? "en" : "zh"),
    play: (play) => playText(play, lang === "en" ? "en" : "zh"),
    kind: (kind) => TEXT[lang === "en" ? "en" : "zh"].kinds[kind],
    action: lookup("actions"),
    phase: lookup("phases"),
    need: lookup("needs"),
  };
  const say = words.codes[err?.code];
  if (say) return lang === "en" ? say(fields, w) : spaceZh(say(fields, w)); // a name, seat or play filled in
  if (lang === "en" && err?.message) return err.message;
  return words.generic;
}
