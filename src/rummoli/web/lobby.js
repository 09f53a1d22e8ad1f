// The lobby: start a table (game and its options in words, seats, chips, evening length, timer, pace), join by
// invite link, watch, the open tables, and replay an uploaded hand record.
import { fill, go, h, morph, saveSeatToken, textBox } from "./dom.js";
import { api } from "./net.js";
import { seatWords, waitingWords } from "./facts.js";

let catalogue = null;

/** The built-in rulesets described by the server (fetched once). */
export async function loadRulesets() {
  if (!catalogue) catalogue = (await api("/api/rulesets")).rulesets;
  return catalogue;
}

export function rulesetInfo(name) {
  return catalogue?.find((r) => r.name === name) || null;
}

const LEVELS = [["easy", "Computer — easy"], ["normal", "Computer — normal"], ["hard", "Computer — hard"],
  ["random", "Computer — random"], ["person", "A friend (open seat)"]];

export async function lobbyPage(root) {
  const rulesets = await loadRulesets();
  const error = h("p", { class: "error", role: "alert" });
  const name = textBox(24, { id: "your-name", required: true, autocomplete: "nickname",
    value: localStorage.getItem("rummoli:name") || "" });
  const game = h("select", { id: "ruleset" }, rulesets.map((r) => h("option", { value: r.name }, r.title)));
  const about = h("div", { class: "about-ruleset", "aria-live": "polite" });
  const count = h("select", { id: "players" });
  const seatsBox = h("div", { class: "seat-specs" });
  const chips = h("input", { id: "chips", type: "number", min: 1, max: 100000, step: 1 });
  const hands = h("input", { id: "hands", type: "number", min: 1, max: 500, step: 1, placeholder: "the ruleset's own end" });
  const timer = h("select", { id: "timer" }, [["", "No turn timer"], ["30", "30 seconds a turn"], ["60", "60 seconds a turn"],
    ["120", "2 minutes a turn"]].map(([v, t]) => h("option", { value: v }, t)));
  const pace = h("select", { id: "pace" }, [["slow", "Slow — time to follow every card"], ["normal", "Normal"], ["fast", "Fast"],
    ["instant", "Instant — no waiting"]].map(([v, t]) => h("option", { value: v, selected: v === (localStorage.getItem("rummoli:pace") || "normal") }, t)));
  const chipsRow = h("div", { class: "field" }, h("label", { for: "chips" }, "Starting chips"), chips);

  function current() { return rulesets.find((r) => r.name === game.value) || rulesets[0]; }

  function seatPicker(i, value) {
    return h("div", { class: "field seat-spec" }, h("label", { for: `seat-${i}` }, `Seat ${i + 1}`),
      h("select", { id: `seat-${i}`, "data-seat": i }, LEVELS.map(([v, t]) => h("option", { value: v, selected: v === value }, t))));
  }

  function refreshSeats() {
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const n = Number(count.value);
    fill(seatsBox, h("div", { class: "field seat-spec" }, h("span", { class: "label" }, "Seat 1"), h("span", { class: "you" }, "You")),
      Array.from({ length: n - 1 }, (_, k) => seatPicker(k + 1, old[k] || "easy")));
  }

  function refreshGame() {
    const r = current();
    const [lo, hi] = r.players;
    const keep = Number(count.value) || (r.game === "rummy" ? 2 : 4);
    fill(count, Array.from({ length: hi - lo + 1 }, (_, k) => lo + k).map((n) => h("option", { value: n }, `${n} players`)));
    count.value = String(Math.min(hi, Math.max(lo, keep)));
    chipsRow.hidden = r.game === "rummy";
    chips.value = r.chips ?? "";
    fill(about, r.summary ? h("p", { class: "summary-line" }, r.summary) : null,
      h("details", {}, h("summary", {}, "This game's options"),
        h("ul", { class: "options" }, r.options.map((o) => h("li", {}, o)))),
      h("a", { href: `/rules/${r.name}` }, `How to play ${r.title}`));
    refreshSeats();
  }
  game.addEventListener("change", refreshGame);
  count.addEventListener("change", refreshSeats);

  const form = h("form", { class: "panel start", "aria-labelledby": "start-title" },
    h("h2", { id: "start-title" }, "Start a table"),
    h("div", { class: "field" }, h("label", { for: "your-name" }, "Your name"), name),
    h("div", { class: "field" }, h("label", { for: "ruleset" }, "Game"), game),
    about,
    h("div", { class: "field" }, h("label", { for: "players" }, "Players"), count),
    // Who sits where, the chips, the evening's length, the timer and the pace: folded away, so that the start
    // button is in sight (the defaults play a good evening against the computer).
    h("details", { class: "more-options" }, h("summary", {}, "Seats, chips, length, timer and pace"),
      seatsBox,
      chipsRow,
      h("div", { class: "field" }, h("label", { for: "hands" }, "Hands in the evening"), hands),
      h("div", { class: "field" }, h("label", { for: "timer" }, "Turn timer"), timer),
      h("div", { class: "field" }, h("label", { for: "pace" }, "Pace"), pace,
        h("small", { class: "muted" }, "How long computer players' moves and forced cards wait before they are shown."))),
    h("button", { type: "submit", class: "primary" }, "Start the table"),
    error);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    const seats = [{}].concat([...seatsBox.querySelectorAll("select")].map((s) => (s.value === "person" ? {} : { bot: s.value })));
    const body = { name: name.value, ruleset: game.value, seats, creator_seat: 0 };
    if (current().game !== "rummy" && chips.value) body.chips = Number(chips.value);
    if (hands.value) body.hands = Number(hands.value);
    if (timer.value) body.turn_timer = Number(timer.value);
    body.pace = pace.value;
    try {
      const made = await api("/api/tables", { method: "POST", body });
      localStorage.setItem("rummoli:name", name.value);
      localStorage.setItem("rummoli:pace", pace.value);
      saveSeatToken(made.id, { token: made.token, seat: made.seat, name: name.value, creator: true });
      go(`/tables/${made.id}`);
    } catch (err) {
      error.textContent = err.message;
    }
  });

  // The invite box and the record upload say what went wrong beside themselves (the start form's line was in the
  // other panel, far from them on a phone).
  const tablesError = h("p", { class: "error", role: "alert", "data-key": "tables-error" });
  const invite = h("input", { id: "invite", placeholder: "Paste an invite link", "aria-label": "Invite link" });
  const joinForm = h("form", { class: "row" }, invite, h("button", { type: "submit" }, "Go to table"));
  joinForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const m = invite.value.trim().match(/tables\/([A-Za-z0-9_-]{1,32})/) || invite.value.trim().match(/^([A-Za-z0-9_-]{1,32})$/);
    if (m) go(`/tables/${m[1]}`);
    else tablesError.textContent = "That is not an invite link.";
  });

  const list = h("ul", { class: "table-list", "aria-live": "polite" });
  const upload = h("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  upload.addEventListener("change", async () => {
    const file = upload.files?.[0];
    if (!file) return;
    try {
      sessionStorage.setItem("rummoli:upload", await file.text());
      go("/replay");
    } catch (err) { tablesError.textContent = err.message; }
  });

  fill(root, h("div", { class: "lobby" },
    h("section", { class: "intro" }, h("h1", {}, "Rummoli"),
      h("p", {}, "The Canadian stops game and its family — Tripoley, Michigan, and Poch, the German game they come from — and the Rummy games, with friends or computer players.")),
    form,
    h("section", { class: "panel tables", "aria-labelledby": "open-title" },
      h("h2", { id: "open-title" }, "Tables"),
      joinForm, tablesError, list,
      h("h3", {}, "Replay a hand record"),
      h("label", { for: "record-file" }, "A rummoli-hand/1 file: "), upload,
      h("h3", {}, "Rules"),
      h("ul", { class: "rules-links" }, rulesets.map((r) => h("li", {}, h("a", { href: `/rules/${r.name}` }, r.title)))))));
  refreshGame();
  if (!name.value) name.focus();

  async function refreshList() {
    try {
      const { tables } = await api("/api/tables");
      // Keyed, so a table opened or closed meanwhile leaves the others' links (and the focus on one) where they are.
      morph(list, tables.length ? tables.map((t) => h("li", { "data-key": `table:${t.id}` },
        h("span", { class: "t-name" }, t.title || rulesetInfo(t.ruleset)?.title || t.ruleset),
        h("span", { class: "t-seats" }, seatWords(t.seats)),
        h("span", { class: "t-state" }, t.hand_no ? `hand ${t.hand_no}${t.hands ? ` of ${t.hands}` : ""}` : waitingWords(t)),
        t.status === "paused" ? h("span", { class: "tag paused", title: "Its computer players stopped answering" }, "paused") : null,
        t.open_seats > 0 ? h("a", { class: "button", href: `/tables/${t.id}` }, "Join") : null,
        h("a", { class: "button quiet", href: `/tables/${t.id}`, onclick: (e) => { e.preventDefault(); sessionStorage.setItem(`rummoli:watch:${t.id}`, "1"); go(`/tables/${t.id}`); } }, "Watch")))
        : h("li", { class: "muted" }, "No table is open right now."));
    } catch { /* the list refreshes again shortly */ }
  }
  refreshList();
  const timerId = setInterval(refreshList, 5000);
  return () => clearInterval(timerId);
}
