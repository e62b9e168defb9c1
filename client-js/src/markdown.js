// Our own markdown documents (docs/rules*.md) as HTML for the in-client rules page.
// Headings get ids made the way GitHub makes them, so the documents' "#..." links work on GitHub and
// here alike; every id and in-page link gets a prefix, so the page's anchors double as hash routes
// (#rules-nanjing) and never collide with the rest of the client.
import { Marked } from "marked";

/** GitHub's heading anchor: lower case, punctuation dropped (CJK kept), spaces to hyphens. */
export function slugify(text) {
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

function escapeAttr(text) {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** HTML of one document: heading ids and "#" links carry `prefix`. A link to another file of the
 * repository gets the attributes `fileLinks` gives that file, else (protocol.md: no address in the
 * client) it stays plain text. */
export function renderMarkdown(source, prefix, fileLinks = {}) {
  const seen = new Map();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }) {
        const base = slugify(this.parser.parseInline(tokens, this.parser.textRenderer));
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        const id = n ? `${base}-${n}` : base;
        return `<h${depth} id="${escapeAttr(prefix + id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, tokens }) {
        const inner = this.parser.parseInline(tokens);
        if (href.startsWith("#")) return `<a href="#${escapeAttr(prefix + decodeURIComponent(href.slice(1)))}">${inner}</a>`;
        if (/^https?:\/\//.test(href)) return false;
        const attrs = fileLinks[href];
        if (!attrs) return inner;
        return `<a ${Object.entries(attrs).map(([k, v]) => `${k}="${escapeAttr(v)}"`).join(" ")}>${inner}</a>`;
      },
    },
  });
  return marked.parse(source);
}

