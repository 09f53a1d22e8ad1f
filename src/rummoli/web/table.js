// A table page (/tables/{id}, the invite link): take a seat or watch, then play live over the websocket.
// Every update is drawn the moment it arrives: the server sets the table's pace (a forced play or a bot's move is
// an update of its own), so the page never holds anything back. The game's words and results are the server's.
import { announce, drawerFollowsWidth, fill, go, h, morph, pageTitle, saveSeatToken, seatToken, textBox, unsay } from "./dom.js";
import { api, TableSocket } from "./net.js";
import { isForced, renderStops } from "./stops.js";
import { renderRummy } from "./rummy.js";
import { renderPoch } from "./poch.js";
import { rulesetInfo } from "./lobby.js";
import { endingWords, finalPanel, handResultBlock, standingsTable } from "./result.js";
import { chipChart, Evening } from "./chart.js";
import { inviteBox, ownSeatBox, takeSeatFromAddress } from "./invite.js";
import { animateEvents, snapshot } from "./motion.js";
import { muteSwitch, play } from "./sound.js";
import { mountRoom } from "./room.js";
import { gameFacts } from "./facts.js";
import { botNote, seatRing } from "./ring.js";

export async function tablePage(root, tableId) {
  takeSeatFromAddress(tableId, saveSeatToken);
  let summary;
  try {
    summary = await api(`/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    fill(root, h("section", { class: "panel" }, h("h1", {}, "No such table"),
      h("p", {}, error.status === 404 ? "This invite link points to no table on this server." : error.message),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
    return () => {};
  }
  const mine = seatToken(tableId);
  if (!mine && summary.open_seats > 0 && !sessionStorage.getItem(`rummoli:watch:${tableId}`)) {
    return joinForm(root, summary);
  }
  return livePage(root, summary, mine);
}

/** The ruleset's title in words ("Gin Rummy"): the table summary's, else the catalogue's. */
function tableTitle(summary) {
  return summary.title || rulesetInfo(summary.ruleset)?.title || summary.ruleset;
}

function joinForm(root, summary) {
  const name = textBox(24, { id: "join-name", name: "name", required: true, autocomplete: "nickname",
    value: localStorage.getItem("rummoli:name") || "" });
  const error = h("p", { class: "error", role: "alert" });
  let cleanup = () => {};
  pageTitle(`Join a table of ${tableTitle(summary)}`);
  // The table with its seats round it, and beside it (below, on a phone) the game and where to write your name.
  const form = h("form", { class: "panel join", "aria-labelledby": "join-title" },
    h("h1", { id: "join-title" }, `Join a table of ${tableTitle(summary)}`),
    seatRing(summary.seats, { title: tableTitle(summary) }),
    h("div", { class: "join-side" },
      gameFacts(summary, rulesetInfo(summary.ruleset)),
      h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), name),
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary" }, "Take a seat"),
        h("button", { type: "button", onclick: () => { fill(root); cleanup = livePage(root, summary, null); } }, "Just watch")),
      error));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const joined = await api(`/api/tables/${summary.id}/seats`, { method: "POST", body: { name: name.value } });
      localStorage.setItem("rummoli:name", name.value);
      saveSeatToken(summary.id, { token: joined.token, seat: joined.seat, name: name.value });
      fill(root);
      cleanup = livePage(root, summary, seatToken(summary.id));
    } catch (err) {
      error.textContent = err.message;
    }
  });
  fill(root, form);
  name.focus();
  return () => cleanup();
}

function livePage(root, summary, mine) {
  const tableId = summary.id;
  const state = {
    view: null, seq: 0, infos: summary.seats, status: summary.status, amounts: {}, selected: null, pending: false, wasMyTurn: false,
    changed: new Set(), error: "", clock: null, nextHand: null, readyFor: null, closing: null,
    evening: new Evening(), handEvents: [], lines: 0, defaultKey: null,
  };
  const title = h("h1", { class: "table-title" }, tableTitle(summary));
  pageTitle(tableTitle(summary));
  const handNo = h("span", { class: "hand-no" });
  const errorLine = h("p", { class: "error", role: "alert" });
  const game = h("div", { class: "game" }, h("p", { class: "muted" }, "Connecting to the table…"));
  const log = h("ol", { class: "log", "aria-label": "Game log" });
  const side = h("div", { class: "side" });
  const tools = h("div", { class: "table-tools" });
  // The chat, the score sheet and "Play again" (room.js): fed every message, drawn with every view.
  const room = mountRoom({ tableId, mine, socket: { send: (m) => socket.send(m) }, say: (t) => { state.error = t; render(); } });
  // The log, standings, chart and the card room live in a drawer beside the table: open at first where it fits.
  const drawer = h("aside", { id: "drawer", class: "drawer side-col", "aria-label": "Log and standings" },
    h("button", { type: "button", class: "drawer-close", onclick: () => { openDrawer(false); drawerButton.focus(); } }, "Close"), side,
    room.el, h("section", { class: "log-box", "aria-label": "Game log" }, h("h3", {}, "Game log"), log));
  const drawerButton = h("button", { type: "button", class: "quiet drawer-toggle", "data-key": "drawer", "aria-controls": "drawer",
    onclick: () => openDrawer(drawer.hidden) }, h("span", { class: "wide-only" }, "Log & standings"), h("span", { class: "narrow-only" }, "Menu"));
  const openDrawer = (open) => {
    drawer.hidden = !open;
    drawerButton.setAttribute("aria-expanded", String(open));
  };
  // It fits beside the table on a wide screen, unless six or more seats need the room across the top.
  const stopFollowing = drawerFollowsWidth(
    () => window.innerWidth >= 1100 && (summary.seats.length <= 5 || window.innerWidth >= 1500), openDrawer);
  const switches = h("div", { class: "room-switches" }, muteSwitch(), drawerButton);
  const head = h("div", { class: "table-head" }, title, handNo, tools, switches);
  // On a phone the table's links and menus (rules, invite, leave...) move into the drawer.
  const narrow = window.matchMedia("(max-width: 700px)");
  const placeTools = () => { if (narrow.matches) drawer.insertBefore(tools, side); else head.insertBefore(tools, switches); };
  narrow.addEventListener("change", placeTools);
  placeTools();
  fill(root, h("div", { class: "table-page" }, head, errorLine, h("div", { class: "table-body" }, game, drawer)));
  const banner = document.getElementById("conn");

  const socket = new TableSocket(tableId, mine?.token, {
    onStatus: (st, text) => {
      banner.dataset.state = st;
      banner.textContent = { connecting: "Connecting…", open: text === "reconnected" ? "Reconnected" : "Connected",
        lost: "Connection lost — reconnecting…", closed: `Disconnected: ${text}` }[st] || "";
      if (st === "lost") announce("Connection lost. Reconnecting.");
      if (st === "open" && text === "reconnected") announce("Reconnected to the table.");
      if (st === "open") setTimeout(() => { if (banner.dataset.state === "open") banner.textContent = ""; }, 2500);
    },
    onMessage: (msg) => receive(msg),
  });

  function receive(msg) {
    room.receive(msg);
    if (msg.type === "welcome" || msg.type === "update") {
      const quiet = msg.type === "welcome" && state.view === null;  // a whole history: logged, not announced
      if (msg.seats) state.infos = msg.seats;
      if (msg.status) state.status = msg.status;
      if (msg.type === "welcome") rememberSeat(msg);
      const before = state.view;
      state.view = msg.view;
      state.seq = msg.seq;
      state.clock = msg.clock ? { ...msg.clock, at: performance.now() } : null;
      state.nextHand = msg.next_hand ? { ...msg.next_hand, at: performance.now() } : null;
      state.pending = false;
      state.error = "";
      for (const e of msg.events) take(e, quiet);
      notePots(before);
      drawSoon(quiet, msg.events);
    } else if (msg.type === "next_hand") {
      state.nextHand = { ...msg, at: performance.now() };
      render();
    } else if (msg.type === "seats") {
      state.infos = msg.seats;
      if (msg.status) state.status = msg.status;
      render();
    } else if (msg.type === "error") {
      state.pending = false;
      if (msg.code !== "stale") {
        state.error = msg.message + (msg.rule ? ` (${msg.rule})` : "");
        announce(state.error);
      }
      render();
    }
  }

  // Updates that come together (bots answering one another at once) are drawn once, after the last of them: each
  // is taken into the state as it comes, and the page is drawn by a message this page posts to itself, which runs
  // after the socket's messages already waiting (a timer would do the same, but a background tab slows timers to a
  // second or a minute, and "Your turn" in the tab's title must not wait). Drawing the whole table for each of a
  // burst's updates cost the browser a quarter more CPU in a Rummy hand against three bots (3.9 s against 3.1).
  const drawing = new MessageChannel();
  let burst = null;
  drawing.port1.onmessage = () => {
    const { places, events } = burst;
    burst = null;
    render();  // the true state first; the motion and the sounds only decorate it
    // A pot's glow says it changed in this update; its element is kept from the last drawing (morph), so a pot that
    // changed in that one too would not glow again unless its animation starts over.
    for (const pot of root.querySelectorAll(".pot-changed")) for (const glow of pot.getAnimations()) { glow.cancel(); glow.play(); }
    if (places) {
      animateEvents(root, places, events, { pace: summary.pace, me: state.view?.hand?.seat });
      sounds(events);
    }
    log.scrollTop = log.scrollHeight;
    // A burst can hold this seat's last move, the others' answers and its turn again: a turn that came back through
    // another seat's move (or a new hand) is a new turn, and sounds and is announced as one.
    const me = state.view?.hand?.seat;
    if ((events || []).some((e) => e.type === "hand_start" || (e.type === "action" && e.seat !== me))) state.wasMyTurn = false;
    turnNotice();
  };
  function drawSoon(quiet, events) {
    if (!burst) {
      // Where things are on screen before the burst: where its motion starts from.
      burst = { places: quiet ? null : snapshot(root), events: [] };
      drawing.port2.postMessage(null);
    }
    if (quiet) burst.places = null;  // a whole history is not animated
    burst.events.push(...events);
  }

  // A seat opened through a link (#seat=TOKEN) learns its number and name from the welcome.
  function rememberSeat(msg) {
    if (!mine || msg.seat === null || msg.seat === undefined || mine.seat === msg.seat) return;
    mine.seat = msg.seat;
    mine.name = msg.seats?.[msg.seat]?.name ?? mine.name;
    saveSeatToken(tableId, mine);
  }

  function notePots(before) {
    const now = state.view?.hand?.pots;
    const old = before?.hand?.pots;
    state.changed = new Set();
    if (now && old && before.hand_no === state.view.hand_no) for (const [k, v] of Object.entries(now)) if (old[k] !== v) state.changed.add(k);
  }

  function take(e, quiet) {
    state.evening.take(e);
    if (e.type === "hand_start") state.handEvents = [];
    else if (e.hand_no !== undefined && e.type !== "hand_over") state.handEvents.push(e);
    if (e.type === "evening_over") state.closing = e.text || null;
    if (!e.text) return;
    const warn = e.type === "timeout";
    log.append(h("li", { class: `ev ev-${e.type}${warn ? " warn" : ""}` }, e.text));
    if (++state.lines > 300) log.firstElementChild.remove();
    if (!quiet && (warn || ["hand_over", "evening_over", "seat", "ending"].includes(e.type))) announce(e.text);
  }

  function sounds(events) {
    if (events.some((e) => e.type === "hand_start")) play("deal");
    if (events.some((e) => e.type === "hand_over" && e.result?.outcome === "gin")) play("gin");
    else if (events.some((e) => e.type === "chips" && String(e.from).startsWith("pot:") && String(e.to).startsWith("seat:"))) play("pot");
  }

  function turnNotice() {
    const hv = state.view?.hand;
    const forced = isForced(hv || {});  // made by the table itself: not a turn
    const mineNow = !!(hv && !state.view.hand_over && hv.legal_actions?.length && !forced && hv.to_act?.includes(hv.seat));
    const told = mineNow ? `Your turn. ${hv.prompt || ""}` : null;
    if (mineNow && !state.wasMyTurn) {
      // The focus resting on your hand (where it falls after each action) or nowhere moves to what happens now: one
      // Tab from your choices (they were twenty Tabs away, behind the cards), and Enter there makes no choice.
      const at = document.activeElement;
      if (!at || at === document.body || at.dataset?.key === "my-hand") focusKey("phase");
      announce((state.said = told));
      play("turn");
      pageTitle("● Your turn", tableTitle(summary));  // seen from another tab
    } else if (mineNow && told !== state.said) {
      // Still your turn, but a step on (the upcard taken, now a discard): the region says the new step, not the old.
      announce((state.said = told));
    } else if (!mineNow) {
      pageTitle(tableTitle(summary));
      if (state.said) unsay(state.said);  // a turn that has passed is not left to be read as if it were still yours
      state.said = null;
    }
    state.wasMyTurn = mineNow;
  }

  function act(partial) {
    if (state.pending || !state.view) return;
    const action = { ...partial };
    for (const key of ["min", "max", "seat"]) delete action[key];
    state.pending = true;
    state.selected = null;
    if (!socket.act(action, state.seq)) {
      state.pending = false;
      state.error = "Not connected: wait for the connection to come back.";
    }
    render();
  }

  function nextHand() {
    const v = state.view;
    if (!v?.hand_over || v.over) return;
    if (socket.next(state.seq)) state.readyFor = v.hand_no;
    else state.error = "Not connected: wait for the connection to come back.";
    render();
  }

  // Your own order of your Rummy cards, kept per table (and hand) in this browser.
  const orderKey = `rummoli:order:${tableId}`;
  function handOrder() {
    try {
      const kept = JSON.parse(localStorage.getItem(orderKey) || "null");
      return kept && kept.hand_no === state.view?.hand_no ? kept.cards : null;
    } catch { return null; }
  }
  function setOrder(cards, focusCard) {
    if (cards) localStorage.setItem(orderKey, JSON.stringify({ hand_no: state.view.hand_no, cards }));
    else localStorage.removeItem(orderKey);
    render();
    if (focusCard) focusKey(`card:${focusCard}`);
  }

  function render() {
    const v = state.view;
    const focused = document.activeElement?.dataset?.key;
    errorLine.textContent = state.error;
    renderTools(v);
    // Once the creator has ended the evening, "of 3" would promise hands that will not be dealt.
    const length = v?.ending ? " · last hand" : v?.hands ? ` of ${v.hands}` : "";
    handNo.textContent = v?.hand ? `Hand ${v.hand_no}${length}${v.you === null || v.you === undefined ? " · watching" : ""}` : "";
    if (!v || v.waiting || !v.hand) {
      morph(game, waitingRoom(v));
    } else {
      const hv = v.hand;
      const between = v.hand_over && !v.over;
      const ctx = {
        act, amounts: state.amounts, say: (t) => { state.error = t; errorLine.textContent = t; announce(t); },
        changed: state.changed, board: v.board, infos: state.infos, seats: v.seats, seatOf: (i) => v.hand_seats?.[i] ?? i,
        change: (seat) => (between && v.result ? v.result.changes.find((c) => c.seat === seat)?.change : undefined),
        selected: state.selected, target: rulesetInfo(v.ruleset)?.target, events: state.handEvents,
        order: handOrder(), setOrder,
        select: (c, redraw = true) => { state.selected = c; if (redraw) { render(); focusKey(c ? `card:${c}` : null); } },
      };
      const body = v.game === "rummy" ? renderRummy(hv, ctx) : v.game === "poch" ? renderPoch(hv, ctx) : renderStops(hv, ctx);
      if (state.pending) body.classList.add("pending");
      // Between hands and at the evening's end the result sits on the table, where the cards were laid.
      const result = v.result ? handResultBlock(v) : null;
      body.querySelector(".tableau").prepend(
        ...[state.status === "paused" && !v.over ? pausedBar() : null,
          v.ending && !v.over ? h("p", { class: "panel ending-note", role: "status" }, endingWords(v)) : null,
          v.over ? finalPanel(v, { closing: state.closing, download: mine ? downloadRecord : null }) : null,
          between ? nextHandBar(v) : null,
          result].filter(Boolean));
      // A Rummy whose melds lie on the table (500 Rum above all, where what each seat laid is what it scores): the
      // melds go into the result, under its headline and above what each seat had left. After the result they were
      // a long scroll below it (800 px on a laptop), out of sight of the figures they explain.
      const melds = result && body.querySelector(".tableau > .melds");
      if (melds) result.querySelector(".outcome-line").after(melds);
      body.classList.toggle("has-result", !!v.result);
      morph(game, body);
    }
    renderSide(v);
    room.render(v);
    tickClock();
    // A default that was not there before (a gin, "Next hand") takes the focus, so Enter presses it; otherwise the
    // focus stays where the player had it.
    const fresh = root.querySelector("[data-default]")?.dataset.key;
    if (fresh && fresh !== state.defaultKey) focusKey(fresh);
    else focusKey(focused);
    state.defaultKey = fresh;
  }

  // Between hands: "Next hand", the countdown to the next deal and who is still awaited.
  function nextHandBar(v) {
    const told = state.nextHand;
    const me = v.you;
    const ready = me !== null && me !== undefined && (state.readyFor === v.hand_no || told?.ready?.includes(me));
    const awaited = (told?.waiting || []).filter((s) => s !== me).map((s) => v.seats[s]?.name ?? `Seat ${s + 1}`);
    return h("section", { class: "next-hand", "aria-label": "Between hands" },
      me !== null && me !== undefined && !ready
        ? h("button", { class: "primary", "data-key": "next-hand", "data-default": "", onclick: nextHand }, "Next hand")
        : null,
      awaited.length ? h("span", { class: "awaited" }, `Waiting for ${listNames(awaited)}…`) : ready ? h("span", { class: "awaited" }, "Dealing…") : null,
      h("span", { class: "next-countdown", "aria-live": "off" }, countdownText()));
  }

  function countdownText() {
    const told = state.nextHand;
    if (!told) return "";
    const left = Math.max(0, Math.ceil(told.seconds - (performance.now() - told.at) / 1000));
    return `The next hand is dealt in ${left} s.`;
  }

  // The turn timer: the seconds left for the seat to act, counted down here from what the server said.
  function tickClock() {
    root.querySelectorAll(".clock").forEach((el) => el.remove());
    const countdown = root.querySelector(".next-countdown");
    if (countdown) countdown.textContent = countdownText();
    const c = state.clock;
    const v = state.view;
    if (!c || !v?.hand) return;
    const handSeat = (v.hand_seats || []).indexOf(c.seat);
    const seatEl = root.querySelector(`.seat[data-seat="${handSeat}"] .seat-status`);
    const left = Math.max(0, Math.ceil(c.seconds - (performance.now() - c.at) / 1000));
    if (seatEl) seatEl.append(h("span", { class: `tag clock${left <= 10 ? " hot" : ""}`, "aria-label": `${left} seconds left` }, `${left}s left`));
    if (handSeat === v.hand.seat && (left === 10 || left === 5)) announce(`${left} seconds left.`);
  }
  const clockTimer = setInterval(tickClock, 1000);

  // The focus never falls to the page's body: when the control it was on is gone (played, or the turn moved on),
  // it goes to the default, else your choices, else your playable cards, else your hand, else the table.
  function focusKey(key) {
    const el = key ? root.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
    if (el) el.focus({ preventScroll: true });
    else if (!document.activeElement || document.activeElement === document.body) {
      // Never a knock that is not the default: Enter would end the hand (a gin is the default, and reached first).
      (root.querySelector("[data-default], .phase .controls button:not(.knock), .card-btn.playable, .next-hand button, .my-hand") || root)
        .focus({ preventScroll: true });
    }
  }

  function waitingRoom(v) {
    return h("section", { class: "panel waiting" },
      h("h2", {}, v?.over ? "This table's evening is over" : "Waiting for players"),
      seatRing(state.infos, { title: tableTitle(summary), mine: mine?.seat,
        note: (st) => [botNote(st), st.person && !st.open ? h("small", {}, st.connected ? " · here" : " · away") : null] }),
      h("div", { class: "waiting-side" },
        h("p", {}, "Send this invite link to your friends; the evening starts when every seat is taken."),
        inviteBox(summary),
        mine?.creator ? h("button", { class: "primary", "data-key": "start-now", onclick: async () => {
          try { await api(`/api/tables/${tableId}/start`, { method: "POST", token: mine.token }); } catch (e) { state.error = e.message; render(); }
        } }, "Start now (computer players take the open seats)") : null));
  }

  function renderTools(v) {
    const finished = !v || v.waiting ? 0 : v.hand_over ? v.hand_no : v.hand_no - 1;
    const open = tools.querySelector("details[open]")?.dataset.menu;
    morph(tools,
      v?.ruleset && typeof v.ruleset === "string" ? h("a", { href: `/rules/${v.ruleset}`, target: "_blank", rel: "noopener" }, "Rules") : null,
      rulesetInfo(v?.ruleset) ? h("details", { class: "invite-menu options-menu", "data-menu": "options", open: open === "options" }, h("summary", {}, "Options"),
        h("div", {}, h("ul", {}, rulesetInfo(v.ruleset).options.map((o) => h("li", {}, o))))) : null,
      finished > 0 ? h("a", { href: `/tables/${tableId}/hands/${finished}` }, "Replay last hand") : null,
      v && !v.waiting ? h("details", { class: "invite-menu", "data-menu": "invite", open: open === "invite" }, h("summary", {}, "Invite"),
        h("div", {}, inviteBox(summary), ownSeatBox(tableId, mine))) : null,
      // At a finished evening there is no seat to give up (the server refuses, and the seat keeps its record and
      // replays): the way out is back to the lobby, which leaves the seat as it is.
      mine && (v?.over || state.status === "over") ? h("a", { href: "/", "data-key": "to-lobby" }, "Back to the lobby")
        : mine ? h("button", { class: "quiet", "data-key": "leave", onclick: leave }, "Leave") : null,
      // Before the first deal there is no evening to end: the table is closed at once.
      mine?.creator && v && !v.over && !v.ending ? h("button", { class: "quiet", "data-key": "end", onclick: endEvening }, v.waiting ? "Close the table" : "End evening") : null);
  }

  async function leave() {
    if (!confirm(state.view?.waiting ? "Leave this table? Your seat opens again for someone else."
      : "Leave this table? A computer player takes your seat for the rest of the evening.")) return;
    try {
      await api(`/api/tables/${tableId}/leave`, { method: "POST", token: mine.token });
    } catch (e) {
      // The seat is still yours unless the server no longer knows it (401, 403) or the table (404): say why and stay.
      if (![401, 403, 404].includes(e.status)) { state.error = e.message; render(); return; }
    }
    saveSeatToken(tableId, null);
    socket.close();
    go("/");
  }

  // The server pauses a table whose computer players fail three decisions in a row (they are not asked again,
  // even after a restart, until its creator resumes it).
  function pausedBar() {
    return h("section", { class: "panel paused-note", role: "status" },
      h("p", {}, "This table is paused: its computer players stopped answering in time."),
      mine?.creator ? h("button", { class: "primary", "data-key": "resume", onclick: resume }, "Resume")
        : h("p", { class: "muted" }, "The table's creator can resume it."));
  }

  async function resume() {
    try { await api(`/api/tables/${tableId}/resume`, { method: "POST", token: mine.token }); } catch (e) { state.error = e.message; render(); }
  }

  async function endEvening() {
    const waiting = state.view?.waiting;
    if (!confirm(waiting ? "Close this table? Nobody has played yet: it closes now, and its invite link stops working."
      : "End the evening after this hand?")) return;
    try { await api(`/api/tables/${tableId}/end`, { method: "POST", token: mine.token }); } catch (e) { state.error = e.message; render(); }
  }

  async function downloadRecord() {
    try {
      const record = await api(`/api/tables/${tableId}/record`, { token: mine.token });
      const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
      const a = h("a", { href: url, download: `rummoli-${tableId}.json` });
      document.body.append(a); a.click(); a.remove();
    } catch (e) { state.error = e.message; render(); }
  }

  function renderSide(v) {
    if (!v || v.waiting) { morph(side); return; }
    const finished = v.hand_over ? v.hand_no : v.hand_no - 1;
    morph(side,
      // At the evening's end the final panel holds the standings.
      v.over ? null : h("section", { class: "standings", "aria-label": "Standings" }, h("h3", {}, "Standings"), standingsTable(v.standings, v.game)),
      chipChart(state.evening, v.seats, v.game),
      finished > 0 ? h("details", { class: "history" }, h("summary", {}, "Replays"),
        h("ul", {}, Array.from({ length: finished }, (_, k) => h("li", {},
          h("a", { href: `/tables/${tableId}/hands/${k + 1}` }, `Hand ${k + 1}`),
          // The coach's review of your own decisions in it (review.js, opened on the replay's page).
          mine ? [" · ", h("a", { href: `/tables/${tableId}/hands/${k + 1}#review`, class: "review-link" }, "Review")] : null)))) : null);
  }

  // Keyboard: S and D draw in Rummy; arrows move along your hand (Shift + arrows move a Rummy card: rummy.js).
  const onKey = (e) => {
    if (e.target.closest?.("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === "s" || k === "d") {
      const btn = root.querySelector(`[data-key="draw:${k === "s" ? "stock" : "discard"}"]`);
      if (btn) { e.preventDefault(); btn.click(); }
    } else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && !e.shiftKey) {
      const cards = [...root.querySelectorAll(".my-hand button.card-btn")];
      const at = cards.indexOf(document.activeElement);
      if (at >= 0) {
        e.preventDefault();
        cards[(at + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length].focus();
      }
    } else if (e.key === "Escape" && narrow.matches && !drawer.hidden) {
      openDrawer(false); drawerButton.focus();
    } else if (e.key === "Escape" && state.selected) {
      state.selected = null; render();
    }
  };
  document.addEventListener("keydown", onKey);
  const onSettings = () => render();
  window.addEventListener("rummoli:settings", onSettings);

  return () => {
    socket.close();
    clearInterval(clockTimer);
    document.removeEventListener("keydown", onKey);
    narrow.removeEventListener("change", placeTools);
    stopFollowing();
    window.removeEventListener("rummoli:settings", onSettings);
    banner.textContent = "";
  };
}

function listNames(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
