import type { Document, Scalar, YAMLSeq } from "yaml";
import { loadYaml } from "./load-yaml.ts";

/** Flow lists shorter than this are left to the yaml library: the shortcut pays off on long lists only. */
export const MIN_WORD_LIST_ITEMS = 256;

export interface ParseWithWordListsOptions {
  /** The fewest items a list must have to be taken apart from the yaml library; MIN_WORD_LIST_ITEMS when left out. */
  minItems?: number;
}

/** One list found in the source: `[` at `start`, `]` just before `end`, and each word's range as yaml gives it. */
interface WordList {
  start: number;
  end: number;
  words: Array<{ value: string; start: number; end: number; nodeEnd: number }>;
}

/**
 * Parses YAML as `parse` does (the yaml library's `parseDocument`), but composes long one-line flow lists of
 * plain words (`[low, medium, high, ...]`, a 100,000-value enum) itself: the yaml library spends about 10 µs on
 * each item, 80% of `uwf workflow validate` of such an enum. Returns null when the shortcut does not apply, and
 * the caller parses the text in full; otherwise the very document `parse(text)` would give.
 *
 * Why it is that document: each list is replaced by a double-quoted scalar of the same length on the same line
 * (`"      "`), and the rest of the text parsed as is. YAML's grammar takes a flow list and a double-quoted
 * scalar in the same places (both are "JSON-like" flow nodes), so the rest parses the same and every offset and
 * line stays where it was. The result is used only when the parser agrees: no error or warning at all (a
 * duplicate key, a bad alias, a second document, an unknown tag all fall back, so problems are always reported
 * by the full parse), the YAML 1.2 core schema, no alias anywhere, and each placeholder found exactly where its
 * list was, as a value (not a key) with no tag or anchor. Then each placeholder is swapped for the list it stood for,
 * built as the yaml library builds it: a flow `YAMLSeq` of plain `Scalar`s with the same ranges and comments.
 * The words are plain scalars that the core schema can only read as strings (a letter or `_` first, then
 * letters, digits, `_`, `-`, `.` or `/`; not null, true or false), separated by commas and spaces.
 *
 * A directive (`%YAML`, `%TAG`) or a list not preceded on its line by `:`, `,`, `[`, `{` or `-` is left to the
 * full parse, so a tag or anchor (`!include`) never applies to a placeholder. `parse` runs here on the text with
 * placeholders; after a null the caller parses the text in full, and must undo what the first run did (the
 * includes it counted).
 */
export function parseWithWordLists<T extends { document: Document }>(
  text: string,
  parse: (source: string) => T,
  options: ParseWithWordListsOptions = {},
): T | null {
  if (hasDirective(text)) return null;
  const lists = findWordLists(text, options.minItems ?? MIN_WORD_LIST_ITEMS);
  if (lists.length === 0) return null;
  const parts: string[] = [];
  let copied = 0;
  for (const list of lists) {
    parts.push(text.slice(copied, list.start), `"${" ".repeat(list.end - list.start - 2)}"`);
    copied = list.end;
  }
  parts.push(text.slice(copied));
  const parsed = parse(parts.join(""));
  const { document } = parsed;
  if (document.errors.length > 0 || document.warnings.length > 0 || document.schema.name !== "core") return null;
  return replacePlaceholders(document, lists) ? parsed : null;
}

/** Swaps each list's placeholder for the list; false (the document then unchanged) when one is not as expected. */
function replacePlaceholders(document: Document, lists: WordList[]): boolean {
  const { isPair, isSeq, visit } = loadYaml();
  const byStart = new Map(lists.map((list) => [list.start, list]));
  const found: Array<{ list: WordList; placeholder: Scalar; key: number | "value" | null; parent: unknown }> = [];
  let expected = true;
  visit(document, {
    Alias() {
      // No placeholder has an anchor, so no alias can point at one; but rare enough to leave to the full parse.
      expected = false;
      return visit.BREAK;
    },
    Scalar(key, node, path) {
      const list = node.range === undefined || node.range === null ? undefined : byStart.get(node.range[0]);
      if (list === undefined) return undefined;
      if (
        key === "key" ||
        node.type !== "QUOTE_DOUBLE" ||
        node.range?.[1] !== list.end ||
        node.tag !== undefined ||
        node.anchor !== undefined
      ) {
        expected = false;
        return visit.BREAK;
      }
      found.push({ list, placeholder: node, key, parent: path.at(-1) });
      return undefined;
    },
  });
  if (!expected || found.length !== lists.length) return false;
  for (const { list, placeholder, key, parent } of found) {
    const seq = composeWordList(document, list, placeholder);
    if (key === null) document.contents = seq;
    else if (key === "value" && isPair(parent)) parent.value = seq;
    else if (typeof key === "number" && isSeq(parent)) parent.items[key] = seq;
    else throw new Error(`a word list's placeholder at ${list.start} has an unexpected parent`);
  }
  return true;
}

