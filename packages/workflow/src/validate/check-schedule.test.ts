import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { safeLoadWorkflowFile } from "../load/load-workflow-file.ts";

let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "uwf-check-schedule-"));
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** Loads a workflow with this `schedule:` (indented under it) and an `inputs:` schema needing `branch`. */
function load(schedule: string) {
  const file = join(folder, "nightly.yaml");
  writeFileSync(
    file,
    `name: nightly
inputs:
  type: object
  properties:
    branch: { type: string }
  required: [branch]
schedule:
${schedule}
roles:
  writer:
    goal: Write.
graph:
  $START: [{ role: writer, prompt: "Go." }]
  writer: [{ role: $END }]
`,
  );
  return safeLoadWorkflowFile(file);
}

function problemsOf(schedule: string): string[] {
  const result = load(schedule);
  if (result.success) return [];
  return result.error.problems.map(
    (problem) => `${problem.line}:${problem.column} ${problem.path}: ${problem.message}`,
  );
}

describe("a workflow's schedule:", () => {
  it("loads with a cron of five or six fields, a time zone, a catch-up and inputs the workflow takes", () => {
    const result = load('  cron: "0 9 * * 1-5"\n  tz: Europe/Berlin\n  catchUp: 2h\n  inputs: { branch: main }');
    expect(result.success).toBe(true);
    if (result.success) {
      expect(result.value.workflow.schedule).toEqual({
        cron: "0 9 * * 1-5",
        tz: "Europe/Berlin",
        catchUp: "2h",
        inputs: { branch: "main" },
      });
    }
    expect(load('  cron: "*/5 * * * * *"\n  inputs: { branch: main }').success).toBe(true);
  });

  it("refuses a cron expression croner cannot read, or one never due, at its line", () => {
    expect(problemsOf('  cron: "61 * * * *"\n  inputs: { branch: main }')).toEqual([
      '8:9 schedule.cron: "61 * * * *" is no cron expression: Invalid value for minute: 61',
    ]);
    expect(problemsOf('  cron: "0 0 30 2 *"\n  inputs: { branch: main }')).toEqual([
      '8:9 schedule.cron: "0 0 30 2 *" is never due',
    ]);
  });

  it("refuses an unknown time zone, a bad catch-up and an unknown overlap at their lines", () => {
    expect(
      problemsOf(
        '  cron: "0 9 * * *"\n  tz: Mars/Olympus\n  catchUp: soon\n  overlap: queue\n  inputs: { branch: main }',
      ),
    ).toEqual([
      "10:12 schedule.catchUp: expected a duration such as 90s, 15m, 24h or 1h30m",
      '11:12 schedule.overlap: Invalid option: expected one of "skip"|"allow"|"buffer-one"',
    ]);
    expect(problemsOf('  cron: "0 9 * * *"\n  tz: Mars/Olympus\n  inputs: { branch: main }')).toEqual([
      '9:7 schedule.tz: "Mars/Olympus" is no IANA time zone (such as Europe/Berlin or UTC)',
    ]);
  });

  it("refuses inputs the workflow's inputs: schema would refuse when it fires", () => {
    expect(problemsOf('  cron: "0 9 * * *"')).toEqual([
      '7:1 schedule: start inputs do not fit workflow nightly: missing required input "branch"',
    ]);
    expect(problemsOf('  cron: "0 9 * * *"\n  inputs: { branch: 7 }')).toEqual([
      '9:3 schedule.inputs: start inputs do not fit workflow nightly: input "branch": expected string, got number 7',
    ]);
  });
});
