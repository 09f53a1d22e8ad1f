// The seats of a table drawn round its felt, as at a card table: for the invite page and the waiting room. Each seat
// is a tile in its colour (the table's tiles', the chart's and the run's), an open one drawn empty; the felt names the
// game and how many seats are open. It stays a list of the seats in order (a screen reader reads "Ann, Bot 3 (easy)
// (computer), open seat"); where each tile sits is given as custom properties that the stylesheet's grids read: a
// wide table (six columns, three rows) and, on a phone, the same table stood upright (room.css).
import { h } from "./dom.js";

/** "(computer)" after a computer player's name, with its level where the name does not say it ("Bot 3 (normal)"). */
export function botNote(st) {
  if (!st.bot || st.person) return null;
  return h("small", {}, st.name?.includes(st.bot) ? " (computer)" : ` (computer, ${st.bot})`);
}

/** Where seat `i` of `n` sits on the wide table, round it from the bottom: along the bottom leftwards, up the left
 *  side, along the top rightwards, down the right side (a side has a seat from four seats on). Every tile is two
 *  columns wide. */
function wide(i, n) {
  const side = n >= 4 ? 1 : 0;
  const top = Math.ceil((n - 2 * side) / 2);
  const bottom = n - 2 * side - top;
  const along = (row, count, k) => [row, 4 - count + 2 * k];
  if (i < bottom) return along(3, bottom, bottom - 1 - i);
  if (i < bottom + side) return [2, 1];
  if (i < bottom + side + top) return along(1, top, i - bottom - side);
  return [2, 5];
}

/** Where each of `n` seats sits on a phone, and the row of the felt's words. Three tiles of a wide row, each a third of
 *  a phone's width, left a name two or three short lines and the game's name a narrow column between the sides. So the
 *  table stands upright, two tiles a row: seat 0 at the bottom, up the left side, down the right side, in the wide
 *  table's clockwise order; the game's name has a row of its own across the middle, and a tile alone in its
 *  row is centred. Columns: four, each tile two wide. */
function upright(n) {
  const rows = Math.max(2, Math.ceil(n / 2));
  const above = Math.floor(rows / 2);
  const left = Math.ceil(n / 2);
  const at = [...Array(n).keys()].map((i) => (i < left ? [rows - 1 - i, 1] : [i - left, 3]));
  const alone = (r) => at.filter(([row]) => row === r).length === 1;
  return { label: above + 1, rows: rows + 1,
    places: at.map(([r, col]) => [r < above ? r + 1 : r + 2, alone(r) ? 2 : col]) };
}

/** The seats (a table summary's) round the felt. `note(st)`: what follows a name (a bot's level, here or away);
 *  `mine`: your seat, outlined. */
export function seatRing(seats, { title, note = botNote, mine = null }) {
  const open = seats.filter((st) => st.open).length;
  const phone = upright(seats.length);
  const place = (i) => {
    const [row, col] = wide(i, seats.length), [prow, pcol] = phone.places[i];
    return `--row: ${row}; --col: ${col}; --prow: ${prow}; --pcol: ${pcol}`;
  };
  return h("ul", { class: "seat-list ring", "aria-label": "Seats", "data-title": title,
    "data-open": open ? `${open} open seat${open > 1 ? "s" : ""}` : "every seat taken",
    style: `--prows: ${phone.rows}; --label-row: ${phone.label}` },
  seats.map((st, i) => h("li", { class: `ring-seat seat-c${i % 8}${st.open ? " open" : ""}${i === mine ? " mine" : ""}`,
    style: place(i) }, st.open ? h("em", {}, "open seat") : h("b", {}, st.name), note(st))));
}