/** The flow list the yaml library composes from the words: plain string scalars, where the placeholder was. */
function composeWordList(document: Document, list: WordList, placeholder: Scalar): YAMLSeq<Scalar<string>> {
  const { Scalar: ScalarNode, YAMLSeq: SeqNode } = loadYaml();
  const seq = new SeqNode<Scalar<string>>(document.schema);
  seq.flow = true;
  for (const word of list.words) {
    const item = new ScalarNode(word.value);
    item.range = [word.start, word.end, word.nodeEnd];
    item.source = word.value;
    item.type = "PLAIN";
    seq.items.push(item);
  }
  if (placeholder.range !== undefined) seq.range = placeholder.range;
  copyDecorations(placeholder, seq);
  return seq;
}

/** What the composer attaches to any node from the text around it: the same for a placeholder and its list. */
function copyDecorations(
  from: Scalar,
  to: { comment?: string | null; commentBefore?: string | null; spaceBefore?: boolean },
): void {
  if (from.comment !== undefined) to.comment = from.comment;
  if (from.commentBefore !== undefined) to.commentBefore = from.commentBefore;
  if (from.spaceBefore !== undefined) to.spaceBefore = from.spaceBefore;
}

function hasDirective(text: string): boolean {
  return text.startsWith("%") || text.includes("\n%");
}

const SPACE = 0x20;
const TAB = 0x09;
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
/** `:` `,` `[` `{` `-`: what may precede a list on its line for it to be a candidate. */
const BEFORE_LIST = new Set([0x3a, COMMA, OPEN, 0x7b, 0x2d]);
/** The words the core schema reads as null or a boolean; every other word is a string. */
const NOT_STRINGS = new Set(["null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE"]);

function findWordLists(text: string, minItems: number): WordList[] {
  const lists: WordList[] = [];
  for (let open = text.indexOf("["); open >= 0; ) {
    const list = followsListIndicator(text, open) ? readWordList(text, open) : null;
    if (list !== null && list.words.length >= minItems) {
      lists.push(list);
      open = text.indexOf("[", list.end);
    } else {
      open = text.indexOf("[", open + 1);
    }
  }
  return lists;
}

function followsListIndicator(text: string, open: number): boolean {
  let before = open - 1;
  while (before >= 0 && (text.charCodeAt(before) === SPACE || text.charCodeAt(before) === TAB)) before--;
  return before >= 0 && BEFORE_LIST.has(text.charCodeAt(before));
}

/** `[word, word, ...]` from `open` on one line, or null when anything else appears. */
function readWordList(text: string, open: number): WordList | null {
  const words: WordList["words"] = [];
  let at = skipSpaces(text, open + 1);
  for (;;) {
    const start = at;
    if (!isFirstWordChar(text.charCodeAt(at))) return null;
    at++;
    while (isWordChar(text.charCodeAt(at))) at++;
    const end = at;
    at = skipSpaces(text, at);
    const value = text.slice(start, end);
    if (end - start <= 5 && NOT_STRINGS.has(value)) return null;
    words.push({ value, start, end, nodeEnd: at });
    const next = text.charCodeAt(at);
    if (next === CLOSE) return { start: open, end: at + 1, words };
    if (next !== COMMA) return null;
    at = skipSpaces(text, at + 1);
  }
}

function skipSpaces(text: string, from: number): number {
  let at = from;
  while (text.charCodeAt(at) === SPACE) at++;
  return at;
}

/** A–Z, a–z, `_`. */
function isFirstWordChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
}

/** A first character, a digit, `-`, `.` or `/`. */
function isWordChar(code: number): boolean {
  return isFirstWordChar(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e || code === 0x2f;
}
