// The stops table (Rummoli, Tripoley, Michigan): the board of pots, the players, the phase with its
// controls, the run on the table and your hand. Everything a player may do comes from the view's
// legal_actions: this file never decides what is legal.
import { h, s } from "./dom.js";
import { cardCount, cardSvg, cardName, short, sortCards, suitSymbol } from "./cards.js";
import { actionLabel, actionLabel as wordsOf } from "./labels.js";
import { seatTiles, seatWithHand } from "./seats.js";

export const RING8 = [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3], [3, 2], [3, 1], [2, 1]];
const PLUS4 = [[1, 2], [2, 3], [3, 2], [2, 1]];

function boardStyle(ruleset) {
  const name = typeof ruleset === "string" ? ruleset : "custom";
  if (name === "michigan") return "michigan";
  if (name.includes("tripoley")) return "tripoley";
  if (name === "rummoli") return "copp-clark";
  return "custom";
}

/** The pay cards a pot's id names, as little card faces (or text for an any-suit combo). */
function potCards(pot) {
  if (pot.kind === "card") return [h("span", { class: "mini" }, cardSvg(pot.id))];
  if (pot.kind === "combo") {
    const parts = pot.id.split("-");
    if (parts.every((p) => p.length === 2)) return parts.map((c) => h("span", { class: "mini" }, cardSvg(c)));
    return [h("span", { class: "combo-any", "aria-hidden": "true" }, parts.join(" · "))];
  }
  return [];
}

/** The pay cards as short text ("10♠", "K♦ A♦"): what a phone shows, where a little card face is too small to read. */
function potTags(pot) {
  const cards = pot.kind === "card" ? [pot.id] : pot.kind === "combo" ? pot.id.split("-") : [];
  if (!cards.length || !cards.every((c) => c.length === 2)) return null;
  return h("span", { class: "pot-tags", "aria-hidden": "true" }, cards.map((c) => h("span", { class: `pot-tag suit-${c[1]}` }, short(c))));
}

export function chipStack(n) {
  const discs = Math.min(6, Math.ceil(n / 3));
  return s("svg", { viewBox: "0 0 24 30", class: "chips-icon", "aria-hidden": "true" },
    ...Array.from({ length: discs }, (_, i) =>
      s("ellipse", { cx: 12, cy: 25 - i * 4, rx: 10, ry: 4, class: "chip-disc" })));
}

/** The board: its pots from the hand view `hv`, their chips from `now` (the table's board now: after the evening's
 *  settlement, empty) or else the hand's own. */
export function renderBoard(hv, changed = new Set(), now = null) {
  const pots = hv.board;
  const chips = now || hv.pots;
  const style = boardStyle(hv.ruleset);
  const centre = pots.find((p) => p.kind === "centre");
  const others = pots.filter((p) => p !== centre);
  const places = others.length <= 4 ? PLUS4 : others.length <= 8 ? RING8 : null;
  const board = h("section", { class: `board board-${style}${places ? "" : " board-flow"}`, "aria-label": "The board" });
  const space = (pot, where) => {
    const amount = chips[pot.id] ?? 0;
    const el = h("div", {
      class: `pot pot-${pot.kind}${changed.has(pot.id) ? " pot-changed" : ""}`,
      "data-pot": pot.id,
      style: where ? `grid-row:${where[0]};grid-column:${where[1]}` : null,
      "aria-label": `${pot.name}: ${amount} chip${amount === 1 ? "" : "s"}`,
      role: "group",
    },
    h("div", { class: "pot-cards" }, potCards(pot), potTags(pot)),
    h("div", { class: "pot-name" }, pot.name),
    h("div", { class: "pot-amount" }, chipStack(amount), h("span", { class: "pot-count" }, String(amount))));
    return el;
  };
  if (centre) board.append(space(centre, places ? [2, 2] : null));
  others.forEach((pot, i) => board.append(space(pot, places ? places[i] : null)));
  return board;
}

/** The fives shown at the poker showdown while the hand goes on, each with the sentence its showdown event
 *  carried (the hand's name in words; the result at the hand's end names the winner). */
export function showdownDuringHand(hv, names, events) {
  const shown = Object.entries(hv.showdown || {});
  if (!shown.length) return null;
  const said = new Map((events || []).filter((e) => e.type === "showdown").map((e) => [e.seat, e.text]));
  return h("section", { class: "showdown", "aria-label": "Showdown" },
    h("h3", {}, "Showdown"),
    shown.map(([seat, cards]) => h("div", { class: "shown" },
      h("span", { class: "who" }, names[Number(seat)] ?? `Seat ${Number(seat) + 1}`),
      h("span", { class: "five" }, cards.map((c) => h("span", { class: "mini" }, cardSvg(c)))),
      said.get(Number(seat)) ? h("span", { class: "five-name" }, said.get(Number(seat))) : null)));
}

