// Small helpers for building the page safely: every text from the server goes in as text (never as HTML).

const SVG_NS = "http://www.w3.org/2000/svg";

/** An element: h("button", {class: "x", onclick: f}, "text", child, [more children]). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") listen(el, key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    // Through the CSSOM: the server's Content-Security-Policy refuses style attributes.
    else if (key === "style") el.style.cssText = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A text box holding at most `limit` characters as the server counts them (code points). The browser's own
 *  maxlength counts UTF-16 units, so an emoji counted twice and a name of emoji stopped at half its length. */
export function textBox(limit, attrs = {}) {
  const box = h("input", { ...attrs, maxlength: 2 * limit });
  box.addEventListener("input", () => {
    const chars = [...box.value];
    if (chars.length > limit) box.value = chars.slice(0, limit).join("");
  });
  return box;
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// A handler given to h() is kept on the element and called through one relay, so that morph() can hand an element
// that stays on the page the handlers of the element drawn in its place (their closures hold the new state).
function relay(event) {
  return this._on?.[event.type]?.call(this, event);
}

function listen(el, type, handler) {
  (el._on ??= {})[type] = handler;
  el.addEventListener(type, relay);
}

const keyOf = (el) => el.getAttribute("data-key") ?? el.getAttribute("data-card");
// Form fields are always replaced: what a person typed lives in them, and the code that draws them listens to
// them directly (their values are kept in the page's state and drawn again).
const FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);

function sameKind(old, fresh) {
  if (old.nodeType !== fresh.nodeType) return false;
  if (old.nodeType !== Node.ELEMENT_NODE) return old.nodeType === Node.TEXT_NODE;
  return old.namespaceURI === fresh.namespaceURI && old.localName === fresh.localName && !FIELDS.has(old.tagName)
    && keyOf(old) === keyOf(fresh);
}

function morphNode(old, fresh) {
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.data !== fresh.data) old.data = fresh.data;
    return;
  }
  // By index, backwards where attributes may go (no array made for each of a table's hundreds of elements).
  const was = old.attributes, now = fresh.attributes;
  for (let i = was.length - 1; i >= 0; i--) if (!fresh.hasAttribute(was[i].name)) old.removeAttribute(was[i].name);
  for (let i = 0; i < now.length; i++) {
    const { name, value } = now[i];
    if (old.getAttribute(name) === value) continue;
    // Styles through the CSSOM: the server's Content-Security-Policy refuses style attributes.
    if (name === "style") old.style.cssText = fresh.style.cssText;
    else old.setAttribute(name, value);
  }
  if (old._on || fresh._on) {
    for (const type of Object.keys(fresh._on ?? {})) old.addEventListener(type, relay);
    old._on = fresh._on;
  }
  morphChildren(old, [...fresh.childNodes]);
}

function morphChildren(parent, fresh) {
  const old = [...parent.childNodes];
  fresh.forEach((node, i) => {
    const was = old[i];
    if (!was) parent.append(node);
    else if (sameKind(was, node)) morphNode(was, node);
    else parent.replaceChild(node, was);
  });
  for (const extra of old.slice(fresh.length)) extra.remove();
}

/**
 * Make an element's children what fill() would make them, changing only what differs: the browser then restyles,
 * lays out and paints what changed instead of the whole table at every update (watching a Rummoli hand in the
 * headless shell: a third less CPU an update, 48 -> 32 ms), and what stays keeps its focus, scroll and hover.
 * Elements are matched by position, never across differing tags or keys (data-key, data-card), so a card is never
 * redrawn as another card.
 */
export function morph(el, ...children) {
  const fresh = children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  morphChildren(el, fresh);
  return el;
}

/**
 * Open or close a drawer by whether it fits beside the page (`fits()`): now, and again whenever the window crosses
 * that width (a phone turned, a window resized); a person's own open or close stands until then. Returns what stops
 * it following.
 */
export function drawerFollowsWidth(fits, open) {
  let beside = fits();
  open(beside);
  const onResize = () => { if (fits() !== beside) open((beside = fits())); };
  window.addEventListener("resize", onResize);
  return () => window.removeEventListener("resize", onResize);
}

/** Say something to screen readers (the polite live region). */
export function announce(text) {
  const region = document.getElementById("announce");
  if (!region) return;
  region.textContent = "";
  // A fresh text node after a tick makes screen readers read it even when it repeats.
  setTimeout(() => { region.textContent = text; }, 30);
}

/** Settings kept in this browser. */
const DEFAULTS = { sort: "suit", fourColour: false };

export const settings = {
  ...DEFAULTS,
  ...(() => { try { return JSON.parse(localStorage.getItem("rummoli:settings") || "{}"); } catch { return {}; } })(),
};

export function saveSettings() {
  localStorage.setItem("rummoli:settings", JSON.stringify(settings));
  document.documentElement.classList.toggle("four-colour", !!settings.fourColour);
  window.dispatchEvent(new Event("rummoli:settings"));
}

export function seatToken(tableId) {
  try { return JSON.parse(localStorage.getItem(`rummoli:seat:${tableId}`) || "null"); } catch { return null; }
}

export function saveSeatToken(tableId, data) {
  if (data) localStorage.setItem(`rummoli:seat:${tableId}`, JSON.stringify(data));
  else localStorage.removeItem(`rummoli:seat:${tableId}`);
}

export function go(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new Event("rummoli:navigate"));
}
