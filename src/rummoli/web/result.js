// A hand's result, the evening's settlement, bonuses and standings, drawn as the server made them (view.result,
// view.settlement, view.bonuses, view.standings). Nothing here works out who won what: every figure and sentence
// is the server's. Elements carrying a figure have a `data-result` hook (their text is the figure alone) that
// tests and other tools read:
//   data-result="outcome"     data-reason data-outcome   the winner's change for the hand (0: nobody won)
//   data-result="hand-change" data-seat                  each seat's change for the hand
//   data-result="pot-win"     data-pot data-seat data-hand | data-settlement   chips a pot paid a seat
//   data-result="deadwood"    data-seat                  Rummy: the count of a hand at its end
//   data-result="knocker"     data-seat                  Knock and Gin: the knocker's tag ("knocked", "goes gin")
//   data-result="standing"    data-seat                  the evening's chips or points
// Seats are evening seats.
import { h } from "./dom.js";
import { cardSvg } from "./cards.js";
import { signed } from "./labels.js";

const OUTCOME_TITLES = { out: "Out", stall: "Stall", rummy: "Rummy", knock: "Knock", undercut: "Undercut", gin: "Gin", blocked: "Blocked" };
// A hand that reaches the end of its stock is a draw at Gin (R-GIN-6) and is scored as it stands at 500 Rum, as the
// headline says: "Blocked" is the straight Rummy word.
const BLOCKED_TITLES = { gin: "Drawn", 500: "Stock empty" };

function outcomeTitle(r, style) {
  if (r.outcome === "blocked" && BLOCKED_TITLES[style]) return BLOCKED_TITLES[style];
  return OUTCOME_TITLES[r.outcome] || r.outcome;
}

const mini = (c) => h("span", { class: "mini" }, cardSvg(c));
const nameOf = (view, seat) => view.seats?.[seat]?.name ?? `Seat ${seat + 1}`;

/** The result of the hand just ended (view.result), for stops and Rummy alike. `hooks`: false for a replay, whose
 *  seats are the hand's own (the data-result hooks name evening seats, at the table only). */
export function handResultBlock(view, { hooks = true } = {}) {
  const block = resultBlock(view);
  if (!hooks) {
    block.removeAttribute("data-result-hand");
    block.querySelectorAll("[data-result]").forEach((el) => el.removeAttribute("data-result"));
  }
  return block;
}

function resultBlock(view) {
  const r = view.result;
  // The figure beside the headline is the winner's own change in the result (none when nobody won).
  const hasWinner = r.winner !== null && r.winner !== undefined;
  const winnerChange = hasWinner ? r.changes.find((c) => c.seat === r.winner)?.change ?? 0 : 0;
  return h("section", { class: `result result-${r.game} outcome-${r.outcome}`, "data-result-hand": r.hand_no, "aria-label": r.hand_no ? `Result of hand ${r.hand_no}` : "Result of the hand" },
    h("h2", {}, r.hand_no ? `Hand ${r.hand_no}: ` : "", outcomeTitle(r, view.hand?.style)),
    h("div", { class: "outcome-line" },
      h("span", { class: "outcome-badge" },
        // A winner can come out behind (going out first, having paid more than it took): the loss looks like one.
        h("span", { class: `outcome-figure${winnerChange < 0 ? " down" : ""}`, "data-result": "outcome", "data-reason": r.reason, "data-outcome": r.outcome }, signed(winnerChange)),
        h("small", {}, hasWinner ? `${nameOf(view, r.winner)}, this hand` : "nobody won")),
      h("p", { class: "headline" }, r.headline)),
    r.game === "rummy" ? rummyParts(view, r) : stopsParts(view, r),
    changesTable(view, r));
}

function changesTable(view, r) {
  const unit = r.game === "rummy" ? "Points" : "Chips";
  return h("table", { class: "changes" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Before"),
      h("th", { scope: "col" }, "This hand"), h("th", { scope: "col" }, unit))),
    h("tbody", {}, r.changes.map((c) => h("tr", { class: c.seat === r.winner ? "lead" : "" },
      h("td", {}, c.name),
      h("td", {}, String(c.before)),
      h("td", { class: c.change > 0 ? "up" : c.change < 0 ? "down" : "" },
        h("span", { "data-result": "hand-change", "data-seat": c.seat }, signed(c.change))),
      h("td", {}, String(c.after))))));
}

function stopsParts(view, r) {
  const potNames = Object.fromEntries((view.hand?.board || []).map((p) => [p.id, p.name]));
  const left = Object.entries(r.board || {}).filter(([, n]) => n);
  return [
    r.showdown?.length ? h("section", { class: "showdown", "aria-label": "Showdown" }, h("h3", {}, "Showdown"),
      r.showdown.map((s) => h("div", { class: `shown${s.won ? " winner" : ""}` },
        h("span", { class: "who" }, nameOf(view, s.seat), s.won ? h("b", { class: "badge" }, ` ${r.showdown_won || "wins the showdown"}`) : null),
        h("span", { class: "five" }, s.cards.map(mini)),
        h("span", { class: "five-name" }, s.name)))) : null,
    h("h3", {}, "Pots won"),
    h("ul", { class: "pots-won" }, r.pots_won.length ? r.pots_won.map((w) => h("li", {},
      h("span", { class: "chip-count", "data-result": "pot-win", "data-pot": w.pot, "data-seat": w.seat, "data-hand": r.hand_no,
        "aria-hidden": "true" }, String(w.amount)),
      h("span", {}, w.text)))
      : h("li", { class: "muted" }, "No pot paid out this hand.")),
    r.payments.some((p) => p.text) ? [h("h3", {}, "Payments"),
      h("ul", { class: "payments" }, r.payments.filter((p) => p.text).map((p) => h("li", {}, p.text)))] : null,
    h("p", { class: "board-left" }, left.length
      ? ["Stays on the board: ", left.map(([pot, n], k) => [k ? ", " : "", h("b", {}, potNames[pot] || pot), ` ${n}`])]
      : "Nothing stays on the board."),
  ];
}

