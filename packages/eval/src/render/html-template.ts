/** A piece of HTML that is already safe to put in a page: only `html` and `rawHtml` make one. */
export class HtmlFragment {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/** What `html` accepts between its fragments: text and numbers are escaped, fragments are kept, lists joined. */
export type HtmlValue = HtmlFragment | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

function renderValue(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof HtmlFragment) return value.text;
  if (Array.isArray(value)) return value.map(renderValue).join("");
  return escapeHtml(String(value));
}

/**
 * A template tag for HTML: every interpolated string or number is escaped, so text from a report (thread
 * ids, case names, reasons, field values) can never open a tag or close an attribute.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): HtmlFragment {
  let text = strings[0] ?? "";
  for (let index = 0; index < values.length; index++) {
    text += renderValue(values[index]) + (strings[index + 1] ?? "");
  }
  return new HtmlFragment(text);
}

/** Markup the caller vouches for (the page's own style and scripts); never text from a report. */
export function rawHtml(text: string): HtmlFragment {
  return new HtmlFragment(text);
}

/**
 * JSON to put inside `<script type="application/json">`: `<`, `>` and `&` become `\u003c`-style escapes, so
 * no value can close the script (`</script`) or open a comment (`<!--`); `JSON.parse` reads it back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A table with its head and rows, in a box that scrolls sideways on a narrow screen. */
export function table(head: HtmlFragment, rows: readonly HtmlFragment[]): HtmlFragment {
  return html`<div class="table-wrap"><table><thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
}
