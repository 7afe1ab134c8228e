import { describe, expect, it } from "bun:test";
import { historyOf } from "../../test/moderator-test-helpers.ts";
import { ConditionFailedError } from "../errors/condition-failed-error.ts";
import { ConditionTimeoutError } from "../errors/condition-timeout-error.ts";
import { compileCondition } from "./compile-condition.ts";
import { evaluateCondition } from "./evaluate-condition.ts";

const history = historyOf([
  { role: "writer", output: { summary: "first draft", files: ["a.ts"] } },
  { role: "reviewer", output: { approved: false, comments: "add a test" } },
  { role: "writer", output: { summary: "second draft", files: [] } },
  { role: "reviewer", output: { approved: true, comments: "" } },
]);

async function holds(expression: string, timeoutMs = 1000): Promise<boolean> {
  return evaluateCondition(compileCondition("probe", expression), history, timeoutMs);
}

/**
 * A hang guard, not a measurement: the runaway conditions below stop in milliseconds at their
 * limits; without the time limit the loop would never end.
 */
const HANG_GUARD_MS = 20_000;

describe("evaluateCondition", () => {
  const truthiness: [string, string, boolean][] = [
    ["false", "false", false],
    ["null", "null", false],
    ["undefined (a missing field)", "steps[0].output.missing", false],
    ["zero", "0", false],
    ["the empty string", '""', false],
    ["an empty string field", "steps[-1].output.comments", false],
    ["true", "true", true],
    ["a non-zero number", "-1", true],
    ["a non-empty string", '"no"', true],
    ["the string false", '"false"', true],
    ["an empty array", "[]", true],
    ["an empty array field", "steps[2].output.files", true],
    ["an empty object", "{}", true],
    ["an array holding zero", "[0]", true],
    ["an object", "steps[0].output", true],
  ];
  for (const [name, expression, expected] of truthiness) {
    it(`treats ${name} as ${expected}`, async () => {
      expect(await holds(expression)).toBe(expected);
    });
  }

  const helpers: [string, string][] = [
    ["$last(role) is the newest output of that role", "$last('writer').summary = 'second draft'"],
    ["$first(role) is the oldest output of that role", "$first('writer').summary = 'first draft'"],
    ["$count(role) counts that role's steps", "$count('reviewer') = 2"],
    ["$count still counts a sequence, as JSONata's built-in does", "$count(steps) = 4"],
    ["$last of a role that never spoke is undefined", "$not($exists($last('editor')))"],
    ["$count of a role that never spoke is zero", "$count('editor') = 0"],
    [
      "the input holds the start and the steps, oldest first",
      "start.prompt = 'fix the bug' and steps[0].role = 'writer'",
    ],
  ];
  for (const [name, expression] of helpers) {
    it(name, async () => {
      expect(await holds(expression)).toBe(true);
    });
  }

  it(
    "stops a looping expression at the time limit instead of hanging",
    async () => {
      const attempt = holds("($f := function($x){ $f($x) }; $f(1))", 100);
      await expect(attempt).rejects.toBeInstanceOf(ConditionTimeoutError);
      await expect(attempt).rejects.toThrow("condition probe did not finish within 100 ms");
    },
    HANG_GUARD_MS,
  );

  it("stops a runaway recursion with an error naming the condition", async () => {
    const attempt = holds("($f := function($x){ 1 + $f($x) }; $f(1))");
    await expect(attempt).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(attempt).rejects.toThrow(/^condition probe failed: Stack overflow/);
  });

  it(
    "refuses an enormous range before building it",
    async () => {
      const error = await holds("$count([1..9999999]) > 0").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConditionFailedError);
      // jsonata's sequence limit, checked before the range is built; not its time limit.
      expect((error as ConditionFailedError).message).toBe(
        "condition probe failed: The maximum sequence length of 9999999 was exceeded.",
      );
      expect((error as ConditionFailedError).data).toMatchObject({ condition: "probe", jsonataCode: "D2015" });
    },
    HANG_GUARD_MS,
  );

  it("reports an evaluation error with the condition's name and jsonata's code", async () => {
    const error = await holds("steps[0].output.summary + 1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConditionFailedError);
    expect((error as ConditionFailedError).message).toStartWith("condition probe failed: ");
    expect((error as ConditionFailedError).data).toMatchObject({ condition: "probe", jsonataCode: "T2001" });
  });
});
