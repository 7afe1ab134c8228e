import { describe, expect, it } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { END } from "@uwf/protocol";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { loadWorkflowFile } from "../load/load-workflow-file.ts";
import { compileWorkflow } from "../moderator/compile-workflow.ts";
import type { ModeratorHistory } from "../moderator/moderator-history.ts";
import { pickNextRole } from "../moderator/pick-next-role.ts";

const EXAMPLES = join(import.meta.dir, "../../../../examples");

interface ScenarioStep {
  role: string;
  output: Record<string, unknown>;
  body?: string;
  /** Played by a fan-out's branch of this key (or every branch: `*`), apart from the main sequence. */
  branch?: string;
}

const workflowFiles = readdirSync(EXAMPLES).filter((name) => name.endsWith(".yaml") && !name.includes(".scenario."));

describe("examples", () => {
  it("has a review loop, a multi-exit pipeline and a CI pipeline", () => {
    expect(workflowFiles).toEqual(expect.arrayContaining(["review-loop.yaml", "triage.yaml", "ci-pipeline.yaml"]));
  });

  for (const name of workflowFiles) {
    it(`${name} validates without errors or warnings`, () => {
      expect(loadWorkflowFile(join(EXAMPLES, name)).warnings).toEqual([]);
    });

    const scenarioFile = join(EXAMPLES, name.replace(/\.yaml$/, ".scenario.yaml"));
    if (!existsSync(scenarioFile)) continue;

    it(`${name}'s scenario fits the role schemas and drives the moderator to $END`, async () => {
      const { workflow } = loadWorkflowFile(join(EXAMPLES, name));
      const compiled = compileWorkflow(workflow);
      const scenario = parse(readFileSync(scenarioFile, "utf8")) as {
        steps: ScenarioStep[];
        inputs?: Record<string, unknown>;
      };
      const steps = scenario.steps.filter((step) => step.branch === undefined);
      const branchSteps = scenario.steps.filter((step) => step.branch !== undefined);
      const ajv = new Ajv({ strict: false });
      const history: ModeratorHistory = {
        start: { prompt: "Run the example.", workflow: workflow.name, cwd: "/work", inputs: scenario.inputs ?? {} },
        thread: { id: "01J0000000000000000000THRD" },
        steps: [],
      };
      for (const step of steps) {
        const decision = await pickNextRole(compiled, history, { mode: "continue" });
        expect(decision.role).toBe(step.role);
        if (decision.fanOut === undefined) {
          expect(decision.prompt).not.toBe("");
        } else {
          // A fan-out: each planned branch has an entry of its role that fits its schema; the join
          // (this step) sees their results as `branches` when its reply is routed.
          const results = decision.fanOut.branches.map((planned) => {
            const entry =
              branchSteps.find((candidate) => candidate.branch === planned.key) ??
              branchSteps.find((candidate) => candidate.branch === "*");
            expect(entry?.role, `an entry for branch ${planned.key}`).toBe(planned.role ?? "");
            const schema = workflow.roles[entry?.role ?? ""]?.frontmatter ?? {};
            expect(ajv.validate(schema, entry?.output), `branch ${planned.key}: ${ajv.errorsText()}`).toBe(true);
            const output = entry?.output ?? {};
            const status = typeof output.$status === "string" ? output.$status : null;
            return {
              key: planned.key,
              status: "ended",
              outcome: { role: entry?.role, status, edge: null },
              output,
              body: entry?.body ?? "",
              error: null,
            };
          });
          history.branches =
            decision.fanOut.kind === "foreach"
              ? results
              : Object.fromEntries(results.map((result) => [result.key, result]));
        }
        const schema = workflow.roles[step.role]?.frontmatter ?? {};
        expect(ajv.validate(schema, step.output), `${step.role}: ${ajv.errorsText()}`).toBe(true);
        const at = new Date().toISOString();
        history.steps = [
          ...history.steps,
          {
            role: step.role,
            output: step.output,
            body: step.body ?? "",
            agent: "scripted",
            startedAt: at,
            completedAt: at,
          },
        ];
      }
      expect((await pickNextRole(compiled, history, { mode: "continue" })).role).toBe(END);
    });
  }

  it("the review loop's scenario goes round twice", () => {
    const steps = (
      parse(readFileSync(join(EXAMPLES, "review-loop.scenario.yaml"), "utf8")) as { steps: ScenarioStep[] }
    ).steps;
    expect(steps.filter((step) => step.role === "reviewer")).toHaveLength(2);
  });
});
