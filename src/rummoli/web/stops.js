// The stops table (Rummoli, Tripoley, Michigan): the board of pots, the players, the phase with its
// controls, the run on the table and your hand. Everything a player may do comes from the view's
// legal_actions: this file never decides what is legal.
import { h, s } from "./dom.js";
import { cardCount, cardSvg, cardName, short, sortCards, suitSymbol } from "./cards.js";
import { actionLabel } from "./narrate.js";

const RING8 = [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3], [3, 2], [3, 1], [2, 1]];
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

function chipStack(n) {
  const discs = Math.min(6, Math.ceil(n / 3));
  return s("svg", { viewBox: "0 0 24 30", class: "chips-icon", "aria-hidden": "true" },
    ...Array.from({ length: discs }, (_, i) =>
      s("ellipse", { cx: 12, cy: 25 - i * 4, rx: 10, ry: 4, class: "chip-disc" })));
}

export function renderBoard(hv, changed = new Set()) {
  const pots = hv.board;
  const style = boardStyle(hv.ruleset);
  const centre = pots.find((p) => p.kind === "centre");
  const others = pots.filter((p) => p !== centre);
  const places = others.length <= 4 ? PLUS4 : others.length <= 8 ? RING8 : null;
  const board = h("section", { class: `board board-${style}${places ? "" : " board-flow"}`, "aria-label": "The board" });
  const space = (pot, where) => {
    const amount = hv.pots[pot.id] ?? 0;
    const el = h("div", {
      class: `pot pot-${pot.kind}${changed.has(pot.id) ? " pot-changed" : ""}`,
      "data-pot": pot.id,
      style: where ? `grid-row:${where[0]};grid-column:${where[1]}` : null,
      "aria-label": `${pot.name}: ${amount} chip${amount === 1 ? "" : "s"}`,
      role: "group",
    },
    h("div", { class: "pot-cards" }, potCards(pot)),
    h("div", { class: "pot-name" }, pot.name),
    h("div", { class: "pot-amount" }, chipStack(amount), h("span", { class: "pot-count" }, String(amount))));
    return el;
  };
  if (centre) board.append(space(centre, places ? [2, 2] : null));
  others.forEach((pot, i) => board.append(space(pot, places ? places[i] : null)));
  return board;
}

/** Who won what in this hand, from the view's own public events. */
export function handSummary(hv, names) {
  const potNames = Object.fromEntries(hv.board.map((p) => [p.id, p.name]));
  const paid = [];
  for (const e of hv.events || []) {
    if (e.type === "chips" && e.from.startsWith("pot:") && e.to.startsWith("seat:")) {
      const pot = e.from.slice(4);
      paid.push({ pot: potNames[pot] || pot, seat: Number(e.to.slice(5)), amount: e.amount });
    }
  }
  const kept = hv.board.filter((p) => (hv.pots[p.id] ?? 0) > 0).map((p) => ({ pot: p.name, amount: hv.pots[p.id] }));
  const change = hv.chips.map((c, i) => ({ seat: i, name: names[i], delta: c - (hv.start?.chips?.[i] ?? c), chips: c }));
  return { paid, kept, change };
}

export function summaryBlock(sum) {
  return h("div", { class: "summary" },
    h("h3", {}, "End of the hand"),
    h("ul", { class: "paid" },
      sum.paid.length ? sum.paid.map((p) => h("li", {}, `${p.pot}: ${p.amount} to `, h("b", {}, p.name ?? "?")))
        : h("li", {}, "No pot was won.")),
    sum.kept.length ? h("p", {}, "Staying on the board: ", sum.kept.map((k) => `${k.pot} ${k.amount}`).join(", "), ".") : null,
    h("table", { class: "deltas" },
      h("tbody", {}, sum.change.map((c) => h("tr", {},
        h("td", {}, c.name), h("td", { class: c.delta >= 0 ? "up" : "down" }, `${c.delta >= 0 ? "+" : ""}${c.delta}`),
        h("td", {}, String(c.chips)))))));
}

