// A table page (/tables/{id}, the invite link): take a seat or watch, then play live over the websocket.
import { announce, fill, go, h, s, saveSeatToken, seatToken, settings, stepDelay } from "./dom.js";
import { api, TableSocket } from "./net.js";
import { describe } from "./narrate.js";
import { handSummary, renderStops, summaryBlock } from "./stops.js";
import { renderRummy } from "./rummy.js";
import { rulesetInfo } from "./lobby.js";

const COLOURS = ["#e4572e", "#2e86ab", "#f3a712", "#76b041", "#a23b72", "#7d5ba6", "#17bebb", "#c6a15b"];

export async function tablePage(root, tableId) {
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

function joinForm(root, summary) {
  const name = h("input", { id: "join-name", name: "name", required: true, maxlength: 24, autocomplete: "nickname",
    value: localStorage.getItem("rummoli:name") || "" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { class: "panel join", "aria-labelledby": "join-title" },
    h("h1", { id: "join-title" }, `Join a table of ${summary.ruleset}`),
    h("ul", { class: "seat-list" }, summary.seats.map((st) => h("li", {},
      st.open ? h("em", {}, "open seat") : st.name, st.bot && !st.person ? h("small", {}, ` (computer, ${st.bot})`) : null))),
    h("label", { for: "join-name" }, "Your name"), name,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "primary" }, "Take a seat"),
      h("button", { type: "button", onclick: () => { fill(root); livePage(root, summary, null); } }, "Just watch")),
    error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const joined = await api(`/api/tables/${summary.id}/seats`, { method: "POST", body: { name: name.value } });
      localStorage.setItem("rummoli:name", name.value);
      saveSeatToken(summary.id, { token: joined.token, seat: joined.seat, name: name.value });
      fill(root);
      livePage(root, summary, seatToken(summary.id));
    } catch (err) {
      error.textContent = err.message;
    }
  });
  fill(root, form);
  name.focus();
  return () => {};
}

