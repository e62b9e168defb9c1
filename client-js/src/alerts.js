// Sounds and the turn alert: short tones for your turn, a bomb and a deal's end, made with the Web
// Audio API (no files to load), muteable (remembered in localStorage); the tab title says when it is
// your turn, so a player in another tab sees it.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { newMoves } from "./reading.js";

const MUTE_KEY = "guandan:muted";
const BOMBS = new Set(["bomb", "straight_flush", "joker_bomb"]);
const OVER = new Set(["deal_over", "match_over"]);
// each cue is a few notes: frequency (Hz, gliding to `to`), start and length (s), wave, loudness
const TONES = {
  turn: [{ freq: 660, dur: 0.09 }, { freq: 880, start: 0.11, dur: 0.14 }],
  bomb: [{ freq: 180, to: 45, dur: 0.45, type: "sawtooth", gain: 0.22 }, { freq: 90, to: 30, dur: 0.5, type: "square", gain: 0.1 }],
  deal_end: [523, 659, 784, 1047].map((freq, i) => ({ freq, start: i * 0.13, dur: i === 3 ? 0.3 : 0.12, type: "triangle" })),
};

/** Whether the seat owes an action now: its turn to play, or a tribute card to return. */
export function yourTurn(view) {
  if (!view || view.seat === null || view.seat === undefined) return false;
  return (view.phase === "play" && view.turn === view.seat) || (view.phase === "return" && (view.return_choices || []).length > 0);
}

/** The cues a change of view calls for, in order; none for the first view (a page just opened). */
export function cuesFor(before, after) {
  if (!before || !after?.phase) return [];
  const cues = [];
  if (newMoves(before, after).some((m) => m.type === "play" && BOMBS.has(m.kind))) cues.push("bomb");
  if (OVER.has(after.phase) && !(OVER.has(before.phase) && before.deal === after.deal)) cues.push("deal_end");
  if (yourTurn(after) && !yourTurn(before)) cues.push("turn");
  return cues;
}

/** What the seat owes, in words ("your turn", or a card to return); for when `yourTurn(view)`. */
export function owedWords(view) {
  return view.phase === "return" ? t("returnCard") : t("yourTurn");
}

/** The tab's title: the game's own, with "your turn" in front while it is. */
export function titleFor(view, base) {
  if (!yourTurn(view)) return base;
  return `▶ ${owedWords(view)} · ${base}`;
}

function note(audio, { freq, to = freq, start = 0, dur, type = "sine", gain = 0.18 }) {
  const at = audio.currentTime + start;
  const osc = audio.createOscillator();
  const amp = audio.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, at + dur);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  osc.connect(amp).connect(audio.destination);
  osc.start(at);
  osc.stop(at + dur + 0.02);
}

export class Sounds {
  constructor(storage = globalThis.localStorage) {
    this.storage = storage;
    this.muted = storage?.getItem(MUTE_KEY) === "1";
    this.played = []; // the last cues asked for, muted or not (tests and tools read it)
    this.audio = null;
  }

  setMuted(muted) {
    this.muted = muted;
    this.storage?.setItem(MUTE_KEY, muted ? "1" : "0");
  }

  /** Browsers start audio only after a gesture: the first tap or key opens it. */
  unlock() {
    const Audio = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Audio) return null;
    try {
      this.audio ??= new Audio();
      if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    } catch {
      this.audio = null; // no sound on this device
    }
    return this.audio;
  }

  play(cue) {
    this.played = [...this.played.slice(-49), { cue, muted: this.muted }];
    if (this.muted || !TONES[cue]) return;
    const audio = this.unlock();
    if (audio) for (const spec of TONES[cue]) note(audio, spec);
  }
}

export function muteButton(sounds, render) {
  return h("button", { class: `small sound ${sounds.muted ? "muted" : ""}`, "data-testid": "mute",
    "aria-pressed": sounds.muted ? "true" : "false", "aria-label": t("mute"), title: t("mute"), onclick: () => {
      sounds.setMuted(!sounds.muted);
      if (!sounds.muted) sounds.unlock(); // this tap is the gesture that lets audio start
      render();
    } }, "♪");
}