function showdownBlock(hv, names) {
  const shown = Object.entries(hv.showdown || {});
  if (!shown.length) return null;
  const winners = new Set((hv.events || []).filter((e) => e.type === "chips" && e.reason === "poker" && e.from === "pot:poker")
    .map((e) => Number(e.to.slice(5))));
  return h("section", { class: "showdown", "aria-label": "Showdown" },
    h("h3", {}, "Showdown"),
    shown.map(([seat, cards]) => h("div", { class: `shown${winners.has(Number(seat)) ? " winner" : ""}` },
      h("span", { class: "who" }, names[Number(seat)] ?? `Seat ${Number(seat) + 1}`,
        winners.has(Number(seat)) ? h("b", { class: "badge" }, " wins the Poker pot") : null),
      h("span", { class: "five" }, cards.map((c) => h("span", { class: "mini" }, cardSvg(c)))))));
}

function runBlock(hv, names, revealed) {
  const played = hv.played.slice(0, revealed ?? hv.played.length);
  const rows = "shdc".split("").map((suit) => {
    const cards = played.filter((p) => p.card[1] === suit);
    return h("div", { class: "run-row" },
      h("span", { class: `run-suit suit-${suit}`, "aria-hidden": "true" }, suitSymbol(suit)),
      cards.map((p) => h("figure", {
        class: `laid${p === played[played.length - 1] ? " last" : ""}`,
        "aria-label": `${cardName(p.card)}, laid by ${names[p.seat]}`,
      }, h("span", { class: "mini" }, cardSvg(p.card, { label: false })), h("figcaption", {}, names[p.seat] ?? "?"))));
  });
  const last = played[played.length - 1];
  return h("section", { class: "run", "aria-label": "Cards laid on the table" },
    h("h3", {}, "On the table", last ? h("span", { class: "last-note" }, ` — last: ${short(last.card)} by ${names[last.seat]}`) : null),
    rows);
}

