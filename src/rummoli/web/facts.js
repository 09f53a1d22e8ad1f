// A table's game in words, for the join page and the lobby: its title, its options, chips and length, and who is
// at it (who waits for players, which seats are open).
import { h } from "./dom.js";

/** "Ann (here), Bob (away), Bot 3 (easy), open seat". */
export function seatWords(seats) {
  return seats.map((st) => (st.open ? "open seat" : st.person ? `${st.name} (${st.connected ? "here" : "away"})` : st.name)).join(", ");
}

/** The people seated and connected while a table waits for players. */
export function waitingWords(summary) {
  const here = summary.seats.filter((st) => st.person && !st.open && st.connected).map((st) => st.name);
  const open = summary.open_seats;
  return [here.length ? `${here.join(", ")} waiting` : "nobody here yet",
    open ? `${open} open seat${open > 1 ? "s" : ""}` : null].filter(Boolean).join(" · ");
}

/** The facts of a table's game: `info` is the ruleset's catalogue entry (null for an inline ruleset). */
export function gameFacts(summary, info) {
  const chips = summary.chips ?? info?.chips;
  const timer = summary.turn_timer ? `${summary.turn_timer} seconds a turn` : "no turn timer";
  return h("section", { class: "game-facts", "aria-label": "The game" },
    h("dl", { class: "facts" },
      h("dt", {}, "Game"), h("dd", { "data-fact": "title" }, summary.title),
      chips !== undefined && chips !== null && summary.game !== "rummy" ? [h("dt", {}, "Chips"), h("dd", { "data-fact": "chips" }, `${chips} each`)] : null,
      h("dt", {}, "Length"), h("dd", { "data-fact": "hands" }, summary.hands ? `${summary.hands} hand${summary.hands > 1 ? "s" : ""}` : "the game's own end"),
      h("dt", {}, "Pace"), h("dd", { "data-fact": "pace" }, summary.pace?.name || "the server's"),
      h("dt", {}, "Turn timer"), h("dd", { "data-fact": "turn-timer" }, timer)),
    info?.options?.length ? h("details", {}, h("summary", {}, "This game's options"),
      h("ul", { class: "options", "data-fact": "options" }, info.options.map((o) => h("li", {}, o)))) : null);
}
