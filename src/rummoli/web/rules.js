// Rules pages: the same Markdown text `rummoli rules NAME` prints, turned into elements by a tiny converter
// (headings, paragraphs, lists, tables, code, bold and italic). Text only: nothing is parsed as HTML.
import { fill, h, pageTitle } from "./dom.js";
import { api } from "./net.js";
import { loadRulesets } from "./lobby.js";

function inline(text) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*]+\*|_[^_]+_|\[[^\]]+\]\([^)]+\))/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith("**")) out.push(h("strong", {}, t.slice(2, -2)));
    else if (t.startsWith("`")) out.push(h("code", {}, t.slice(1, -1)));
    else if (t.startsWith("[")) {
      const [, label, href] = t.match(/\[([^\]]+)\]\(([^)]+)\)/);
      out.push(/^(https?:|\/)/.test(href) ? h("a", { href }, label) : label);
    } else out.push(h("em", {}, t.slice(1, -1)));
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function markdown(md) {
  const lines = md.replace(/\r/g, "").split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    let m;
    if ((m = line.match(/^(#{1,4})\s+(.*)$/))) {
      out.push(h(`h${Math.min(4, m[1].length)}`, {}, inline(m[2])));  // the text's title is the page's h1
      i++;
    } else if (line.startsWith("```")) {
      const body = [];
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) body.push(lines[i++]);
      i++;
      out.push(h("pre", {}, h("code", {}, body.join("\n"))));
    } else if (/^\s*[-*]\s+/.test(line) || /^\s*\d+[.)]\s+/.test(line)) {
      const ordered = /^\s*\d+[.)]\s+/.test(line);
      const items = [];
      while (i < lines.length && lines[i].trim() && (/^\s*([-*]|\d+[.)])\s+/.test(lines[i]) || /^\s{2,}\S/.test(lines[i]))) {
        if (/^\s*([-*]|\d+[.)])\s+/.test(lines[i])) items.push(lines[i].replace(/^\s*([-*]|\d+[.)])\s+/, ""));
        else items[items.length - 1] += ` ${lines[i].trim()}`;
        i++;
      }
      out.push(h(ordered ? "ol" : "ul", {}, items.map((t) => h("li", {}, inline(t)))));
    } else if (line.trim().startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) rows.push(lines[i++]);
      const cells = (r) => r.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
      const body = rows.filter((r) => !/^\s*\|?\s*:?-{2,}/.test(r));
      out.push(h("table", { class: "md-table" },
        h("thead", {}, h("tr", {}, cells(body[0]).map((c) => h("th", {}, inline(c))))),
        h("tbody", {}, body.slice(1).map((r) => h("tr", {}, cells(r).map((c) => h("td", {}, inline(c))))))));
    } else if (line.startsWith(">")) {
      const body = [];
      while (i < lines.length && lines[i].startsWith(">")) body.push(lines[i++].replace(/^>\s?/, ""));
      out.push(h("blockquote", {}, inline(body.join(" "))));
    } else {
      const body = [];
      while (i < lines.length && lines[i].trim() && !/^(#|```|\s*[-*]\s|\s*\d+[.)]\s|\||>)/.test(lines[i])) body.push(lines[i++].trim());
      out.push(h("p", {}, inline(body.join(" "))));
    }
  }
  return out;
}

export async function rulesPage(root, name) {
  const rulesets = await loadRulesets();
  const nav = h("nav", { class: "rules-nav", "aria-label": "Rulesets" },
    h("ul", {}, rulesets.map((r) => h("li", {}, h("a", { href: `/rules/${r.name}`, "aria-current": r.name === name ? "page" : null }, r.title)))));
  if (!name) {  // the index: its heading first, then the games (on a phone the list came above the heading)
    pageTitle("Rules");
    fill(root, h("div", { class: "rules-page rules-index" }, h("article", { class: "rules panel" }, h("h1", {}, "Rules"),
      h("p", {}, "Choose a game."), nav)));
    return () => {};
  }
  let text;
  try {
    text = await fetch(`/api/rules/${encodeURIComponent(name)}`).then((r) => (r.ok ? r.text() : Promise.reject(new Error("No rules for that name."))));
  } catch (error) {
    text = `# Rules\n\n${error.message}`;
  }
  const info = rulesets.find((r) => r.name === name);
  pageTitle(info ? `${info.title} rules` : "Rules");
  fill(root, h("div", { class: "rules-page" }, nav,
    h("article", { class: "rules panel" }, markdown(text),
      info && !text.includes(info.options[info.options.length - 1]) ? h("section", { class: "options-box" }, h("h2", {}, "This ruleset's options"),
        h("ul", {}, info.options.map((o) => h("li", {}, o)))) : null)));
  return () => {};
}
