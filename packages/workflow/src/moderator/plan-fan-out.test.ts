import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { foreachFilesYaml, historyOf, workflowFromYaml } from "../../test/moderator-test-helpers.ts";
import { EdgePromptError } from "../errors/edge-prompt-error.ts";
import { FanOutError } from "../errors/fan-out-error.ts";
import { loadWorkflowFile } from "../load/load-workflow-file.ts";
import { compileCondition } from "./compile-condition.ts";
import { compileWorkflow } from "./compile-workflow.ts";
import { evaluateCondition } from "./evaluate-condition.ts";
import { pickNextRole } from "./pick-next-role.ts";
import { renderJoinPrompt } from "./render-join-prompt.ts";

const FIXTURES = join(import.meta.dir, "../../test/fixtures/fan-out");
const review = compileWorkflow(loadWorkflowFile(join(FIXTURES, "review-map.yaml")).workflow);
const files = compileWorkflow(loadWorkflowFile(join(FIXTURES, "files-list.yaml")).workflow);

/** One fixer branch per item of the splitter's `files`, whatever `files` holds, joined by the reducer. */
const FOREACH_FILES = compileWorkflow(workflowFromYaml(foreachFilesYaml()));
const split = (output: Record<string, unknown>) => historyOf([{ role: "splitter", output }]);

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("pickNextRole on a fan-out edge", () => {
  it("plans one branch per parallel key in declaration order, rendering prompts and every input string", async () => {
    const history = historyOf([{ role: "planner", output: { $status: "ready", plan: "a cache" } }]);
    const decision = await pickNextRole(review, history, { mode: "continue" });
    expect(decision.role).toBe("synthesizer");
    expect(decision.prompt).toBe("");
    expect(decision.from).toBe("planner");
    expect(decision.transition.status).toBe("ready");
    expect(decision.fanOut).toEqual({
      kind: "parallel",
      edge: 0,
      join: { role: "synthesizer", policy: { quorum: 2 }, failFast: false },
      maxConcurrent: 1,
      onCancel: "abandon",
      branches: [
        { key: "security", role: "reviewer", workflow: null, prompt: "Review a cache for security" },
        {
          key: "speed",
          role: null,
          workflow: "speed-check",
          prompt: "Time a cache",
          inputs: { target: "a cache", runs: 3 },
        },
      ],
    });
  });

  it("takes an ordinary edge of the same role without a fan-out", async () => {
    const history = historyOf([{ role: "planner", output: { $status: "trivial", plan: "none" } }]);
    const decision = await pickNextRole(review, history, { mode: "continue" });
    expect(decision).toMatchObject({ role: "$END", prompt: "Nothing to review." });
    expect(decision.fanOut).toBeUndefined();
  });

  it("plans one branch per item of a foreach over objects, keyed by index, the item under its as name", async () => {
    const decision = await pickNextRole(files, split({ files: [{ path: "a.ts" }, { path: "b.ts" }] }), {
      mode: "continue",
    });
    expect(decision.role).toBe("reducer");
    expect(decision.transition.condition).toBe("has-files");
    expect(decision.fanOut).toEqual({
      kind: "foreach",
      edge: 0,
      join: { role: "reducer", policy: "all-settled", failFast: false },
      maxConcurrent: null,
      onCancel: "cancel",
      branches: [
        { key: "0", role: "fixer", workflow: null, prompt: "Fix a.ts (0)" },
        { key: "1", role: "fixer", workflow: null, prompt: "Fix b.ts (1)" },
      ],
    });
  });

  it("plans zero branches for an empty list", async () => {
    const decision = await pickNextRole(FOREACH_FILES, split({ files: [] }), { mode: "continue" });
    expect(decision.fanOut?.branches).toEqual([]);
    const one = await pickNextRole(FOREACH_FILES, split({ files: ["x"] }), { mode: "continue" });
    expect(one.fanOut?.branches).toEqual([{ key: "0", role: "fixer", workflow: null, prompt: "Fix x" }]);
  });

  it("evaluates foreach as JSONata over the reply's fields, with start and steps as conditions see them", async () => {
    const workflow = compileWorkflow(
      workflowFromYaml(`
name: t
roles: { splitter: { goal: S. }, reducer: { goal: R. } }
graph:
  $START: [{ role: splitter, prompt: "Go." }]
  splitter:
    - foreach: "[files[size > 1].path, start.prompt, $count('splitter')]"
      as: what
      branch: { workflow: fix, inputs: { target: { name: "{{ what }}", all: ["{{ index }}", 7] } } }
      join: { role: reducer, prompt: "Sum." }
  reducer: [{ role: $END }]
`),
    );
    const history = split({
      files: [
        { path: "a", size: 1 },
        { path: "b", size: 5 },
      ],
    });
    const decision = await pickNextRole(workflow, history, { mode: "continue" });
    expect(decision.fanOut?.branches.map((branch) => branch.inputs)).toEqual([
      { target: { name: "b", all: ["0", 7] } },
      { target: { name: "fix the bug", all: ["1", 7] } },
      { target: { name: "1", all: ["2", 7] } },
    ]);
    expect(decision.fanOut?.branches[0]?.prompt).toBe("");
  });

  it("refuses a foreach that does not give a list with a routing error naming the field", async () => {
    for (const [value, got] of [
      ["one.ts", 'a string ("one.ts")'],
      [{ path: "a" }, "an object"],
      [undefined, "nothing (is the field missing from the reply?)"],
    ] as const) {
      const error = await thrown(pickNextRole(FOREACH_FILES, split({ files: value }), { mode: "continue" }));
      expect(error).toBeInstanceOf(FanOutError);
      expect((error as FanOutError).code).toBe("fan-out-failed");
      expect((error as FanOutError).message).toBe(
        `the fan-out from splitter (edge 0) cannot plan its branches: foreach "files" must give a list, one item per branch, but gave ${got}`,
      );
      expect((error as FanOutError).data).toMatchObject({ from: "splitter", edge: 0, field: "foreach", branch: null });
    }
  });

  it("refuses a branch template that fails, or a role branch's prompt that renders empty, naming the branch", async () => {
    const workflow = compileWorkflow(
      workflowFromYaml(foreachFilesYaml({ as: "file", branchPrompt: "{{ file.path }}" })),
    );
    const missing = await thrown(
      pickNextRole(workflow, split({ files: [{ path: "a" }, { name: "b" }] }), { mode: "continue" }),
    );
    expect(missing).toBeInstanceOf(FanOutError);
    expect((missing as FanOutError).data).toMatchObject({ field: "branch.prompt", branch: "1" });
    expect((missing as FanOutError).message).toContain(
      "branch.prompt cannot be rendered: undefined variable: file.path",
    );
    expect((missing as FanOutError).message).toContain("(item 1)");

    const empty = await thrown(pickNextRole(workflow, split({ files: [{ path: "" }] }), { mode: "continue" }));
    expect((empty as FanOutError).message).toBe(
      "the fan-out from splitter (edge 0) cannot plan its branches: branch.prompt rendered empty; the branch's role fixer needs a prompt (item 0)",
    );
  });
});

