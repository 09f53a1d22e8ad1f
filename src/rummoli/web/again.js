// "Play again": at the evening's end a person at the table makes a new one with the same seats, bots and options;
// everyone else at the table is invited on their own page and takes their seat with one click. A seat's token for
// the new table comes only on that seat's own connection (the rematch message), and is kept in this browser only.
import { go, h, saveSeatToken } from "./dom.js";
import { api } from "./net.js";

/** The rematch panel for the finished evening `view`. `mine`: this page's seat ({token, name}) or null;
 *  `told`: the rematch message this page was sent, if any. */
export function againPanel(view, { tableId, mine, told, say }) {
  if (!view?.over) return null;
  const take = () => {
    saveSeatToken(told.table, { token: told.token, seat: told.seat, name: mine?.name ?? null, creator: false });
    go(`/tables/${told.table}`);
  };
  if (told && told.token) {
    return h("section", { class: "again invited", "aria-label": "Play again" },
      h("p", {}, `${told.by} started another evening with the same seats.`),
      h("button", { class: "primary", "data-key": "take-again", onclick: take }, "Take my seat at the new table"));
  }
  if (told) {
    return h("section", { class: "again", "aria-label": "Play again" },
      h("p", {}, `${told.by} started another evening with the same seats.`),
      h("a", { class: "button", href: `/tables/${told.table}`, "data-key": "watch-again" }, "Watch the new table"));
  }
  if (!mine?.token) return null;
  const again = async () => {
    try {
      const made = await api(`/api/tables/${tableId}/rematch`, { method: "POST", token: mine.token });
      saveSeatToken(made.id, { token: made.token, seat: made.seat, name: mine.name, creator: true });
      go(`/tables/${made.id}`);
    } catch (e) { say(e.message); }
  };
  return h("section", { class: "again", "aria-label": "Play again" },
    h("button", { class: "primary", "data-key": "play-again", onclick: again }, "Play again"),
    h("small", { class: "muted" }, "A new table with the same seats, computer players and options; the others are invited."));
}
