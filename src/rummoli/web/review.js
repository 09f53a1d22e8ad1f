// The coach's review of a finished hand (issue 37): a "Review" button beside a replay, and the panel it fills
// with each decision of the viewing seat — its choices with expected chips or points and their 95%
// intervals, the one taken, the coach's, the mistakes and what they cost. Every figure and word is the
// server's (rummoli.coach: each choice's `text`, each decision's `words`); the page only lays them out.
import { fill, h } from "./dom.js";
import { api } from "./net.js";

const signed = (x) => (x === null || x === undefined ? "—" : `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(1)}`);

function decisionItem(d, unit) {
  const rows = d.choices.map((c, i) => h("tr", { class: [i === d.taken_choice ? "taken" : "", i === d.preferred_choice ? "coach" : ""].join(" ").trim() || null },
    h("td", {}, c.text),
    h("td", { class: "num", "data-review": "mean" }, signed(c.mean)),
    h("td", { class: "num interval" }, c.low === null || c.low === undefined ? "" : `${signed(c.low)} … ${signed(c.high)}`),
    h("td", { class: "marks" }, [i === d.taken_choice ? "taken" : null, i === d.preferred_choice ? "coach" : null].filter(Boolean).join(" "))));
  const mark = d.mistake ? "✗" : d.agrees ? "✓" : "·";
  return h("li", { class: `review-decision${d.mistake ? " mistake" : ""}`, "data-index": d.index },
    h("p", { class: "review-words" }, h("span", { class: "review-mark", "aria-hidden": "true" }, mark), " ",
      d.mistake ? h("strong", {}, "Mistake: ") : null, d.words),
    h("table", { class: "review-choices" },
      h("thead", {}, h("tr", {}, h("th", {}, "Choice"), h("th", {}, unit), h("th", {}, "95% interval"), h("th", {}, ""))),
      h("tbody", {}, rows)));
}

/**
 * The review panel's contents for a review as the server sends it: the coach's own sentence (`summary`, as
 * `rummoli review` says it) and, when a decision lists a choice with a higher figure than the coach's, the coach's
 * word on why (`legend`, `null` when there is nothing to explain): rummoli.coach makes both, the page adds none.
 */
export function reviewBlock(review) {
  return [h("p", { class: "review-summary", "data-review": "summary" }, review.summary),
    review.legend ? h("p", { class: "review-legend" }, review.legend) : null,
    h("ol", { class: "review-list" }, review.decisions.map((d) => decisionItem(d, review.unit)))];
}

/**
 * A "Review" button and the panel it fills. `ask()` fetches the review (a table's hand with a seat token, or an
 * uploaded record); the first press asks, later ones show or hide the panel.
 */
export function reviewControls(ask, onShow = () => {}) {
  const panel = h("section", { class: "review-panel", "aria-label": "Review", "aria-live": "polite", hidden: true });
  let loaded = false;
  const button = h("button", { type: "button", class: "quiet review-toggle", "aria-pressed": "false", "aria-controls": "review",
    onclick: async () => {
      if (loaded || panel.dataset.state === "loading") {
        panel.hidden = !panel.hidden;
        button.setAttribute("aria-pressed", String(!panel.hidden));
        if (!panel.hidden) onShow();
        return;
      }
      panel.hidden = false;
      button.setAttribute("aria-pressed", "true");
      onShow();
      panel.dataset.state = "loading";
      fill(panel, h("h3", {}, "Review"), h("p", { class: "review-wait" }, "The coach is weighing each of your decisions…"));
      try {
        const review = await ask();
        loaded = true;
        panel.dataset.state = "done";
        fill(panel, h("h3", {}, "Review"), ...reviewBlock(review));
      } catch (error) {
        panel.dataset.state = "error";
        fill(panel, h("h3", {}, "Review"), h("p", { class: "error", role: "alert" }, error.message));
      }
    } }, "Review");
  panel.id = "review";
  return { button, panel };
}

/** The review of a table's finished hand, from the token's seat. */
export const askTable = (tableId, handNo, token) => () =>
  api(`/api/tables/${encodeURIComponent(tableId)}/hands/${handNo}/review`, { token });

/** The review of an uploaded hand record, from seat 0. */
export const askRecord = (record) => () => api("/api/review?seat=0", { method: "POST", body: record });
