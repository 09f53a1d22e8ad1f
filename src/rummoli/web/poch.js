// The Poch table: the board's places drawn by the page (the centre in the middle, the honours, the marriage,
// the sequence and the Pocher round it, each showing the cards that win it in this hand's trumps), the trump
// card, what was shown for the pools, the vying and the run. What may be done comes from legal_actions only.
import { h } from "./dom.js";
import { cardSvg, short, suitSymbol } from "./cards.js";
import { pochLabel } from "./labels.js";
import { seatTiles, seatWithHand } from "./seats.js";
import { RING8, amountControl, chipStack, isForced, runBlock, showdownDuringHand, yourHand } from "./stops.js";

/** The cards a pool pays for in this hand's trumps (``suit``), as little faces; text where no card names it. */
function poolFaces(pool, suit, bestRun) {
  const cards = "AKQJT".includes(pool.kind) && pool.kind.length === 1 ? [`${pool.kind}${suit}`]
    : pool.kind === "marriage" ? [`K${suit}`, `Q${suit}`]
      : pool.kind === "sequence" && !bestRun ? [`7${suit}`, `8${suit}`, `9${suit}`] : [];
  if (cards.length) return h("div", { class: "pot-cards" }, cards.map((c) => h("span", { class: "mini" }, cardSvg(c))),
    h("span", { class: "pot-tags", "aria-hidden": "true" }, cards.map((c) => h("span", { class: `pot-tag suit-${suit}` }, short(c)))));
  const words = { sequence: "3+ in a row", vie: "best set", out: "first out" }[pool.kind];
  return h("div", { class: "pot-cards" }, words ? h("span", { class: "combo-any", "aria-hidden": "true" }, words) : null);
}

/** The board: the centre (the pool for going out, or Hoyle's centre pool) in the middle, the others round it. */
export function renderPochBoard(hv, changed = new Set(), now = null) {
  const suit = hv.trump.suit;
  const bestRun = typeof hv.ruleset === "string" ? hv.ruleset === "poch-hoyle" : hv.ruleset.sequence === "best_run";
  const centre = hv.board.find((p) => p.id === "centre") || hv.board.find((p) => p.kind === "out");
  const others = hv.board.filter((p) => p !== centre);
  const ring = others.length <= 8;
  const board = h("section", { class: `board board-poch${ring ? "" : " board-flow"}`, "aria-label": "The Poch board" });
  const place = (pool, where) => {
    const amount = (now || hv.pots)[pool.id] ?? 0;
    return h("div", {
      class: `pot pot-${pool === centre ? "centre" : pool.kind}${changed.has(pool.id) ? " pot-changed" : ""}`,
      "data-pot": pool.id, role: "group", style: where ? `grid-row:${where[0]};grid-column:${where[1]}` : null,
      "aria-label": `${pool.name}: ${amount} chip${amount === 1 ? "" : "s"}`,
    }, poolFaces(pool, suit, bestRun), h("div", { class: "pot-name" }, pool.name),
    h("div", { class: "pot-amount" }, chipStack(amount), h("span", { class: "pot-count" }, String(amount))));
  };
  if (centre) board.append(place(centre, ring ? [2, 2] : null));
  others.forEach((pool, i) => board.append(place(pool, ring ? RING8[i] : null)));
  // Hoyle's board has seven places round its centre: the ring's last cell shows the trump card, not a gap.
  if (ring && others.length < RING8.length && hv.trump?.card) board.append(trumpCell(hv.trump, RING8[others.length]));
  return board;
}

/** The turned trump card in a cell of the board that no place fills (not a place: it holds no chips). */
function trumpCell(trump, where) {
  return h("div", { class: "board-trump", role: "img", "aria-label": `Trumps: ${short(trump.card)}`,
    style: `grid-row:${where[0]};grid-column:${where[1]}` },
  h("div", { class: "pot-cards", "aria-hidden": "true" }, h("span", { class: "mini" }, cardSvg(trump.card)),
    h("span", { class: "pot-tags" }, h("span", { class: `pot-tag suit-${trump.suit}` }, short(trump.card)))),
  h("div", { class: "pot-name", "aria-hidden": "true" }, "Trumps"));
}

