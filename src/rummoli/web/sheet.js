// The score sheet, as kept on paper at a kitchen table: for each hand, every seat's change and running total, and
// the pots it won (the stops games) or the count left in its hand (the Rummy family); the evening's final totals
// after the settlement or bonuses. Built from the table's own events (each hand_over's result, the evening_over's
// standings), never worked out here; it downloads as CSV made in the page.
import { h } from "./dom.js";
import { short } from "./cards.js";
import { signed } from "./labels.js";

const CARD = /^[2-9TJQKA][shdc]$/;

/** A pot as the sheet writes it: its pay cards where its id names them ("10♠" for the Ten of spades, "K♦A♦", "7-8-9"),
 *  otherwise its own name ("Rummoli", "Kitty"). Written out in full ("King and ace of diamonds 4"), a pot name took a
 *  column a phone's width could not give: one hand's row was nine lines tall. The cards say the same as the name. */
export function potShort(id, name) {
  const parts = String(id).split("-");
  if (parts.every((c) => CARD.test(c))) return parts.map(short).join("");
  if (parts.length > 1 && parts.every((r) => /^[2-9TJQKA]$/.test(r))) return parts.map((r) => (r === "T" ? "10" : r)).join("-");
  return name;
}

/** One pot won, on one line: its short label (the full name for a screen reader and in its title) and the chips. */
function potWon(p) {
  const label = potShort(p.pot, p.name);
  return h("span", { class: "sheet-pot", "data-name": p.name, title: `${p.name}: ${p.amount}` },
    label === p.name ? p.name : [h("span", { "aria-hidden": "true" }, label), h("span", { class: "sr-only" }, p.name)],
    ` ${p.amount}`);
}

export class ScoreSheet {
  constructor() { this.hands = []; this.seen = new Set(); this.final = null; this.closing = null; }

  /** Feed the table's events in order (a welcome's whole history, then each update's). */
  take(e) {
    if (e.type === "hand_over" && e.result && !this.seen.has(e.hand_no)) {
      this.seen.add(e.hand_no);
      const r = e.result;
      const rows = {};
      for (const c of r.changes || []) rows[c.seat] = { change: c.change, total: c.after, pots: [], count: null };
      for (const w of r.pots_won || []) rows[w.seat]?.pots.push({ pot: w.pot, name: w.name, amount: w.amount });
      for (const hand of r.hands || []) if (rows[hand.seat]) rows[hand.seat].count = hand.count;
      this.hands.push({ hand_no: e.hand_no, game: r.game, rows });
    } else if (e.type === "evening_over" && Array.isArray(e.standings)) {
      this.final = Object.fromEntries(e.standings.map((s) => [s.seat, s.chips]));
      // What the evening's end added, as the event says it: the board shared out (stops), the bonuses (Gin). Without
      // this row the final totals were not the last hand's plus anything on the sheet.
      // Each amount as it came (a share of the board can be a fraction, "7/2": nothing is added up here).
      const paid = {};
      const add = (seat, amount) => { paid[seat] = [...(paid[seat] || []), amount]; };
      for (const entry of e.settlement || []) for (const p of entry.payments || []) add(p.seat, p.amount);
      for (const b of e.bonuses || []) add(b.seat, b.points);
      const label = e.settlement?.length ? "board" : "bonuses";
      this.closing = Object.keys(paid).length ? { label, paid } : null;
    }
  }

  /** The sheet as rows of text: a header, one row per hand, the final totals. `names`: the evening's seats. */
  rows(names) {
    const rummy = this.hands.some((x) => x.game === "rummy");
    const extra = rummy ? "count" : "pots won";
    const head = ["hand"].concat(names.flatMap((n) => [`${n} change`, `${n} total`, `${n} ${extra}`]));
    const body = this.hands.map((x) => [String(x.hand_no)].concat(names.flatMap((_, seat) => {
      const r = x.rows[seat];
      if (!r) return ["", "", ""];
      return [signed(r.change), String(r.total), rummy ? (r.count ?? "") + "" : r.pots.map((p) => `${p.name} ${p.amount}`).join("; ")];
    })));
    if (this.closing) body.push([this.closing.label].concat(names.flatMap((_, seat) => [this.paidText(seat), "", ""])));
    if (this.final) body.push(["final"].concat(names.flatMap((_, seat) => ["", String(this.final[seat] ?? ""), ""])));
    return [head, ...body];
  }

  /** What the evening's end paid `seat` ("+3", "+25 +100" for two bonuses), "" for nothing. */
  paidText(seat) { return (this.closing?.paid[seat] || []).map(signed).join(" "); }

  csv(names) {
    const quote = (v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    return this.rows(names).map((row) => row.map(quote).join(",")).join("\r\n") + "\r\n";
  }
}

/** The sheet as a table, with a CSV download. `seats`: the table view's seats; `tableId` names the file. */
export function sheetPanel(sheet, seats, tableId, open) {
  if (!sheet.hands.length) return null;
  const names = seats.map((s) => s.name);
  const rummy = sheet.hands.some((x) => x.game === "rummy");
  const download = () => {
    const url = URL.createObjectURL(new Blob([sheet.csv(names)], { type: "text/csv;charset=utf-8" }));
    const a = h("a", { href: url, download: `rummoli-${tableId}-score-sheet.csv` });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  };
  const cell = (r) => (r
    ? h("td", {},
      h("span", { class: `sheet-change ${Number(r.change) > 0 ? "up" : Number(r.change) < 0 ? "down" : ""}`, "data-sheet": "change" }, signed(r.change)),
      " ", h("b", { "data-sheet": "total" }, String(r.total)),
      rummy
        ? (r.count !== null ? h("small", { class: "sheet-extra", "data-sheet": "count" }, `count ${r.count}`) : null)
        : r.pots.length ? h("small", { class: "sheet-extra sheet-pots", "data-sheet": "pots" }, r.pots.map(potWon)) : null)
    : h("td", { class: "muted" }, "—"));
  return h("details", { class: "score-sheet", open, "data-menu": "sheet" }, h("summary", {}, "Score sheet"),
    h("div", { class: "sheet-scroll" }, h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"), names.map((n) => h("th", { scope: "col" }, n)))),
      h("tbody", {}, sheet.hands.map((x) => h("tr", { "data-hand": x.hand_no }, h("th", { scope: "row" }, String(x.hand_no)),
        names.map((_, seat) => { const td = cell(x.rows[seat]); td.dataset.seat = seat; return td; })))),
      sheet.final ? h("tfoot", {}, sheet.closing ? h("tr", { "data-hand": sheet.closing.label },
        h("th", { scope: "row" }, sheet.closing.label === "board" ? "The board" : "Bonuses"),
        names.map((_, seat) => h("td", { "data-seat": seat }, sheet.paidText(seat)
          ? h("span", { class: "sheet-change up", "data-sheet": "closing" }, sheet.paidText(seat)) : "—"))) : null,
      h("tr", { "data-hand": "final" }, h("th", { scope: "row" }, "Final"),
        names.map((_, seat) => h("td", { "data-seat": seat }, h("b", { "data-sheet": "final" }, String(sheet.final[seat] ?? "")))))) : null)),
    h("button", { type: "button", "data-key": "sheet-csv", onclick: download }, "Download as CSV"));
}
