import { describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildContinuationPrompt, buildRetryPrompt, safeExtractFrontmatter, safeLoadScenario } from "@uwf/agent-kit";
import { createMemoryStore, readPromptText, type Store } from "@uwf/cas";
import { type Address, type AgentRunNode, defaultConfig, type WorkflowNode } from "@uwf/protocol";
import { buildReplySchema, loadWorkflowFile, loadYaml } from "@uwf/workflow";
import { loadHistory, readChain, resumeThread, startThread, stepUntilDone } from "./index.ts";

/**
 * The golden prompts (docs/prompts/): for each example workflow, the prompts of chosen steps as
 * agents get them, committed so that a change to what agents see is a diff in review. A change
 * that is meant regenerates them: `UWF_UPDATE_PROMPTS=1 bun test packages/engine/src/golden-prompts.test.ts`.
 */
const REPOSITORY = resolve(import.meta.dir, "../../..");
const EXAMPLES = join(REPOSITORY, "examples");
const GOLDEN = join(REPOSITORY, "docs/prompts");
const UPDATE = process.env.UWF_UPDATE_PROMPTS === "1";
const TASK = "Add a section on installing the tool to the README.";
const INPUTS: Record<string, Record<string, unknown>> = { "review-pr": { repo: "acme/shop", prNumber: 42 } };
const ANSWER = "Frontend developers who have never used the tool.";

interface Scenario {
  steps: Array<{
    role: string;
    output?: Record<string, unknown>;
    body?: string;
    branch?: string;
    /** On the entry after a typed suspension: the person's answer, given with `resume --answer`. */
    answer?: Record<string, unknown>;
  }>;
}