/** A name's mark under a laid card where the whole name has no room: its first letter and its first number
 *  ("Bot 3 (easy)" -> "B3", "Ann" -> "A"); the seat's colour beneath tells apart two of one letter. */
function nameMark(name) {
  return [...name.trim()][0] + (name.match(/\d+/)?.[0] ?? "");
}

export function runBlock(hv, names, seatOf) {
  const played = hv.played;
  const rows = "shdc".split("").map((suit) => {
    const cards = played.filter((p) => p.card[1] === suit);
    return h("div", { class: "run-row" },
      h("span", { class: `run-suit suit-${suit}`, "aria-hidden": "true" }, suitSymbol(suit)),
      cards.map((p) => h("figure", {
        class: `laid seat-c${seatOf(p.seat) % 8}${p === played[played.length - 1] ? " last" : ""}`, "data-card": p.card,
        "aria-label": `${cardName(p.card)}, laid by ${names[p.seat]}`,
      }, h("span", { class: "mini" }, cardSvg(p.card, { label: false })),
      // On a phone a card this small is its rank in text (the row is its suit).
      h("span", { class: `laid-rank suit-${suit}`, "aria-hidden": "true" }, short(p.card).slice(0, -1)),
      // Who laid it: the name, or on a narrow screen its first letter in the seat's colour.
      h("figcaption", { title: names[p.seat] ?? "" }, h("span", { class: "who-full" }, names[p.seat] ?? "?"),
        h("span", { class: "who-short", "aria-hidden": "true" }, nameMark(names[p.seat] ?? "?"))))));
  });
  const last = played[played.length - 1];
  return h("section", { class: "run", "aria-label": "Cards laid on the table" },
    h("h3", {}, "On the table", last ? h("span", { class: "last-note" }, ` — last: ${short(last.card)} by ${names[last.seat]}`) : null),
    rows);
}

export function amountControl(a, ctx, primary) {
  const actionLabel = ctx.label || wordsOf;
  const key = `amount:${a.action}`;
  const saved = Number(ctx.amounts[key]);
  const value = Number.isFinite(saved) && saved >= a.min && saved <= a.max ? saved : a.min;
  const input = h("input", { type: "number", min: a.min, max: a.max, step: 1, value, id: `amt-${a.action}`,
    "data-key": key, "aria-label": `${actionLabel(a)} amount, ${a.min} to ${a.max}`, class: "amount" });
  const range = a.max > a.min ? h("input", { type: "range", min: a.min, max: a.max, step: 1, value, "data-key": `${key}:range`,
    "aria-hidden": "true", tabindex: "-1", class: "amount-range" }) : null;
  input.addEventListener("input", () => { ctx.amounts[key] = input.value; if (range) range.value = input.value; });
  range?.addEventListener("input", () => { ctx.amounts[key] = range.value; input.value = range.value; });
  const send = () => {
    const n = Number(input.value);
    if (!Number.isInteger(n) || n < a.min || n > a.max) {
      ctx.say(`Choose a whole number from ${a.min} to ${a.max}.`);
      input.focus();
      return;
    }
    ctx.act({ action: a.action, amount: n });
  };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") send(); });
  return h("span", { class: "amount-group" },
    h("label", { for: `amt-${a.action}` }, `${actionLabel(a)} (${a.min}–${a.max})`), input, range,
    h("button", { class: primary ? "primary" : "", "data-key": `act:${a.action}`, onclick: send }, actionLabel(a)));
}

const PHASE_TITLES = { widow: "Dealer's choice", auction: "Auction of the widow", poker: "Poker round", play: "Play round", over: "Hand over" };

/** Your hand, with the cards you may lead or play as buttons and your best five (while the poker pot is still
 *  ahead) marked and named, as the view's `best_five` says. */
export function yourHand(hv, cardActs, ctx) {
  const actionLabel = ctx.label || wordsOf;
  const playable = new Map(cardActs.map((a) => [a.card, a]));
  const best = new Set(hv.best_five?.cards || []);
  return h("section", { class: "my-hand", "aria-label": "Your hand", tabindex: "-1", "data-key": "my-hand" },
    h("h3", {}, "Your hand", h("small", {}, ` · ${cardCount(hv.hand.length)}`)),
    hv.best_five ? h("p", { class: "best-five-name" }, h("span", { class: "best-mark", "aria-hidden": "true" }, "★"),
      " Your best five: ", h("b", {}, hv.best_five.name)) : null,
    h("div", { class: `cards${hv.hand.length > 12 ? " crowded" : ""}`, style: `--n:${hv.hand.length}` }, sortCards(hv.hand).map((c) => {
      const a = playable.get(c);
      const mark = best.has(c) ? " best" : "";
      const label = `${cardName(c)}${best.has(c) ? ", in your best five" : ""}`;
      return a
        ? h("button", { class: `card-btn playable${mark}`, "data-key": `card:${c}`, "data-card": c, "aria-label": `${actionLabel(a)} (${label})`,
          onclick: () => ctx.act({ action: a.action, card: c }) }, cardSvg(c, { label: false }))
        : h("span", { class: `card-btn${cardActs.length ? " dim" : ""}${mark}`, "data-card": c, role: "img", "aria-label": label }, cardSvg(c, { label: false }));
    })),
    hv.given_up ? h("p", { class: "given-up" }, "Your old hand, given up for the widow (out of play): ",
      hv.given_up.cards.map(short).join(" ")) : null);
}

