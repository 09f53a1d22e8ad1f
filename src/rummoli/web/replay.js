// Replays: a finished hand (from a table's history, or an uploaded rummoli-hand/1 record) stepped forwards
// and backwards in the same table view. Each frame is the seat's own view after one step, made by the server
// (sent as what changed since the step before), and its events with their sentences (the captions); the last
// step adds the hand's result, as the server made it.
import { fill, h, seatToken } from "./dom.js";
import { api } from "./net.js";
import { renderStops } from "./stops.js";
import { renderRummy } from "./rummy.js";
import { loadRulesets, rulesetInfo } from "./lobby.js";
import { handResultBlock } from "./result.js";

export async function replayPage(root, { tableId, handNo }) {
  await loadRulesets().catch(() => null);
  let data;
  try {
    if (tableId) {
      const mine = seatToken(tableId);
      data = await api(`/api/tables/${encodeURIComponent(tableId)}/hands/${handNo}/replay`, { token: mine?.token });
    } else {
      const text = sessionStorage.getItem("rummoli:upload");
      if (!text) throw new Error("Choose a hand record in the lobby first.");
      let record;
      try { record = JSON.parse(text); } catch { throw new Error("That file is not JSON."); }
      data = await api("/api/replay?seat=0", { method: "POST", body: record });
    }
  } catch (error) {
    fill(root, h("section", { class: "panel" }, h("h1", {}, "No replay"), h("p", { class: "error", role: "alert" }, error.message),
      h("p", {}, h("a", { href: tableId ? `/tables/${tableId}` : "/" }, "Back"))));
    return () => {};
  }
  // Each frame's view holds only what changed since the step before ("more": the new items of a list that
  // grew, "gone": the keys it lost).
  let whole = {};
  const frames = data.frames.map((f) => {
    const grown = Object.fromEntries(Object.entries(f.more || {}).map(([k, items]) => [k, [...whole[k], ...items]]));
    whole = { ...whole, ...f.view, ...grown };
    for (const key of f.gone || []) delete whole[key];
    return { ...f, view: whole };
  });
  let at = 0;
  const stage = h("div", { class: "game replay-stage" });
  const caption = h("ol", { class: "caption", "aria-live": "polite" });
  const where = h("span", { class: "where" });
  const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: 0, "aria-label": "Step", class: "scrub" });
  const btn = (label, text, fn, key) => h("button", { "aria-label": label, "data-key": key, onclick: fn }, text);
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": "Replay controls" },
    btn("First step", "« First", () => show(0), "first"),
    btn("Step back", "◀ Back", () => show(at - 1), "back"),
    btn("Step forward", "Forward ▶", () => show(at + 1), "forward"),
    btn("Last step", "Last »", () => show(frames.length - 1), "last"),
    slider, where);
  slider.addEventListener("input", () => show(Number(slider.value)));

  function show(k) {
    at = Math.max(0, Math.min(frames.length - 1, k));
    const frame = frames[at];
    const hv = frame.view;
    // Read only: nobody's turn is shown, no choice is offered; the showdown's words come from this hand's events.
    const seen = frames.slice(0, at + 1).flatMap((f) => f.events);
    const ctx = { readOnly: true, act: () => {}, amounts: {}, say: () => {}, target: rulesetInfo(hv.ruleset)?.target,
      select: () => {}, setOrder: () => {}, events: seen };
    const last = at === frames.length - 1 && data.result;
    fill(stage,
      // At the last step, the hand's result as the table showed it (its seats are the hand's own).
      last ? handResultBlock({ result: { ...data.result, hand_no: handNo }, seats: hv.players.map((name) => ({ name })), hand: hv },
        { hooks: false }) : null,
      data.game === "rummy" ? renderRummy(hv, ctx) : renderStops(hv, ctx));
    const lines = frame.events.map((e) => e.text).filter(Boolean);
    fill(caption, lines.length ? lines.map((l) => h("li", {}, l)) : h("li", { class: "muted" }, at === 0 ? "The deal." : "…"));
    slider.value = String(at);
    where.textContent = `Step ${at + 1} of ${frames.length}`;
  }

  const onKey = (e) => {
    if (e.target.closest?.("input[type=number], textarea")) return;
    if (e.key === "ArrowRight") { e.preventDefault(); show(at + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); show(at - 1); }
    else if (e.key === "Home") { e.preventDefault(); show(0); }
    else if (e.key === "End") { e.preventDefault(); show(frames.length - 1); }
  };
  document.addEventListener("keydown", onKey);
  fill(root, h("div", { class: "replay-page" },
    h("div", { class: "table-head" },
      h("h1", { class: "table-title" }, tableId ? `Replay of hand ${handNo}` : "Replay of a hand record"),
      h("div", { class: "table-tools" }, tableId ? h("a", { href: `/tables/${tableId}` }, "Back to the table") : h("a", { href: "/" }, "Lobby"))),
    controls,
    h("div", { class: "table-body" }, stage, h("div", { class: "side-col" }, h("section", { class: "side" }, h("h3", {}, "This step"), caption)))));
  show(0);
  return () => document.removeEventListener("keydown", onKey);
}