function rummyParts(view, r) {
  return [
    h("div", { class: "settled-hands" }, r.hands.map((hand) => h("div", { class: `settled${hand.seat === r.winner ? " winner" : ""}` },
      h("div", { class: "who" }, nameOf(view, hand.seat),
        hand.seat === r.knocker ? h("span", { class: "tag", "data-result": "knocker", "data-seat": hand.seat }, r.knocker_did || "knocked") : null,
        hand.seat === r.winner ? h("b", { class: "badge" }, ` ${r.winner_did || "wins the hand"}`) : null),
      h("div", { class: "settled-cards" },
        hand.melds.map((m, k) => h("span", { class: "group meld-shown", title: "meld" }, k ? null : h("small", {}, "melds"), m.map(mini))),
        hand.laid_off.length ? h("span", { class: "group laid-off", title: "laid off" }, h("small", {}, "laid off"), hand.laid_off.map(mini)) : null,
        h("span", { class: "group dead", title: "deadwood" }, h("small", {}, hand.left || "deadwood"),
          hand.deadwood.length ? hand.deadwood.map(mini) : h("em", {}, "none"))),
      h("div", { class: "count" }, "Count: ", h("b", { "data-result": "deadwood", "data-seat": hand.seat }, String(hand.count)))))),
    r.points.length ? h("ul", { class: "points" }, r.points.map((p) => h("li", {}, p.text))) : null,
  ];
}

/** The evening's settlement (stops): how the chips left on the board were shared out. */
export function settlementBlock(view) {
  const entries = view.settlement || [];
  if (!entries.length) return null;
  return h("section", { class: "settlement", "aria-label": "Settlement" },
    h("h3", {}, "The board is settled"),
    entries.map((e) => h("div", { class: "settle-entry" },
      h("p", {}, e.text),
      h("ul", { class: "payments" }, e.payments.map((p) => h("li", {}, p.name, ": ",
        h("span", { class: "chip-count", "data-result": "pot-win", "data-pot": e.pot, "data-seat": p.seat, "data-settlement": "" }, String(p.amount))))),
      e.showdown?.length ? e.showdown.map((s) => h("div", { class: `shown${s.won ? " winner" : ""}` },
        h("span", { class: "who" }, nameOf(view, s.seat), s.won ? h("b", { class: "badge" }, " takes it") : null),
        h("span", { class: "five" }, s.cards.map(mini)),
        h("span", { class: "five-name" }, s.name))) : null)));
}

/** Rummy: points the game adds at the evening's end (Gin's game and box bonuses). */
export function bonusesBlock(view) {
  const bonuses = view.bonuses || [];
  if (!bonuses.length) return null;
  return h("section", { class: "bonuses", "aria-label": "Bonuses" }, h("h3", {}, "Bonuses"),
    h("ul", {}, bonuses.map((b) => h("li", {}, b.text))));
}

/** Places, names and chips (or points); `hooks`: the figures carry data-result="standing" (one table only). */
export function standingsTable(standings, game = "stops", { hooks = false } = {}) {
  return h("table", { class: "standings-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, game === "rummy" ? "Points" : "Chips"))),
    h("tbody", {}, (standings || []).map((r) => h("tr", { class: r.winner ? "lead" : "" },
      h("td", {}, String(r.place)), h("td", {}, r.name),
      h("td", {}, hooks ? h("span", { "data-result": "standing", "data-seat": r.seat }, String(r.chips)) : String(r.chips))))));
}

/** The evening's end: the final standings (after the settlement and bonuses), how the board was settled, the
 *  bonuses, the evening's last sentence and the record to download. */
export function finalPanel(view, { closing, download }) {
  return h("section", { class: "panel final", "aria-label": "The evening is over" },
    h("h2", {}, closing || "The evening is over"),
    standingsTable(view.standings, view.game, { hooks: true }),
    settlementBlock(view),
    bonusesBlock(view),
    view.end_note ? h("p", { class: "end-note" }, view.end_note) : null,
    view.ending ? h("p", { class: "ended-early" }, endingWords(view)) : null,
    download ? h("button", { "data-key": "download", onclick: download }, "Download the evening's record") : null);
}

/** Why an evening stops before its own end (table view `ending`), after the hand in play. Not "its creator ended
 * it": the server also ends an evening nobody has been connected to for a while (--idle-end), in the same way. */
export function endingWords(view) {
  const agreed = view.hands ? ` of the ${view.hands} agreed` : "";
  return view.over ? `The evening was ended early, after hand ${view.hand_no}${agreed}.`
    : `The evening has been ended: this hand is played to its end, and no other is dealt.`;
}