describe("the join's context", () => {
  const branches = {
    security: { key: "security", status: "ended", output: { verdict: "approve" }, body: "ok" },
    speed: { key: "speed", status: "failed", output: {}, body: "" },
  };
  const fannedOut = historyOf([{ role: "planner", output: { $status: "ready", plan: "a cache" } }]);

  it("renders the join's prompt with branches, from the compiled or the plain workflow", async () => {
    expect(await renderJoinPrompt({ compiled: review, from: "planner", edge: 0, history: fannedOut, branches })).toBe(
      "Merge approve",
    );
    expect(
      await renderJoinPrompt({ workflow: review.workflow, from: "planner", edge: 0, history: fannedOut, branches }),
    ).toBe("Merge approve");
  });

  it("renders a foreach join over a list of branches", async () => {
    const history = split({ files: [{ path: "a" }] });
    const list = [{ key: "0" }, { key: "1" }, { key: "2" }];
    expect(await renderJoinPrompt({ compiled: files, from: "splitter", edge: 0, history, branches: list })).toBe(
      "Summarise 3 fixes",
    );
  });

  it("fails as an EdgePromptError when the join prompt needs what branches do not have, or the edge is no fan-out", async () => {
    const missing = await thrown(
      renderJoinPrompt({ compiled: review, from: "planner", edge: 0, history: fannedOut, branches: {} }),
    );
    expect(missing).toBeInstanceOf(EdgePromptError);
    expect((missing as EdgePromptError).message).toContain("undefined variable: branches.security");
    const notFanOut = await thrown(
      renderJoinPrompt({ compiled: review, from: "planner", edge: 1, history: fannedOut, branches }),
    );
    expect(notFanOut).toBeInstanceOf(EdgePromptError);
    expect((notFanOut as EdgePromptError).message).toBe(
      "the edge prompt from planner to its join cannot be rendered: role planner has no fan-out at edge 1",
    );
  });

  it("lets the join role's conditions and edge prompts read branches", async () => {
    const workflow = compileWorkflow(
      workflowFromYaml(`
name: t
roles: { planner: { goal: P. }, reviewer: { goal: R. }, synthesizer: { goal: S. } }
conditions:
  all-approved: { expression: "$count(branches.*[output.verdict = 'approve']) = $count(branches.*)" }
graph:
  $START: [{ role: planner, prompt: "Go." }]
  planner:
    - parallel: { a: { role: reviewer, prompt: "A." }, b: { role: reviewer, prompt: "B." } }
      join: { role: synthesizer, prompt: "Merge." }
  synthesizer:
    - { role: $END, condition: all-approved, prompt: "All approved: {{ branches.a.body }}" }
    - { role: planner, prompt: "Again, {{ branches.b.output.verdict }} said b." }
`),
    );
    const steps = historyOf([
      { role: "planner", output: {} },
      { role: "synthesizer", output: {} },
    ]);
    const approve = {
      a: { output: { verdict: "approve" }, body: "fine" },
      b: { output: { verdict: "approve" }, body: "" },
    };
    const yes = await pickNextRole(workflow, { ...steps, branches: approve }, { mode: "continue" });
    expect(yes).toMatchObject({ role: "$END", prompt: "All approved: fine" });
    const reject = { ...approve, b: { output: { verdict: "reject" }, body: "" } };
    const no = await pickNextRole(workflow, { ...steps, branches: reject }, { mode: "continue" });
    expect(no).toMatchObject({ role: "planner", prompt: "Again, reject said b." });
  });

  it("binds branches in a condition written like the fast path's comparisons, and leaves it undefined elsewhere", async () => {
    const condition = compileCondition("a-approved", 'branches.a.output.verdict = "approve"');
    const steps = historyOf([{ role: "synthesizer", output: {} }]);
    const a = (verdict: string) => ({ ...steps, branches: { a: { output: { verdict } } } });
    expect(await evaluateCondition(condition, a("approve"), 1000)).toBe(true);
    expect(await evaluateCondition(condition, a("reject"), 1000)).toBe(false);
    expect(await evaluateCondition(condition, steps, 1000)).toBe(false);
  });
});
