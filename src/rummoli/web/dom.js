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

/** Children as h() takes them (nested lists, text, nothing for undefined, null or false) as nodes. */
function nodes(children) {
  return children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
}

function append(el, children) {
  el.append(...nodes(children));
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
  // The same named drawing inside (a card's face, data-same): what is in it is the same, and is left as it is.
  const same = fresh.getAttribute("data-same");
  const inside = same === null || same !== old.getAttribute("data-same");
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
  if (inside) morphChildren(old, [...fresh.childNodes]);
}

const keyOfNode = (node) => (node.nodeType === Node.ELEMENT_NODE ? keyOf(node) : null);

// A keyed child (data-key, data-card) is found among the old ones wherever it is and moved into place, so a card
// played from the middle of a hand or a table added at the top of a list leaves the others as they were; the
// rest are matched in order.
function morphChildren(parent, fresh) {
  const keyed = new Map();  // key -> the old children with it, in order
  for (const child of parent.childNodes) {
    const key = keyOfNode(child);
    if (key !== null) (keyed.get(key) ?? keyed.set(key, []).get(key)).push(child);
  }
  const wanted = new Set(fresh.map(keyOfNode).filter((key) => key !== null));
  let cursor = parent.firstChild;
  const skipGone = () => {  // old keyed children that nothing fresh asks for go now, out of the way
    while (cursor && keyOfNode(cursor) !== null && !wanted.has(keyOfNode(cursor))) {
      const next = cursor.nextSibling;
      cursor.remove();
      cursor = next;
    }
  };
  for (const node of fresh) {
    skipGone();
    const key = keyOfNode(node);
    let match = null;
    if (key !== null) {
      const olds = keyed.get(key);
      if (olds?.length && !sameKind(olds[0], node)) {  // the same key on another kind (a form field): drawn anew
        const gone = olds.shift();
        if (gone === cursor) cursor = cursor.nextSibling;
        gone.remove();
      } else if (olds?.length) {
        match = olds.shift();
      }
    } else if (cursor && keyOfNode(cursor) === null && sameKind(cursor, node)) {
      match = cursor;
    }
    if (match === cursor && match) {
      cursor = cursor.nextSibling;
    } else if (match) {
      parent.insertBefore(match, cursor);
    } else if (key === null && cursor && keyOfNode(cursor) === null) {  // another kind in this place
      const next = cursor.nextSibling;
      parent.replaceChild(node, cursor);
      cursor = next;
      continue;
    } else {
      parent.insertBefore(node, cursor);
      continue;
    }
    morphNode(match, node);
  }
  while (cursor) {
    const next = cursor.nextSibling;
    cursor.remove();
    cursor = next;
  }
}

/**
 * Make an element's children what fill() would make them, changing only what differs: the browser then restyles,
 * lays out and paints what changed instead of the whole table at every update, and what stays keeps its focus,
 * scroll and hover.
 * Keyed elements (data-key, data-card) are matched by key and moved where they now belong, the others by position;
 * an element is never reused for another tag or key, so a card is never redrawn as another card.
 */
export function morph(el, ...children) {
  morphChildren(el, nodes(children));
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

/** Clear the live region if it still says `text` (what was said since, a hand's end, is left to be read). */
export function unsay(text) {
  const region = document.getElementById("announce");
  if (region && region.textContent === text) region.textContent = "";
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

/** The window's (and the tab's) title: what is on the page, then the site ("Gin Rummy — Rummoli"). */
export function pageTitle(...parts) {
  document.title = [...parts, "Rummoli"].join(" — ");
}

export function go(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new Event("rummoli:navigate"));
}
