import { describe, expect, it } from "bun:test";
import { UwfError } from "@uwf/protocol";
import { normalizeSuiteAssertion, parseAssertionArgument, parseAssertionArguments } from "./parse-assertion.ts";

function errorOf(run: () => unknown): { code: string; message: string; data: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    if (!UwfError.isInstance(error)) throw error;
    return { code: error.code, message: error.message, data: error.data as Record<string, unknown> };
  }
  throw new Error("expected an error");
}

describe("parseAssertionArgument", () => {
  it("names a JSONata expression by the plain word before the first =", () => {
    expect(parseAssertionArgument('approved=outcome.status = "approved"')).toEqual({
      kind: "jsonata",
      name: "approved",
      expr: 'outcome.status = "approved"',
    });
  });

  it("takes the whole value as the expression, and its name, when what precedes = is no plain word", () => {
    expect(parseAssertionArgument('outcome.status = "approved"')).toEqual({
      kind: "jsonata",
      name: 'outcome.status = "approved"',
      expr: 'outcome.status = "approved"',
    });
    expect(parseAssertionArgument("totals.steps <= 10")).toMatchObject({ name: "totals.steps <= 10" });
    expect(parseAssertionArgument("$count(steps) != 3")).toMatchObject({ expr: "$count(steps) != 3" });
  });

  it("reads a weight after the name", () => {
    expect(parseAssertionArgument("short*2=totals.steps < 5")).toEqual({
      kind: "jsonata",
      name: "short",
      weight: 2,
      expr: "totals.steps < 5",
    });
    expect(parseAssertionArgument("cheap*0.5=outcome: approved")).toEqual({
      kind: "outcome",
      name: "cheap",
      weight: 0.5,
      status: "approved",
    });
  });

  it("reads the outcome and status shorthands, named or not", () => {
    expect(parseAssertionArgument("outcome: approved")).toEqual({
      kind: "outcome",
      name: "outcome: approved",
      status: "approved",
    });
    expect(parseAssertionArgument("ok=outcome: approved")).toEqual({ kind: "outcome", name: "ok", status: "approved" });
    expect(parseAssertionArgument("status: ended")).toEqual({ kind: "status", name: "status: ended", status: "ended" });
  });

  it("reads a command scorer, run with sh -c", () => {
    expect(parseAssertionArgument('tests=command: ./check.sh --strict "$X"')).toEqual({
      kind: "command",
      name: "tests",
      command: './check.sh --strict "$X"',
    });
  });

  it("reads a judge with and without a role", () => {
    expect(parseAssertionArgument("judge: review.yaml#critic")).toEqual({
      kind: "judge",
      name: "judge: review.yaml#critic",
      workflow: "review.yaml",
      role: "critic",
    });
    expect(parseAssertionArgument("quality=judge: grader")).toEqual({
      kind: "judge",
      name: "quality",
      workflow: "grader",
    });
  });

  it("reads a YAML or JSON flow mapping in the suite's item form", () => {
    expect(parseAssertionArgument("{name: tests, command: [sh, check.sh], weight: 2, timeoutSeconds: 5}")).toEqual({
      kind: "command",
      name: "tests",
      command: ["sh", "check.sh"],
      weight: 2,
      timeoutSeconds: 5,
    });
    expect(parseAssertionArgument('{"kind": "status", "name": "done", "status": "ended"}')).toEqual({
      kind: "status",
      name: "done",
      status: "ended",
    });
  });

  it("refuses an expression that does not compile, naming the assertion and the position", () => {
    const error = errorOf(() => parseAssertionArgument("broken=steps[0].output.x = ("));
    expect(error.code).toBe("invalid-assertion");
    expect(error.message).toStartWith('assertion "broken": the expression does not compile at position');
    expect(error.message).not.toContain("\n");
    expect(error.data.assertion).toBe("broken");
    expect(typeof error.data.position).toBe("number");
  });

  it("refuses a status that is no thread status, an empty value, nothing after =, and a bad mapping", () => {
    expect(errorOf(() => parseAssertionArgument("status: finished")).message).toContain(
      'status "finished" is none of active, waiting, suspended, ended, cancelled, failed',
    );
    expect(errorOf(() => parseAssertionArgument("   ")).code).toBe("invalid-assertion");
    expect(errorOf(() => parseAssertionArgument("x=")).message).toBe('assertion "x": nothing follows the `=`');
    expect(errorOf(() => parseAssertionArgument("{name: a, command: x, colour: red}")).message).toBe(
      'assertion "a": unknown key colour',
    );
    expect(errorOf(() => parseAssertionArgument("{name: a, weight: -1, outcome: ok}")).data.field).toBe("weight");
    expect(errorOf(() => parseAssertionArgument("{name: [")).message).toContain("not a YAML mapping");
  });
  it('refuses a constant expression, which is what `status="ended"` without spaces would be', () => {
    const error = errorOf(() => parseAssertionArgument('status="ended"'));
    expect(error.message).toStartWith('assertion "status": the expression "ended" is a constant');
    expect(errorOf(() => parseAssertionArgument("x=1")).code).toBe("invalid-assertion");
    expect(errorOf(() => parseAssertionArgument("true")).code).toBe("invalid-assertion");
  });
});

