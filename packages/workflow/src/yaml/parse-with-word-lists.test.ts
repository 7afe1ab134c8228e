import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Glob } from "bun";
import type { Document, LineCounter } from "yaml";
import { loadYaml } from "./load-yaml.ts";
import { parseWithWordLists } from "./parse-with-word-lists.ts";

const REPOSITORY = join(import.meta.dir, "../../../..");

/** The yaml library's parse, as the workflow loader calls it (includes apart). */
function parse(source: string): { document: Document; lineCounter: LineCounter } {
  const { LineCounter, parseDocument } = loadYaml();
  const lineCounter = new LineCounter();
  return { document: parseDocument(source, { lineCounter, uniqueKeys: true, prettyErrors: false }), lineCounter };
}

/** Every node of the document with every own property (the schema and options apart), to compare two parses. */
function dump(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dump);
  if (value === null || typeof value !== "object") return value;
  const fields: Record<string, unknown> = { class: value.constructor.name };
  for (const [key, inner] of Object.entries(value)) {
    if (key !== "schema" && key !== "options") fields[key] = dump(inner);
  }
  return fields;
}

/** The shortcut's document, checked to be the full parse's in every node, range, comment, value and line. */
function expectSameAsFullParse(text: string, minItems: number): boolean {
  const fast = parseWithWordLists(text, parse, { minItems });
  if (fast === null) return false;
  const full = parse(text);
  expect(dump(fast.document)).toEqual(dump(full.document));
  expect(fast.document.toJS()).toEqual(full.document.toJS());
  expect(fast.lineCounter.lineStarts).toEqual(full.lineCounter.lineStarts);
  return true;
}

function words(count: number, prefix = "v"): string {
  return Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(", ");
}

describe("parseWithWordLists", () => {
  it("gives the full parse's document for every example and fixture workflow whose lists it takes", () => {
    const files = [
      ...new Glob("examples/**/*.{yaml,yml}").scanSync(REPOSITORY),
      ...new Glob("packages/*/test/fixtures/**/*.{yaml,yml}").scanSync(REPOSITORY),
    ];
    expect(files.length).toBeGreaterThan(100);
    const taken: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(REPOSITORY, file), "utf8");
      if (expectSameAsFullParse(text, 1)) taken.push(relative(REPOSITORY, join(REPOSITORY, file)));
    }
    // Most workflows have a short word list somewhere (`required: [comments]`, `enum: [approved, rejected]`).
    expect(taken.length).toBeGreaterThan(files.length / 3);
  });

  it("gives the full parse's document for long lists in every place a list may stand, with comments", () => {
    const places = {
      "a flow mapping's value": `roles: { pick: { enum: [${words(300)}] }, other: { enum: [ ${words(300, "w")} ] } } # the roles`,
      "a block mapping's value, a comment after it": `# a workflow\nname: big\nlist: [${words(300, "x_")}]   # after the list\nnext: 1`,
      "a block list's items": `block:\n  - [${words(300, "item.")}]\n  -   [${words(300, "item/")}]\n\n  # before\n  - [${words(300)}]`,
      "a flow list's items": `flow: [[${words(300)}], [${words(300, "z")}] , [a]]`,
      "a flow mapping after a comma": `flow: { a: 1,b: [${words(300)}] }`,
      "the document itself, after its start marker": `--- [${words(300)}]`,
    };
    for (const [place, text] of Object.entries(places)) {
      expect({ place, same: expectSameAsFullParse(`${text}\n`, 256) }).toEqual({ place, same: true });
    }
  });

  it("leaves a document without long word lists to the full parse", () => {
    expect(parseWithWordLists(`enum: [${words(10)}]\n`, parse)).toBeNull();
    // A list alone on its line: what comes before it (a tag? a comment?) is on another line.
    expect(parseWithWordLists(`enum:\n  [${words(300)}]\n`, parse)).toBeNull();
    expect(parseWithWordLists(`[${words(300)}]\n`, parse)).toBeNull();
    // Not all words the core schema reads as strings: a number, a boolean, null, a quoted word, a comment.
    for (const odd of ["12", "true", "NULL", '"quoted"', "a #comment", "a b", "-a", ".inf", "x: y"]) {
      expect(parseWithWordLists(`enum: [${words(300)}, ${odd}, ${words(3)}]\n`, parse)).toBeNull();
    }
  });

  it("falls back to the full parse on every feature the shortcut does not take, wherever it is", () => {
    const list = `enum: [${words(300)}]`;
    const fallbacks = {
      "a duplicate key": `name: a\n${list}\nname: b\n`,
      "a merge key": `base: &base { x: 1 }\nother:\n  <<: *base\n${list}\n`,
      "an alias": `base: &base [a, b]\nother: *base\n${list}\n`,
      "a tag on the list": `enum: !!seq [${words(300)}]\n`,
      "a tag on the line before, after a comment that ends in a colon": `enum: !custom # see:\n  [${words(300)}]\n`,
      "an anchor on the list": `enum: &values [${words(300)}]\n`,
      "two documents": `${list}\n---\nsecond: document\n`,
      "a directive": `%YAML 1.1\n---\n${list}\n`,
      "the list as a key": `[${words(300)}]: value\n`,
      "the list in a block scalar": `text: |\n  pick: [${words(300)}]\n`,
      "the list in a quoted string": `text: "pick: [${words(300)}]"\n`,
      "the list in a comment": `# pick: [${words(300)}]\nname: a\n`,
    };
    for (const [feature, text] of Object.entries(fallbacks)) {
      expect({ feature, result: parseWithWordLists(text, parse) }).toEqual({ feature, result: null });
    }
  });
});
