// The chips (or points) of every seat over the evening: one point before the first hand, one after each hand and,
// once the evening is over, one after the settlement (or bonuses). Built from the table's own events — each
// hand_over's chips and result, the evening_over's standings — so a page that joins late draws the whole evening
// from the welcome's history.
import { h, s } from "./dom.js";
import { asNumber } from "./seats.js";

const COLOURS = ["#e4572e", "#2e86ab", "#f3a712", "#76b041", "#a23b72", "#7d5ba6", "#17bebb", "#c6a15b"];

export function seatColour(seat) { return COLOURS[seat % COLOURS.length]; }

/** The points of the chart, fed with the table's events in order. */
export class Evening {
  constructor() { this.points = []; this.hands = new Set(); this.closed = false; }

  take(e) {
    if (e.type === "hand_over" && !this.hands.has(e.hand_no) && Array.isArray(e.chips)) {
      this.hands.add(e.hand_no);
      if (!this.points.length) {
        // Before the first hand: the result's "before" for each seat in it (a seat not dealt in kept its chips).
        const start = e.chips.map(asNumber);
        for (const c of e.result?.changes || []) start[c.seat] = asNumber(c.before);
        this.points.push(start);
      }
      this.points.push(e.chips.map(asNumber));
    } else if (e.type === "evening_over" && !this.closed && Array.isArray(e.standings)) {
      this.closed = true;
      const last = this.points[this.points.length - 1];
      if (!last) return;
      const final = [...last];
      for (const row of e.standings) final[row.seat] = asNumber(row.chips);
      if (final.some((c, i) => c !== last[i])) this.points.push(final);
    }
  }
}

export function chipChart(evening, seats, game) {
  const points = evening.points;
  if (points.length < 2) return null;
  const W = 260, H = 120, P = 6;
  const all = points.flat();
  const lo = Math.min(...all), hi = Math.max(...all, lo + 1);
  const x = (i) => P + ((W - 2 * P) * i) / (points.length - 1);
  const y = (c) => H - P - ((H - 2 * P) * (c - lo)) / (hi - lo);
  const words = game === "rummy" ? "Points" : "Chips";
  return h("section", { class: "chart", "aria-label": `${words} over the evening` },
    h("h3", {}, `${words} over the evening`),
    s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chip-chart", role: "img", "data-points": points.length,
      "aria-label": seats.map((st, i) => `${st.name}: ${points.map((p) => p[i]).join(", ")}`).join("; ") },
    seats.map((_, i) => s("polyline", { fill: "none", stroke: seatColour(i), "stroke-width": 2,
      points: points.map((p, k) => `${x(k).toFixed(1)},${y(p[i] ?? 0).toFixed(1)}`).join(" ") }))),
    h("ul", { class: "legend" }, seats.map((st, i) => h("li", {}, h("span", { class: "swatch", style: `background:${seatColour(i)}` }), st.name))));
}