describe("parseAssertionArguments", () => {
  it("keeps the order and refuses two assertions of one name", () => {
    expect(parseAssertionArguments(["a=final.ok", "b=outcome: ok"]).map((assertion) => assertion.name)).toEqual([
      "a",
      "b",
    ]);
    const error = errorOf(() => parseAssertionArguments(["a=final.ok", "a=status: ended"]));
    expect(error.message).toContain('assertion "a": two assertions have this name');
  });
});

describe("normalizeSuiteAssertion", () => {
  it("reads each kind's key, with the item's text as the name by default", () => {
    expect(normalizeSuiteAssertion({ expr: "totals.costUsd < 1" })).toEqual({
      kind: "jsonata",
      name: "totals.costUsd < 1",
      expr: "totals.costUsd < 1",
    });
    expect(normalizeSuiteAssertion({ outcome: "approved", weight: 3 })).toEqual({
      kind: "outcome",
      name: "outcome: approved",
      status: "approved",
      weight: 3,
    });
    expect(normalizeSuiteAssertion({ status: "ended", name: "finished" })).toEqual({
      kind: "status",
      name: "finished",
      status: "ended",
    });
    expect(normalizeSuiteAssertion({ command: ["node", "score.js"], cwd: "scorers" })).toEqual({
      kind: "command",
      name: "command: node score.js",
      command: ["node", "score.js"],
      cwd: "scorers",
    });
    expect(
      normalizeSuiteAssertion({ judge: "judge.yaml", role: "critic", agent: "claude", prompt: "Be strict." }),
    ).toEqual({
      kind: "judge",
      name: "judge: judge.yaml#critic",
      workflow: "judge.yaml",
      role: "critic",
      agent: "claude",
      prompt: "Be strict.",
    });
    expect(normalizeSuiteAssertion({ judge: { workflow: "judge.yaml", role: "critic" }, name: "j" })).toEqual({
      kind: "judge",
      name: "j",
      workflow: "judge.yaml",
      role: "critic",
    });
  });

  it("reads a string item as --assert does", () => {
    expect(normalizeSuiteAssertion("ok=outcome: approved")).toEqual({
      kind: "outcome",
      name: "ok",
      status: "approved",
    });
  });

  it("refuses an item with no kind key, two of them, a role given twice, or another shape", () => {
    expect(errorOf(() => normalizeSuiteAssertion({ name: "x", weight: 1 })).message).toBe(
      'assertion "x": it has none of the keys expr, outcome, status, command, judge',
    );
    expect(errorOf(() => normalizeSuiteAssertion({ expr: "true", outcome: "ok" })).message).toContain(
      "more than one of the keys expr, outcome, status, command, judge (expr, outcome)",
    );
    expect(errorOf(() => normalizeSuiteAssertion({ judge: "j.yaml#a", role: "b" })).data.field).toBe("role");
    expect(errorOf(() => normalizeSuiteAssertion(3)).code).toBe("invalid-assertion");
    expect(errorOf(() => normalizeSuiteAssertion({ expr: "(" })).data.position).toEqual(expect.any(Number));
  });
});
