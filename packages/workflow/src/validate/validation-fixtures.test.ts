import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { WorkflowProblem } from "@uwf/protocol";
import { safeLoadWorkflowFile } from "../load/load-workflow-file.ts";

/**
 * One fixture per validation problem under test/fixtures/workflows. Each states what it
 * must produce in its header, `# expect: LINE:COLUMN path: message` for an error and
 * `# expect-warning: ...` for a warning; the file must produce exactly those.
 */
const FIXTURES = join(import.meta.dir, "../../test/fixtures/workflows");
const EXPECTATION = /^# (expect|expect-warning): (\d+):(\d+) (\S+): (.*)$/;

interface Expectation {
  severity: "error" | "warning";
  line: number;
  column: number;
  path: string;
  message: string;
}

function expectationsOf(file: string): Expectation[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line) => {
      const match = EXPECTATION.exec(line);
      if (match === null) return [];
      const [, kind, row, column, path, message] = match;
      const severity = kind === "expect" ? ("error" as const) : ("warning" as const);
      return [{ severity, line: Number(row), column: Number(column), path: path ?? "", message: message ?? "" }];
    });
}

function asExpectation(severity: "error" | "warning", problem: WorkflowProblem): Expectation {
  return {
    severity,
    line: problem.line ?? 0,
    column: problem.column ?? 0,
    path: problem.path,
    message: problem.message,
  };
}

describe("workflow validation fixtures", () => {
  const files = readdirSync(FIXTURES).filter((name) => name.endsWith(".yaml"));

  it("has a fixture for every problem under test", () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  for (const name of files) {
    it(`reports exactly what ${name} expects, with line, column and field path`, () => {
      const file = join(FIXTURES, name);
      const expected = expectationsOf(file);
      expect(expected.length).toBeGreaterThan(0);
      const result = safeLoadWorkflowFile(file);
      const actual = result.success
        ? result.value.warnings.map((problem) => asExpectation("warning", problem))
        : [
            ...result.error.problems.map((problem) => asExpectation("error", problem)),
            ...result.error.warnings.map((problem) => asExpectation("warning", problem)),
          ];
      const order = (list: Expectation[]) =>
        [...list].sort((left, right) => JSON.stringify(left).localeCompare(JSON.stringify(right)));
      expect(order(actual)).toEqual(order(expected));
      expect(result.success).toBe(expected.every((expectation) => expectation.severity === "warning"));
    });
  }
});
