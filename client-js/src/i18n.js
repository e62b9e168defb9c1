// Labels in Chinese (default) and English. The language choice lives in localStorage.
const TEXT = {
  zh: {
    title: "掼蛋", nickname: "昵称", create: "创建房间", join: "加入房间", code: "房间号", preset: "规则",
    bots: "空位补机器人", timer: "出牌计时", off: "关", seconds: "秒", copy: "复制", copied: "已复制",
    share: "分享链接", seat: "座位", empty: "空位", bot: "机器人", host: "房主", start: "开始",
    addBot: "加机器人", removeBot: "移除", play: "出牌", pass: "过", sort: "整理", suggest: "建议",
    sortRank: "按点数", sortSuit: "按花色", sortPlays: "按牌型", auto: "自动出牌", interval: "间隔",
    level: "级牌", deal: "本局打", team: "队", yourTurn: "轮到你", waiting: "等待", cards: "张",
    reconnecting: "正在重连…", connected: "已连接", offline: "离线", onAuto: "托管中",
    returnCard: "还贡", chooseReturn: "选择一张牌还贡", tribute: "进贡", refused: "抗贡",
    result: "本局结算", places: ["头游", "二游", "三游", "末游"], upgrade: "升级", nextDeal: "下一局",
    matchWon: "通关获胜", you: "你", spectator: "观战", language: "English", leave: "离开",
    deadline: "剩余", wild: "逢人配", lastPlay: "上一手", passed: "过", finished: "已出完",
    roomCode: "房间号", joinLink: "加入链接", lobby: "大厅", levels: "级别", winner: "胜方",
    botSpeed: "机器人出牌间隔",
  },
  en: {
    title: "Guandan", nickname: "Nickname", create: "Create room", join: "Join room", code: "Room code",
    preset: "Rules", bots: "Bots in empty seats", timer: "Turn timer", off: "off", seconds: "s", copy: "Copy",
    copied: "Copied", share: "Share link", seat: "Seat", empty: "empty", bot: "bot", host: "host",
    start: "Start", addBot: "Add bot", removeBot: "Remove", play: "Play", pass: "Pass", sort: "Sort",
    suggest: "Suggest", sortRank: "by rank", sortSuit: "by suit", sortPlays: "by plays", auto: "Auto-play",
    interval: "interval", level: "Level", deal: "Deal at", team: "Team", yourTurn: "Your turn",
    waiting: "Waiting", cards: "cards", reconnecting: "Reconnecting…", connected: "Connected",
    offline: "offline", onAuto: "on auto", returnCard: "Return", chooseReturn: "Choose a card to return",
    tribute: "Tribute", refused: "Tribute refused", result: "Deal result",
    places: ["1st", "2nd", "3rd", "4th"], upgrade: "Upgrade", nextDeal: "Next deal", matchWon: "Match won",
    you: "you", spectator: "Spectating", language: "中文", leave: "Leave", deadline: "left", wild: "wild",
    lastPlay: "Last play", passed: "pass", finished: "out", roomCode: "Room code", joinLink: "Join link",
    lobby: "Lobby", levels: "Levels", winner: "Winner", botSpeed: "Bot delay",
  },
};

let lang = (globalThis.localStorage && localStorage.getItem("guandan:lang")) || "zh";

export function t(key) {
  return (TEXT[lang] && TEXT[lang][key]) ?? TEXT.en[key] ?? key;
}

export function currentLang() {
  return lang;
}

export function toggleLang() {
  lang = lang === "zh" ? "en" : "zh";
  if (globalThis.localStorage) localStorage.setItem("guandan:lang", lang);
  if (globalThis.document) document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}
