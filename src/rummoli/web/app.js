// The page's entry: reads the address and draws the lobby, a table, a replay or a rules page.
import { fill, go, h, pageTitle, saveSettings, settings } from "./dom.js";
import { lobbyPage, loadRulesets } from "./lobby.js";
import { tablePage } from "./table.js";
import { replayPage } from "./replay.js";
import { rulesPage } from "./rules.js";

const root = document.getElementById("app");
let cleanup = () => {};
let routing = 0;

async function route() {
  // Pages are drawn after awaits: a second navigation while one is drawn (two clicks, a link and Back) must not leave
  // the first page alive behind the second (it kept its table's websocket open). Only the latest route keeps its page.
  const mine = ++routing;
  cleanup();
  cleanup = () => {};
  const keep = (done = () => {}) => { if (mine === routing) cleanup = done; else done(); };
  const path = location.pathname;
  pageTitle();  // the lobby's; a page that shows something else names it
  let m;
  try {
    await loadRulesets();
    if (mine !== routing) return;
    if ((m = path.match(/^\/tables\/([^/]+)\/hands\/(\d+)\/?$/))) keep(await replayPage(root, { tableId: m[1], handNo: Number(m[2]) }));
    else if ((m = path.match(/^\/tables\/([^/]+)\/?$/))) keep(await tablePage(root, m[1]));
    else if (path === "/replay") keep(await replayPage(root, {}));
    else if ((m = path.match(/^\/rules(?:\/([^/]+))?\/?$/))) keep(await rulesPage(root, m[1] ? decodeURIComponent(m[1]) : null));
    else keep(await lobbyPage(root));
  } catch (error) {
    fill(root, h("section", { class: "panel" }, h("h1", {}, "Something went wrong"), h("p", { class: "error" }, error.message),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby"))));
  }
}

// Links inside the page change the address without reloading.
document.addEventListener("click", (e) => {
  const a = e.target.closest?.("a[href]");
  if (e.defaultPrevented || !a || a.target || a.hasAttribute("download") || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/docs")) return;
  e.preventDefault();
  go(url.pathname + url.search);
});
window.addEventListener("popstate", route);
window.addEventListener("rummoli:navigate", () => { route(); window.scrollTo(0, 0); root.focus({ preventScroll: true }); });

// Settings: sort order and a four-colour deck (the pace belongs to the table, set when it is started).
function settingsDialog() {
  const dialog = document.getElementById("settings");
  const sort = dialog.querySelector("#set-sort");
  const four = dialog.querySelector("#set-four");
  sort.value = settings.sort;
  four.checked = !!settings.fourColour;
  const save = () => { settings.sort = sort.value; settings.fourColour = four.checked; saveSettings(); };
  for (const el of [sort, four]) el.addEventListener("change", save);
  document.getElementById("open-settings").addEventListener("click", () => dialog.showModal());
  dialog.querySelector("#close-settings").addEventListener("click", () => dialog.close());
}

document.documentElement.classList.toggle("four-colour", !!settings.fourColour);
settingsDialog();
route();