/** Runs a scenario with the scripted agent on a memory store and a clock that ticks a second a call. */
async function runScenario(name: string, scenario: Scenario, answer?: string) {
  const directory = mkdtempSync(join(tmpdir(), "uwf-golden-"));
  const scenarioFile = join(directory, "scenario.json");
  writeFileSync(scenarioFile, JSON.stringify(scenario));
  const workflowFile = join(EXAMPLES, `${name}.yaml`);
  const { workflow } = await loadWorkflowFile(workflowFile);
  // Roles that name their own agent (shell stages) are scripted too: nothing really runs.
  const ownAgents = Object.entries(workflow.roles).filter(([, role]) => role.agent !== undefined);
  const config = {
    ...defaultConfig(),
    agents: { scripted: { builtin: "scripted" as const, scenario: scenarioFile } },
    defaultAgent: "scripted",
    agentOverrides: { [workflow.name]: Object.fromEntries(ownAgents.map(([role]) => [role, "scripted"])) },
  };
  let tick = Date.parse("2026-01-01T09:00:00.000Z");
  const store = createMemoryStore();
  const now = () => {
    tick += 1_000;
    return new Date(tick);
  };
  const common = { store, config, home: directory, cwd: EXAMPLES, now };
  try {
    const record = await startThread({
      ...common,
      workflowReference: workflowFile,
      prompt: TASK,
      ...(INPUTS[name] === undefined ? {} : { inputs: INPUTS[name] }),
      newId: () => "01KG0000000000000000000000",
    });
    let branches = 0;
    const step = {
      ...common,
      threadId: record.id,
      // Branch threads get ids in order, so that the join's prompt (which names them) is the same every run.
      newId: () => `01KG0000000000000000BR${String(++branches).padStart(4, "0")}`,
      // One branch at a time, so the clock's ticks (which the prompts show) come in one order.
      parallel: 1,
      signal: new AbortController().signal,
      host: "golden",
      onProgress: () => {},
      onStderr: () => {},
    };
    const first = await stepUntilDone({ ...step, maxSteps: scenario.steps.length });
    if (answer !== undefined && first.record.status === "suspended") {
      await resumeThread({ ...step, answer });
    }
    // A typed suspension is answered as the scenario's next entry says, and the thread goes on.
    const main = scenario.steps.filter((entry) => entry.branch === undefined);
    for (;;) {
      const now = await store.refs.getThread(record.id);
      const typedAnswer = now === null ? undefined : main[now.stepCount]?.answer;
      if (now?.status !== "suspended" || typedAnswer === undefined) break;
      await stepUntilDone({ ...step, maxSteps: scenario.steps.length, resume: { typedAnswer } });
    }
    return { store, head: ((await store.refs.getThread(record.id))?.head ?? record.start) as Address, workflow };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function storedPrompt(store: Store, run: string): Promise<string> {
  const node = (await store.objects.get(run)) as AgentRunNode;
  return (await readPromptText(store.objects, node.prompt)) ?? "";
}

/** The chosen prompts of one example workflow, by file name. */
async function goldenPrompts(name: string): Promise<Map<string, string>> {
  const loaded = await safeLoadScenario(join(EXAMPLES, `${name}.scenario.yaml`));
  if (!loaded.success) throw loaded.error;
  const answers = (
    loadYaml().parse(readFileSync(join(EXAMPLES, `${name}.scenario.yaml`), "utf8")) as Scenario
  ).steps.map((entry) => entry.answer);
  const scenario: Scenario = {
    steps: loaded.value.steps.map(({ role, output, body, branch }, index) => ({
      role,
      output,
      body,
      // A fan-out's branch entries keep their key: they are played by the branches, apart from the main sequence.
      ...(branch === null ? {} : { branch }),
      ...(answers[index] === undefined ? {} : { answer: answers[index] }),
    })),
  };
  const { store, head, workflow } = await runScenario(name, scenario);
  const chain = await readChain(store, head);
  const history = await loadHistory(store.objects, chain);
  const prompts = new Map<string, string>();
  const file = (number: number, what: string, role: string) => `${String(number).padStart(2, "0")}-${what}-${role}.md`;

  const first = history[0];
  if (first !== undefined) prompts.set(file(1, "first-visit", first.role), await storedPrompt(store, first.run));

  const later = history.findIndex((step, index) =>
    history.slice(0, index).some((earlier) => earlier.role === step.role),
  );
  const laterStep = history[later];
  if (laterStep !== undefined) {
    prompts.set(
      file(laterStep.number, "later-visit-stateless", laterStep.role),
      await storedPrompt(store, laterStep.run),
    );
    const continuing = buildContinuationPrompt({
      workflow,
      roleName: laterStep.role,
      task: chain.start.prompt,
      ...(chain.start.inputs === undefined ? {} : { inputs: chain.start.inputs }),
      history: history.slice(0, later),
      edgePrompt: laterStep.edgePrompt,
      continuesConversation: true,
    });
    prompts.set(file(laterStep.number, "later-visit-continuing", laterStep.role), continuing);
  }

  // The step that answers a typed suspension: its role told the person's answer as YAML.
  const answered = history.find((step) => step.answer !== undefined);
  if (answered !== undefined) {
    prompts.set(file(answered.number, "answered", answered.role), await storedPrompt(store, answered.run));
  }

  const perStatus = history.find((step) => isPerStatus(workflow, step.role));
  if (perStatus !== undefined && perStatus.number !== 1) {
    prompts.set(file(perStatus.number, "per-status", perStatus.role), await storedPrompt(store, perStatus.run));
  }

  if (first !== undefined) {
    // What is appended to the prompt after a reply without frontmatter.
    const schema = buildReplySchema(workflow, first.role);
    const reply = "I added the section and ran the tests.";
    const checked = safeExtractFrontmatter(reply, schema);
    const problem = checked.success ? "" : checked.error.problem;
    prompts.set(file(1, "retry", first.role), buildRetryPrompt(problem, schema, { previousReply: reply }));
  }

  // After a suspension: the second step's role asks a human first, then runs again with the answer.
  const asking = scenario.steps[1];
  if (asking !== undefined) {
    const suspending = {
      steps: [
        scenario.steps[0] as Scenario["steps"][number],
        { role: asking.role, output: { $status: "$SUSPEND", reason: "Who is the section for?" }, body: "" },
        ...scenario.steps.slice(1),
      ],
    };
    const resumed = await runScenario(name, suspending, ANSWER);
    const resumedHistory = await loadHistory(resumed.store.objects, await readChain(resumed.store, resumed.head));
    const after = resumedHistory[2];
    if (after !== undefined) {
      prompts.set(file(3, "after-suspension", after.role), await storedPrompt(resumed.store, after.run));
    }
  }
  return prompts;
}

function isPerStatus(workflow: WorkflowNode, role: string): boolean {
  const schema = workflow.roles[role]?.frontmatter;
  return schema !== undefined && (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf));
}

const examples = readdirSync(EXAMPLES)
  .filter((entry) => entry.endsWith(".scenario.yaml"))
  .map((entry) => entry.replace(/\.scenario\.yaml$/, ""))
  .sort();

describe("the golden prompts in docs/prompts", () => {
  for (const name of examples) {
    it(`are the prompts ${name} gives its agents`, async () => {
      const prompts = await goldenPrompts(name);
      const folder = join(GOLDEN, name);
      if (UPDATE) {
        rmSync(folder, { recursive: true, force: true });
        mkdirSync(folder, { recursive: true });
        for (const [file, text] of prompts) writeFileSync(join(folder, file), text);
      }
      expect(existsSync(folder)).toBe(true);
      expect(readdirSync(folder).sort()).toEqual([...prompts.keys()].sort());
      for (const [file, text] of prompts) expect(readFileSync(join(folder, file), "utf8")).toBe(text);
    }, 60_000);
  }
});
