import { describe, expect, it } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { answerSchemaOf, END } from "@uwf/protocol";
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
  /** On the entry after a typed suspension: the person's answer (`uwf resume --answer`). */
  answer?: Record<string, unknown>;
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
      let suspended: string | null = null;
      for (const step of steps) {
        // A suspension is not routed: its role runs again with the person's answer.
        const decision: Awaited<ReturnType<typeof pickNextRole>> =
          suspended === null
            ? await pickNextRole(compiled, history, { mode: "continue" })
            : {
                role: suspended,
                prompt: "(the answer)",
                transition: { role: suspended, condition: null, status: null, prompt: "" },
                from: suspended,
              };
        expect(decision.role).toBe(step.role);
        suspended = null;
        if (step.output.$status === "$SUSPEND") {
          const ask = workflow.roles[step.role]?.ask ?? {};
          expect(ajv.validate(ask, step.output), `${step.role} asks: ${ajv.errorsText()}`).toBe(true);
          suspended = step.role;
          continue;
        }
        const answerSchema = answerSchemaOf(workflow.roles[step.role] ?? {});
        if (answerSchema !== null) {
          expect(ajv.validate(answerSchema, step.answer), `${step.role}'s answer: ${ajv.errorsText()}`).toBe(true);
        }
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
            ...(step.answer === undefined ? {} : { answer: step.answer }),
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
