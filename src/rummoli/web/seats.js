// The players' tiles above a table, for every game: name, the evening's chips or points as the table view says
// them now, cards in hand, the dealer, whose turn it is, and at a hand's end the result's change for the hand.
import { h } from "./dom.js";
import { cardCount } from "./cards.js";
import { signed } from "./labels.js";

/** A count as a number for drawing (a bar, a chart): whole numbers as they are, exact shares ("101/3") divided. */
export function asNumber(value) {
  if (typeof value === "number") return value;
  const m = String(value).match(/^(-?\d+)\/(\d+)$/);
  return m ? Number(m[1]) / Number(m[2]) : Number(value) || 0;
}

/**
 * The tiles for a hand view `hv` (hand-level seats). ctx: seatOf(handSeat) -> evening seat; seats (the table
 * view's evening seats: their chips are the evening's now); infos (who is connected); change(eveningSeat) -> the
 * result's change for the hand just ended (or undefined); readOnly (a replay: nobody's turn is shown).
 * `unit`: "chips" or "points"; `status(i)`: extra tags for hand seat i; `target`: Rummy's game target; `forced`: this
 * seat's only choice is being made by the table (its turn is not asked of the player).
 */
export function seatTiles(hv, ctx, { unit, status = () => [], target = null, forced = false }) {
  const toAct = new Set(ctx.readOnly ? [] : hv.to_act || []);
  const n = hv.players.length;
  const me = Number.isInteger(hv.seat) ? hv.seat : -1;
  // Round the table from your left: the seats after yours in turn order (yours sits with your hand).
  const ring = hv.players.map((_, i) => i).sort((a, b) => (a - me - 1 + 2 * n) % n - (b - me - 1 + 2 * n) % n);
  return h("section", { class: `seats seats-${n}`, "aria-label": "Players" },
    ring.map((i) => {
      const name = hv.players[i];
      const evening = ctx.seatOf ? ctx.seatOf(i) : i;
      const info = ctx.infos?.[evening] || {};
      const chips = ctx.seats?.[evening]?.chips ?? hv.chips?.[i] ?? hv.scores?.[i] ?? 0;
      const change = ctx.change?.(evening);
      const shown = unit === "points" && chips === 1 ? "1 point" : unit === "chips" && chips === 1 ? "1 chip" : `${chips} ${unit}`;
      // The away mark is held to the name (a no-break space): a line of its own cost a long name its last line.
      return h("div", { class: `seat seat-c${evening % 8}${toAct.has(i) ? " acting" : ""}${i === hv.seat ? " me" : ""}`, "data-seat": i, "data-evening-seat": evening },
        h("div", { class: "seat-name", title: name }, info.connected === false && info.person ? h("span", { class: "away", title: "away" }, "○\u00a0") : null,
          name, info.bot && !name.includes(info.bot) ? h("small", {}, ` · ${info.bot}`) : null),
        h("div", { class: "seat-line" },
          // A plain span's aria-label is not read, so the words are the text itself: on a narrow screen the units
          // give way to small drawn marks (a chip, a card) and are only hidden from sight (style.css), never removed.
          h("span", { class: `seat-chips unit-${unit}${change > 0 ? " up" : change < 0 ? " down" : ""}` },
            countWords(chips, shown),
            change !== undefined ? h("small", { class: "delta" }, ` (${signed(change)}`, h("span", { class: "sr-only" }, " this hand"), ")") : null),
          h("span", { class: "seat-cards" }, countWords(hv.hand_sizes[i], cardCount(hv.hand_sizes[i])))),
        target ? h("div", { class: "score-bar", role: "img", "aria-label": `${chips} of ${target} points` },
          h("span", { style: `width:${Math.max(0, Math.min(100, (100 * asNumber(chips)) / target))}%` })) : null,
        h("div", { class: "seat-status" },
          i === hv.dealer ? h("span", { class: "dealer-chip", title: "Dealer" }, h("span", { "aria-hidden": "true" }, "D"), h("span", { class: "sr-only" }, "dealer")) : null,
          status(i),
          toAct.has(i) ? h("span", { class: "tag turn" }, i !== hv.seat ? "to act" : forced ? "forced" : "your turn") : null));
    }));
}

/** A count and its unit ("13" and " cards" of "13 cards"), the unit apart so that a narrow screen can hide it from sight. */
function countWords(count, words) {
  return [h("span", { class: "n" }, String(count)), h("span", { class: "unit" }, words.slice(String(count).length))];
}

/** Your own tile sits with your hand at the bottom of the table, not among the others across the top. */
export function seatWithHand(seats, hand) {
  const mine = seats.querySelector(".seat.me");
  if (mine && hand) hand.prepend(mine);
  return hand;
}
