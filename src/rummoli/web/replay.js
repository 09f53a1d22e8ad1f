// Replays: a finished hand (from a table's history, or an uploaded rummoli-hand/1 record) stepped forwards
// and backwards in the same table view. Each frame is the seat's own view after one step, made by the server
// (sent as what changed since the step before), and its events with their sentences; the last step adds the
// hand's result, as the server made it. Beside the board, the move list: every step in the server's words,
// the one shown highlighted; a step clicked (or Enter on it) is shown. Once the evening is over a seat of the
// table may ask for every hand as dealt ("Show all hands": the server's open frames, each seat's hand and the
// cards out of play: the widow, or the hand given up for it; the stock; the cards Hoyle's Poch leaves undealt).
import { drawerFollowsWidth, fill, h, morph, pageTitle, seatToken } from "./dom.js";
import { api } from "./net.js";
import { cardSvg } from "./cards.js";
import { renderStops } from "./stops.js";
import { renderRummy } from "./rummy.js";
import { renderPoch } from "./poch.js";
import { loadRulesets, rulesetInfo } from "./lobby.js";
import { handResultBlock } from "./result.js";
import { askRecord, askTable, reviewControls } from "./review.js";

/** Whole views again from frames that carry only what changed ("more": the new items of a list that grew,
 *  "gone": the keys it lost). */
function wholeFrames(data) {
  let whole = {};
  return data.frames.map((f) => {
    const grown = Object.fromEntries(Object.entries(f.more || {}).map(([k, items]) => [k, [...whole[k], ...items]]));
    whole = { ...whole, ...f.view, ...grown };
    for (const key of f.gone || []) delete whole[key];
    return { ...f, view: whole };
  });
}

/** A step's line in the move list: its events' sentences (the server's words). */
function stepWords(frame, k) {
  const lines = frame.events.map((e) => e.text).filter(Boolean);
  return lines.length ? lines : [k === 0 ? "The deal." : "…"];
}

const openCards = (cards) => h("span", { class: "cards" }, (cards || []).length
  ? cards.map((c) => h("span", { class: "mini" }, cardSvg(c))) : h("span", { class: "muted" }, "no cards"));

/** Every seat's hand at this step, as the open frames give them, and under them the cards no seat holds, as the
 *  engine names them: a stops game's widow as dealt, or, once a seat swapped, the hand it gave up, out of play from
 *  then on; a Rummy hand's stock, top card first; the cards Hoyle's Poch leaves undealt. */
function openHands(hv) {
  const name = (seat) => hv.players[seat] ?? `Seat ${seat + 1}`;
  const spare = hv.out_of_play;
  const label = (s) => (s.kind === "stock" ? "Stock, top card first" : s.kind === "undealt" ? "Not dealt, out of play"
    : s.given_up_by == null ? "Widow" : `Given up by ${name(s.given_up_by)}, out of play`);
  return h("section", { class: "open-hands", "aria-label": "All hands" },
    hv.open_hands.map((cards, seat) => h("div", { class: `open-hand seat-c${seat % 8}` },
      h("span", { class: "who" }, name(seat)), openCards(cards))),
    spare ? h("div", { class: "open-out", "data-out": spare.kind },
      h("span", { class: "who" }, label(spare)), openCards(spare.cards)) : null);
}