function livePage(root, summary, mine) {
  const tableId = summary.id;
  const state = {
    view: null, seq: 0, infos: summary.seats, events: [], revealed: 0, queue: [], timer: null,
    amounts: {}, selected: null, pending: false, chart: [], startChips: null, lastSummary: null, wasMyTurn: false,
    changed: new Set(), prevPots: null, error: "", over: false,
  };
  const title = h("h1", { class: "table-title" }, summary.ruleset);
  const status = h("p", { class: "status-line", role: "status" });
  const errorLine = h("p", { class: "error", role: "alert" });
  const game = h("div", { class: "game" }, h("p", { class: "muted" }, "Connecting to the table…"));
  const log = h("ol", { class: "log", "aria-label": "Game log" });
  const side = h("aside", { class: "side" });
  const tools = h("div", { class: "table-tools" });
  const page = h("div", { class: "table-page" },
    h("div", { class: "table-head" }, title, tools, status),
    errorLine,
    h("div", { class: "table-body" }, game, h("div", { class: "side-col" }, side,
      h("details", { class: "log-box", open: window.innerWidth > 700 }, h("summary", {}, "Game log"), log))));
  fill(root, page);
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

  function names() {
    return state.view?.hand?.players || state.infos.map((i) => i.name);
  }

  function receive(msg) {
    if (msg.type === "welcome" || msg.type === "update") {
      const first = msg.type === "welcome";
      if (msg.seats) state.infos = msg.seats;
      const before = state.view;
      state.view = msg.view;
      state.seq = msg.seq;
      state.clock = msg.clock ? { ...msg.clock, at: performance.now() } : null;
      state.pending = false;
      state.error = "";
      if (first && state.events.length === 0) {
        // A full history: shown at once, not replayed at the table's pace.
        for (const e of msg.events) take(e, true);
        state.revealed = msg.view?.hand?.played?.length ?? 0;
      } else {
        state.queue.push(...msg.events);
      }
      notePots(before);
      pump();
      turnNotice();
    } else if (msg.type === "seats") {
      state.infos = msg.seats;
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

  function notePots(before) {
    const now = state.view?.hand?.pots;
    const old = before?.hand?.pots;
    state.changed = new Set();
    if (now && old) for (const [k, v] of Object.entries(now)) if (old[k] !== v) state.changed.add(k);
    const chips = state.view?.hand?.chips;
    const before2 = before?.hand?.chips;
    state.moved = new Map();
    if (chips && before2 && before?.hand_no === state.view.hand_no) chips.forEach((c, i) => { if (c !== before2[i]) state.moved.set(i, c - before2[i]); });
  }

  function isCard(e) { return e.type === "action" && (e.action === "lead" || e.action === "play"); }

  function take(e, quiet) {
    state.events.push(e);
    if (e.type === "hand_start") state.revealed = 0;
    if (isCard(e)) state.revealed += 1;
    if (e.type === "hand_over") {
      state.chart.push(e.chips);
      if (!quiet) announce(`Hand ${e.hand_no} is over. ${e.standings?.[0]?.name ?? ""} leads with ${e.standings?.[0]?.chips ?? ""}.`);
    }
    if (e.type === "evening_over" && !quiet) announce("The evening is over.");
    const line = describe(e, handNames(e), potNames());
    if (line) {
      log.append(h("li", { class: `ev ev-${e.type}` }, line));
      while (log.childElementCount > 300) log.firstElementChild.remove();
    }
  }

  function handNames(e) {
    // Table events (hand_start...) name evening seats; the hand's own events name hand seats.
    if (e.type === "hand_start" || e.type === "seat") return state.infos.map((i) => i.name);
    return names();
  }

  function potNames() {
    return Object.fromEntries((state.view?.hand?.board || []).map((p) => [p.id, p.name]));
  }

  function pump() {
    if (state.timer) return;
    const delay = stepDelay();
    while (state.queue.length) {
      const e = state.queue.shift();
      take(e, false);
      if (isCard(e) && delay && state.queue.some(isCard)) {
        render();
        log.scrollTop = log.scrollHeight;
        state.timer = setTimeout(() => { state.timer = null; pump(); }, delay);
        return;
      }
    }
    state.revealed = Math.max(state.revealed, state.view?.hand?.played?.length ?? 0);
    render();
    log.scrollTop = log.scrollHeight;
  }

  function myHandSeat() {
    const hv = state.view?.hand;
    return hv && hv.seat !== undefined ? hv.seat : null;
  }

  function turnNotice() {
    const hv = state.view?.hand;
    const mineNow = !!(hv && hv.legal_actions?.length && hv.to_act?.includes(hv.seat));
    if (mineNow && !state.wasMyTurn) {
      const kinds = [...new Set(hv.legal_actions.map((a) => a.action))].join(", ");
      announce(`Your turn: ${kinds}.`);
      document.title = "● Your turn — Rummoli";
    } else if (!mineNow) {
      document.title = "Rummoli";
    }
    state.wasMyTurn = mineNow;
  }

  function act(partial) {
    if (state.pending || !state.view) return;
    const action = { ...partial };
    delete action.min;
    delete action.max;
    delete action.seat;
    state.pending = true;
    state.selected = null;
    if (!socket.act(action, state.seq)) {
      state.pending = false;
      state.error = "Not connected: wait for the connection to come back.";
    }
    render();
  }

  function render() {
    const v = state.view;
    const focused = document.activeElement?.dataset?.key;
    errorLine.textContent = state.error;
    title.textContent = (v?.title && v.title !== v.ruleset ? v.title : rulesetInfo(v?.ruleset || summary.ruleset)?.title) || summary.ruleset;
    renderTools(v);
    if (!v || v.waiting) {
      fill(game, waitingRoom(v));
    } else {
      const hv = v.hand;
      const info = rulesetInfo(v.ruleset);
      const ctx = {
        act, amounts: state.amounts, say: (t) => { state.error = t; errorLine.textContent = t; announce(t); },
        revealed: Math.min(state.revealed, hv.played?.length ?? 0), changed: state.changed, moved: state.moved, infos: state.infos,
        seatOf: (i) => v.hand_seats?.[i] ?? i, selected: state.selected, target: info?.target,
        select: (c, redraw = true) => { state.selected = c; if (redraw) { render(); focusKey(c ? `card:${c}` : null); } },
      };
      const body = v.game === "rummy" ? renderRummy(hv, ctx) : renderStops(hv, ctx);
      if (state.pending) body.classList.add("pending");
      const head = h("p", { class: "hand-no" }, `Hand ${v.hand_no}${v.hands ? ` of ${v.hands}` : ""}`,
        v.you === null || v.you === undefined ? " · watching" : "");
      fill(game, head, v.over ? finalBlock(v) : null, body);
      if (hv.phase === "over") {
        state.lastSummary = { hand_no: v.hand_no, block: v.game === "rummy" ? null : summaryBlock(handSummary(hv, hv.players)) };
      }
    }
    renderSide(v);
    tickClock();
    if (focused) focusKey(focused);
  }

  // The turn timer: the seconds left for the seat to act, counted down here from what the server said.
  function tickClock() {
    root.querySelectorAll(".clock").forEach((el) => el.remove());
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

  function focusKey(key) {
    if (!key) return;
    const el = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (el) el.focus({ preventScroll: true });
    else if (root.contains(document.activeElement) === false || document.activeElement === document.body) {
      root.querySelector(".controls button, .card-btn.playable")?.focus({ preventScroll: true });
    }
  }

  function waitingRoom(v) {
    const creator = !!mine?.creator;
    return h("section", { class: "panel waiting" },
      h("h2", {}, v?.over ? "This table's evening is over" : "Waiting for players"),
      h("p", {}, "Send this invite link to your friends; the evening starts when every seat is taken."),
      inviteBox(),
      h("ul", { class: "seat-list" }, state.infos.map((st) => h("li", {},
        st.open ? h("em", {}, "open seat") : st.name,
        st.bot && !st.person ? h("small", {}, ` (computer, ${st.bot})`) : null,
        st.person && !st.open ? h("small", {}, st.connected ? " · here" : " · away") : null))),
      mine && creator ? h("button", { class: "primary", "data-key": "start-now", onclick: async () => {
        try { await api(`/api/tables/${tableId}/start`, { method: "POST", token: mine.token }); } catch (e) { state.error = e.message; render(); }
      } }, "Start now (computer players take the open seats)") : null);
  }

  function inviteBox() {
    const input = h("input", { readonly: true, value: summary.invite, "aria-label": "Invite link", class: "invite", id: "invite-link" });
    return h("div", { class: "row invite-row" }, input,
      h("button", { "data-key": "copy-invite", onclick: async () => {
        try { await navigator.clipboard.writeText(summary.invite); announce("Invite link copied."); }
        catch { input.select(); announce("Select and copy the link."); }
      } }, "Copy invite"));
  }

  function renderTools(v) {
    const finished = !v || v.waiting ? 0 : v.hand_over ? v.hand_no : v.hand_no - 1;
    fill(tools,
      v?.ruleset && typeof v.ruleset === "string" ? h("a", { href: `/rules/${v.ruleset}`, target: "_blank", rel: "noopener" }, "Rules") : null,
      rulesetInfo(v?.ruleset) ? h("details", { class: "invite-menu options-menu" }, h("summary", {}, "Options"),
        h("div", {}, h("ul", {}, rulesetInfo(v.ruleset).options.map((o) => h("li", {}, o))))) : null,
      finished > 0 ? h("a", { href: `/tables/${tableId}/hands/${finished}` }, "Replay last hand") : null,
      v && !v.waiting ? h("details", { class: "invite-menu" }, h("summary", {}, "Invite"), inviteBox()) : null,
      mine ? h("button", { class: "quiet", onclick: leave }, "Leave") : null,
      mine?.creator && v && !v.over ? h("button", { class: "quiet", onclick: endEvening }, "End evening") : null);
  }

  async function leave() {
    if (!confirm("Leave this table? A computer player takes your seat.")) return;
    try { await api(`/api/tables/${tableId}/leave`, { method: "POST", token: mine.token }); } catch { /* gone already */ }
    saveSeatToken(tableId, null);
    socket.close();
    go("/");
  }

  async function endEvening() {
    if (!confirm("End the evening after this hand?")) return;
    try { await api(`/api/tables/${tableId}/end`, { method: "POST", token: mine.token }); } catch (e) { state.error = e.message; render(); }
  }

  function finalBlock(v) {
    return h("section", { class: "panel final" }, h("h2", {}, "The evening is over"),
      standingsTable(v.standings, v.game),
      mine ? h("button", { onclick: downloadRecord }, "Download the evening's record") : null);
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
    if (!v || v.waiting) { fill(side); return; }
    const finished = v.hand_over ? v.hand_no : v.hand_no - 1;
    fill(side,
      h("section", { class: "standings", "aria-label": "Standings" }, h("h3", {}, "Standings"), standingsTable(v.standings, v.game)),
      chipChart(v),
      state.lastSummary?.block && v.hand?.phase !== "over" ? h("details", { class: "last-hand" },
        h("summary", {}, `Hand ${state.lastSummary.hand_no}: what each pot paid`), state.lastSummary.block) : null,
      finished > 0 ? h("details", { class: "history" }, h("summary", {}, "Replays"),
        h("ul", {}, Array.from({ length: finished }, (_, k) => h("li", {},
          h("a", { href: `/tables/${tableId}/hands/${k + 1}` }, `Hand ${k + 1}`))))) : null);
  }

  function chipChart(v) {
    const seatsN = v.seats.length;
    if (!state.startChips && v.hand_no === 1 && v.hand?.start?.chips) {
      const start = Array(seatsN).fill(0);
      v.hand.start.chips.forEach((c, i) => { start[v.hand_seats?.[i] ?? i] = c; });
      state.startChips = start;
    }
    const points = [...(state.startChips ? [state.startChips] : []), ...state.chart];
    if (points.length < 2) return null;
    const W = 260, H = 120, P = 6;
    const all = points.flat();
    const lo = Math.min(...all), hi = Math.max(...all, lo + 1);
    const x = (i) => P + ((W - 2 * P) * i) / (points.length - 1);
    const y = (c) => H - P - ((H - 2 * P) * (c - lo)) / (hi - lo);
    return h("section", { class: "chart", "aria-label": "Chips over the evening" },
      h("h3", {}, v.game === "rummy" ? "Scores over the evening" : "Chips over the evening"),
      s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chip-chart", role: "img",
        "aria-label": v.seats.map((st, i) => `${st.name}: ${points.map((p) => p[i]).join(", ")}`).join("; ") },
      v.seats.map((_, i) => s("polyline", { fill: "none", stroke: COLOURS[i % 8], "stroke-width": 2,
        points: points.map((p, k) => `${x(k).toFixed(1)},${y(p[i]).toFixed(1)}`).join(" ") }))),
      h("ul", { class: "legend" }, v.seats.map((st, i) => h("li", {}, h("span", { class: "swatch", style: `background:${COLOURS[i % 8]}` }), st.name))));
  }

  // Keyboard: S and D draw in Rummy; arrows move along your hand.
  const onKey = (e) => {
    if (e.target.closest?.("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === "s" || k === "d") {
      const btn = root.querySelector(`[data-key="draw:${k === "s" ? "stock" : "discard"}"]`);
      if (btn) { e.preventDefault(); btn.click(); }
    } else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const cards = [...root.querySelectorAll(".my-hand button.card-btn")];
      const at = cards.indexOf(document.activeElement);
      if (at >= 0) {
        e.preventDefault();
        cards[(at + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length].focus();
      }
    } else if (e.key === "Escape" && state.selected) {
      state.selected = null; render();
    }
  };
  document.addEventListener("keydown", onKey);
  const onSettings = () => render();
  window.addEventListener("rummoli:settings", onSettings);

  return () => {
    socket.close();
    clearTimeout(state.timer);
    clearInterval(clockTimer);
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("rummoli:settings", onSettings);
    banner.textContent = "";
    document.title = "Rummoli";
  };
}

export function standingsTable(standings, game = "stops") {
  return h("table", { class: "standings-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, game === "rummy" ? "Points" : "Chips"))),
    h("tbody", {}, (standings || []).map((r) => h("tr", { class: r.winner ? "lead" : "" },
      h("td", {}, String(r.place)), h("td", {}, r.name), h("td", {}, String(r.chips))))));
}

export { settings };
