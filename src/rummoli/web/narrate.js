// Events in words, for the game log, the screen reader and the replay's captions.
import { cardCount, short, suitSymbol } from "./cards.js";

function party(code, names, pots) {
  if (!code) return "?";
  const [kind, id] = code.split(":");
  if (kind === "seat") return names[Number(id)] ?? `seat ${Number(id) + 1}`;
  const name = pots?.[id] || id;
  return /pot|kitty/i.test(name) ? `the ${name}` : `the ${name} pot`;
}

/** One event as a sentence, or null when it is not worth a line (each ante chip). */
export function describe(e, names, pots = {}) {
  const who = (seat) => names[seat] ?? `seat ${seat + 1}`;
  switch (e.type) {
    case "hand_start": return `Hand ${e.hand_no}: ${names[e.dealer] ?? "someone"} deals.`;
    case "hand_over": return `Hand ${e.hand_no} is over.`;
    case "evening_over": return "The evening is over.";
    case "seat": return e.bot ? `A computer player (${e.bot}) plays for ${who(e.seat)}.` : `${who(e.seat)} is back.`;
    case "chips": {
      if (e.reason === "ante" || e.reason === "dealer_ante") return null;
      const from = party(e.from, names, pots);
      const to = party(e.to, names, pots);
      const n = `${e.amount} chip${e.amount === 1 ? "" : "s"}`;
      if (e.from.startsWith("pot:")) return `${to} ${e.reason === "settle" ? "takes" : "wins"} ${n} from ${from}.`;
      if (e.reason === "bet") return `${from} puts ${n} into ${to}.`;
      if (e.reason === "leftover") return `${from} pays ${to} ${n} for cards left in hand.`;
      if (e.reason === "widow_bid") return `${from} pays the dealer, ${to}, ${n} for the widow.`;
      const why = { stall: " for the stall", cannot_lead: " (could not lead)", out: " (out of the evening)" }[e.reason] || "";
      return `${from} pays ${n} to ${to}${why}.`;
    }
    case "action": return action(e, who);
    case "showdown": return `${who(e.seat)} shows ${e.cards.map(short).join(" ")}.`;
    case "stop": return `Stop after ${short(e.after)}.`;
    case "unclaimed": return `${who(e.seat)} did not claim; the chips stay.`;
    case "swap": return `${who(e.seat)} swaps their hand for the widow.`;
    case "cannot_lead": return `${who(e.seat)} cannot lead; the lead passes left.`;
    case "out": return `${who(e.seat)} is out of cards!`;
    case "stall": return "Nobody can lead: a stall. Everyone pays a chip per card into the centre.";
    case "over": return "The hand is over.";
    case "void": return "The hand is void: every chip goes back.";
    case "flip": return `The discard pile is turned over as the new stock (${cardCount(e.cards)}).`;
    case "score": return `${who(e.seat)} scores ${e.points}${e.from !== undefined ? ` from ${who(e.from)}` : ""}.`;
    case "show": return "Every hand is shown.";
    case "end": return e.winner !== undefined && e.winner !== null
      ? `${who(e.winner)} ${e.reason === "out" ? "goes out" : "wins the hand"}${e.rummy ? " — rummy!" : ""}.`
      : `The hand ends (${e.reason}).`;
    case "block": return "The stock ran out: the hand is blocked.";
    default: return null;
  }
}

function action(e, who) {
  const w = who(e.seat);
  const forced = e.forced ? " (forced)" : "";
  switch (e.action) {
    case "keep": return `${w} keeps their hand: the widow goes up for auction.`;
    case "swap": return `${w} swaps their hand for the widow.`;
    case "bid": return `${w} bids ${e.amount}.`;
    case "pass": return `${w} passes.`;
    case "check": return `${w} checks.`;
    case "bet": return `${w} bets ${e.amount}.`;
    case "call": return `${w} calls.`;
    case "raise": return `${w} raises ${e.amount}.`;
    case "fold": return `${w} folds.`;
    case "lead": return `${w} leads ${short(e.card)}${forced}.`;
    case "play": return `${w} plays ${short(e.card)}${forced}.`;
    case "claim": return `${w} claims.`;
    case "draw": return `${w} draws from the ${e.from === "discard" ? "discard pile" : "stock"}${e.card ? ` (${short(e.card)})` : ""}${forced}.`;
    case "meld": return `${w} melds ${e.cards.map(short).join(" ")}.`;
    case "layoff": return `${w} lays off ${short(e.card)}.`;
    case "discard": return `${w} discards ${short(e.card)}.`;
    case "knock": return `${w} knocks${e.card ? `, discarding ${short(e.card)}` : ""}.`;
    default: return `${w}: ${e.action}.`;
  }
}

/** A legal action as a button's words. */
export function actionLabel(a, { melds = [], names = [] } = {}) {
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
    case "knock": return a.card ? `Knock, discarding ${short(a.card)}` : "Knock";
    default: return a.action;
  }
}

export { suitSymbol };
