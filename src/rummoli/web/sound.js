// Sounds at the table, made by the page itself with the Web Audio API (no sound file is fetched): the deal, your
// turn, a pot won, a gin. Silent until the person first touches or types on the page (browsers allow no sound
// before that, and a page should not start talking by itself); a mute switch, remembered in this browser.
import { h } from "./dom.js";

const KEY = "rummoli:mute";
const REST_AFTER_S = 0.3;  // how long after its last sound ends the page's audio is put to sleep
let audio = null;
let woken = false;
let soundsEnd = 0;  // when the last sound scheduled ends, on the audio clock
let restTimer = null;

export const muted = () => localStorage.getItem(KEY) === "1";

// A running audio context renders silence without end: measured in Chromium, a table page left alone after its
// first touch used ten times the CPU of one never touched (0.29 against 0.03 CPU seconds in 10 s), and on a phone
// it keeps the sound hardware awake. So the context sleeps between sounds: it is woken for each one (the touch that
// created it lets the page resume it later) and put back to sleep once the sound is over.
function restSoon() {
  clearTimeout(restTimer);
  const left = Math.max(0, soundsEnd - audio.currentTime) + REST_AFTER_S;
  restTimer = setTimeout(() => {
    if (audio.state !== "running") return;  // asleep already; it is timed again when it wakes (below)
    if (audio.currentTime >= soundsEnd) audio.suspend().catch(() => {});
    else restSoon();
  }, left * 1000);
}

function wake() {
  woken = true;
  if (!audio && !muted()) {
    try {
      audio = new AudioContext();
      // However it wakes (a touch, a sound, the browser), it goes back to sleep once its sounds are over.
      audio.addEventListener("statechange", () => { if (audio.state === "running") restSoon(); });
    } catch { audio = null; }
  }
  audio?.resume().catch(() => {});  // each touch too: a browser may want one to let it wake
}
for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, wake, { capture: true, passive: true });

/** One short note: a pitch gliding to `to`, with a quick attack and a soft decay. */
function note(freq, at, length, { type = "sine", gain = 0.12, to = freq } = {}) {
  const osc = audio.createOscillator();
  const amp = audio.createGain();
  const t = audio.currentTime + at;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  osc.frequency.exponentialRampToValueAtTime(to, t + length);
  amp.gain.setValueAtTime(0.0001, t);
  amp.gain.exponentialRampToValueAtTime(gain, t + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(amp).connect(audio.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
  soundsEnd = Math.max(soundsEnd, t + length + 0.02);
}

/** A soft card snap: a short burst of filtered noise. */
function snap(at) {
  const length = 0.05;
  const buffer = audio.createBuffer(1, Math.ceil(audio.sampleRate * length), audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  const src = audio.createBufferSource();
  const filter = audio.createBiquadFilter();
  const amp = audio.createGain();
  filter.type = "bandpass";
  filter.frequency.value = 2500;
  amp.gain.value = 0.5;
  src.buffer = buffer;
  src.connect(filter).connect(amp).connect(audio.destination);
  src.start(audio.currentTime + at);
  soundsEnd = Math.max(soundsEnd, audio.currentTime + at + length);
}

const SOUNDS = {
  deal: () => { for (let k = 0; k < 6; k++) snap(k * 0.07); },
  turn: () => { note(660, 0, 0.18); note(880, 0.12, 0.25); },
  pot: () => { for (let k = 0; k < 4; k++) note(1800 + k * 220, k * 0.06, 0.09, { type: "triangle", gain: 0.07 }); },
  gin: () => { [523, 659, 784, 1047].forEach((f, k) => note(f, k * 0.1, 0.3, { type: "triangle", gain: 0.1 })); },
};

/** Play one of the table's sounds (deal, turn, pot, gin), unless muted or nobody has touched the page yet. */
export function play(name) {
  if (!woken || muted() || !audio || audio.state === "closed") return;
  try {
    // Woken from its sleep between sounds: the notes are timed on its clock, which starts again with it.
    if (audio.state !== "running") audio.resume().catch(() => {});
    SOUNDS[name]?.();
    restSoon();
  } catch { /* a sound is never worth an error */ }
}

/** The mute switch: a toggle button whose state is kept in this browser. */
export function muteSwitch() {
  const button = h("button", { type: "button", class: "quiet sound-switch", "data-key": "sound", "aria-label": "Sound" });
  const show = () => {
    button.setAttribute("aria-pressed", muted() ? "false" : "true");
    button.textContent = muted() ? "Sound off" : "Sound on";
  };
  button.addEventListener("click", () => {
    if (muted()) localStorage.removeItem(KEY); else localStorage.setItem(KEY, "1");
    if (!muted()) wake();
    show();
  });
  show();
  return button;
}
