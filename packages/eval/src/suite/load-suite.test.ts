import { afterAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { InvalidSuiteError, loadSuite } from "../index.ts";

const FIXTURES = resolve(import.meta.dir, "../../test/fixtures");
/** Suite files are written into the fixtures folder's temp sibling, so their relative paths reach the fixtures. */
const dir = mkdtempSync(join(FIXTURES, ".suites-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written = 0;
function suiteFile(text: string): string {
  const file = join(dir, `suite-${++written}.yaml`);
  writeFileSync(file, text);
  return file;
}

/** The problems of a suite that does not load, as `LINE:COL path: message`. */
function problemsOf(text: string): string[] {
  const file = suiteFile(text);
  try {
    loadSuite(file);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSuiteError);
    const invalid = error as InvalidSuiteError;
    expect(invalid.code).toBe("invalid-suite");
    expect(invalid.message.startsWith(`suite ${file} is invalid`)).toBe(true);
    return invalid.problems.map((problem) => {
      expect(problem.file).toBe(file);
      // The message lists each problem as `FILE:LINE:COL: field: what is wrong`.
      const place = problem.line === null ? file : `${file}:${problem.line}:${problem.column}`;
      expect(invalid.message).toContain(
        problem.path === "" ? `  ${place}: ${problem.message}` : `  ${place}: ${problem.path}: ${problem.message}`,
      );
      return `${problem.line}:${problem.column} ${problem.path}: ${problem.message}`;
    });
  }
  throw new Error("the suite loaded");
}

describe("loadSuite", () => {
  it("loads cases × variants over an ordered-transition workflow with JSONata conditions", () => {
    const file = suiteFile(`name: login-fix
workflow: ../workflows/fix-list.yaml
repeat: 3
cases:
  - name: redirect
    promptFile: ../prompts/redirect.md
    inputs: { area: auth }
    fixture: ../fixtures/login-app
    assert:
      - { name: checked, expr: 'final.ok = true' }
  - name: logout
    prompt: Fix the logout button
variants:
  - name: baseline
    agent: scripted:../scenarios/list-pass.yaml
  - name: retry
    agent: scripted:../scenarios/list-retry.yaml
    model: claude-sonnet-4-5
    config: { retries: 0, agents: { mine: { command: echo } } }
budget: { max_steps: 20, max_cost_usd: 0.5 }
max_cost_usd: 5
assert:
  - { outcome: approved }
  - name: short
    expr: totals.steps <= 4
    weight: 2
gate: { min_pass_rate: 0.8, min_case_pass_rate: 0.5, pass_k: 3 }
`);
    const suite = loadSuite(file);
    expect(suite).toMatchObject({
      file,
      dir,
      name: "login-fix",
      description: null,
      workflow: join(FIXTURES, "workflows/fix-list.yaml"),
      repeat: 3,
      from: null,
      count: 0,
      budget: { maxSteps: 20, maxCostUsd: 0.5 },
      maxCostUsd: 5,
      gate: { minPassRate: 0.8, minCasePassRate: 0.5, passK: 3 },
    });
    expect(suite.text).toStartWith("name: login-fix\n");
    expect(suite.cases).toEqual([
      {
        name: "redirect",
        prompt: "Fix the login redirect bug:\nafter signing in, users land on /404.\n",
        promptFile: join(FIXTURES, "prompts/redirect.md"),
        inputs: { area: "auth" },
        fixture: join(FIXTURES, "fixtures/login-app"),
        assert: [
          {
            value: { name: "checked", expr: "final.ok = true" },
            file,
            line: 10,
            column: 9,
            path: "cases[0].assert[0]",
          },
        ],
      },
      { name: "logout", prompt: "Fix the logout button", promptFile: null, inputs: {}, fixture: null, assert: [] },
    ]);
    expect(suite.variants).toEqual([
      {
        name: "baseline",
        agent: `scripted:${join(FIXTURES, "scenarios/list-pass.yaml")}`,
        model: null,
        workflow: null,
        config: null,
      },
      {
        name: "retry",
        agent: `scripted:${join(FIXTURES, "scenarios/list-retry.yaml")}`,
        model: "claude-sonnet-4-5",
        workflow: null,
        config: { retries: 0, agents: { mine: { command: "echo" } } },
      },
    ]);
    expect(suite.assert).toEqual([
      { value: { outcome: "approved" }, file, line: 23, column: 5, path: "assert[0]" },
      { value: { name: "short", expr: "totals.steps <= 4", weight: 2 }, file, line: 24, column: 5, path: "assert[1]" },
    ]);
  });

  it("loads a suite over a $status-map workflow with Liquid prompts, with a registered workflow name in a variant", () => {
    const file = suiteFile(`name: review
cases:
  - { name: only, prompt: Fix it }
variants:
  - { name: files, workflow: ../workflows/fix-status.yaml }
  - { name: registered, workflow: fix-status }
`);
    const suite = loadSuite(file);
    expect(suite.workflow).toBeNull();
    expect(suite.repeat).toBe(1);
    expect(suite.gate).toBeNull();
    expect(suite.maxCostUsd).toBeNull();
    expect(suite.budget).toEqual({});
    expect(suite.variants.map((variant) => variant.workflow)).toEqual([
      join(FIXTURES, "workflows/fix-status.yaml"),
      "fix-status",
    ]);
  });

  it("loads a `from:` suite: count forks per variant, one unnamed variant by default", () => {
    const suite = loadSuite(suiteFile("name: forks\nfrom: 01JABCDEF\ncount: 10\nassert: []\n"));
    expect(suite).toMatchObject({ from: "01JABCDEF", count: 10, repeat: 1, cases: [], workflow: null });
    expect(suite.variants).toEqual([{ name: null, agent: null, model: null, workflow: null, config: null }]);
  });

  it("names the file, line, column and field of each kind of mistake", () => {
    // Not YAML.
    expect(problemsOf("name: x\ncases: [\n")).toEqual([expect.stringMatching(/^3:1 : Flow sequence/)]);
    // A duplicate key.
    expect(problemsOf("name: x\nname: y\nfrom: T\n")).toEqual(['2:1 name: duplicate key "name"']);
    // Not a map.
    expect(problemsOf("- a\n- b\n")).toEqual([
      "1:1 : a suite file is a YAML map with name, workflow, cases (or from) and assert",
    ]);
    // Schema: a missing name, a wrong type, an unknown field, a bad assertion list, a bad gate value.
    expect(
      problemsOf(`workflow: ../workflows/fix-list.yaml
repeat: two
cases:
  - { name: a, prompt: p, fixtures: x }
assert: [ approved ]
gate: { min_pass_rate: 1.5 }
`),
    ).toEqual([
      "1:1 name: missing required field",
      "2:9 repeat: expected a number, got string",
      '4:27 cases[0].fixtures: unknown field "fixtures"',
      "5:11 assert[0]: expected a map, got string",
      "6:24 gate.min_pass_rate: Too big: expected number to be <=1",
    ]);
    // The rules between fields, and files that are not there.
    expect(
      problemsOf(`name: x
workflow: ../workflows/missing.yaml
count: 3
cases:
  - { name: a, prompt: p, promptFile: ../prompts/redirect.md }
  - { name: a }
  - { name: b, promptFile: nowhere.md, fixture: ../fixtures/none }
variants:
  - { name: v, agent: "scripted:none.yaml" }
  - { agent: x }
  - { name: v, config: { retries: -1, bogus: 1 } }
`),
    ).toEqual([
      `2:11 workflow: no such workflow file: ${join(FIXTURES, "workflows/missing.yaml")}`,
      "3:1 count: `count:` gives the forks per variant of `from:`; cases repeat with `repeat:`",
      "5:27 cases[0].promptFile: give `prompt:` or `promptFile:`, not both",
      "6:5 cases[1]: missing `prompt:` (or `promptFile:`)",
      '6:13 cases[1].name: duplicate case name "a"',
      expect.stringMatching(/^7:28 cases\[2\]\.promptFile: cannot read .*nowhere\.md: /),
      `7:49 cases[2].fixture: not a folder: ${join(FIXTURES, "fixtures/none")}`,
      `9:23 variants[0].agent: no such scenario file: ${join(dir, "none.yaml")}`,
      "10:5 variants[1]: missing `name:` (every variant needs one when there are several)",
      '11:13 variants[2].name: duplicate variant name "v"',
      "11:35 variants[2].config.retries: Too small: expected number to be >=0",
      '11:39 variants[2].config.bogus: unknown field "bogus"',
    ]);
    // Neither cases nor from; both; a from suite that names a workflow or repeats.
    expect(problemsOf("name: x\nworkflow: w\n")).toEqual([
      "1:1 cases: missing `cases:` (threads to start) or `from:` (a thread or node to fork)",
    ]);
    expect(
      problemsOf(`name: x
from: T
workflow: w
repeat: 2
cases: [ { name: a, prompt: p } ]
variants: [ { name: v, workflow: w2 } ]
`),
    ).toEqual([
      "2:1 from: give `cases:` (threads to start) or `from:` (a thread or node to fork), not both",
      "3:1 workflow: a `from:` suite forks a thread, which keeps its own workflow",
      "4:1 repeat: with `from:`, `count:` gives the forks per variant; `repeat:` is for cases",
      "6:24 variants[0].workflow: a `from:` suite forks a thread, which keeps its own workflow",
    ]);
    // No workflow for cases.
    expect(problemsOf("name: x\ncases: [ { name: a, prompt: p } ]\n")).toEqual([
      "1:1 workflow: missing required field (or a `workflow:` in every variant)",
    ]);
  });

  it("reports a file it cannot read without a line", () => {
    const file = join(dir, "absent.yaml");
    expect(() => loadSuite(file)).toThrow(InvalidSuiteError);
    try {
      loadSuite(file);
    } catch (error) {
      expect((error as InvalidSuiteError).problems).toEqual([
        { file, line: null, column: null, path: "", message: expect.stringMatching(/^cannot read the file: /) },
      ]);
    }
  });
});
