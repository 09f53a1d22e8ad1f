// Playing cards drawn as SVG by this page (no images): faces, backs, names and sort orders.
import { s, settings } from "./dom.js";

export const RANKS = "23456789TJQKA";
export const SUITS = "shdc";
const SUIT_SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const RANK_NAME = { T: "ten", J: "jack", Q: "queen", K: "king", A: "ace", 2: "two", 3: "three", 4: "four",
  5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine" };
const RANK_SHOW = { T: "10" };

export const rankOf = (card) => card[0];
export const suitOf = (card) => card[1];

/** "Qc" -> "Q♣" */
export function short(card) {
  return `${RANK_SHOW[card[0]] || card[0]}${SUIT_SYMBOL[card[1]] || "?"}`;
}

/** "Qc" -> "queen of clubs" */
export function cardName(card) {
  return `${RANK_NAME[card[0]] || card[0]} of ${SUIT_NAME[card[1]] || card[1]}`;
}

export function suitSymbol(suit) { return SUIT_SYMBOL[suit] || suit; }

/** Sort cards as the player chose: by suit (alternating colours) or by rank; aces low for Rummy's low aces. */
export function sortCards(cards, acesLow = false) {
  const order = acesLow ? "A23456789TJQK" : RANKS;
  const suitOrder = "shcd"; // spades, hearts, clubs, diamonds: colours alternate
  const r = (c) => order.indexOf(c[0]);
  const u = (c) => suitOrder.indexOf(c[1]);
  return [...cards].sort(settings.sort === "rank" ? (a, b) => r(a) - r(b) || u(a) - u(b)
    : (a, b) => u(a) - u(b) || r(a) - r(b));
}

// Each drawing is built once and cloned after. A table draws all its cards again at every update (tens of them,
// each ten elements or so: most of the page), and a clone is made in native code where building it again is some
// forty calls from script. The drawing's name goes with it (data-same), and morph() (dom.js) keeps a card already
// on the page without looking inside it when the name is the same.
const drawn = new Map();

function once(name, draw) {
  let made = drawn.get(name);
  if (!made) {
    made = draw();
    made.setAttribute("data-same", name);
    drawn.set(name, made);
  }
  return made.cloneNode(true);
}

/** One card face as an SVG element (width follows CSS; the viewBox is 60 x 84). */
export function cardSvg(card, { label = true } = {}) {
  return once(`face:${card}:${label ? "named" : "unnamed"}`, () => drawFace(card, label));
}

function drawFace(card, label) {
  const suit = card[1];
  const rank = RANK_SHOW[card[0]] || card[0];
  const sym = SUIT_SYMBOL[suit];
  const face = "JQK".includes(card[0]);
  const svg = s("svg", { viewBox: "0 0 60 84", class: `card suit-${suit}`, role: "img",
    "aria-label": label ? cardName(card) : null, "aria-hidden": label ? null : "true" },
  s("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }),
  s("text", { x: 6, y: 17, class: "card-rank" }, rank),
  s("text", { x: 6, y: 30, class: "card-pip-small" }, sym),
  face
    ? [s("rect", { x: 14, y: 22, width: 32, height: 40, rx: 3, class: "card-frame" }),
      s("text", { x: 30, y: 50, class: "card-court", "text-anchor": "middle" }, card[0]),
      s("text", { x: 30, y: 60, class: "card-pip-tiny", "text-anchor": "middle" }, sym)]
    : s("text", { x: 33, y: 57, class: "card-pip-big", "text-anchor": "middle" }, sym),
  s("g", { transform: "rotate(180 30 42)" },
    s("text", { x: 6, y: 17, class: "card-rank" }, rank)));
  return svg;
}

/** A card back (our own lattice). */
export function backSvg(title = "face-down card") {
  return once(`back:${title}`, () => drawBack(title));
}

function drawBack(title) {
  return s("svg", { viewBox: "0 0 60 84", class: "card back", role: "img", "aria-label": title },
    s("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back" }),
    s("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-inner" }),
    ...[0, 1, 2, 3, 4, 5].map((i) => s("path", { d: `M6 ${12 + i * 12} L54 ${i * 12}`, class: "card-back-line" })),
    s("circle", { cx: 30, cy: 42, r: 9, class: "card-back-seal" }));
}

/** "1 card", "13 cards": a count of cards in words. */
export function cardCount(n) {
  return `${n} ${n === 1 ? "card" : "cards"}`;
}
