import { describe, expect, it } from "bun:test";
import { InvalidWorkflowError } from "../errors/invalid-workflow-error.ts";
import { parseWorkflowSource, safeParseWorkflowSource } from "./parse-workflow-source.ts";
import { MAX_WORKFLOW_BYTES } from "./workflow-limits.ts";

const ROLES = `
roles:
  writer: { goal: Write. }
  reviewer:
    goal: Review.
    frontmatter: { type: object, properties: { $status: { enum: [approved, rejected] }, comments: { type: string } }, required: [comments] }
`;

const listForm = `name: loop
${ROLES}
graph:
  $START:
    - { role: writer, status: new, prompt: "Write." }
    - { role: reviewer, status: resume, prompt: "Again." }
  writer: [{ role: reviewer, prompt: "Review." }]
  reviewer:
    - { role: $END, status: approved, prompt: "Done." }
    - { role: writer, status: rejected, prompt: "Fix: {{ comments }}" }
`;

const mapForm = `name: loop
version: 3
x-owner: platform-team
${ROLES}
graph:
  $START:
    new: { role: writer, prompt: "Write." }
    resume: { role: reviewer, prompt: "Again." }
  writer: [{ role: reviewer, prompt: "Review." }]
  reviewer:
    approved: { role: $END, prompt: "Done." }
    rejected: { role: writer, prompt: "Fix: {{ comments }}" }
`;

function problemsOf(text: string): string[] {
  const result = safeParseWorkflowSource(text, { file: "w.yaml" });
  if (result.success) return [];
  return result.error.problems.map(
    (problem) => `${problem.line}:${problem.column} ${problem.path}: ${problem.message}`,
  );
}

describe("parseWorkflowSource", () => {
  it("loads the list form and the map form of the same edges to identical workflows", () => {
    const fromList = parseWorkflowSource(listForm, { file: "list.yaml" });
    const fromMap = parseWorkflowSource(mapForm, { file: "map.yaml" });
    expect(fromMap.workflow).toEqual(fromList.workflow);
    expect(JSON.stringify(fromMap.workflow)).toBe(JSON.stringify(fromList.workflow));
    expect(fromList.workflow.graph.reviewer).toEqual([
      { role: "$END", condition: null, status: "approved", prompt: "Done." },
      { role: "writer", condition: null, status: "rejected", prompt: "Fix: {{ comments }}" },
    ]);
  });

  it("keeps a budget: in both edge forms, as written, and leaves a workflow without one as it was", () => {
    const budget = "budget: { max_steps: 20, max_cost_usd: 1.5 }\n";
    const fromList = parseWorkflowSource(budget + listForm, { file: "list.yaml" }).workflow;
    const fromMap = parseWorkflowSource(budget + mapForm, { file: "map.yaml" }).workflow;
    expect(fromList.budget).toEqual({ max_steps: 20, max_cost_usd: 1.5 });
    expect(JSON.stringify(fromMap)).toBe(JSON.stringify(fromList));
    expect(parseWorkflowSource(listForm, { file: "list.yaml" }).workflow).not.toHaveProperty("budget");
  });

  it("names the field of a budget: that is wrong", () => {
    expect(problemsOf(`budget: { max_steps: -1, max_cost: 2 }\n${listForm}`)).toEqual([
      "1:22 budget.max_steps: expected 0 (no limit) or more",
      '1:26 budget.max_cost: unknown field "max_cost"',
    ]);
  });

  it("accepts version and x- keys and leaves them out of the workflow", () => {
    const { workflow, warnings } = parseWorkflowSource(mapForm, { file: "map.yaml" });
    expect(Object.keys(workflow)).toEqual(["type", "name", "roles", "conditions", "graph"]);
    expect(warnings).toEqual([]);
  });

  it("refuses a duplicate key with its line", () => {
    expect(problemsOf(`${listForm}\nname: other\n`)).toEqual(['18:1 name: duplicate key "name"']);
  });

  // A hang guard, not a measurement: the refusal takes milliseconds, the ten million strings would not.
  it("refuses an alias bomb without expanding it", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (const [index, name] of ["b", "c", "d", "e", "f", "g"].entries()) {
      const previous = "abcdefg"[index];
      levels.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(", ")}]`);
    }
    const result = safeParseWorkflowSource(`${levels.join("\n")}\n`, { file: "bomb.yaml" });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(result.error.problems[0]?.message).toStartWith("aliases expand too much (more than 100 alias expansions)");
  }, 20_000);

  it("refuses text over 1 MiB before parsing it", () => {
    const text = `name: big\n# ${"x".repeat(MAX_WORKFLOW_BYTES)}\n`;
    expect(problemsOf(text)).toEqual([
      `null:null : the file is ${MAX_WORKFLOW_BYTES + 13} bytes; a workflow may be at most ${MAX_WORKFLOW_BYTES} bytes (1 MiB)`,
    ]);
  });

  it("refuses !include when there is no file to include from", () => {
    const text = listForm.replace("writer: { goal: Write. }", "writer: { goal: !include goal.md }");
    expect(problemsOf(text)).toEqual([
      "4:19 roles.writer.goal: !include goal.md: includes need a workflow loaded from a file",
    ]);
  });

  it("reports a syntax error alone, since the rest of the file cannot be trusted", () => {
    expect(problemsOf("name: broken\nroles: [\n")).toHaveLength(1);
  });

  it("refuses a file that is not a map", () => {
    expect(problemsOf("- a\n- b\n")).toEqual(["1:1 : a workflow file is a YAML map with name, roles and graph"]);
  });

  it("throws an InvalidWorkflowError whose message lists every problem as FILE:LINE:COLUMN: path: message", () => {
    const text = listForm
      .replace("role: writer, status: new", "role: writr, status: new")
      .replace('prompt: "Review."', 'prompt: ""');
    const error = (() => {
      try {
        parseWorkflowSource(text, { file: "w.yaml" });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidWorkflowError);
    expect((error as InvalidWorkflowError).code).toBe("invalid-workflow");
    expect((error as InvalidWorkflowError).message).toBe(
      [
        "workflow w.yaml is invalid (2 problems):",
        '  w.yaml:11:15: graph.$START[0].role: unknown role "writr" (roles: writer, reviewer)',
        "  w.yaml:13:38: graph.writer[0].prompt: an edge to reviewer needs a prompt telling it what to do",
      ].join("\n"),
    );
  });
});
