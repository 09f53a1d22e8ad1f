// The Rummy table: stock, discard pile, melds with their owners, scores to the target, and your hand with
// the melds, lay-offs and discards the view's legal_actions allow (select a card to see what it can do).
import { h } from "./dom.js";
import { backSvg, cardCount, cardName, cardSvg, short, sortCards } from "./cards.js";
import { actionLabel } from "./narrate.js";

export function renderRummy(hv, ctx) {
  const names = hv.players;
  const you = hv.seat;
  const legal = ctx.readOnly ? [] : hv.legal_actions || [];
  const toAct = new Set(hv.to_act || []);
  const acesLow = hv.aces === "low";
  const sel = ctx.selected && hv.hand?.includes(ctx.selected) ? ctx.selected : null;
  const target = ctx.target;

  const seats = h("section", { class: "seats", "aria-label": "Players" },
    names.map((name, i) => {
      const info = ctx.infos?.[ctx.seatOf?.(i)] || {};
      const total = (hv.scores?.[i] ?? 0);
      return h("div", { class: `seat${toAct.has(i) ? " acting" : ""}${i === you ? " me" : ""}`, "data-seat": i },
        h("div", { class: "seat-name" }, info.connected === false && info.person ? h("span", { class: "away", title: "away" }, "○ ") : null,
          name, info.bot && !name.includes(info.bot) ? h("small", {}, ` · ${info.bot}`) : null),
        h("div", { class: "seat-line" },
          h("span", { class: "seat-chips" }, `${total} pts`),
          h("span", { class: "seat-cards" }, cardCount(hv.hand_sizes[i]))),
        target ? h("div", { class: "score-bar", role: "img", "aria-label": `${total} of ${target} points` },
          h("span", { style: `width:${Math.min(100, (100 * total) / target)}%` })) : null,
        h("div", { class: "seat-status" }, i === hv.dealer ? h("span", { class: "dealer-chip", title: "Dealer" }, "D") : null,
          toAct.has(i) ? h("span", { class: "tag turn" }, i === you ? "your turn" : "to act") : null));
    }));

  const draws = legal.filter((a) => a.action === "draw");
  const stockDraw = draws.find((a) => a.from === "stock");
  const pileDraws = draws.filter((a) => a.from === "discard");
  const top = hv.discard[hv.discard.length - 1];
  const stock = h("div", { class: "pile" },
    stockDraw
      ? h("button", { class: "card-btn playable", "data-key": "draw:stock", "aria-label": `Draw from the stock (${cardCount(hv.stock)}) — key S`,
        onclick: () => ctx.act(stockDraw) }, backSvg("stock"))
      : h("span", { class: "card-btn" }, hv.stock ? backSvg("stock") : h("span", { class: "empty-pile" }, "empty")),
    h("div", { class: "pile-label" }, `Stock · ${hv.stock}`));
  const pile = h("div", { class: "pile", ondragover: (e) => e.preventDefault(),
    ondrop: (e) => { e.preventDefault(); drop(e, (c) => legal.find((a) => a.action === "discard" && a.card === c)); } },
    top
      ? (pileDraws.length === 1 && !pileDraws[0].card
        ? h("button", { class: "card-btn playable", "data-key": "draw:discard", "aria-label": `Take the discard, ${cardName(top)} — key D`,
          onclick: () => ctx.act(pileDraws[0]) }, cardSvg(top, { label: false }))
        : h("span", { class: "card-btn" }, cardSvg(top)))
      : h("span", { class: "empty-pile" }, "no discard"),
    h("div", { class: "pile-label" }, `Discards · ${hv.discard.length}`),
    hv.discard.length > 1 ? h("div", { class: "pile-under", "aria-label": "Discard pile, top last" },
      hv.discard.slice(-8, -1).map((c) => h("span", { class: "tiny-card" }, short(c)))) : null);

  const layoffs = legal.filter((a) => a.action === "layoff");
  // Drag a card from your hand onto the discard pile (discard) or onto a meld (lay it off).
  function drop(e, find) {
    const card = e.dataTransfer.getData("text/x-card");
    const action = card ? find(card) : null;
    if (action) ctx.act(action);
  }
  const melds = h("section", { class: "melds", "aria-label": "Melds on the table" },
    h("h3", {}, "Melds"),
    hv.melds.length ? hv.melds.map((m, k) => {
      const here = sel ? layoffs.find((a) => a.card === sel && a.meld === k) : null;
      const body = [h("span", { class: "meld-owner" }, names[m.owner] ?? "?"),
        h("span", { class: "meld-cards" }, m.cards.map((c) => h("span", { class: "mini" }, cardSvg(c))))];
      return here
        ? h("button", { class: "meld target", "data-key": `meld:${k}`, onclick: () => ctx.act(here), ondragover: (e) => e.preventDefault(),
          ondrop: (e) => { e.preventDefault(); drop(e, (c) => layoffs.find((a) => a.card === c && a.meld === k)); },
          "aria-label": actionLabel(here, { melds: hv.melds, names }) }, body)
        : h("div", { class: "meld", "data-meld": k, ondragover: (e) => e.preventDefault(),
          ondrop: (e) => { e.preventDefault(); drop(e, (c) => layoffs.find((a) => a.card === c && a.meld === k)); } }, body);
    }) : h("p", { class: "muted" }, "No meld yet."));

  // Hints: every card that some legal meld uses.
  const meldActs = legal.filter((a) => a.action === "meld");
  const inMeld = new Set(meldActs.flatMap((a) => a.cards));
  const byCard = (c) => legal.filter((a) => a.card === c && a.action !== "draw");
  const hand = hv.hand ? h("section", { class: "my-hand", "aria-label": "Your hand" },
    h("h3", {}, "Your hand", h("small", {}, ` · ${cardCount(hv.hand.length)}${hv.points && you !== null ? ` · ${hv.points[you]} points laid` : ""}`)),
    h("div", { class: `cards${hv.hand.length > 12 ? " crowded" : ""}` }, sortCards(hv.hand, acesLow).map((c) => {
      const acts = byCard(c);
      const cls = `card-btn${acts.length ? " playable" : ""}${inMeld.has(c) ? " meld-hint" : ""}${c === sel ? " selected" : ""}${(hv.drawn || []).some((d) => d[1] === c) ? " new" : ""}`;
      return acts.length || inMeld.has(c)
        ? h("button", { class: cls, "data-key": `card:${c}`, "aria-pressed": c === sel ? "true" : "false",
          draggable: acts.length ? "true" : null, ondragstart: (e) => { e.dataTransfer.setData("text/x-card", c); ctx.select(c, false); },
          "aria-label": `${cardName(c)}${inMeld.has(c) ? ", can meld" : ""}${acts.length ? `, ${acts.length} choice${acts.length > 1 ? "s" : ""}` : ""}`,
          onclick: () => ctx.select(c === sel ? null : c) }, cardSvg(c, { label: false }))
        : h("span", { class: cls }, cardSvg(c));
    }))) : null;

  const mine = [];
  if (sel) mine.push(...byCard(sel).filter((a) => a.action !== "layoff" || true));
  const shownActs = [...draws.filter((a) => a !== stockDraw && !(pileDraws.length === 1 && a === pileDraws[0] && !a.card)),
    ...meldActs.filter((a) => !sel || a.cards.includes(sel)), ...mine,
    ...legal.filter((a) => a.action === "pass")];
  const controls = legal.length ? h("div", { class: "controls", role: "group", "aria-label": "Your choices" },
    stockDraw ? h("button", { class: "primary", "data-key": "act:draw:stock", onclick: () => ctx.act(stockDraw) }, "Draw from the stock") : null,
    pileDraws.length === 1 && !pileDraws[0].card ? h("button", { "data-key": "act:draw:discard", onclick: () => ctx.act(pileDraws[0]) }, `Take the ${short(top)}`) : null,
    shownActs.map((a) => h("button", { class: a.action === "discard" ? "primary" : "", "data-key": `act:${a.action}:${a.card || (a.cards || []).join("")}:${a.meld ?? ""}`,
      onclick: () => ctx.act(a) }, actionLabel(a, { melds: hv.melds, names }))),
    !sel && legal.some((a) => a.action === "discard") ? h("p", { class: "hint" }, "Select a card in your hand to discard it or lay it off.") : null)
    : null;

  const phaseText = hv.phase === "over"
    ? rummyOutcome(hv, names)
    : toAct.has(you) ? (hv.phase === "draw" ? "Your turn: draw from the stock (S) or take the discard (D)."
      : "Meld, lay off, then discard one card.") : `${names[[...toAct][0]] ?? "Someone"} to play.`;

  return h("div", { class: "rummy-table" },
    seats,
    h("div", { class: "table-middle" },
      h("section", { class: "piles", "aria-label": "Stock and discard pile" }, stock, pile),
      h("section", { class: `phase${legal.length ? " my-turn" : ""}`, "aria-label": "What happens now" },
        h("h2", {}, hv.phase === "over" ? "Hand over" : hv.phase === "draw" ? "Draw" : "Meld and discard"),
        h("p", { class: "explain" }, phaseText), controls)),
    melds,
    hand,
    hv.phase === "over" ? shownHands(hv, names) : null);
}

function rummyOutcome(hv, names) {
  const o = hv.outcome || {};
  if (o.winner !== undefined && o.winner !== null) {
    const gain = o.deltas ? o.deltas[o.winner] : null;
    return `${names[o.winner]} ${o.reason === "out" ? "went out" : "wins"}${o.rummy ? " with rummy" : ""}${gain !== null ? ` and scores ${gain}` : ""}.`;
  }
  return `The hand ended (${o.reason || "over"}).`;
}

function shownHands(hv, names) {
  if (!hv.shown) return null;
  return h("section", { class: "summary", "aria-label": "Hands at the end" },
    h("h3", {}, "End of the hand"),
    hv.shown.map((cards, i) => h("div", { class: "shown" },
      h("span", { class: "who" }, names[i], hv.outcome?.deltas ? ` (${hv.outcome.deltas[i] >= 0 ? "+" : ""}${hv.outcome.deltas[i]})` : ""),
      h("span", { class: "five" }, cards.length ? cards.map((c) => h("span", { class: "mini" }, cardSvg(c))) : "out"))));
}
