// The words of the deal's story (history, plays made for a player, plays as read, sounds), in Chinese
// and English; i18n.js merges them into its table, so t() and tIn() find them like any other label.
// A play's label is a template per kind: Chinese names the kind and the ranks as read ("顺子 45678"),
// English says it as English players do ("straight 4-8").
export const STORY_TEXT = {
  zh: {
    history: "记录", historyTitle: "本局记录 · 第 {n} 局", trickN: "第 {n} 轮", close: "关闭",
    noPlays: "本局还没有人出牌", leftover: "剩余手牌", outOfCards: "已出完", lastTrick: "上一轮",
    by: { away: "掉线代打", timer: "超时代打", autoplay: "托管", ai_fallback: "机器人代打" },
    byShort: { away: "代打", timer: "超时", autoplay: "托管", ai_fallback: "代打" },
    toastTimerMe: "时间到，系统替你出了：{play}", toastTimer: "{name} 超时，系统代出：{play}",
    toastAwayMe: "机器人替你出了：{play}", toastAway: "{name} 掉线，机器人代出：{play}",
    toastTimerMePass: "时间到，系统替你过了", toastTimerPass: "{name} 超时，系统代为过牌",
    toastAwayMePass: "机器人替你过了", toastAwayPass: "{name} 掉线，机器人代为过牌",
    inYourName: "你不在时的代打", inYourNameLine: "你不在时，系统替你做了 {n} 步：",
    earlier: "（更早的 {n} 步未列出）", gotIt: "知道了", returned: "还贡 {card} 给 {name}",
    standsFor: "当 {rank} 用", mute: "静音",
    playSeq: "{kind} {ranks}", playSingle: "{kind} {ranks}", playPair: "{kind} {ranks}",
    playTriple: "{kind} {ranks}", playBomb: "{kind} {ranks}", playFullHouse: "{kind} {ranks}",
    jokers: ["小王", "大王", "一对小王", "一对大王"],
  },
  en: {
    history: "History", historyTitle: "Deal {n} so far", trickN: "Trick {n}", close: "Close",
    noPlays: "Nobody has played yet this deal", leftover: "Cards left", outOfCards: "out", lastTrick: "Last trick",
    by: { away: "bot (away)", timer: "timer", autoplay: "auto-play", ai_fallback: "bot (for the AI)" },
    byShort: { away: "bot", timer: "timer", autoplay: "auto", ai_fallback: "bot" },
    toastTimerMe: "Time ran out: {play} was played for you", toastTimer: "{name} ran out of time: {play} played for them",
    toastAwayMe: "The bot played {play} for you", toastAway: "{name} is away: the bot played {play}",
    toastTimerMePass: "Time ran out: you passed", toastTimerPass: "{name} ran out of time: passed for them",
    toastAwayMePass: "The bot passed for you", toastAwayPass: "{name} is away: the bot passed",
    inYourName: "Played for you while you were away", inYourNameLine: "While you were away, {n} moves were made for you:",
    earlier: "({n} earlier moves not shown)", gotIt: "Got it", returned: "returned {card} to {name}",
    standsFor: "as {rank}", mute: "Mute",
    playSeq: "{kind} {lo}-{hi}", playSingle: "single {r}", playPair: "pair of {r}s", playTriple: "three {r}s",
    playBomb: "{n}-card bomb of {r}s", playFullHouse: "full house {t}s over {p}s",
    jokers: ["small joker", "big joker", "pair of small jokers", "pair of big jokers"],
  },
};
