import { describe, expect, it } from "bun:test";
import { foreachFilesYaml, historyOf, workflowFromYaml } from "../../test/moderator-test-helpers.ts";
import { EdgePromptError } from "../errors/edge-prompt-error.ts";
import { FanOutError } from "../errors/fan-out-error.ts";
import { InvalidWorkflowError } from "../errors/invalid-workflow-error.ts";
import { safeParseWorkflowSource } from "../load/parse-workflow-source.ts";
import { compileWorkflow } from "./compile-workflow.ts";
import { safeParseEdgeTemplate } from "./edge-template.ts";
import { pickNextRole } from "./pick-next-role.ts";
import { renderEdgePrompt } from "./render-edge-prompt.ts";

const STATUS_HINT = " (write {{ ['$status'] }} to use the $status field)";

const WORKFLOW = foreachFilesYaml();

describe("safeParseEdgeTemplate", () => {
  it("parses a template", () => {
    const parsed = safeParseEdgeTemplate("Fix {{ comments | upcase }}");
    expect(parsed.success).toBe(true);
  });

  it("says where a template does not parse, as a result", () => {
    const parsed = safeParseEdgeTemplate("Fix {% if %}");
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.problem).toMatch(/line:1, col:\d+/);
    expect(parsed.problem).not.toContain(STATUS_HINT);
    expect(parsed.cause).toBeInstanceOf(Error);
  });

  it("says how to read $status when a bare $status is why it does not parse", () => {
    const parsed = safeParseEdgeTemplate("It was {{ $status }}.");
    expect(parsed.success ? "" : parsed.problem).toEndWith(STATUS_HINT);
  });
});

describe("an edge template that does not parse", () => {
  it("is an invalid-workflow problem at its prompt when the workflow is validated", () => {
    const result = safeParseWorkflowSource(WORKFLOW.replace("Done: {{ _body }}", "Done: {{ $status }}"), {
      file: "t.yaml",
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("invalid-workflow");
    const problems = result.error.problems.map((problem) => ({ path: problem.path, message: problem.message }));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.path).toBe("graph.reducer[0].prompt");
    expect(problems[0]?.message).toStartWith("template does not parse: ");
    expect(problems[0]?.message).toEndWith(STATUS_HINT);
  });

  it("is an invalid-workflow problem at its prompt when a stored workflow's step reaches it", () => {
    const workflow = workflowFromYaml(WORKFLOW);
    const reducer = workflow.graph.reducer?.[0];
    if (reducer === undefined) throw new Error("the fixture has a reducer edge");
    const compiled = compileWorkflow({
      ...workflow,
      graph: { ...workflow.graph, reducer: [{ ...reducer, prompt: "{{ $status }}" }] },
    });
    let error: unknown = null;
    try {
      compiled.edgesFrom("reducer");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidWorkflowError);
    const invalid = error as InvalidWorkflowError;
    expect(invalid.code).toBe("invalid-workflow");
    expect(invalid.problems.map((problem) => problem.path)).toEqual(["graph.reducer[0].prompt"]);
    expect(invalid.problems[0]?.message).toEndWith(STATUS_HINT);
  });

  it("is a fan-out-failed error naming the branch's field when a stored fan-out's branch prompt does not parse", async () => {
    const workflow = workflowFromYaml(WORKFLOW);
    const split = workflow.graph.splitter?.[0];
    const foreach = split?.fanOut?.foreach;
    if (split?.fanOut === undefined || foreach === undefined || foreach === null) {
      throw new Error("the fixture has a foreach edge");
    }
    const branch = { ...foreach.branch, prompt: "Fix {% if %}" };
    const fanOut = { ...split.fanOut, foreach: { ...foreach, branch } };
    const compiled = compileWorkflow({ ...workflow, graph: { ...workflow.graph, splitter: [{ ...split, fanOut }] } });
    const history = historyOf([{ role: "splitter", output: { files: ["a.ts"] } }]);
    const error = await pickNextRole(compiled, history, { mode: "continue" }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FanOutError);
    const failed = error as FanOutError;
    expect(failed.code).toBe("fan-out-failed");
    expect(failed.data).toMatchObject({ from: "splitter", edge: 0, field: "branch.prompt" });
    expect(failed.data.reason).toStartWith("does not parse: ");
  });

  it("is an edge-prompt-failed error when it is rendered from its source", async () => {
    const error = await renderEdgePrompt({
      template: "It was {{ $status }}.",
      from: "reviewer",
      to: "writer",
      history: historyOf([{ role: "reviewer", output: { $status: "rejected" } }]),
    }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(EdgePromptError);
    const failed = error as EdgePromptError;
    expect(failed.code).toBe("edge-prompt-failed");
    expect(failed.data).toMatchObject({ from: "reviewer", to: "writer" });
    expect(failed.data.reason).toStartWith("cannot be rendered: ");
    expect(failed.data.reason).toEndWith(STATUS_HINT);
  });
});
