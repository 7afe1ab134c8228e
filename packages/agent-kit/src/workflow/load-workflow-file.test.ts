import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadWorkflowFile, safeLoadWorkflowFile } from "./load-workflow-file.ts";
import { MAX_WORKFLOW_BYTES } from "./workflow-limits.ts";

let root: string;
let folder: string;

/** A workflow whose writer goal and reviewer schema come from wherever the test says. */
function writeWorkflow(name: string, goal: string, frontmatter = "{ type: object }"): string {
  const file = join(folder, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
roles:
  writer:
    goal: ${goal}
    frontmatter: ${frontmatter}
graph:
  $START: [{ role: writer, prompt: "Go." }]
  writer: [{ role: $END }]
`,
  );
  return file;
}

function problemsOf(file: string): string[] {
  const result = safeLoadWorkflowFile(file);
  if (result.success) return [];
  return result.error.problems.map(
    (problem) => `${problem.line}:${problem.column} ${problem.path}: ${problem.message}`,
  );
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "uwf-load-workflow-"));
  folder = join(root, "workflows");
  mkdirSync(join(folder, "shared"), { recursive: true });
  writeFileSync(join(folder, "goal.md"), "Write the smallest change.\n");
  writeFileSync(join(folder, "shared", "schema.yaml"), "type: object\nproperties:\n  summary: { type: string }\n");
  writeFileSync(join(folder, "schema.json"), '{ "type": "object", "properties": { "done": { "type": "boolean" } } }');
  writeFileSync(join(folder, "loop-a.yaml"), "!include loop-b.yaml\n");
  writeFileSync(join(folder, "loop-b.yaml"), "!include loop-a.yaml\n");
  writeFileSync(join(root, "secret.md"), "outside\n");
  symlinkSync(join(root, "secret.md"), join(folder, "link.md"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("loadWorkflowFile", () => {
  it("inserts a text file from the workflow's folder as a string", () => {
    const { workflow } = loadWorkflowFile(writeWorkflow("text-include", "!include goal.md"));
    expect(workflow.roles.writer?.goal).toBe("Write the smallest change.\n");
  });

  it("inserts YAML from a subfolder and JSON as data", () => {
    const yaml = loadWorkflowFile(writeWorkflow("yaml-include", "Write.", "!include shared/schema.yaml"));
    expect(yaml.workflow.roles.writer?.frontmatter).toEqual({
      type: "object",
      properties: { summary: { type: "string" } },
    });
    const json = loadWorkflowFile(writeWorkflow("json-include", "Write.", "!include schema.json"));
    expect(json.workflow.roles.writer?.frontmatter).toEqual({
      type: "object",
      properties: { done: { type: "boolean" } },
    });
  });

  it("refuses an include outside the workflow's folder", () => {
    expect(problemsOf(writeWorkflow("escape", "!include ../secret.md"))).toEqual([
      "4:11 roles.writer.goal: !include ../secret.md: outside the workflow's folder",
    ]);
  });

  it("refuses an absolute include path", () => {
    const file = writeWorkflow("absolute", `!include ${join(root, "secret.md")}`);
    expect(problemsOf(file)[0]).toContain("an absolute path; includes are relative to the workflow's folder");
  });

  it("refuses a symlink that leads out of the folder", () => {
    expect(problemsOf(writeWorkflow("symlink", "!include link.md"))).toEqual([
      "4:11 roles.writer.goal: !include link.md: a symlink that leads outside the workflow's folder",
    ]);
  });

  it("reports a missing include", () => {
    expect(problemsOf(writeWorkflow("missing", "!include nope.md"))).toEqual([
      "4:11 roles.writer.goal: !include nope.md: no such file in the workflow's folder",
    ]);
  });

  it("stops includes that include each other", () => {
    expect(problemsOf(writeWorkflow("cycle", "!include loop-a.yaml"))[0]).toContain("(a cycle?)");
  });

  it("loads a copied and renamed file under its own name, with a warning", () => {
    const file = join(folder, "renamed.yaml");
    writeFileSync(
      file,
      "name: original\nroles: { w: { goal: W. } }\ngraph: { $START: [{ role: w, prompt: Go. }], w: [{ role: $END }] }\n",
    );
    const { workflow, warnings } = loadWorkflowFile(file);
    expect(workflow.name).toBe("original");
    expect(warnings.map((problem) => `${problem.line}:${problem.column} ${problem.path}: ${problem.message}`)).toEqual([
      '1:7 name: the name "original" differs from the file name "renamed"; the workflow is registered as "original"',
    ]);
  });

  it("refuses a file over 1 MiB without reading it", () => {
    const file = join(folder, "huge.yaml");
    writeFileSync(file, `# ${"x".repeat(MAX_WORKFLOW_BYTES)}\n`);
    expect(problemsOf(file)).toEqual([
      `null:null : the file is ${MAX_WORKFLOW_BYTES + 3} bytes; a workflow may be at most ${MAX_WORKFLOW_BYTES} bytes (1 MiB)`,
    ]);
  });

  it("reports a missing file as an invalid workflow", () => {
    const result = safeLoadWorkflowFile(join(folder, "absent.yaml"));
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.problems[0]?.message).toStartWith("cannot read the file:");
  });
});