export async function replayPage(root, { tableId, handNo }) {
  await loadRulesets().catch(() => null);
  const mine = tableId ? seatToken(tableId) : null;
  const address = tableId ? `/api/tables/${encodeURIComponent(tableId)}/hands/${handNo}/replay` : null;
  let data;
  let uploaded = null;  // the uploaded record, which the coach may review too
  try {
    if (tableId) {
      data = await api(address, { token: mine?.token });
    } else {
      const text = sessionStorage.getItem("rummoli:upload");
      if (!text) throw new Error("Choose a hand record in the lobby first.");
      let record;
      try { record = JSON.parse(text); } catch { throw new Error("That file is not JSON."); }
      data = await api("/api/replay?seat=0", { method: "POST", body: record });
      uploaded = record;
    }
  } catch (error) {
    fill(root, h("section", { class: "panel" }, h("h1", {}, "No replay"), h("p", { class: "error", role: "alert" }, error.message),
      h("p", {}, h("a", { href: tableId ? `/tables/${tableId}` : "/" }, "Back"))));
    return () => {};
  }
  const plain = wholeFrames(data);
  let frames = plain;
  let opened = null;  // the open frames, once asked for
  let showAll = false;
  let at = 0;
  const stage = h("div", { class: "game replay-stage" });
  const where = h("span", { class: "where" });
  const errorLine = h("p", { class: "error", role: "alert" });
  // The step's words once more under the controls: read out as it changes, and seen on a phone, whose move
  // list is closed in its drawer.
  const said = h("p", { class: "step-words", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: 0, "aria-label": "Step", class: "scrub" });
  const btn = (label, text, fn, key) => h("button", { type: "button", "aria-label": label, "data-key": key, onclick: fn }, text);
  slider.addEventListener("input", () => show(Number(slider.value)));

  // The move list: one item a step, the current one marked; only it is in the tab order (the arrows move on).
  const items = frames.map((frame, k) => h("li", {},
    h("button", { type: "button", class: "move", tabindex: -1, "data-step": k, onclick: () => show(k) },
      h("span", { class: "move-no" }, String(k + 1)), h("span", { class: "move-text" }, stepWords(frame, k).join(" ")))));
  const moveList = h("ol", { class: "moves", "aria-label": "Moves" }, items);
  // The coach's review of the viewing seat's decisions: for a seat of the table, or an uploaded record.
  const ask = uploaded ? askRecord(uploaded) : (mine?.token ? askTable(tableId, handNo, mine.token) : null);
  // Opened, the review is brought into sight: asked for at the hand's last step, it sat far above the move list's
  // current step, and the button seemed to do nothing.
  const review = ask ? reviewControls(ask, () => { openDrawer(true); review?.panel.scrollIntoView({ block: "start" }); }) : null;
  const drawer = h("aside", { id: "moves", class: "drawer side-col moves-drawer", "aria-label": "Move list" },
    h("button", { type: "button", class: "drawer-close", onclick: () => { openDrawer(false); movesButton.focus(); } }, "Close"),
    review?.panel, h("h3", {}, "Moves"), moveList);
  const movesButton = h("button", { type: "button", class: "quiet drawer-toggle", "aria-controls": "moves", "data-key": "moves",
    onclick: () => openDrawer(drawer.hidden) }, "Moves");
  const openDrawer = (open) => {
    drawer.hidden = !open;
    movesButton.setAttribute("aria-expanded", String(open));
    if (open) items[at].scrollIntoView({ block: "nearest" });
  };
  const allButton = data.can_open ? h("button", { type: "button", class: "quiet open-toggle", "aria-pressed": "false",
    onclick: () => toggleAll() }, "Show all hands") : null;

  async function toggleAll() {
    if (!showAll && !opened) {
      try {
        opened = wholeFrames(await api(`${address}?open=1`, { token: mine?.token }));
      } catch (error) {
        errorLine.textContent = error.message;
        return;
      }
    }
    errorLine.textContent = "";
    showAll = !showAll;
    frames = showAll ? opened : plain;
    allButton.setAttribute("aria-pressed", String(showAll));
    show(at);
  }

  function show(k) {
    at = Math.max(0, Math.min(frames.length - 1, k));
    const frame = frames[at];
    const hv = frame.view;
    // Read only: nobody's turn is shown, no choice is offered; the showdown's words come from this hand's events.
    const seen = frames.slice(0, at + 1).flatMap((f) => f.events);
    const ctx = { readOnly: true, act: () => {}, amounts: {}, say: () => {}, target: rulesetInfo(hv.ruleset)?.target,
      select: () => {}, setOrder: () => {}, events: seen };
    const last = at === frames.length - 1 && data.result;
    if (last) {
      // The last step's tiles say the totals after the hand, beside its result (the hand's view keeps them as dealt).
      const change = (i) => (data.result.changes || []).find((c) => c.seat === i);
      ctx.seats = hv.players.map((_, i) => ({ chips: change(i)?.after }));
      ctx.change = (i) => change(i)?.change;
    }
    morph(stage,
      showAll && hv.open_hands ? openHands(hv) : null,
      // At the last step, the hand's result as the table showed it (its seats are the hand's own).
      last ? handResultBlock({ result: { ...data.result, hand_no: handNo }, seats: hv.players.map((name) => ({ name })), hand: hv },
        { hooks: false }) : null,
      data.game === "rummy" ? renderRummy(hv, ctx) : data.game === "poch" ? renderPoch(hv, ctx) : renderStops(hv, ctx));
    const focused = moveList.contains(document.activeElement);
    items.forEach((item, j) => {
      const move = item.firstChild;
      move.tabIndex = j === at ? 0 : -1;
      if (j === at) move.setAttribute("aria-current", "step"); else move.removeAttribute("aria-current");
    });
    if (focused) items[at].firstChild.focus({ preventScroll: true });
    if (!drawer.hidden) items[at].scrollIntoView({ block: "nearest" });
    said.textContent = stepWords(frame, at).join(" ");
    slider.value = String(at);
    where.textContent = `Step ${at + 1} of ${frames.length}`;
  }

  const onKey = (e) => {
    if (e.target.closest?.("input[type=number], textarea")) return;
    const inList = moveList.contains(e.target);
    if (e.key === "ArrowRight" || (inList && e.key === "ArrowDown")) { e.preventDefault(); show(at + 1); }
    else if (e.key === "ArrowLeft" || (inList && e.key === "ArrowUp")) { e.preventDefault(); show(at - 1); }
    else if (e.key === "Home") { e.preventDefault(); show(0); }
    else if (e.key === "End") { e.preventDefault(); show(frames.length - 1); }
    else if (e.key === "Escape" && !drawer.hidden && window.innerWidth < 900) { openDrawer(false); movesButton.focus(); }
  };
  document.addEventListener("keydown", onKey);
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": "Replay controls" },
    btn("First step", "«", () => show(0), "first"),
    btn("Step back", "◀", () => show(at - 1), "back"),
    btn("Step forward", "▶", () => show(at + 1), "forward"),
    btn("Last step", "»", () => show(frames.length - 1), "last"),
    slider, where);
  const replayTitle = tableId ? `Replay of hand ${handNo}` : "Replay of a hand record";
  pageTitle(replayTitle);
  fill(root, h("div", { class: "table-page replay-page" },
    h("div", { class: "table-head" },
      h("h1", { class: "table-title" }, replayTitle),
      h("div", { class: "table-tools" }, tableId ? h("a", { href: `/tables/${tableId}` }, "Back to the table") : h("a", { href: "/" }, "Lobby")),
      h("div", { class: "room-switches" }, review?.button, allButton, movesButton)),
    controls, said, errorLine,
    h("div", { class: "table-body" }, stage, drawer)));
  // Beside the board where it fits; on a phone a drawer over it, opened with "Moves".
  const stopFollowing = drawerFollowsWidth(() => window.innerWidth >= 900, openDrawer);
  show(0);
  if (review && window.location.hash === "#review") review.button.click();  // "Review" in the table's Replays
  return () => { document.removeEventListener("keydown", onKey); stopFollowing(); };
}
