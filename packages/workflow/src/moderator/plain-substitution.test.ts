import { describe, expect, it, test } from "bun:test";
import { createRandom } from "@uwf/cas/test";
import { edgeTemplateEngine } from "./edge-template.ts";
import { isPlainSubstitution, renderPlainSubstitution } from "./plain-substitution.ts";

const context = {
  summary: "Added a flag",
  start: { prompt: "Fix it" },
  count: 3,
  ratio: 0.1 + 0.2,
  huge: 1e21,
  tiny: -1e-7,
  done: false,
  files: ["a", "b"],
  nothing: null,
  _body: "Body",
};

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** Liquid's literal names, names that only look like them, names Liquid treats specially, and plain ones. */
const NAMES = [
  ...["true", "false", "nil", "null", "empty", "blank"],
  ...["TRUE", "Nil", "nil_x", "true1", "emptyish", "blanks", "nullable", "_false"],
  ...["size", "first", "last", "forloop", "self"],
  ...["summary", "count", "done", "files", "nested", "_body", "missing"],
];

const SCALARS: unknown[] = [
  "",
  "x",
  "Added a flag",
  "two\nlines",
  "{{ summary }}",
  "<b>&amp;</b>",
  "é ✓",
  " padded ",
  0,
  -0,
  1,
  -1,
  0.1 + 0.2,
  1e21,
  -1e-7,
  2 ** 53 + 2,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  null,
];

function randomValue(random: () => number, depth: number): unknown {
  const kind = random();
  if (depth < 2 && kind < 0.15)
    return Array.from({ length: Math.floor(random() * 3) }, () => randomValue(random, depth + 1));
  if (depth < 2 && kind < 0.35) return randomContext(random, depth + 1);
  return pick(random, SCALARS);
}

function randomContext(random: () => number, depth = 0): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const name of NAMES) if (random() < 0.4) result[name] = randomValue(random, depth);
  return result;
}

function randomPlaceholder(random: () => number): string {
  const segments = [pick(random, NAMES)];
  while (random() < 0.25) segments.push(pick(random, NAMES));
  const [before, after] = pick(random, [
    [" ", " "],
    ["", ""],
    ["  ", "\t"],
    ["\n", " "],
    [" ", ""],
  ]);
  return `{{${before}${segments.join(".")}${after}}}`;
}

const TEXT = ["Review: ", "", " ", "\n", "text", "{", "}", "%", "{ {", "} }", "{{", "}}", "{%", "%}", "$status", "é"];

function randomTemplate(random: () => number): string {
  const parts: string[] = [];
  const length = 1 + Math.floor(random() * 4);
  for (let index = 0; index < length; index++) {
    parts.push(random() < 0.55 ? randomPlaceholder(random) : pick(random, TEXT));
  }
  return parts.join("");
}

async function liquidResult(
  source: string,
  values: Record<string, unknown>,
): Promise<{ text: string } | { error: true }> {
  try {
    return { text: await edgeTemplateEngine().parseAndRender(source, values) };
  } catch {
    return { error: true };
  }
}

describe("renderPlainSubstitution", () => {
  test("renders exactly what liquidjs renders, wherever it renders, over generated templates and contexts", async () => {
    const random = createRandom(20261121);
    let answered = 0;
    let literalsDeferred = 0;
    for (let index = 0; index < 4_000; index++) {
      const source = randomTemplate(random);
      for (let run = 0; run < 2; run++) {
        const values = { ...randomContext(random), start: { prompt: "Fix it" }, thread: { id: "T" } };
        const fast = renderPlainSubstitution(source, values);
        if (fast === undefined) {
          if (/\{\{\s*(true|false|nil|null|empty|blank)\s*\}\}/.test(source)) literalsDeferred++;
          continue;
        }
        answered++;
        expect({ source, values, result: await liquidResult(source, values) }).toEqual({
          source,
          values,
          result: { text: fast },
        });
      }
    }
    expect(answered).toBeGreaterThan(1_000);
    expect(literalsDeferred).toBeGreaterThan(200);
  });

  it("renders variable outputs exactly as Liquid does", async () => {
    const sources = [
      "Review: {{ summary }}",
      "{{start.prompt}} / {{ _body }}\n{{ summary }}!",
      "No variables.",
      "Step {{ count }} of {{ huge }}: {{ ratio }}, {{ tiny }}, done={{ done }}",
    ];
    for (const source of sources) {
      expect(renderPlainSubstitution(source, context)).toBe(await edgeTemplateEngine().parseAndRender(source, context));
    }
  });

  it("leaves Liquid's literal names to Liquid, even when a field has that name", async () => {
    const fields = { empty: "E", blank: "B", nil: "N", null: "U", true: "T", false: "F", nested: { true: "t" } };
    for (const [source, rendered] of [
      ["{{ empty }}", ""],
      ["{{ blank }}", ""],
      ["{{ nil }}", ""],
      ["{{ null }}", ""],
      ["{{ true }}", "true"],
      ["{{ false }}", "false"],
    ]) {
      expect(isPlainSubstitution(`x {{ summary }} ${source}`)).toBe(false);
      expect(renderPlainSubstitution(source as string, fields)).toBeUndefined();
      expect(await edgeTemplateEngine().parseAndRender(source as string, fields)).toBe(rendered as string);
    }
    // A property of that name is an ordinary field.
    expect(renderPlainSubstitution("{{ nested.true }}", fields)).toBe("t");
  });

  it("leaves tags, filters, whitespace control, null, lists and objects to Liquid", () => {
    expect(isPlainSubstitution("{% if summary %}x{% endif %}")).toBe(false);
    expect(isPlainSubstitution("{{ files | join: ', ' }}")).toBe(false);
    expect(isPlainSubstitution("{{- summary }}")).toBe(false);
    expect(isPlainSubstitution("{{ ['$status'] }}")).toBe(false);
    expect(renderPlainSubstitution("{{ nothing }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ start }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ files }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ missing }}", context)).toBeUndefined();
    expect(renderPlainSubstitution("{{ summary.length }}", context)).toBeUndefined();
  });
});
