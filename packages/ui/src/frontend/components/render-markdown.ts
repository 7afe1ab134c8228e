import DOMPurify from "dompurify";
import { Marked } from "marked";

/**
 * Markdown from the store (an agent's reply body, a prompt, a question, an answer) as HTML safe to put in
 * the page: `marked` renders it (GitHub-flavoured), with any raw HTML in it shown as the text it is
 * (an agent's `<img onerror>` is never parsed as a tag, even in an inert document: Chromium reports a
 * handler there as a CSP violation), and DOMPurify then keeps only plain formatting. Whatever an agent
 * wrote, nothing in it runs or loads: scripts, event handlers, forms, frames and styles are dropped
 * (should any get past the renderer); a link keeps only an http(s), mailto
 * or in-page target and opens in a new tab without the page as its opener; an image keeps only an
 * inline raster `data:` source (a remote one would tell its server the page was read), else it shows
 * its alt text. The page's Content-Security-Policy (no inline script) stands behind this as a second wall.
 */
const markdown = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html: (token) => escapeHtml(token.text),
  },
});

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] as string,
  );
}

const SAFE_LINK = /^(?:https?:|mailto:|#)/i;
const SAFE_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp);base64,[a-z0-9+/=\s]+$/i;

let hooked = false;
function addHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") {
      const href = node.getAttribute("href");
      if (href === null || !SAFE_LINK.test(href.trim())) node.removeAttribute("href");
      else if (!href.startsWith("#")) {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer");
      }
    }
    if (node.tagName === "IMG") {
      const source = node.getAttribute("src");
      // No source: the image shows as its alt text.
      if (source === null || !SAFE_IMAGE.test(source.trim())) node.removeAttribute("src");
    }
  });
}

/** The markdown as sanitized HTML. */
export function renderMarkdown(text: string): string {
  addHooks();
  const html = markdown.parse(text) as string;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "option", "iframe", "object", "embed"],
    FORBID_ATTR: ["style", "class", "id", "srcset"],
    ALLOW_DATA_ATTR: false,
  });
}
