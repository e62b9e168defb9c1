// Labels in Chinese (default) and English. The language choice lives in localStorage.
// Every word the client shows comes from here (refusals: refusals.js, from their code and fields); texts
// the server writes come in both languages and are shown in the chosen one (`serverText`): deal results'
// reasons, the bots' suggestions, the names of plays.
import { STORY_TEXT } from "./story-text.js";

export const TEXT = {
  zh: {
    title: "掼蛋", subtitle: "四人两副牌 · 对家搭档", nickname: "昵称", create: "创建房间", join: "加入房间",
    watch: "观战", code: "房间号", preset: "规则", bots: "开始时空位补机器人（朋友随时可以接替）", timer: "出牌计时", off: "不计时",
    seconds: "秒", copy: "复制", copyCode: "复制房间号", copyLink: "复制链接", copied: "已复制",
    share: "分享", seat: "座位", empty: "空位", bot: "机器人", ai: "AI", human: "玩家", host: "房主", start: "开始游戏",
    addBot: "+ 机器人", addAi: "+ 外部 AI", removeBot: "移除", sitHere: "坐这里", partnerMe: "与我搭档", partnerMeTitle: "让 {name} 坐到你对面，和你一队", sitHereTitle: "换到座位 {n}（队 {team}）", removePlayer: "请离座", removePlayerTitle: "请 {name} 离开这个座位（可以用房间号重新加入）", aiUrl: "AI 连接地址", aiUrlHint: "让你的 AI 连接这个地址（2020 竞赛协议）",
    play: "出牌", pass: "过", sort: "整理", suggest: "建议",
    sortRank: "按点数", group: "理牌", chat: "聊天", chatTitle: "快捷语",
    groupMake: "成一组", groupUndo: "拆开", sortSuit: "按花色", sortPlays: "按牌型", auto: "托管", interval: "间隔",
    // quick phrases (chat.js), in the server's order (docs/protocol.md, say)
    phrases: ["快点吧，我等得花都谢了", "好牌！", "配合得真好", "搭档，看你的了", "别急，我想想", "不好意思，出错了", "这把稳了",
      "再来一局", "谢谢", "我得走了，再见"],
    level: "级牌", deal: "第 {n} 局", dealLevel: "本局打", team: "队", teamN: "{a}、{b}号队", ourTeam: "我方", theirTeam: "对方",
    yourTurn: "轮到你出牌", turnOf: "等待 {name} 出牌", paused: "玩家都离开了：有人回来后继续", waiting: "等待房主开始游戏", cards: "张", card: "张",
    connecting: "正在连接服务器…", reconnecting: "连接中断，正在重连…", offlineSeat: "座位为你保留；断开久了，机器人会先替你出牌。", offlineAct: "没有连上服务器，这一步没有发出；连上后再出。", retryIn: "{s} 秒后重试",
    retryNow: "立即重连", replaced: "这个座位已在另一个标签页或设备上打开。", takeBack: "在这里继续",
    lost: "无法回到原来的座位：{reason}", connected: "在线", offline: "离线", offlineWait: "掉线中",
    autoPlayer: "托管", autoDropout: "掉线托管", autoLeft: "已离开·托管", yourHand: "你的手牌", canReturn: "可还", received: "刚收到的贡牌", receivedShort: "贡", receivedBack: "刚还回来的牌", receivedBackShort: "还",
    takeover: "{from} 出完了，{to} 接风", takeoverMe: "你来接风",
    leadPasses: "{from} 出完了，由 {to} 出牌", leadPassesMe: "{from} 出完了，由你出牌",
    leaveTitle: "离开牌桌？", leaveStay: "留下",
    leaveText: "离开后机器人立即替你出牌。座位会为你保留：回到首页点「继续房间 {code} 的牌局」即可回来接着打。",
    returnCard: "还贡", chooseReturn: "选一张绿色高亮的牌还给 {name}", waitReturn: "等待 {names} 还贡",
    refused: "抗贡：{names} 有两张大王，本局不进贡", refusedTwo: "抗贡：{names} 两人合有两张大王，本局不进贡", tributeLine: "{from} 向 {to} 进贡",
    returnLine: "{from} 还给 {to}", tributeLineMe: "你向 {to} 进贡", returnLineMe: "你还给 {to}", you2: "你",
    singleTribute: "单贡", doubleTribute: "双贡",
    result: "本局结算", places: ["头游", "二游", "三游", "末游"], upgrade: "升级", upBy: "{team}{combo}，升 {n} 级", headWon: "{team}{combo}，过A！",
    headPoints: "{team}{combo}，得 {n} 分", headPointsOne: "{team}{combo}，得 1 分", pointsUnit: "分", scoreLine: "比分", dealOf: "第 {n}/{of} 局", extraDeal: "加赛第 {n} 局",
    matchWonPoints: "赢得比赛！", matchLostPoints: "对方赢得比赛，本场告负",
    headStay: "{team}{combo}，仍为 {level}", headBack: "{team}{combo}，退回 {level}", matchRecord: "本场战绩（{n} 局）",
    aTry: "第{n}次", aTryOf: "第{n}/{of}次", aTryTitle: "打A：第{n}次", aTryTitleOf: "打A：第{n}次，共{of}次机会，都不过退回 2",
    aNext: "下次第{n}次", aNextOf: "下次第{n}/{of}次", aNextTitle: "本局按对方的级打，不算打A；下次是第{n}次",
    aNextTitleOf: "本局按对方的级打，不算打A；下次是第{n}次，共{of}次机会",
    nextDeal: "下一局", waitNext: "等待玩家准备下一局", matchWon: "通关！", matchOver: "比赛结束",
    weWon: "我方获胜", matchLost: "对方通关，本场告负", autoStillOn: "托管中：下一局仍由机器人替你出牌。", autoStop: "取消托管", teamWon: "{team}获胜", levelsAfter: "级别",
    reason: "说明", colon: "：", you: "你", spectator: "观战中：看不到任何人的手牌", language: "English", leave: "离开",
    backToLobby: "返回大厅", deadline: "剩余", wild: "逢人配", wildShort: "配", levelShort: "级",
    lastPlay: "上一手", passed: "过", finished: "已出完", roomCode: "房间号", joinLink: "邀请链接",
    lobby: "大厅", levels: "级别", winner: "胜方", botSpeed: "机器人出牌间隔", timerNote: "时间到时，系统替你走“建议”的那一步（可能过牌，也可能出炸弹或王）；连续两次超时会自动托管。还贡限时 20 秒。", advanced: "更多设置",
    botLevel: "机器人水平", botNames: { heuristic: "标准", strong: "高手（想得更久）", random: "随机" },
    seed: "洗牌种子（可选，用于复盘）", resume: "继续游戏", resumeRoom: "继续房间 {code} 的牌局",
    needNickname: "请先填写昵称", needCode: "请填写 6 位房间号", needCards: "先点选要出的牌",
    chooseReading: "这几张牌有几种打法，选一种（1–9 键，Enter 选第一种）", cancel: "取消",
    shortcuts: "键盘：←/→ 移动 · 空格 选牌 · ↑/↓ 选中/放下 · Enter 出牌 · P 过 · S 建议 · R 整理 · G 理牌 · A 托管 · Esc 取消",
    seatsEmptyHint: "空位可以补机器人或留给外部 AI", sitHint: "对面坐的是搭档：点“坐这里”换座位，选好和谁一队", settings: "设置", leader: "首出", rules: "规则", back: "返回", toTable: "回到牌桌",
    invite: "邀请", close: "关闭", qrAlt: "邀请链接的二维码", scanToJoin: "手机扫码加入", seatLinkTitle: "在另一台设备上继续",
    seatLinkWarn: "这个链接就是你的座位：在另一台设备或浏览器打开它，就回到这个座位（这里会让出）。别发给别人。", seatLinkQr: "你的座位链接的二维码", otherAddresses: "其他地址",
    inviteLocal: "这个链接只有本机能打开。要和同一网络里的朋友玩，请用 bash scripts/run.sh --host 0.0.0.0 启动服务器；"
      + "通过互联网玩，请看 README 的“Hosting”一节（反向代理和 --public-url）。",
    nextDealIn: "自动开始下一局",
    nowHost: "房主离开了，现在由你当房主",
    sitHintWatching: "想上桌打牌：点空位上的“坐这里”",
    lockTable: "锁定牌桌：机器人不再让座（新来的人只能坐空位或观战）", tableLocked: "房主已锁定牌桌：机器人不再让座",
    tookOver: "{name} 接替了 {bot}", replacedBot: "接替 {bot}", removedByHost: "房主请 {name} 离开了座位", emptyBotAtStart: "空位 · 开始时补机器人",
    bigJoker: "大王", smallJoker: "小王", listSep: "、",
    watchingNames: "观战：{names}", watchingCount: "{n} 人观战", andMore: "等 {n} 人", nowWatching: "{name} 正在观战",
    waitReady: "等待 {names} 准备", waitRematch: "等待 {names} 同意再来一场", readyDone: "已准备",
    othersReady: "其他人都准备好了，就等你", othersRematch: "其他人都同意再来一场，就等你", leftMatch: "{name} 已离开牌桌，再来一场时这个座位由 {now} 来坐",
    rematch: "再来一场", rematchAsked: "已申请再来一场", counter: "记牌器", counterOption: "记牌器（显示外面还剩几张）",
    autoNext: "计时结束自动开下一局",
    kinds: {
      single: "单张", pair: "对子", triple: "三张", full_house: "三带二", straight: "顺子", tube: "三连对",
      plate: "钢板", bomb: "炸弹", straight_flush: "同花顺", joker_bomb: "天王炸",
    },
    presets: {
      standard: "标准", national2017: "2017 全国竞技规则", huaian: "淮安", nanjing: "南京",
      competition2020: "2020 AI 竞赛", club: "俱乐部规则", points6: "6 局积分赛", points8: "8 局积分赛",
    },
    // one line per preset under the create form's choice; the full text is docs/rules.zh.md
    presetNotes: {
      standard: "默认规则：打A不限次数；还贡为 10 及以下、不是级牌的牌。",
      national2017: "2017 全国统一竞技规则：打A三次不过退回 2；还贡为 10 及以下（级牌也可以）。",
      huaian: "淮安打法：打A三次不过退回 2；还贡不限大小。",
      nanjing: "南京打法：打A两次不过退回 2；还贡为 10 及以下（级牌也可以）。",
      competition2020: "2020 AI 竞赛平台：只有打本方 A 时双上才算过A；打A两次不过退回 2。",
      club: "俱乐部规则：连续末游、连续双下要降级，连续头游有奖励；还给队友的牌须小于级牌。",
      points6: "积分赛：每局都打 2，双上 3 分、头游+三游 2 分、头游+末游 1 分；6 局后分高者胜，平分加赛。",
      points8: "积分赛：每局都打 2，按 3/2/1 计分；先到 13 分者胜，否则 8 局后分高者胜，平分加赛。",
    },
  },
  en: {
    title: "Guandan", subtitle: "Four players, two decks, partners sit opposite", nickname: "Nickname",
    create: "Create room", join: "Join room", watch: "Watch", code: "Room code", preset: "Rules",
    bots: "Bots fill empty seats at the start (friends can take over)", timer: "Turn timer", off: "Off", seconds: "s", copy: "Copy",
    copyCode: "Copy code", copyLink: "Copy link", copied: "Copied", share: "Share", seat: "Seat",
    empty: "empty", bot: "Bot", ai: "AI", human: "Player", host: "host", start: "Start game", addBot: "+ Bot",
    addAi: "+ External AI", removeBot: "Remove", sitHere: "Sit here", partnerMe: "Partner me", partnerMeTitle: "{name} moves across from you, onto your team", sitHereTitle: "Move to seat {n} (team {team})", removePlayer: "Remove", removePlayerTitle: "Take {name} out of this seat (the room code lets them join again)", aiUrl: "AI connection URL",
    aiUrlHint: "Point your AI at this URL (2020 competition protocol)",
    play: "Play", pass: "Pass", sort: "Sort", suggest: "Suggest", sortRank: "by rank", group: "Group", chat: "Say", chatTitle: "Quick phrases",
    groupMake: "picked", groupUndo: "undo", sortSuit: "by suit",
    phrases: ["Hurry up, please", "Nice play!", "Great teamwork", "Partner, over to you", "Hold on, let me think",
      "Sorry, my mistake", "We've got this", "One more game?", "Thanks", "I have to go, bye"],
    sortPlays: "by plays", auto: "Auto-play", interval: "interval", level: "Level", deal: "Deal {n}",
    dealLevel: "Playing", team: "Team", teamN: "Team {n}", ourTeam: "Us", theirTeam: "Them", yourTurn: "Your turn",
    turnOf: "Waiting for {name}", paused: "Everyone has left: play resumes when a player is back", waiting: "Waiting for the host to start", cards: "cards", card: "card",
    connecting: "Connecting…", reconnecting: "Connection lost, reconnecting…", offlineSeat: "Your seat is kept; if this takes long, the bot plays for you meanwhile.", offlineAct: "Not connected: nothing was sent. Play once the connection is back.", retryIn: "retry in {s} s",
    retryNow: "Retry now", replaced: "This seat was opened in another tab or device.", takeBack: "Continue here",
    lost: "Could not get back into the seat: {reason}", connected: "online", offline: "offline", offlineWait: "dropped · waiting",
    autoPlayer: "auto", autoDropout: "dropped · bot plays", autoLeft: "left · bot plays", yourHand: "Your hand", canReturn: "can be returned", received: "just received as tribute", receivedShort: "got", receivedBack: "just returned to you", receivedBackShort: "↩",
    takeover: "{from} is out: partner {to} takes the lead", takeoverMe: "Partner out: you lead",
    leadPasses: "{from} is out: {to} leads", leadPassesMe: "{from} is out: you lead",
    leaveTitle: "Leave the match?", leaveStay: "Stay",
    leaveText: "The bot plays your cards from the moment you leave. Your seat is kept: press “Resume the game in room {code}” on the start page to come back and play on.",
    returnCard: "Return", chooseReturn: "Choose a highlighted card to return to {name}",
    waitReturn: "Waiting for {names} to return a card",
    refused: "No tribute: both big jokers are with {names}", refusedTwo: "No tribute: {names} hold both big jokers between them", tributeLine: "{from} pays {to}",
    returnLine: "{from} returns to {to}", tributeLineMe: "You pay {to}", returnLineMe: "You return to {to}", you2: "you",
    singleTribute: "Single tribute", doubleTribute: "Double tribute",
    result: "Deal result", places: ["1st", "2nd", "3rd", "4th"], upgrade: "Upgrade", upBy: "{team}: {combo}, up {n}", headWon: "{team}: {combo}, passes A",
    headPoints: "{team}: {combo}, {n} points", headPointsOne: "{team}: {combo}, 1 point", pointsUnit: "pts", scoreLine: "Score",
    dealOf: "Deal {n} of {of}", extraDeal: "Extra deal {n}", matchWonPoints: "Match won!", matchLostPoints: "They won the match",
    headStay: "{team}: {combo}, stays at {level}", headBack: "{team}: {combo}, back to {level}", matchRecord: "This match ({n} deals)",
    aTry: "try {n}", aTryOf: "try {n}/{of}", aTryTitle: "A attempt {n}", aTryTitleOf: "A attempt {n} of {of}; failing the last sends the team back to 2",
    aNext: "next {n}", aNextOf: "next {n}/{of}", aNextTitle: "Not an A attempt: this deal is at the other team's level; the next is attempt {n}",
    aNextTitleOf: "Not an A attempt: this deal is at the other team's level; the next is attempt {n} of {of}",
    nextDeal: "Next deal", waitNext: "Waiting for the players to be ready", matchWon: "Match won!",
    matchOver: "Match over", weWon: "We won", matchLost: "They won the match", autoStillOn: "Auto-play is on: the bot plays your next deal too.", autoStop: "Stop auto-play", teamWon: "{team} won",
    levelsAfter: "Levels", reason: "Why", colon: ": ", you: "you", spectator: "Watching: nobody's hand is shown",
    language: "中文", leave: "Leave", backToLobby: "Back to lobby", deadline: "left", wild: "wild",
    wildShort: "W", levelShort: "L", lastPlay: "Last play", passed: "pass", finished: "out",
    roomCode: "Room code", joinLink: "Invite link", lobby: "Lobby", levels: "Levels", winner: "Winner",
    botSpeed: "Bot delay", timerNote: "When time runs out, the suggested move is made for you (a pass, or a play that may be a bomb or a joker); two timeouts in a row turn auto-play on. Returning a tribute card has 20 s.", advanced: "More settings",
    botLevel: "Bot level", botNames: { heuristic: "Standard", strong: "Strong (thinks longer)", random: "Random" }, seed: "Shuffle seed (optional, for replays)",
    resume: "Resume", resumeRoom: "Resume the game in room {code}", needNickname: "Enter a nickname first",
    needCode: "Enter the 6-character room code", needCards: "Tap the cards to play first",
    chooseReading: "These cards can be played more than one way: pick one (keys 1–9, Enter for the first)",
    cancel: "Cancel",
    shortcuts: "Keys: ←/→ move · Space select · ↑/↓ raise/lower · Enter play · P pass · S suggest · R sort · G group · A auto-play · Esc clear",
    seatsEmptyHint: "Fill empty seats with bots, or keep them for an external AI",
    sitHint: "Partners sit across the table: “Sit here” moves you, so you choose your partner", settings: "Settings",
    leader: "leads", rules: "Rules", back: "Back", toTable: "Back to the table",
    invite: "Invite", close: "Close", qrAlt: "QR code of the invite link", scanToJoin: "Scan with a phone to join",
    seatLinkTitle: "Continue on another device",
    seatLinkWarn: "This link is your seat: open it on another device or browser to play on there (this one lets go). Do not send it to anyone.",
    seatLinkQr: "QR code of your seat's link",
    otherAddresses: "Other addresses",
    inviteLocal: "Only this computer can open this link. For friends on your network, start the server with "
      + "bash scripts/run.sh --host 0.0.0.0; over the internet, see “Hosting” in the README (a reverse proxy and --public-url).",
    nextDealIn: "Next deal starts in",
    nowHost: "The host left: you are the host now",
    sitHintWatching: "To play, take a free seat with \"Sit here\"",
    lockTable: "Lock the table: bots keep their seats (newcomers may take an empty seat, or watch)",
    tableLocked: "The host locked the table: bots keep their seats",
    tookOver: "{name} replaced {bot}", replacedBot: "replaced {bot}", removedByHost: "the host removed {name}", emptyBotAtStart: "empty · a bot at the start",
    bigJoker: "BIG", smallJoker: "SMALL", listSep: ", ",
    watchingNames: "Watching: {names}", watchingCount: "{n} watching", andMore: "and {n} more", nowWatching: "{name} is watching",
    waitReady: "Waiting for {names} to be ready", waitRematch: "Waiting for {names} to agree to a rematch",
    othersReady: "Everyone else is ready: the table waits for you",
    othersRematch: "Everyone else wants a rematch: the table waits for you",
    leftMatch: "{name} left the table: {now} takes the seat for a rematch",
    readyDone: "Ready", rematch: "Rematch", rematchAsked: "Rematch asked", counter: "Cards out",
    counterOption: "Card counter (how many of each rank are still out)", autoNext: "Next deal starts when the timer runs out",
    kinds: {
      single: "single", pair: "pair", triple: "triple", full_house: "full house", straight: "straight",
      tube: "tube", plate: "plate", bomb: "bomb", straight_flush: "straight flush", joker_bomb: "joker bomb",
    },
    presets: {
      standard: "Standard", national2017: "National 2017", huaian: "Huai'an", nanjing: "Nanjing",
      competition2020: "Competition 2020", club: "Club rules", points6: "6 deals on points", points8: "8 deals on points",
    },
    // one line per preset under the create form's choice; the full text is docs/rules.md
    presetNotes: {
      standard: "The default: unlimited A attempts; return a card of 10 or lower that is not the level rank.",
      national2017: "2017 national rules: back to 2 after three failed A attempts; return 10 or lower.",
      huaian: "Huai'an: back to 2 after three failed A attempts; any card may be returned.",
      nanjing: "Nanjing: back to 2 after two failed A attempts; return 10 or lower.",
      competition2020: "2020 AI platform: A passes only with 1st+2nd at your own A; two attempts, then back to 2.",
      club: "Club: repeated 4th places and 3rd+4th cost levels, repeated 1st places earn one; club return rule.",
      points6: "Points: every deal at 2; 1st+2nd scores 3, 1st+3rd 2, 1st+4th 1; most after 6 deals wins, a tie plays on.",
      points8: "Points: every deal at 2, scored 3/2/1; 13 points win at once, else most after 8 deals; a tie plays on.",
    },
  },
};

