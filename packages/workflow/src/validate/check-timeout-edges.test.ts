import { describe, expect, it } from "bun:test";
import { historyOf, workflowFromYaml } from "../../test/moderator-test-helpers.ts";
import { workflowToMermaid } from "../diagram/workflow-to-mermaid.ts";
import { safeParseWorkflowSource } from "../load/parse-workflow-source.ts";
import { compileWorkflow } from "../moderator/compile-workflow.ts";
import { pickNextRole } from "../moderator/pick-next-role.ts";
import { buildReplySchema } from "../schema/build-reply-schema.ts";

/** The approver waits 2s for a person's answer; both forms below send its timeout to the chaser. */
const GATE_ROLES = `name: gate
roles:
  approver:
    goal: Ask a person.
    suspendTimeout: 2s
  chaser:
    goal: Chase.`;

const mapForm = `${GATE_ROLES}
graph:
  $START: [{ role: approver, prompt: "Ask." }]
  approver:
    approved: { role: $END }
    rejected: { role: chaser, prompt: "Rejected." }
    $timeout: { role: chaser, prompt: "Nobody answered." }
  chaser: [{ role: $END }]
`;

const listForm = `${GATE_ROLES}
conditions:
  always: { expression: "true" }
graph:
  $START: [{ role: approver, prompt: "Ask." }]
  approver:
    - { role: chaser, condition: $timeout, prompt: "Nobody answered." }
    - { role: $END, condition: always }
  chaser: [{ role: $END }]
`;

function problemsOf(text: string): string[] {
  const result = safeParseWorkflowSource(text, { file: "w.yaml" });
  if (result.success) return [];
  return result.error.problems.map((problem) => `${problem.line} ${problem.path}: ${problem.message}`);
}

describe("$timeout edges", () => {
  it("load in both edge forms from a role with suspendTimeout, with no warning", () => {
    for (const text of [mapForm, listForm]) {
      const result = safeParseWorkflowSource(text, { file: "w.yaml" });
      expect(result.success).toBe(true);
      if (result.success) expect(result.value.warnings).toEqual([]);
    }
  });

  it("are refused from a role without suspendTimeout, at the edge's line, in both forms", () => {
    expect(problemsOf(mapForm.replace("    suspendTimeout: 2s\n", ""))).toEqual([
      "12 graph.approver.$timeout: a $timeout edge is taken when role approver's suspension waits past its suspendTimeout, and role approver has none: add suspendTimeout (e.g. 24h) to it",
    ]);
    expect(problemsOf(listForm.replace("    suspendTimeout: 2s\n", ""))).toEqual([
      "12 graph.approver[0]: a $timeout edge is taken when role approver's suspension waits past its suspendTimeout, and role approver has none: add suspendTimeout (e.g. 24h) to it",
    ]);
  });

  it("are refused at $START and with another status", () => {
    const atStart = listForm.replace(
      '$START: [{ role: approver, prompt: "Ask." }]',
      '$START: [{ role: approver, prompt: "Ask." }, { role: chaser, condition: $timeout, prompt: "x" }]',
    );
    expect(problemsOf(atStart)).toEqual([
      "11 graph.$START[1]: $START has no $timeout edge: only a role that waits for an answer (suspendTimeout) times out",
    ]);
    const withStatus = listForm.replace("condition: $timeout,", "condition: $timeout, status: done,");
    expect(problemsOf(withStatus)).toEqual([
      '13 graph.approver[0].status: an edge with condition $timeout follows the timeout step, whose $status is "$timeout", never "done": drop the status',
    ]);
  });

  it("never reach a reply's $status enum", () => {
    const schema = buildReplySchema(workflowFromYaml(mapForm), "approver");
    const status = (schema.properties as Record<string, { enum?: unknown[] }>).$status;
    expect(status?.enum).toEqual(["approved", "rejected", "$SUSPEND"]);
    expect(schema.required).toEqual(["$status"]);
  });

  it("follow only a timeout step, and a timeout step follows only them", async () => {
    for (const text of [mapForm, listForm]) {
      const compiled = compileWorkflow(workflowFromYaml(text));
      const timedOut = historyOf([{ role: "approver", output: { $status: "$timeout" } }]);
      const decision = await pickNextRole(compiled, timedOut, { mode: "continue" });
      expect({ role: decision.role, prompt: decision.prompt }).toEqual({ role: "chaser", prompt: "Nobody answered." });
    }
    // An ordinary reply skips the $timeout edge that comes first in the list.
    const list = compileWorkflow(workflowFromYaml(listForm));
    const replied = await pickNextRole(list, historyOf([{ role: "approver", output: {} }]), { mode: "continue" });
    expect(replied.role).toBe("$END");
    // A timeout step from a role with no $timeout edge goes nowhere.
    const noEdge = compileWorkflow(workflowFromYaml(mapForm.replace(/ {4}\$timeout:.*\n/, "")));
    const stuck = pickNextRole(noEdge, historyOf([{ role: "approver", output: { $status: "$timeout" } }]), {
      mode: "continue",
    });
    await expect(stuck).rejects.toThrow("no transition");
  });

  it("may test a condition of their own when written with status: $timeout, the first that holds taken", async () => {
    const text = `name: gate
roles:
  asker: { goal: Ask., suspendTimeout: 1h }
  chaser: { goal: Chase. }
conditions:
  second-time: { expression: '$count("asker") >= 2' }
graph:
  $START: [{ role: asker, prompt: "Ask." }]
  asker:
    - { role: chaser, status: $timeout, condition: second-time, prompt: "Chase them." }
    - { role: $END, status: $timeout }
    - { role: $END }
  chaser: [{ role: $END }]
`;
    const parsed = safeParseWorkflowSource(text, { file: "w.yaml" });
    expect(parsed.success && parsed.value.warnings).toEqual([]);
    const compiled = compileWorkflow(workflowFromYaml(text));
    const once = historyOf([{ role: "asker", output: { $status: "$timeout" } }]);
    expect((await pickNextRole(compiled, once, { mode: "continue" })).role).toBe("$END");
    const twice = historyOf([
      { role: "asker", output: {} },
      { role: "asker", output: { $status: "$timeout" } },
    ]);
    expect((await pickNextRole(compiled, twice, { mode: "continue" })).role).toBe("chaser");
  });

  it("are drawn dashed, labelled with the wait", () => {
    const chart = workflowToMermaid(workflowFromYaml(mapForm));
    expect(chart).toContain('  role_approver -.->|"$timeout after 2s"| role_chaser\n');
    expect(chart).toContain('  role_approver -->|"$status: rejected"| role_chaser\n');
    expect(workflowToMermaid(workflowFromYaml(listForm))).toContain(
      '  role_approver -.->|"$timeout after 2s"| role_chaser\n',
    );
  });
});
