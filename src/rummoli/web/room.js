// The card room around a live table (issue 32): the chat, the score sheet and "Play again", in a box of their own
// beside the table. The table page hands every message it receives to `receive` and calls `render` with each view.
import { announce, fill, h } from "./dom.js";
import { chatPanel } from "./chat.js";
import { ScoreSheet, sheetPanel } from "./sheet.js";
import { againPanel } from "./again.js";

export function mountRoom({ tableId, mine, socket, say }) {
  const sheet = new ScoreSheet();
  let told = null;
  let view = null;
  const chat = chatPanel({ send: (m) => socket.send(m), canWrite: !!mine?.token, say });
  const again = h("div", { class: "again-box" });
  const sheetBox = h("div", { class: "sheet-box" });
  const el = h("div", { class: "room-box" }, again, sheetBox, chat.el);

  // Drawn again only when what they show changed (a long evening's sheet is hundreds of rows; every update comes
  // here), so a button or an open sheet keeps its focus and state between updates.
  let drawn = { again: null, sheet: null };
  function render(v) {
    view = v;
    const againKey = `${!!v?.over}:${told?.table ?? ""}:${told?.token ? 1 : 0}`;
    if (againKey !== drawn.again) fill(again, againPanel(v, { tableId, mine, told, say }));
    // At the evening's end the invitation goes in the final panel, where every screen size shows it first.
    const final = document.querySelector(".table-page .final");
    if (final && again.firstChild) final.append(again);
    else if (again.parentNode !== el) el.prepend(again);
    const names = (v?.seats || []).map((st) => st.name).join("\n");
    const sheetKey = `${sheet.hands.length}:${sheet.final ? 1 : 0}:${v && !v.waiting ? names : ""}`;
    if (sheetKey !== drawn.sheet) {
      const open = !!sheetBox.querySelector("details[open]");
      fill(sheetBox, v && !v.waiting && v.seats ? sheetPanel(sheet, v.seats, tableId, open) : null);
    }
    drawn = { again: againKey, sheet: sheetKey };
  }

  function receive(msg) {
    if (msg.type === "welcome" || msg.type === "update") {
      for (const e of msg.events || []) sheet.take(e);
      if (msg.type === "welcome") {
        chat.setLines(msg.chat || []);
        if (msg.rematch) told = msg.rematch;
      }
    } else if (msg.type === "chat") {
      chat.add(msg.line);
    } else if (msg.type === "rematch") {
      told = msg;
      announce(`${msg.by} started another evening with the same seats.`);
      render(view);
    }
  }
  return { el, receive, render };
}
