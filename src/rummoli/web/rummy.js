// The Rummy table (Rummy, 500 Rum, Knock, Gin...): stock, discard pile, melds with their owners, scores to the
// target, and your hand arranged as the view's `arranged` says (melds first, then deadwood, with its count), which
// you may reorder. What you may do comes from legal_actions; knocking is labelled with the view's `knocks`.
import { h } from "./dom.js";
import { backSvg, cardCount, cardName, cardSvg, short, sortCards } from "./cards.js";
import { actionLabel, knockLabel } from "./labels.js";
import { seatTiles, seatWithHand } from "./seats.js";

/** The order of your cards: yours if you moved them (cards new to the hand go last), else the arranged melds
 *  then the deadwood, else sorted. Returns [{card, group}] where group is a meld's index or "dead". */
function handOrder(hv, order, acesLow) {
  const held = new Set(hv.hand);
  const meldOf = new Map();
  (hv.arranged?.melds || []).forEach((m, k) => m.forEach((c) => meldOf.set(c, k)));
  const group = (c) => (meldOf.has(c) ? meldOf.get(c) : "dead");
  if (order) {
    const kept = order.filter((c) => held.has(c));
    const added = sortCards(hv.hand.filter((c) => !kept.includes(c)), acesLow);
    return [...kept, ...added].map((card) => ({ card, group: group(card) }));
  }
  if (hv.arranged) {
    const melded = hv.arranged.melds.flat().filter((c) => held.has(c));
    const rest = hv.arranged.deadwood.filter((c) => held.has(c) && !melded.includes(c));
    const missing = sortCards(hv.hand.filter((c) => !melded.includes(c) && !rest.includes(c)), acesLow);
    return [...melded, ...rest, ...missing].map((card) => ({ card, group: group(card) }));
  }
  return sortCards(hv.hand, acesLow).map((card) => ({ card, group: "dead" }));
}

const STEP_TITLES = { yours: ["Your draw", "Your play"], theirs: ["Draw", "Play"] };

/** What a selected card can do in this style of Rummy: Gin and Knock lay nothing off during the hand, and only they
 *  knock. */
function cardVerbs(style) {
  const verbs = ["discard it", ...(style === "gin" || style === "knock" ? ["knock with it"] : ["lay it off"])];
  return verbs.join(" or ");
}

