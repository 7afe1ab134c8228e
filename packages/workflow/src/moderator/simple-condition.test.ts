import { describe, expect, test } from "bun:test";
import { createRandom } from "@uwf/cas/test";
import jsonata from "jsonata";
import { historyFunctions } from "./history-functions.ts";
import type { ModeratorStep } from "./moderator-history.ts";
import { parseSimpleCondition } from "./simple-condition.ts";

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

const ROLES = ["writer", "reviewer", "fixer"];
const FIELDS = ["kind", "n", "done", "ok", "files", "nested", "missing", "role"];
const VALUES: unknown[] = [
  "bug",
  "docs",
  "",
  "0",
  "true",
  0,
  1,
  -1,
  2.5,
  3,
  true,
  false,
  null,
  [],
  ["bug"],
  [1, 2],
  {},
  { kind: "bug" },
];

function randomStep(random: () => number): ModeratorStep {
  const output: Record<string, unknown> = {};
  for (const field of FIELDS) if (random() < 0.5) output[field] = pick(random, VALUES);
  // A `$SUSPEND` reply is a step of the role that `$count(role)` must not count.
  if (random() < 0.3) output.$status = pick(random, ["$SUSPEND", "approved"]);
  return {
    role: pick(random, ROLES),
    output,
    body: pick(random, ["", "done", "body"]),
    agent: pick(random, ["alice", "scripted"]),
    startedAt: "2026-11-21T10:00:00.000Z",
    completedAt: "2026-11-21T10:00:01.000Z",
  };
}

function randomOperand(random: () => number): string {
  const kind = random();
  if (kind < 0.5) {
    const index = pick(random, [-3, -2, -1, 0, 1, 2]);
    const path = pick(random, [
      ["role"],
      ["agent"],
      ["body"],
      ["output", pick(random, FIELDS)],
      ["output", pick(random, FIELDS)],
      ["output", "nested", "kind"],
      ["output", "files", "kind"],
      ["output"],
      [],
    ]);
    return `steps[${index}]${path.map((name) => `.${name}`).join("")}`;
  }
  if (kind < 0.6) return `$count(${pick(random, ['"writer"', "'fixer'", '"nobody"'])})`;
  return pick(random, ['"bug"', "'docs'", '""', "0", "1", "-1", "2.5", "3", "1e1", "true", "false", "null"]);
}

function randomComparison(random: () => number): string {
  const left = randomOperand(random);
  if (random() < 0.2) return left;
  const operator = pick(random, ["=", "!=", "<", "<=", ">", ">="]);
  return `${left}${pick(random, [" ", ""])}${operator}${pick(random, [" ", ""])}${randomOperand(random)}`;
}

function randomCondition(random: () => number): string {
  const parts = [randomComparison(random)];
  while (random() < 0.35) parts.push(pick(random, [" and ", " or "]), randomComparison(random));
  return parts.join("");
}

async function jsonataResult(
  expression: string,
  steps: ModeratorStep[],
): Promise<{ value: unknown } | { error: string }> {
  try {
    const input = { start: { prompt: "p", workflow: "w", cwd: "/" }, steps };
    return { value: await jsonata(expression).evaluate(input, historyFunctions(steps)) };
  } catch (error) {
    return { error: String((error as { code?: string }).code ?? error) };
  }
}

describe("parseSimpleCondition", () => {
  test("gives JSONata's result wherever it gives one, over generated conditions and histories", async () => {
    const random = createRandom(20261121);
    let answered = 0;
    let failedInJsonata = 0;
    for (let index = 0; index < 3_000; index++) {
      const expression = randomCondition(random);
      const simple = parseSimpleCondition(expression);
      expect({ expression, parsed: simple !== undefined }).toEqual({ expression, parsed: true });
      if (simple === undefined) continue;
      for (let run = 0; run < 4; run++) {
        const steps = Array.from({ length: Math.floor(random() * 4) }, () => randomStep(random));
        const fast = simple(steps);
        const expected = await jsonataResult(expression, steps);
        if ("error" in expected) failedInJsonata++;
        if (fast === undefined) continue;
        answered++;
        expect({ expression, steps, result: fast }).toEqual({
          expression,
          steps,
          result: expected as { value: unknown },
        });
      }
    }
    expect(answered).toBeGreaterThan(8_000);
    expect(failedInJsonata).toBeGreaterThan(100);
  });

  test("answers the conditions of the examples without JSONata", () => {
    const steps: ModeratorStep[] = [
      { role: "fixer", output: {}, body: "", agent: "a", startedAt: "", completedAt: "" },
      {
        role: "triager",
        output: { kind: "bug", approved: false },
        body: "",
        agent: "a",
        startedAt: "",
        completedAt: "",
      },
    ];
    const cases: [string, unknown][] = [
      ['steps[-1].output.kind = "bug"', true],
      ["steps[-1].output.approved = false", true],
      ['steps[-2].role = "fixer"', true],
      ['$count("fixer") >= 3', false],
      ['$count("fixer") >= 1 and steps[-1].output.kind != "docs"', true],
      ["steps[-1].output.done = true", false],
    ];
    for (const [expression, value] of cases) expect(parseSimpleCondition(expression)?.(steps)).toEqual({ value });
  });

  test("counts a role's completed visits, not its $SUSPEND replies, as JSONata's $count does", async () => {
    const step = (role: string, output: Record<string, unknown>): ModeratorStep => ({
      role,
      output,
      body: "",
      agent: "a",
      startedAt: "",
      completedAt: "",
    });
    const steps = [
      step("fixer", { $status: "$SUSPEND", reason: "Which branch?" }),
      step("fixer", { summary: "fixed" }),
      step("reviewer", { $status: "rejected" }),
      step("fixer", { $status: "$SUSPEND", reason: "Still unclear" }),
    ];
    const expression = '$count("fixer") = 1';
    expect(parseSimpleCondition(expression)?.(steps)).toEqual({ value: true });
    expect(await jsonataResult(expression, steps)).toEqual({ value: true });
  });

  test("leaves anything else to JSONata", () => {
    for (const expression of [
      '$count("fixer") + $count("docs-writer") >= 2',
      "steps[role = 'writer'][0].agent = 'alice'",
      "$count(steps) >= 30",
      "steps[-1].output.`exit-code` = 0",
      "steps[-1].output.$status = 'pass'",
      'steps[-1].output.kind = "a\\"b"',
      "steps[-1].output.kind in ['bug', 'docs']",
      "steps[-1].output.n = 007",
      "/* note */ steps[-1].output.done",
      "steps[-1].output.done = true and",
      "",
    ]) {
      expect(parseSimpleCondition(expression)).toBeUndefined();
    }
  });

  test("hands back to JSONata the values it does not compare itself", () => {
    const steps: ModeratorStep[] = [
      { role: "w", output: { files: ["a"], flag: true }, body: "", agent: "a", startedAt: "", completedAt: "" },
    ];
    for (const expression of [
      'steps[-1].output.files = "a"',
      "steps[-1].output.flag < 1",
      "steps[-1].output",
      "steps[-1].output.files.x = 1",
    ]) {
      expect(parseSimpleCondition(expression)?.(steps)).toBeUndefined();
    }
  });
});
