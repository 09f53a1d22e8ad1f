// Inviting: the table's invite link (anyone may join an open seat or watch), and a link that carries one's own
// seat to another device (it holds the seat's token, so it is offered as private).
import { announce, h } from "./dom.js";

function copyRow(id, label, value, button) {
  const input = h("input", { readonly: true, value, "aria-label": label, class: "invite", id });
  return h("div", { class: "row invite-row" }, input,
    h("button", { "data-key": `copy-${id}`, onclick: async () => {
      try { await navigator.clipboard.writeText(value); announce(`${label} copied.`); }
      catch { input.select(); announce("Select and copy the link."); }
    } }, button));
}

/** The invite link with its copy button. */
export function inviteBox(summary) {
  return copyRow("invite-link", "Invite link", summary.invite, "Copy invite");
}

/** The link that opens this table as one's own seat elsewhere: `/tables/{id}#seat=TOKEN`. */
export function seatLink(tableId, token) {
  return `${location.origin}/tables/${encodeURIComponent(tableId)}#seat=${encodeURIComponent(token)}`;
}

export function ownSeatBox(tableId, mine) {
  if (!mine?.token) return null;
  return h("div", { class: "own-seat" },
    h("h4", {}, "Play this seat on another device"),
    h("p", { class: "hint" }, "This link holds your seat's key: whoever opens it plays as you. Open it yourself, on your phone or another computer; do not share it."),
    copyRow("seat-link", "Link to your seat", seatLink(tableId, mine.token), "Copy my seat's link"));
}

/** `#seat=TOKEN` in the address: keep the token for this table (as taking a seat does) and take the fragment out
 *  of the address bar, so the key is not left on screen or in a bookmark. Returns whether a token was read. */
export function takeSeatFromAddress(tableId, saveSeatToken) {
  const m = location.hash.match(/^#seat=([^&]+)$/);
  if (!m) return false;
  saveSeatToken(tableId, { token: decodeURIComponent(m[1]), seat: null, name: null, fromLink: true });
  history.replaceState(history.state, "", location.pathname + location.search);
  return true;
}
