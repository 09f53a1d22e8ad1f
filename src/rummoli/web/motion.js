// Motion at the table: cards travel from a hand to the run, the pile or a meld; chips travel to the pots and from
// a pot to its winner; the deal is dealt. Pure decoration: the table is drawn in its true state first, then the
// new elements are animated from where they came from (Web Animations API). Nothing runs under
// prefers-reduced-motion, and nothing here decides or delays what is shown.
import { h } from "./dom.js";

const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
const MAX_FLIGHTS = 24;  // an update with more moves (the antes of eight seats) flies the first ones only

/** Where things are before a redraw: seat tiles, pots, piles and the cards in your hand, by a key each. */
export function snapshot(root) {
  const at = new Map();
  if (reduced()) return at;
  for (const el of root.querySelectorAll(".seat[data-seat]")) at.set(`seat:${el.dataset.seat}`, el.getBoundingClientRect());
  for (const el of root.querySelectorAll(".pot[data-pot]")) at.set(`pot:${el.dataset.pot}`, el.getBoundingClientRect());
  for (const el of root.querySelectorAll(".pile[data-pile]")) at.set(`pile:${el.dataset.pile}`, el.getBoundingClientRect());
  for (const el of root.querySelectorAll(".my-hand [data-card]")) at.set(`card:${el.dataset.card}`, el.getBoundingClientRect());
  return at;
}

/** How long a move takes: a fraction of the table's pace for computer moves, within 0.18 to 0.6 s. */
export function flightMs(pace) {
  const bot = Number(pace?.bot) || 0;
  return Math.round(Math.min(600, Math.max(180, bot * 500)));
}

function layer() {
  let fx = document.getElementById("fx");
  if (!fx) {
    fx = h("div", { id: "fx", "aria-hidden": "true" });
    document.body.append(fx);
  }
  return fx;
}

const centre = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** Slide an element now at its place from the rectangle `from` (its true place is already drawn). */
function arrive(el, from, ms, delay = 0) {
  if (!el || !from) return;
  const to = el.getBoundingClientRect();
  const a = centre(from), b = centre(to);
  const scale = to.width ? Math.max(0.4, Math.min(2.5, from.width / to.width)) : 1;
  el.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${scale})` }, { transform: "none" }],
    { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
}

/** A token (a chip, a card back) flying from one rectangle to another, then gone. */
function fly(kind, from, to, ms, delay = 0) {
  if (!from || !to) return;
  const a = centre(from), b = centre(to);
  const token = h("span", { class: `fly fly-${kind}` });
  token.style.left = `${a.x}px`;
  token.style.top = `${a.y}px`;
  layer().append(token);
  const run = token.animate([
    { transform: "translate(-50%, -50%)", opacity: 0.2 },
    { opacity: 1, offset: 0.15 },
    { transform: `translate(calc(${b.x - a.x}px - 50%), calc(${b.y - a.y}px - 50%))`, opacity: 1 }],
  { duration: ms, delay, easing: "ease-in-out", fill: "both" });
  run.finished.then(() => token.remove(), () => token.remove());
}

/** Where a party of a `chips` event ("seat:N" or "pot:ID") is now, else where it was. */
function place(root, before, party) {
  const [kind, id] = party.split(/:(.*)/s);
  const sel = kind === "seat" ? `.seat[data-seat="${CSS.escape(id)}"]` : `.pot[data-pot="${CSS.escape(id)}"]`;
  return root.querySelector(sel)?.getBoundingClientRect() || before.get(party) || null;
}

/** Animate what this update's events moved. `before`: snapshot() taken before the redraw; `me`: your hand seat. */
export function animateEvents(root, before, events, { pace, me }) {
  if (reduced() || !events.length) return;
  const ms = flightMs(pace);
  let flights = 0;
  const seatRect = (s) => root.querySelector(`.seat[data-seat="${s}"]`)?.getBoundingClientRect() || before.get(`seat:${s}`);
  for (const e of events) {
    if (flights >= MAX_FLIGHTS) break;
    if (e.type === "hand_start") {
      dealt(root, me, ms);
      flights += 8;
    } else if (e.type === "chips" && e.from && e.to && e.amount) {
      const delay = (flights % 8) * 40;
      fly("chip", place(root, before, e.from), place(root, before, e.to), ms + 150, delay);
      flights++;
    } else if (e.type === "action" && e.card && (e.action === "lead" || e.action === "play")) {
      const laid = root.querySelector(`.laid[data-card="${e.card}"]`);
      arrive(laid, before.get(`card:${e.card}`) || seatRect(e.seat), ms);
      flights++;
    } else if (e.type === "action" && e.action === "discard" && e.card) {
      const top = root.querySelector(".pile[data-pile='discard'] .card-btn");
      arrive(top, before.get(`card:${e.card}`) || seatRect(e.seat), ms);
      flights++;
    } else if (e.type === "action" && e.action === "draw") {
      const pile = before.get(`pile:${e.from === "discard" ? "discard" : "stock"}`);
      if (e.seat === me) {
        const fresh = [...root.querySelectorAll(".my-hand [data-card]")].find((el) => !before.has(`card:${el.dataset.card}`));
        arrive(fresh, pile, ms);
      } else fly("card", pile, seatRect(e.seat), ms);
      flights++;
    } else if (e.type === "action" && (e.action === "meld" || e.action === "layoff")) {
      const meld = e.action === "layoff" ? root.querySelector(`.meld[data-meld="${e.meld}"], .meld[data-key="meld:${e.meld}"]`)
        : root.querySelector(".melds .meld:last-of-type");
      const from = (e.cards || [e.card]).map((c) => before.get(`card:${c}`)).find(Boolean) || seatRect(e.seat);
      arrive(meld, from, ms);
      flights++;
    }
  }
}

/** The deal: your cards come from the middle one after another, a back flies to every other seat. */
function dealt(root, me, ms) {
  const middle = root.querySelector(".pot-centre, .pile[data-pile='stock'], .board, .piles")?.getBoundingClientRect();
  if (!middle) return;
  const step = Math.max(20, Math.min(60, ms / 6));
  const cards = [...root.querySelectorAll(".my-hand .card-btn")];
  cards.forEach((el, k) => arrive(el, middle, ms, k * step));
  root.querySelectorAll(".seat[data-seat]").forEach((el, k) => {
    if (Number(el.dataset.seat) !== me) fly("card", middle, el.getBoundingClientRect(), ms, k * step);
  });
}