/** Whether this seat's only choice is one the table will make by itself at its pace (the view says so). */
export function isForced(hv) {
  return !!hv.forced;
}

/** The stops table for a hand view `hv` (hand-level seats). ctx: act, amounts, say, readOnly, changed (pots
 *  whose chips just moved), board (the table's board now, when a table gives it), seats/infos/seatOf/change (see
 *  seats.js), events (this hand's events so far). */
export function renderStops(hv, ctx) {
  const names = hv.players;
  // A forced play is made by the table itself at its pace (views.md, `forced`): shown as coming, not offered.
  const forced = !ctx.readOnly && isForced(hv);
  const legal = ctx.readOnly || forced ? [] : hv.legal_actions || [];
  const folded = new Set(hv.betting?.folded || []);
  const passed = new Set(hv.auction?.passed || []);

  const seats = seatTiles(hv, ctx, { unit: "chips", forced, status: (i) => [
    folded.has(i) ? h("span", { class: "tag" }, "folded") : null,
    passed.has(i) ? h("span", { class: "tag" }, "passed") : null,
    hv.auction?.bidder === i ? h("span", { class: "tag hot" }, `bid ${hv.auction.bid}`) : null,
    hv.betting?.put?.[i] ? h("span", { class: "tag" }, `in ${hv.betting.put[i]}`) : null,
    hv.swapped === i ? h("span", { class: "tag" }, "took the widow") : null] });

  // Controls: every legal action, as the view lists it.
  const fixed = legal.filter((a) => a.min === undefined && a.action !== "lead" && a.action !== "play");
  const ranged = legal.filter((a) => a.min !== undefined);
  const cardActs = legal.filter((a) => a.action === "lead" || a.action === "play");
  const controls = h("div", { class: "controls", role: "group", "aria-label": "Your choices" },
    fixed.map((a, k) => h("button", { class: k === 0 && !ranged.length ? "primary" : "", "data-key": `act:${a.action}`,
      onclick: () => ctx.act({ action: a.action }) }, actionLabel(a))),
    ranged.map((a, k) => amountControl(a, ctx, k === 0)),
    cardActs.length > 1 ? cardActs.map((a) => h("button", { class: "card-act", "data-key": `act:${a.action}:${a.card}`,
      onclick: () => ctx.act({ action: a.action, card: a.card }) }, actionLabel(a))) : null,
    cardActs.length === 1 ? h("button", { class: "primary", "data-key": `act:${cardActs[0].action}:${cardActs[0].card}`,
      onclick: () => ctx.act({ action: cardActs[0].action, card: cardActs[0].card }) }, actionLabel(cardActs[0])) : null);

  const phase = h("section", { class: `phase phase-${hv.phase}${legal.length ? " my-turn" : ""}`, "aria-label": "What happens now", tabindex: "-1", "data-key": "phase" },
    h("h2", {}, PHASE_TITLES[hv.phase] || hv.phase),
    hv.prompt && !ctx.readOnly ? h("p", { class: "explain" }, hv.prompt) : null,
    forced ? h("p", { class: "hint forced-note" }, `${actionLabel(hv.forced)}: your only choice, made for you.`) : null,
    legal.length ? controls : null);

  return h("div", { class: "stops-table" },
    seats,
    // The board and the fives shown at the showdown while the hand goes on (at the hand's end the result shows the
    // showdown with its winner); beside them what happens now and what lies on the table, the run.
    // The board; beside it what happens now and what lies on the table: the run, then the fives shown at the
    // showdown while the hand goes on (at the hand's end the result shows the showdown with its winner).
    h("div", { class: "table-middle" },
      h("div", { class: "middle-left" }, renderBoard(hv, ctx.changed, ctx.board)),
      h("div", { class: "middle-right" }, phase,
        h("div", { class: "tableau" }, runBlock(hv, names, ctx.seatOf || ((i) => i)),
          hv.phase === "over" ? null : showdownDuringHand(hv, names, ctx.events)))),
    hv.hand ? seatWithHand(seats, yourHand(hv, cardActs, ctx)) : null);
}
