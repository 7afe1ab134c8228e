import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_YAML_NESTING } from "../yaml/yaml-limits.ts";
import { loadWorkflowFile, safeLoadWorkflowFile } from "./load-workflow-file.ts";
import { MAX_EXPANDED_WORKFLOW_SIZE, MAX_INCLUDES, MAX_WORKFLOW_BYTES } from "./workflow-limits.ts";

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

/** The problems of a workflow file refused as `invalid-workflow`, each as `LINE:COLUMN PATH: MESSAGE`. */
function problemsOf(file: string): string[] {
  const result = safeLoadWorkflowFile(file);
  if (result.success) return [];
  expect(result.error.code).toBe("invalid-workflow");
  expect(result.error.data.file).toBe(file);
  return result.error.problems.map(
    (problem) => `${problem.line}:${problem.column} ${problem.path}: ${problem.message}`,
  );
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "uwf-load-workflow-"));
  folder = join(root, "workflows");
  mkdirSync(join(folder, "shared"), { recursive: true });
  writeFileSync(join(folder, "goal.md"), "Write the smallest change.\n");
  writeFileSync(join(folder, "..notes.md"), "Dotted name.\n");
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

  it("inserts a file whose name starts with two dots", () => {
    const { workflow } = loadWorkflowFile(writeWorkflow("dotted-include", "!include ..notes.md"));
    expect(workflow.roles.writer?.goal).toBe("Dotted name.\n");
  });

  it("refuses an include outside the workflow's folder", () => {
    expect(problemsOf(writeWorkflow("escape", "!include ../secret.md"))).toEqual([
      "4:11 roles.writer.goal: !include ../secret.md: outside the workflow's folder",
    ]);
  });

  it("refuses an absolute include path", () => {
    const secret = join(root, "secret.md");
    const file = writeWorkflow("absolute", `!include ${secret}`);
    expect(problemsOf(file)).toEqual([
      `4:11 roles.writer.goal: !include ${secret}: an absolute path; includes are relative to the workflow's folder`,
    ]);
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

  it("refuses an include that is a folder, naming it at the include", () => {
    expect(problemsOf(writeWorkflow("folder", "!include shared"))).toEqual([
      "4:11 roles.writer.goal: !include shared: is a directory, not a file",
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
      `null:null : the file is ${MAX_WORKFLOW_BYTES + 3} bytes, over the 1 MiB limit for a workflow`,
    ]);
  });

  describe("limits on the workflow with its includes", () => {
    /** A workflow whose `x-` keys (accepted and ignored) hold `extra`. */
    function writeWithExtra(name: string, extra: string[]): string {
      const file = writeWorkflow(name, "Write.");
      writeFileSync(file, `${readFileSync(file, "utf8")}${extra.join("\n")}\n`);
      return file;
    }

    beforeAll(() => {
      writeFileSync(join(folder, "one-mib.md"), "x".repeat(MAX_WORKFLOW_BYTES));
    });

    // A hang guard, not a measurement: reading stops at the ninth MiB instead of all forty.
    it(`refuses includes that add up to more than ${MAX_EXPANDED_WORKFLOW_SIZE} bytes, with one problem at the include over it`, () => {
      const includes = Array.from({ length: 40 }, (_, index) => `x-${index}: !include one-mib.md`);
      expect(problemsOf(writeWithExtra("many-big", includes))).toEqual([
        `16:6 x-7: !include one-mib.md: the workflow with its includes is over ${MAX_EXPANDED_WORKFLOW_SIZE} bytes (8 MiB)`,
      ]);
    }, 20_000);

    it(`accepts ${MAX_INCLUDES} includes and refuses one more`, () => {
      const includes = (count: number) => Array.from({ length: count }, (_, index) => `x-${index}: !include goal.md`);
      expect(problemsOf(writeWithExtra("includes-at-limit", includes(MAX_INCLUDES)))).toEqual([]);
      expect(problemsOf(writeWithExtra("includes-over-limit", includes(MAX_INCLUDES + 1)))).toEqual([
        `${9 + MAX_INCLUDES}:${5 + String(MAX_INCLUDES).length} x-${MAX_INCLUDES}: !include goal.md: a workflow may have at most ${MAX_INCLUDES} includes`,
      ]);
    });

    it("counts the includes of included files, and says through which include the limit was reached", () => {
      writeFileSync(
        join(folder, "shared", "many.yaml"),
        Array.from({ length: MAX_INCLUDES + 1 }, () => "- !include ../goal.md").join("\n"),
      );
      const problems = problemsOf(writeWithExtra("nested-includes", ["x-many: !include shared/many.yaml"]));
      expect(problems).toEqual([
        `9:9 x-many: !include shared/many.yaml: !include ../goal.md: a workflow may have at most ${MAX_INCLUDES} includes`,
      ]);
    });

    it("refuses an include repeated by aliases past the expanded size", () => {
      const aliases = Array(9).fill("*big").join(", ");
      const problems = problemsOf(
        writeWithExtra("aliased-big", ["x-big: &big !include one-mib.md", `x-more: [${aliases}]`]),
      );
      expect(problems).toEqual([
        `null:null : the workflow with its includes and aliases expanded is over ${MAX_EXPANDED_WORKFLOW_SIZE} characters (8 MiB) of JSON`,
      ]);
    });

    it(`refuses nesting deeper than ${MAX_YAML_NESTING} levels with one short problem`, () => {
      for (const levels of [MAX_YAML_NESTING, 100_000]) {
        const problems = problemsOf(
          writeWithExtra(`deep-${levels}`, [`x-deep: ${"[".repeat(levels)}${"]".repeat(levels)}`]),
        );
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(
          new RegExp(`^9:\\d+ : mappings and lists nest deeper than ${MAX_YAML_NESTING} levels$`),
        );
      }
      expect(
        problemsOf(
          writeWithExtra("deep-ok", [`x-deep: ${"[".repeat(MAX_YAML_NESTING - 1)}${"]".repeat(MAX_YAML_NESTING - 1)}`]),
        ),
      ).toEqual([]);
    });

    it("refuses an included JSON or YAML file nested too deep", () => {
      writeFileSync(join(folder, "deep.json"), `${"[".repeat(5000)}${"]".repeat(5000)}`);
      writeFileSync(join(folder, "deep.yaml"), `${"[".repeat(5000)}${"]".repeat(5000)}`);
      for (const include of ["deep.json", "deep.yaml"]) {
        const problems = problemsOf(
          writeWithExtra(`includes-${include.replace(".", "-")}`, [`x-deep: !include ${include}`]),
        );
        expect(problems).toHaveLength(1);
        expect(problems[0]).toContain(`!include ${include}: `);
        expect(problems[0]).toContain(`nest deeper than ${MAX_YAML_NESTING} levels`);
        expect(problems[0]?.length).toBeLessThan(200);
      }
    });
  });

  describe("a long enum (its words composed apart from the yaml library)", () => {
    const values = Array.from({ length: 1000 }, (_, index) => `v${index}`);
    const frontmatter = `{ type: object, properties: { pick: { type: string, enum: [${values.join(", ")}] } } }`;

    it("loads the values as written", () => {
      const { workflow } = loadWorkflowFile(writeWorkflow("long-enum", "Write.", frontmatter));
      expect(workflow.roles.writer?.frontmatter).toEqual({
        type: "object",
        properties: { pick: { type: "string", enum: values } },
      });
    });

    it("reports a duplicate key beside it at its line", () => {
      const file = writeWorkflow("long-enum-duplicate", "Write.", frontmatter);
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace("  writer: [{ role: $END }]", "  writer: [{ role: $END }]\nname: again"),
      );
      expect(problemsOf(file)).toEqual(['9:1 name: duplicate key "name"']);
    });

    it("reports a problem of the workflow beside it at its line", () => {
      expect(problemsOf(writeWorkflow("long-enum-problem", "[not, a, goal]", frontmatter))).toEqual([
        "4:5 roles.writer.goal: expected a string, got array",
      ]);
    });

    it(`counts ${MAX_INCLUDES} includes once when the workflow is parsed twice (an alias beside the enum)`, () => {
      const file = writeWorkflow("long-enum-includes", "Write.", frontmatter);
      const includes = Array.from({ length: MAX_INCLUDES }, (_, index) => `x-${index}: !include goal.md`);
      writeFileSync(
        file,
        `${readFileSync(file, "utf8")}x-anchor: &anchor 1\nx-alias: *anchor\n${includes.join("\n")}\n`,
      );
      expect(problemsOf(file)).toEqual([]);
    });
  });

  it("reports a missing file as an invalid workflow", () => {
    const result = safeLoadWorkflowFile(join(folder, "absent.yaml"));
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.problems[0]?.message).toStartWith("cannot read the file:");
  });
});
