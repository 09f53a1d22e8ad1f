// The words on the page's own controls (buttons, amounts). The game's words — what happened, what happens now,
// who won what — come from the server (event.text, hand.prompt, view.result); this file words only buttons.
import { short } from "./cards.js";

/** A legal action as a button's words. `knocks` (Knock and Gin): the deadwood each knock would keep. */
export function actionLabel(a, { melds = [], names = [], knocks = null } = {}) {
  switch (a.action) {
    case "keep": return "Keep my hand";
    case "swap": return "Swap for the widow";
    case "pass": return "Pass";
    case "check": return "Check";
    case "call": return "Call";
    case "fold": return "Fold";
    case "claim": return "Claim the pot";
    case "bid": case "bet": case "raise": return `${a.action[0].toUpperCase()}${a.action.slice(1)}`;
    case "lead": return `Lead ${short(a.card)}`;
    case "play": return `Play ${short(a.card)}`;
    case "draw": return a.from === "discard" ? (a.card ? `Take the discards from ${short(a.card)} up` : "Take the discard") : "Draw from the stock";
    case "meld": return `Meld ${a.cards.map(short).join(" ")}`;
    case "layoff": {
      const m = melds[a.meld];
      const owner = m && m.owner !== undefined ? `${names[m.owner] ?? "?"}'s ` : "";
      return `Lay off ${short(a.card)} on ${owner}${m ? m.cards.map(short).join(" ") : `meld ${a.meld + 1}`}`;
    }
    case "discard": return `Discard ${short(a.card)}`;
    case "knock": return knockLabel(a, knocks);
    default: return a.action;
  }
}

/** A Poch legal action as a button's words: the vying's own names (pass, knock, hold, knock again, drop out). */
export function pochLabel(a) {
  const words = { check: "Pass", bet: "Knock", call: "Hold", raise: "Knock again", fold: "Drop out" };
  return words[a.action] ?? actionLabel(a);
}

/** "Gin — discard 7♦" when the knock keeps no deadwood, else "Knock — discard 7♦ (deadwood 6)", as the
 *  view's `knocks` says (the page never counts deadwood itself). */
export function knockLabel(a, knocks) {
  const left = a.card && knocks ? knocks[a.card] : undefined;
  if (!a.card) return "Knock";
  if (left === 0) return `Gin — discard ${short(a.card)}`;
  return `Knock — discard ${short(a.card)}${left === undefined ? "" : ` (deadwood ${left})`}`;
}

/** A number with its sign, as a change is shown: "+4", "-2", "0". Fraction strings ("101/3") stay as they are. */
export function signed(n) {
  if (typeof n !== "number") return String(n);
  return n > 0 ? `+${n}` : String(n);
}
