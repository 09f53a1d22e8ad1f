// The seats of a table drawn round its felt, as at a card table: for the invite page and the waiting room. Each seat
// is a tile in its colour (the table's tiles', the chart's and the run's), an open one drawn empty; the felt names the
// game and how many seats are open. It stays a list of the seats in order (a screen reader reads "Ann, Bot 3 (easy)
// (computer), open seat"); where each tile sits is the stylesheet's grid of six columns and three rows.
import { h } from "./dom.js";

/** "(computer)" after a computer player's name, with its level where the name does not say it ("Bot 3 (normal)"). */
export function botNote(st) {
  if (!st.bot || st.person) return null;
  return h("small", {}, st.name?.includes(st.bot) ? " (computer)" : ` (computer, ${st.bot})`);
}

/** Where seat `i` of `n` sits, round the table from the bottom: along the bottom leftwards, up the left side, along
 *  the top rightwards, down the right side (a side has a seat from four seats on). Every tile is two columns wide. */
function place(i, n) {
  const side = n >= 4 ? 1 : 0;
  const top = Math.ceil((n - 2 * side) / 2);
  const bottom = n - 2 * side - top;
  const along = (row, count, k) => `grid-row: ${row}; grid-column: ${4 - count + 2 * k} / span 2`;
  if (i < bottom) return along(3, bottom, bottom - 1 - i);
  if (i < bottom + side) return "grid-row: 2; grid-column: 1 / span 2";
  if (i < bottom + side + top) return along(1, top, i - bottom - side);
  return "grid-row: 2; grid-column: 5 / span 2";
}

/** The seats (a table summary's) round the felt. `note(st)`: what follows a name (a bot's level, here or away);
 *  `mine`: your seat, outlined. */
export function seatRing(seats, { title, note = botNote, mine = null }) {
  const open = seats.filter((st) => st.open).length;
  return h("ul", { class: "seat-list ring", "aria-label": "Seats", "data-title": title,
    "data-open": open ? `${open} open seat${open > 1 ? "s" : ""}` : "every seat taken" },
  seats.map((st, i) => h("li", { class: `ring-seat seat-c${i % 8}${st.open ? " open" : ""}${i === mine ? " mine" : ""}`,
    style: place(i, seats.length) }, st.open ? h("em", {}, "open seat") : h("b", {}, st.name), note(st))));
}
