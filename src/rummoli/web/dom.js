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
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
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

/** Replace an element's children. */
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

export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
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