export function renderRummy(hv, ctx) {
  const names = hv.players;
  const legal = ctx.readOnly ? [] : hv.legal_actions || [];
  const acesLow = hv.aces === "low";
  const sel = ctx.selected && hv.hand?.includes(ctx.selected) ? ctx.selected : null;
  const knocks = hv.knocks || null;

  // 500 Rum: what each seat has laid this hand is what it will score (less what it still holds), the figure players
  // follow (the view's `points`); shown once there is some.
  const laid = (i) => (hv.style === "500" && hv.points?.[i] && hv.phase !== "over"
    ? h("span", { class: "tag laid-points", title: "Points laid on the table this hand" }, `laid ${hv.points[i]}`) : null);
  const seats = seatTiles(hv, ctx, { unit: "points", target: ctx.target, status: laid });

  const draws = legal.filter((a) => a.action === "draw");
  const stockDraw = draws.find((a) => a.from === "stock");
  const pileDraws = draws.filter((a) => a.from === "discard");
  const simplePileDraw = pileDraws.length === 1 && !pileDraws[0].card ? pileDraws[0] : null;
  const top = hv.discard[hv.discard.length - 1];
  const stock = h("div", { class: "pile", "data-pile": "stock" },
    stockDraw
      ? h("button", { class: "card-btn playable", "data-key": "draw:stock", "aria-label": `Draw from the stock (${cardCount(hv.stock)}) — key S`,
        onclick: () => ctx.act(stockDraw) }, backSvg("stock"))
      : h("span", { class: "card-btn" }, hv.stock ? backSvg("stock") : h("span", { class: "empty-pile" }, "empty")),
    h("div", { class: "pile-label" }, `Stock · ${hv.stock}`));
  const discards = legal.filter((a) => a.action === "discard");
  const pile = h("div", { class: "pile", "data-pile": "discard", ondragover: (e) => e.preventDefault(),
    ondrop: (e) => { e.preventDefault(); drop(e, (c) => discards.find((a) => a.card === c)); } },
    top
      ? (simplePileDraw
        ? h("button", { class: "card-btn playable", "data-key": "draw:discard", "aria-label": `Take the discard, ${cardName(top)} — key D`,
          onclick: () => ctx.act(simplePileDraw) }, cardSvg(top, { label: false }))
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
  // Knock and Gin lay no melds on the table during a hand (they are shown at the knock, in the result): no
  // empty "melds" box all hand long.
  const tableMelds = hv.melds.length || (hv.style !== "gin" && hv.style !== "knock");
  const melds = !tableMelds ? null : h("section", { class: "melds", "aria-label": "Melds on the table" },
    h("h3", {}, "Melds on the table"),
    hv.melds.length ? hv.melds.map((m, k) => {
      const here = sel ? layoffs.find((a) => a.card === sel && a.meld === k) : null;
      const body = [h("span", { class: "meld-owner" }, names[m.owner] ?? "?"),
        h("span", { class: "meld-cards" }, m.cards.map((c) => h("span", { class: "mini" }, cardSvg(c))))];
      const dropHere = { ondragover: (e) => e.preventDefault(),
        ondrop: (e) => { e.preventDefault(); drop(e, (c) => layoffs.find((a) => a.card === c && a.meld === k)); } };
      return here
        ? h("button", { class: "meld target", "data-key": `meld:${k}`, onclick: () => ctx.act(here), ...dropHere,
          "aria-label": actionLabel(here, { melds: hv.melds, names }) }, body)
        : h("div", { class: "meld", "data-meld": k, ...dropHere }, body);
    }) : h("p", { class: "muted" }, "Nobody has melded yet."));

  const meldActs = legal.filter((a) => a.action === "meld");
  const inMeld = new Set(meldActs.flatMap((a) => a.cards));
  const knockActs = legal.filter((a) => a.action === "knock");
  const byCard = (c) => legal.filter((a) => a.card === c && a.action !== "draw");
  const hand = hv.hand ? yourHand(hv, ctx, { sel, acesLow, byCard, inMeld }) : null;

  // Knocking: gin (no deadwood left) is THE default whenever it is there, so Enter can never throw a gin away;
  // otherwise the knock that keeps the least deadwood is offered first. Other knocks: select the card.
  const byDeadwood = [...knockActs].sort((a, b) => (knocks?.[a.card] ?? 99) - (knocks?.[b.card] ?? 99));
  const gins = byDeadwood.filter((a) => knocks?.[a.card] === 0);
  const offeredKnocks = gins.length ? gins : byDeadwood.slice(0, 1);
  const selectedActs = sel ? byCard(sel).filter((a) => !offeredKnocks.includes(a)) : [];
  const otherDraws = draws.filter((a) => a !== stockDraw && a !== simplePileDraw);
  const label = (a) => actionLabel(a, { melds: hv.melds, names, knocks });
  const key = (a) => `act:${a.action}:${a.card || (a.cards || []).join("")}:${a.meld ?? ""}`;
  const controls = legal.length ? h("div", { class: "controls", role: "group", "aria-label": "Your choices" },
    // The offered knock is the main button in Gin (its knocks are within the limit) or at a gin; in Knock Rummy, where
    // any deadwood may knock, a plain one: a knock at 48 must not be the big button that Enter reaches first.
    offeredKnocks.map((a, k) => h("button", { class: `${hv.style === "gin" || knocks?.[a.card] === 0 ? "primary " : ""}knock${knocks?.[a.card] === 0 ? " gin" : ""}`, "data-key": key(a),
      "data-default": k === 0 && gins.length ? "" : null, onclick: () => ctx.act(a) }, knockLabel(a, knocks))),
    stockDraw ? h("button", { class: "primary", "data-key": "act:draw:stock", onclick: () => ctx.act(stockDraw) }, "Draw from the stock") : null,
    simplePileDraw ? h("button", { class: stockDraw ? "" : "primary", "data-key": "act:draw:discard", onclick: () => ctx.act(simplePileDraw) }, `Take the ${short(top)}`) : null,
    otherDraws.map((a) => h("button", { "data-key": key(a), onclick: () => ctx.act(a) }, label(a))),
    meldActs.filter((a) => !sel || a.cards.includes(sel)).map((a) => h("button", { "data-key": key(a), onclick: () => ctx.act(a) }, label(a))),
    selectedActs.map((a) => h("button", { class: `card-act${a.action === "discard" && !knockActs.length ? " primary" : ""}`, "data-key": key(a),
      onclick: () => ctx.act(a) }, label(a))),
    legal.filter((a) => a.action === "pass").map((a) => h("button", { "data-key": "act:pass", onclick: () => ctx.act(a) }, label(a))),
    !sel && discards.length ? h("p", { class: "hint" }, `Select a card in your hand to ${cardVerbs(hv.style)}.`) : null)
    : null;

  return h("div", { class: "rummy-table" },
    seats,
    h("div", { class: "table-middle" },
      h("div", { class: "middle-left" }, h("section", { class: "piles", "aria-label": "Stock and discard pile" }, stock, pile)),
      h("div", { class: "middle-right" },
        h("section", { class: `phase${legal.length ? " my-turn" : ""}`, "aria-label": "What happens now", tabindex: "-1", "data-key": "phase" },
          // "Your" only when the choice is yours: while the other side plays (and in a replay) the step is named.
          h("h2", {}, hv.phase === "over" ? "Hand over" : (legal.length ? STEP_TITLES.yours : STEP_TITLES.theirs)[hv.phase === "draw" ? 0 : 1]),
          hv.prompt && !ctx.readOnly ? h("p", { class: "explain" }, hv.prompt) : null, controls),
        h("div", { class: "tableau" }, melds))),
    seatWithHand(seats, hand));
}

/** Your hand in your order: melds grouped, then the deadwood and its count (as `arranged` says). Drag a card
 *  onto another to move it there, or Shift+Arrow on a focused card; "Arrange" puts it back in melds order. */
function yourHand(hv, ctx, { sel, acesLow, byCard, inMeld }) {
  const cards = handOrder(hv, ctx.order, acesLow);
  const move = (card, to) => {
    const now = cards.map((x) => x.card);
    const from = now.indexOf(card);
    if (from < 0 || to < 0 || to >= now.length || from === to) return;
    now.splice(from, 1);
    now.splice(to, 0, card);
    ctx.setOrder(now, card);
  };
  const count = hv.arranged?.count;
  const row = h("div", { class: `cards grouped${hv.hand.length > 12 ? " crowded" : ""}`, style: `--n:${hv.hand.length}` }, cards.map(({ card: c, group }, k) => {
    const acts = byCard(c);
    const dead = group === "dead";
    const startsGroup = k > 0 && cards[k - 1].group !== group;
    const cls = `card-btn${acts.length ? " playable" : ""}${inMeld.has(c) ? " meld-hint" : ""}${c === sel ? " selected" : ""}`
      + `${(hv.drawn || []).some((d) => d[1] === c) ? " new" : ""}${dead ? " deadwood" : " in-meld"}${startsGroup ? " group-start" : ""}`;
    if (ctx.readOnly) return h("span", { class: cls, "data-card": c, role: "img", "aria-label": `${cardName(c)}${dead ? "" : ", in a meld"}` }, cardSvg(c, { label: false }));
    return h("button", { class: cls, "data-key": `card:${c}`, "data-card": c, "aria-pressed": c === sel ? "true" : "false",
      draggable: "true", ondragstart: (e) => { e.dataTransfer.setData("text/x-card", c); e.dataTransfer.effectAllowed = "move"; },
      ondragover: (e) => e.preventDefault(),
      ondrop: (e) => { e.preventDefault(); e.stopPropagation(); const moved = e.dataTransfer.getData("text/x-card"); if (moved && moved !== c) move(moved, k); },
      onkeydown: (e) => {
        if (!e.shiftKey || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
        e.preventDefault();
        e.stopPropagation();
        move(c, k + (e.key === "ArrowRight" ? 1 : -1));
      },
      "aria-label": `${cardName(c)}${dead ? ", deadwood" : ", in a meld"}${inMeld.has(c) ? ", can meld" : ""}${acts.length ? `, ${acts.length} choice${acts.length > 1 ? "s" : ""}` : ""}`,
      onclick: (e) => {
        ctx.select(c === sel ? null : c);
        // Chosen with Enter or Space (a click with no pointer): the focus goes to what the card can do, not twenty
        // Tabs away; a mouse leaves it on the card.
        if (e.detail === 0 && c !== sel) document.querySelector(".phase .controls .card-act")?.focus();
      } }, cardSvg(c, { label: false }));
  }));
  return h("section", { class: "my-hand", "aria-label": "Your hand", tabindex: "-1", "data-key": "my-hand" },
    h("h3", {}, h("span", { class: "hand-title" }, "Your hand"), h("small", {}, ` · ${cardCount(hv.hand.length)}`),
      // The count sits apart from the title on screen; read aloud it needs its own separator, not "cardsDeadwood".
      count !== undefined ? [h("span", { class: "sr-only" }, ". "), h("span", { class: "deadwood-count", "aria-live": "polite" }, `Deadwood ${count}`)] : null,
      ctx.order ? h("button", { class: "quiet small", "data-key": "arrange", onclick: () => ctx.setOrder(null) }, "Arrange in melds") : null),
    row,
    ctx.readOnly ? null : h("p", { class: "hint" }, "Drag a card, or Shift + ← → on it, to move it in your hand."));
}