/** The trump card (the view's `trump.laid`: its holder has laid it) and what was shown for the pools at the deal. */
function trumpsBlock(hv, names) {
  const t = hv.trump;
  const whose = t.laid ? `was ${names[t.holder]}'s, laid in the play` : `is ${names[t.holder]}'s`;
  return h("section", { class: "trumps", "aria-label": "Trumps and the pools held" },
    h("p", { class: "trump-line" }, h("span", { class: "mini" }, cardSvg(t.card)),
      ` Trumps: ${suitSymbol(t.suit)}`, t.holder !== null && t.holder !== undefined ? ` — the ${short(t.card)} ${whose}` : " — turned from the stock"),
    hv.melds.length ? h("ul", { class: "melds-shown" }, hv.melds.map((m) => h("li", {},
      `${names[m.seat]}: `, m.cards.map(short).join(" "), ` → ${hv.board.find((p) => p.id === m.pot)?.name ?? m.pot}`))) : null);
}

const PHASE_TITLES = { play: "Play", over: "Hand over" };  // the vying is named by its pool (the board's own name)

/** The Poch table for a hand view `hv` (hand-level seats); ctx as renderStops's. */
export function renderPoch(hv, ctx) {
  const names = hv.players;
  // A forced play is made by the table itself at its pace (views.md, `forced`): shown as coming, not offered.
  const forced = !ctx.readOnly && isForced(hv);
  const legal = ctx.readOnly || forced ? [] : hv.legal_actions || [];
  const ctxWords = { ...ctx, label: pochLabel };
  const seats = seatTiles(hv, ctx, { unit: "chips", forced, status: (i) => [
    hv.vie?.folded?.includes(i) ? h("span", { class: "tag" }, "dropped out") : null,
    hv.vie?.put?.[i] ? h("span", { class: "tag" }, `in ${hv.vie.put[i]}`) : null,
    hv.trump.holder === i && !hv.trump.laid ? h("span", { class: "tag" }, `holds ${short(hv.trump.card)}`) : null] });
  const fixed = legal.filter((a) => a.min === undefined && a.action !== "lead");
  const ranged = legal.filter((a) => a.min !== undefined);
  const cardActs = legal.filter((a) => a.action === "lead");
  const controls = h("div", { class: "controls", role: "group", "aria-label": "Your choices" },
    fixed.map((a, k) => h("button", { class: k === 0 && !ranged.length ? "primary" : "", "data-key": `act:${a.action}`,
      onclick: () => ctx.act({ action: a.action }) }, pochLabel(a))),
    ranged.map((a, k) => amountControl(a, ctxWords, k === 0)),
    cardActs.length ? h("p", { class: "hint" }, "Lead any card of your hand.") : null);
  const phase = h("section", { class: `phase phase-${hv.phase}${legal.length ? " my-turn" : ""}`, "aria-label": "What happens now", tabindex: "-1", "data-key": "phase" },
    h("h2", {}, hv.phase === "vie" ? `The vying for the ${hv.board?.find((p) => p.kind === "vie")?.name ?? "Pocher"}` : PHASE_TITLES[hv.phase] || hv.phase),
    hv.prompt && !ctx.readOnly ? h("p", { class: "explain" }, hv.prompt) : null,
    forced ? h("p", { class: "hint forced-note" }, `${pochLabel(hv.forced)}: your only choice, made for you.`) : null,
    legal.length ? controls : null);
  return h("div", { class: "stops-table poch-table" },
    seats,
    h("div", { class: "table-middle" },
      h("div", { class: "middle-left" }, renderPochBoard(hv, ctx.changed, ctx.board)),
      h("div", { class: "middle-right" }, phase,
        h("div", { class: "tableau" }, trumpsBlock(hv, names), runBlock(hv, names, ctx.seatOf || ((i) => i)),
          hv.phase === "over" ? null : showdownDuringHand(hv, names, ctx.events)))),
    hv.hand ? seatWithHand(seats, yourHand(hv, cardActs, ctxWords)) : null);
}
