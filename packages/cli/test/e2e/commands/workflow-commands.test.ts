import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  shownThreadSchema,
  startResultSchema,
  workflowAddResultSchema,
  workflowListResultSchema,
  workflowValidateResultSchema,
} from "@uwf/protocol";
import { writeWorkflow } from "../../../../../test/kit/workflow/write-workflow.ts";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";

let temp: TempHome;
let file: string;
beforeEach(() => {
  temp = createTempHome();
  file = join(temp.work, "linear.yaml");
  writeFileSync(file, readFileSync(join(FIXTURES, "workflows/linear.yaml")));
});
afterEach(() => temp.cleanup());

describe("workflow commands", () => {
  it("register a file once, move the name on a change, and leave old threads on their version", async () => {
    const added = workflowAddResultSchema.parse((await temp.uwf(["workflow", "add", file, "--json"])).json());
    expect(added).toMatchObject({ name: "linear", changed: true });
    const again = workflowAddResultSchema.parse((await temp.uwf(["workflow", "add", file, "--json"])).json());
    expect(again).toEqual({ ...added, changed: false });

    const byName = startResultSchema.parse((await temp.uwf(["start", "linear", "-p", "old", "--json"])).json());
    expect(byName.workflow).toBe(added.hash);

    writeFileSync(
      file,
      readFileSync(file, "utf8").replace("description: Plan, then do", "description: Plan, then act"),
    );
    const changed = workflowAddResultSchema.parse((await temp.uwf(["workflow", "add", file, "--json"])).json());
    expect(changed.changed).toBe(true);
    expect(changed.hash).not.toBe(added.hash);

    const byNewName = startResultSchema.parse((await temp.uwf(["start", "linear", "-p", "new", "--json"])).json());
    expect(byNewName.workflow).toBe(changed.hash);
    const byHash = startResultSchema.parse((await temp.uwf(["start", added.hash, "-p", "pinned", "--json"])).json());
    expect(byHash.workflow).toBe(added.hash);
    const old = shownThreadSchema.parse((await temp.uwf(["show", byName.thread, "--json"])).json());
    expect(old.workflowAddress).toBe(added.hash);
  });

  it("report every problem of an invalid file with its line, and exit 1", async () => {
    const broken = writeWorkflow(temp.work, "broken", [
      "roles:",
      "  writer:",
      "    goal: Write.",
      "graph:",
      "  $START: [ { role: writer, prompt: 'Go.' } ]",
      "  writer: [ { role: nobody, prompt: 'Next.' }, { role: writer, condition: missing, prompt: 'Again.' } ]",
    ]);
    const result = await temp.uwf(["workflow", "validate", broken]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/broken\.yaml:7:\d+: error: graph\.writer\[0\]\.role: .*nobody/);
    expect(result.stdout).toMatch(/broken\.yaml:7:\d+: error: graph\.writer\[1\]\.condition: .*missing/);
    const json = workflowValidateResultSchema.parse(
      (await temp.uwf(["workflow", "validate", broken, "--json"])).json(),
    );
    expect(json.valid).toBe(false);
    expect(json.errors.length).toBeGreaterThanOrEqual(2);
    expect(json.errors.every((problem) => problem.line === 7)).toBe(true);
    const start = await temp.uwf(["start", broken, "-p", "x"]);
    expect(start.exitCode).toBe(1);
    expect(start.stderr).toContain("nobody");
  });

  it("check a workflow with a 1,000-value enum, and report a duplicate key beside it with its line", async () => {
    const values = Array.from({ length: 1000 }, (_, index) => `v${index}`).join(", ");
    const lines = [
      "roles:",
      "  picker:",
      "    goal: Pick one.",
      `    frontmatter: { type: object, properties: { pick: { type: string, enum: [${values}] } } }`,
      "graph:",
      "  $START: [{ role: picker, prompt: 'Pick.' }]",
      "  picker: [{ role: $END }]",
    ];
    const enumFile = writeWorkflow(temp.work, "big-enum", lines);
    const valid = await temp.uwf(["workflow", "validate", enumFile]);
    expect({ exitCode: valid.exitCode, stdout: valid.stdout }).toEqual({
      exitCode: 0,
      stdout: expect.stringMatching(/big-enum\.yaml: valid \(big-enum [0-9A-Z]+\)\n$/),
    });

    writeWorkflow(temp.work, "big-enum", [...lines.slice(0, 4), "    goal: Again.", ...lines.slice(4)]);
    const duplicate = await temp.uwf(["workflow", "validate", enumFile]);
    expect(duplicate.exitCode).toBe(1);
    expect(duplicate.stdout).toMatch(/big-enum\.yaml:6:\d+: error: roles\.picker\.goal: duplicate key "goal"/);
  });

  it("list registered workflows and the project's .uwf/workflows files, and start one by its name", async () => {
    await temp.uwf(["workflow", "add", file]);
    mkdirSync(join(temp.home, "workflows"), { recursive: true });
    const projectFile = join(temp.home, "workflows", "ask.yaml");
    writeFileSync(projectFile, readFileSync(join(FIXTURES, "workflows/ask.yaml")));
    const listed = workflowListResultSchema.parse((await temp.uwf(["workflow", "list", "--json"])).json());
    expect(listed.workflows.map((workflow) => [workflow.name, workflow.source])).toEqual([
      ["linear", "registry"],
      ["ask", "project"],
    ]);
    const started = await temp.uwf(["start", "ask", "-p", "Which?", "--json"]);
    expect(started.exitCode).toBe(0);
  });

  it("print a Mermaid flowchart with conditions as edge labels", async () => {
    const result = await temp.uwf(["workflow", "show", join(FIXTURES, "workflows/reopen.yaml"), "--mermaid"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toStartWith("flowchart TD");
    expect(result.stdout).toContain("worker");
    expect(result.stdout).toContain("resume");
  });
});