function amountControl(a, ctx, primary) {
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

function explain(hv, names, you, legal) {
  const dealer = names[hv.dealer];
  const mine = (kind) => legal.some((a) => a.action === kind);
  switch (hv.phase) {
    case "widow":
      return mine("keep") || mine("swap")
        ? "You are the dealer. Swap your hand, unseen, for the widow — or keep it: then the widow goes up for auction, and whoever wins it pays you their bid and swaps their whole hand for it."
        : `${dealer} (the dealer) chooses: swap their hand unseen for the widow, or keep it — then the widow is auctioned, and the winner pays the dealer and swaps their whole hand.`;
    case "auction": {
      const a = hv.auction || {};
      const top = a.bidder === null || a.bidder === undefined ? "No bid yet." : `Highest bid: ${a.bid} by ${names[a.bidder]}.`;
      return `${dealer} kept their hand, so the widow (${cardCount(hv.widow_size)}, unseen) is up for auction. ${top} `
        + `The winner pays ${dealer} the bid and swaps their whole hand for the widow. A pass is final.`;
    }
    case "poker": {
      const b = hv.betting || {};
      const toCall = you !== null && b.put ? b.level - b.put[you] : 0;
      return `Poker round for the Poker pot (${hv.pots.poker ?? 0}). Best five cards of your hand win. `
        + `Bets up to ${b.max_bet}, ${b.max_raises - b.raises} raise${b.max_raises - b.raises === 1 ? "" : "s"} left.`
        + (toCall > 0 ? ` You need ${toCall} to call.` : "");
    }
    case "play": {
      if (mine("lead")) return "Your lead: choose one of the highlighted cards.";
      if (mine("play")) return "Play the next card of the run.";
      if (mine("claim")) return "Claim the pot for the card you just laid!";
      const p = hv.play || {};
      return p.stopped_suit ? `Stopped in ${suitSymbol(p.stopped_suit)}.` : "The play round: the next card up must be played by whoever holds it.";
    }
    case "over": return hv.winner !== undefined && hv.winner !== null ? `${names[hv.winner]} went out and wins the centre.` : "The hand is over.";
    default: return "";
  }
}

/** The stops table for a hand view `hv`. ctx: {you, names, chipsOf, act, amounts, say, readOnly, revealed,
 *  changed, infos, seatOf} */
export function renderStops(hv, ctx) {
  const names = hv.players;
  const you = hv.seat;
  const legal = ctx.readOnly ? [] : hv.legal_actions || [];
  const toAct = new Set(hv.to_act || []);
  const folded = new Set(hv.betting?.folded || []);
  const passed = new Set(hv.auction?.passed || []);

  const seats = h("section", { class: "seats", "aria-label": "Players" },
    names.map((name, i) => {
      const info = ctx.infos?.[ctx.seatOf?.(i)] || {};
      const status = [];
      if (i === hv.dealer) status.push(h("span", { class: "dealer-chip", title: "Dealer" }, "D"));
      if (folded.has(i)) status.push(h("span", { class: "tag" }, "folded"));
      if (passed.has(i)) status.push(h("span", { class: "tag" }, "passed"));
      if (hv.auction?.bidder === i) status.push(h("span", { class: "tag hot" }, `bid ${hv.auction.bid}`));
      if (hv.betting?.put?.[i]) status.push(h("span", { class: "tag" }, `in ${hv.betting.put[i]}`));
      if (hv.swapped === i) status.push(h("span", { class: "tag" }, "took the widow"));
      return h("div", { class: `seat${toAct.has(i) ? " acting" : ""}${i === you ? " me" : ""}`, "data-seat": i },
        h("div", { class: "seat-name" }, info.connected === false && info.person ? h("span", { class: "away", title: "away" }, "○ ") : null,
          name, info.bot && !name.includes(info.bot) ? h("small", {}, ` · ${info.bot}`) : null),
        h("div", { class: "seat-line" },
          h("span", { class: `seat-chips${ctx.moved?.get(i) > 0 ? " up" : ctx.moved?.get(i) < 0 ? " down" : ""}`, "aria-label": `${hv.chips[i]} chips` },
            `${hv.chips[i]} chips`, ctx.moved?.get(i) ? h("small", { class: "delta", "aria-hidden": "true" }, ` ${ctx.moved.get(i) > 0 ? "+" : ""}${ctx.moved.get(i)}`) : null),
          h("span", { class: "seat-cards" }, cardCount(hv.hand_sizes[i]))),
        h("div", { class: "seat-status" }, status, toAct.has(i) ? h("span", { class: "tag turn" }, i === you ? "your turn" : "to act") : null));
    }));

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

  const phaseNames = { widow: "Dealer's choice", auction: "Auction of the widow", poker: "Poker round", play: "Play round", over: "Hand over" };
  const phase = h("section", { class: `phase phase-${hv.phase}${legal.length ? " my-turn" : ""}`, "aria-label": "What happens now" },
    h("h2", {}, phaseNames[hv.phase] || hv.phase),
    h("p", { class: "explain" }, explain(hv, names, you, legal)),
    legal.length ? controls : null);

  // Your hand.
  let mineBlock = null;
  if (hv.hand) {
    const playable = new Map(cardActs.map((a) => [a.card, a]));
    mineBlock = h("section", { class: "my-hand", "aria-label": "Your hand" },
      h("h3", {}, "Your hand", h("small", {}, ` · ${cardCount(hv.hand.length)}`)),
      h("div", { class: `cards${hv.hand.length > 12 ? " crowded" : ""}` }, sortCards(hv.hand).map((c) => {
        const a = playable.get(c);
        return a
          ? h("button", { class: "card-btn playable", "data-key": `card:${c}`, "aria-label": `${actionLabel(a)} (${cardName(c)})`,
            onclick: () => ctx.act({ action: a.action, card: c }) }, cardSvg(c, { label: false }))
          : h("span", { class: `card-btn${cardActs.length ? " dim" : ""}` }, cardSvg(c));
      })),
      hv.given_up ? h("p", { class: "given-up" }, "Your old hand, now the widow (out of play): ",
        hv.given_up.cards.map(short).join(" ")) : null);
  }

  return h("div", { class: "stops-table" },
    seats,
    h("div", { class: "table-middle" }, renderBoard(hv, ctx.changed), phase),
    mineBlock,
    showdownBlock(hv, names),
    runBlock(hv, names, ctx.revealed),
    hv.phase === "over" ? summaryBlock(handSummary(hv, names)) : null);
}