for (const lang of ["zh", "en"]) Object.assign(TEXT[lang], STORY_TEXT[lang]);

function initialLang() {
  const saved = globalThis.localStorage && localStorage.getItem("guandan:lang");
  return saved === "en" ? "en" : "zh";
}

let lang = initialLang();

/** A label; `{name}` placeholders are filled from `vars`. */
export function t(key, vars) {
  let s = (TEXT[lang] && TEXT[lang][key]) ?? TEXT.en[key] ?? key;
  if (vars && typeof s === "string") s = lang === "zh" ? fillZh(s, vars) : s.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? ""));
  return s;
}

const HAN = /[\u4e00-\u9fff]/;

/**
 * A Chinese template filled in: the spaces that set a name or number apart from the characters around it
 * ("等待 Bella 出牌", "第 3 局") go where the value meets a character itself ("你有两张大王", not "你 有").
 */
function fillZh(s, vars) {
  return s.replace(/( ?)\{(\w+)\}( ?)/g, (match, pre, k, post, at, whole) => {
    const v = String(vars[k] ?? "");
    const before = whole[at - 1], after = whole[at + match.length];
    const left = pre && HAN.test(before ?? "") && HAN.test(v[0] ?? "") ? "" : pre;
    const right = post && HAN.test(after ?? "") && HAN.test(v[v.length - 1] ?? "") ? "" : post;
    return left + v + right;
  });
}

/** A label from one of the sub-tables (kinds, presets); undefined when there is none. */
export function tIn(table, key) {
  return TEXT[lang]?.[table]?.[key] ?? TEXT.en[table]?.[key];
}

export function currentLang() {
  return lang;
}

/** A text the server wrote in both languages (`reason` / `reason_zh`): the Chinese when Chinese is
 * chosen and the server gave it, else the English (an older server sends English only). */
export function serverText(en, zh) {
  return lang === "zh" && zh ? zh : en;
}

/** Chinese with a space wherever a letter or digit meets a character, as Chinese text sets them: "轮到
 * Bella", "座位 4 还空着", "从 2 升 3 级" (the server writes its Chinese close-set, "从2升3级"). */
export function spaceZh(text) {
  return text && text.replace(/([A-Za-z0-9])(?=[\u4e00-\u9fff])|([\u4e00-\u9fff])(?=[A-Za-z0-9])/g, "$1$2 ");
}

export function setLang(next) {
  lang = next === "en" ? "en" : "zh";
  if (globalThis.localStorage) localStorage.setItem("guandan:lang", lang);
  if (globalThis.document) document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}

export function toggleLang() {
  setLang(lang === "zh" ? "en" : "zh");
}
