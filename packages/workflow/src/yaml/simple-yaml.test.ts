import { describe, expect, test } from "bun:test";
import { createRandom } from "@uwf/cas/test";
import { parseDocument, stringify } from "yaml";
import { formatSimpleYamlMapping, parseSimpleYamlMapping } from "./simple-yaml.ts";

const TRICKY_WORDS = [
  "true",
  "True",
  "TRUE",
  "tRUE",
  "false",
  "FALSE",
  "null",
  "Null",
  "NULL",
  "~",
  "yes",
  "No",
  "on",
  "off",
  "y",
  ".inf",
  ".nan",
  "NaN",
  "Infinity",
  "0x1F",
  "0o17",
  "007",
  "1e3",
  "-1",
  "+1",
  "1.50",
  "1_000",
  "12:30",
  "2024-01-01",
  "<<",
  "<summary>",
  "a: b",
  "a:b",
  "a #b",
  "a#b",
  "a ",
  " a",
  "a:",
  "-",
  "- a",
  "? a",
  "!tag",
  "&anchor",
  "*alias",
  "|",
  ">",
  "%x",
  "@x",
  "`x",
  "[a]",
  "{a}",
  "a, b",
  "it's",
  'say "hi"',
  "back\\slash",
  "é",
  "aé",
  "a\u00a0b",
  "a\tb",
  "line\nbreak",
  "\uFEFFbom",
  "",
  "__proto__",
  "constructor",
  "$status",
  "exit-code",
];
const ALPHABET = "aZ09 :#-'\"\\,.[]{}!&*|>%@`?<=~_$é\t";

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function randomString(random: () => number): string {
  if (random() < 0.5) return pick(random, TRICKY_WORDS);
  let text = pick(random, ["a", "Z", "s ", "<", "x", ""]);
  const length = Math.floor(random() * 8);
  for (let index = 0; index < length; index++) text += pick(random, [...ALPHABET]);
  return text;
}

function randomNumber(random: () => number): number {
  return pick(random, [
    0,
    -0,
    1,
    -1,
    42,
    0.5,
    -2.25,
    1e21,
    1.5e-7,
    2 ** 53,
    123456789012345680000,
    0.1 + 0.2,
    Math.round(random() * 1e6),
    random() * 1000,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ]);
}

function randomScalar(random: () => number): unknown {
  const kind = random();
  if (kind < 0.45) return randomString(random);
  if (kind < 0.75) return randomNumber(random);
  if (kind < 0.9) return random() < 0.5;
  return null;
}

function randomValue(random: () => number, depth: number): unknown {
  const kind = random();
  if (depth < 2 && kind < 0.12) return Array.from({ length: Math.floor(random() * 3) }, () => randomScalar(random));
  if (depth < 2 && kind < 0.2) return randomMapping(random, depth + 1);
  if (depth < 2 && kind < 0.22) return [randomMapping(random, depth + 1)];
  return randomScalar(random);
}

function randomMapping(random: () => number, depth: number): Record<string, unknown> {
  const mapping: Record<string, unknown> = {};
  const size = Math.floor(random() * 4) + (depth === 0 ? 1 : 0);
  for (let index = 0; index < size; index++) {
    const key =
      random() < 0.8
        ? pick(random, ["n", "done", "summary", "$status", "exit-code", "files", "_x"])
        : randomString(random);
    Object.defineProperty(mapping, key, {
      value: randomValue(random, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return mapping;
}

const libraryFormat = (value: unknown) => stringify(value, { lineWidth: 0, minContentWidth: 0 });

function libraryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  const document = parseDocument(text, { prettyErrors: true });
  return document.errors.length > 0 ? { ok: false } : { ok: true, value: document.toJS() };
}

describe("formatSimpleYamlMapping", () => {
  test("writes exactly what the yaml library writes, for every value it accepts", () => {
    const random = createRandom(20261121);
    let accepted = 0;
    for (let index = 0; index < 20_000; index++) {
      const value = randomMapping(random, 0);
      const fast = formatSimpleYamlMapping(value);
      if (fast === undefined) continue;
      accepted++;
      expect({ value, text: fast }).toEqual({ value, text: libraryFormat(value) });
    }
    expect(accepted).toBeGreaterThan(2_000);
  });

  test("handles the frontmatter a step writes, and leaves the rest to the library", () => {
    expect(formatSimpleYamlMapping({ n: 3, done: false, summary: "s 3", files: ["<files item>"], x: {}, y: [] })).toBe(
      "n: 3\ndone: false\nsummary: s 3\nfiles:\n  - <files item>\nx: {}\ny: []\n",
    );
    expect(formatSimpleYamlMapping({ summary: "worker step 3: parse it", flag: "True" })).toBe(
      'summary: "worker step 3: parse it"\nflag: "True"\n',
    );
    expect(formatSimpleYamlMapping({ nested: { deeper: { value: null } } })).toBe(
      "nested:\n  deeper:\n    value: null\n",
    );
    for (const unsupported of [
      {},
      { a: "tRUE" },
      { a: 'x: "y"' },
      { a: "two\nlines" },
      { a: -0 },
      { a: [[1]] },
      { "1": 1 },
    ]) {
      expect(formatSimpleYamlMapping(unsupported)).toBeUndefined();
    }
  });
});

describe("parseSimpleYamlMapping", () => {
  test("reads exactly what the yaml library reads, for every text it accepts", () => {
    const random = createRandom(7);
    let accepted = 0;
    for (let index = 0; index < 20_000; index++) {
      const lines: string[] = [];
      const size = Math.floor(random() * 4) + 1;
      for (let line = 0; line < size; line++) {
        const key =
          random() < 0.85 ? pick(random, ["n", "done", "summary", "$status", "exit-code", "n"]) : randomString(random);
        const scalar = randomScalar(random);
        let text = typeof scalar === "string" ? scalar : String(scalar);
        if (random() < 0.15) text = `"${text}"`;
        else if (random() < 0.1) text = `'${text}'`;
        lines.push(`${random() < 0.05 ? " " : ""}${key}:${random() < 0.1 ? "  " : " "}${text}`);
        if (random() < 0.05) lines.push("");
      }
      const text = `${lines.join("\n")}\n`;
      const fast = parseSimpleYamlMapping(text);
      if (fast === undefined) continue;
      accepted++;
      const library = libraryParse(text);
      expect({ text, ok: library.ok }).toEqual({ text, ok: true });
      if (!library.ok) continue;
      expect({ text, keys: Object.keys(fast), value: fast }).toEqual({
        text,
        keys: Object.keys(library.value as object),
        value: library.value as Record<string, unknown>,
      });
    }
    expect(accepted).toBeGreaterThan(3_000);
  });

  test("reads back what formatSimpleYamlMapping writes, when both are flat", () => {
    const value = {
      $status: "pass",
      "exit-code": 0,
      n: 1001,
      done: false,
      summary: "s 1001",
      note2: "step 2: done",
      score: 0.75,
      note: null,
    };
    expect(parseSimpleYamlMapping(formatSimpleYamlMapping(value) as string)).toEqual(value);
  });

  test("leaves anything else to the library: a repeated key, nesting, comments, escapes", () => {
    for (const text of [
      "a: 1\na: 2\n",
      "a:\n  b: 1\n",
      "# note\na: 1\n",
      'a: "x\\ny"\n',
      "a:\n",
      "",
      "- a\n",
      "a: [1]\n",
    ]) {
      expect(parseSimpleYamlMapping(text)).toBeUndefined();
    }
  });
});
