// The table's chat: what its people write to each other, and a few quick reactions. Every line is put on the page
// as text (never as HTML); the writer's name is the one the server gives for the seat. Spectators read it only.
import { h, s, textBox } from "./dom.js";

/** A raised thumb, drawn here: the emoji needs a colour-emoji font, which not every computer has (an empty box shows
 *  in its place there). */
function thumbsUp() {
  return s("svg", { class: "icon", viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true", focusable: "false" },
    s("path", { fill: "currentColor", d: "M2 10h4v11H2z M8 10l3.2-6.4c.5-1 1.9-1.2 2.6-.3.4.5.5 1.1.3 1.7L13 9h6a2 2 0 0 1 2 2.3l-1.2 7.6A2.5 2.5 0 0 1 17.3 21H8z" }));
}

/** The quick reactions, by the key the server knows them by (rummoli.server.tables.chat.REACTIONS): what the button
 *  shows, and its name when that is not words. */
export const REACTIONS = [["thumbs_up", thumbsUp, "Thumbs up"], ["good_hand", "Good hand"], ["well_played", "Well played"], ["oops", "Oops"]];
const shows = (words) => (typeof words === "function" ? words() : words);
const MAX_LINE = 200;
const KEPT = 100;

/** The chat panel. `send(message)` sends a chat message ({text} or {reaction}); false when not connected.
 *  `canWrite`: this page holds a seat. Returns {el, setLines(lines), add(line)}. */
export function chatPanel({ send, canWrite, say }) {
  const lines = h("ol", { class: "chat-lines", "aria-label": "Chat messages", "aria-live": "polite" });
  const empty = h("li", { class: "muted chat-empty" }, "Nothing said yet.");
  lines.append(empty);
  const text = textBox(MAX_LINE, { id: "chat-text", autocomplete: "off", placeholder: "Say something…",
    "aria-label": "Write to the table" });
  const form = h("form", { class: "chat-form row" }, text, h("button", { type: "submit", "data-key": "chat-send" }, "Send"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const said = text.value.trim();
    if (!said) return;
    if (send({ type: "chat", text: said })) text.value = "";
    else say("Not connected: wait for the connection to come back.");
  });
  const reactions = h("div", { class: "chat-reactions", role: "group", "aria-label": "Quick reactions" },
    REACTIONS.map(([key, words, label]) => h("button", { type: "button", class: "quiet", "data-key": `react:${key}`,
      "aria-label": label, title: label,
      onclick: () => { if (!send({ type: "chat", reaction: key })) say("Not connected: wait for the connection to come back."); } }, shows(words))));
  const el = h("section", { class: "chat", "aria-labelledby": "chat-title" },
    h("h3", { id: "chat-title" }, "Chat"), lines,
    canWrite ? [reactions, form] : h("p", { class: "muted chat-readonly" }, "Spectators read the chat; take a seat to write."));

  const shown = new Set();
  function add(line) {
    if (shown.has(line.n)) return;
    shown.add(line.n);
    empty.remove();
    lines.append(h("li", { class: `chat-line${line.reaction ? " reaction" : ""}`, "data-seat": line.seat, "data-n": line.n },
      h("b", { class: "who" }, line.name), ": ", h("span", { class: "said" }, saying(line))));
    while (lines.children.length > KEPT) lines.firstElementChild.remove();
    lines.scrollTop = lines.scrollHeight;
  }
  return { el, add, setLines: (all) => all.forEach(add) };
}

/** A line's words; a reaction drawn here shows its drawing, with its name for screen readers. */
function saying(line) {
  const [, words, label] = REACTIONS.find(([key]) => key === line.reaction) || [];
  return typeof words === "function" ? [words(), h("span", { class: "sr-only" }, label)] : line.text;
}
