/**
 * What one `uwf step` spends outside module loading, phase by phase, measured in a fresh process
 * (first calls pay one-time costs, exactly as in a step): reading the chain and its history,
 * compiling the workflow, picking the next role, loading the scenario, validating the reply.
 * Run as a child process by run.ts:
 *
 *   bun bench/lib/step-phases.ts HOME HEAD SCENARIO
 *
 * The chain read mirrors the CLI's readChain + loadHistory through the public store API: every
 * step node, then its output, body and agent run, each parsed with its protocol schema.
 */
import {
  compileWorkflow,
  extractFrontmatter,
  formatFrontmatter,
  pickNextRole,
  safeLoadScenario,
} from "../../packages/agent-kit/src/index.ts";
import { openFileStore } from "../../packages/cas/src/index.ts";
import {
  type Address,
  agentRunNodeSchema,
  outputNodeSchema,
  textNodeSchema,
  threadStartNodeSchema,
  threadStepNodeSchema,
  workflowNodeSchema,
} from "../../packages/protocol/src/index.ts";

export interface StepPhases {
  /** Nodes read to rebuild the history: the chain, then output, body and run of each step. */
  nodesRead: number;
  openStoreMs: number;
  readChainMs: number;
  loadHistoryMs: number;
  compileWorkflowMs: number;
  pickNextRoleMs: number;
  loadScenarioMs: number;
  /** The same nodes again, split: `getBytes` (read + re-hash), then JSON.parse, then the protocol schemas. */
  rereadBytesMs: number;
  reparseJsonMs: number;
  revalidateSchemasMs: number;
  /** The first reply validation of the process: loads ajv, compiles its meta-schema and the role's schema. */
  firstValidationMs: number;
  /** The same validation again, compiled schema cached: what it costs without the one-time setup. */
  secondValidationMs: number;
}

export async function measureStepPhases(home: string, head: Address, scenarioFile: string): Promise<StepPhases> {
  const lap = stopwatch();
  const store = await openFileStore(home);
  const openStoreMs = lap();
  try {
    const steps: { address: Address; node: ReturnType<typeof threadStepNodeSchema.parse> }[] = [];
    let address = head;
    for (;;) {
      const node = (await store.objects.get(address)) as { type?: string };
      if (node.type === "thread-start/1") {
        threadStartNodeSchema.parse(node);
        break;
      }
      const step = threadStepNodeSchema.parse(node);
      steps.push({ address, node: step });
      address = step.prev ?? step.start;
    }
    const readChainMs = lap();
    const history = await Promise.all(
      steps.reverse().map(async ({ node }) => {
        const [output, body, run] = await Promise.all([
          store.objects.get(node.output).then((value) => outputNodeSchema.parse(value)),
          store.objects.get(node.body).then((value) => textNodeSchema.parse(value)),
          store.objects.get(node.run).then((value) => agentRunNodeSchema.parse(value)),
        ]);
        return { ...node, output: output.fields, body: body.text, agent: run.agent };
      }),
    );
    const loadHistoryMs = lap();

    const addresses = steps.flatMap(({ address: step, node }) => [step, node.output, node.body, node.run]);
    const bytes: Uint8Array[] = [];
    for (const each of addresses) bytes.push(await store.objects.getBytes(each));
    const rereadBytesMs = lap();
    const decoder = new TextDecoder();
    const values = bytes.map((each) => JSON.parse(decoder.decode(each)) as unknown);
    const reparseJsonMs = lap();
    const schemas = [threadStepNodeSchema, outputNodeSchema, textNodeSchema, agentRunNodeSchema] as const;
    values.forEach((value, index) => {
      schemas[index % 4]?.parse(value);
    });
    const revalidateSchemasMs = lap();

    const startNode = threadStartNodeSchema.parse(await store.objects.get(steps.at(-1)?.node.start ?? head));
    const workflow = workflowNodeSchema.parse(await store.objects.get(startNode.workflow));
    lap();
    const compiled = compileWorkflow(workflow);
    const compileWorkflowMs = lap();
    const moderatorHistory = {
      start: { prompt: startNode.prompt, workflow: workflow.name, cwd: startNode.cwd },
      thread: { id: "01M7YY6XRYP64AE1VASZJYRHSK" },
      steps: history,
    };
    const decision = await pickNextRole(compiled, moderatorHistory, {
      mode: history.length === 0 ? "new" : "continue",
    });
    const pickNextRoleMs = lap();

    const scenario = await safeLoadScenario(scenarioFile);
    if (!scenario.success) throw new Error(scenario.error);
    const loadScenarioMs = lap();
    const entry = scenario.value.steps[history.length];
    if (entry === undefined) throw new Error(`scenario ${scenarioFile} has no entry ${history.length}`);
    const reply = formatFrontmatter(entry.output, entry.body);
    const schema = workflow.roles[decision.role]?.frontmatter ?? { type: "object" };
    lap();
    const first = extractFrontmatter(reply, schema);
    const firstValidationMs = lap();
    const second = extractFrontmatter(reply, schema);
    const secondValidationMs = lap();
    if (!first.success || !second.success) throw new Error("the scenario's reply does not validate");
    return {
      nodesRead: steps.length * 4 + 1,
      openStoreMs,
      readChainMs,
      loadHistoryMs,
      rereadBytesMs,
      reparseJsonMs,
      revalidateSchemasMs,
      compileWorkflowMs,
      pickNextRoleMs,
      loadScenarioMs,
      firstValidationMs,
      secondValidationMs,
    };
  } finally {
    await store.close();
  }
}

function stopwatch(): () => number {
  let last = Bun.nanoseconds();
  return () => {
    const now = Bun.nanoseconds();
    const ms = (now - last) / 1e6;
    last = now;
    return Math.round(ms * 100) / 100;
  };
}

if (import.meta.main) {
  const [home, head, scenario] = process.argv.slice(2);
  if (home === undefined || head === undefined || scenario === undefined) {
    console.error("usage: bun bench/lib/step-phases.ts HOME HEAD SCENARIO");
    process.exit(2);
  }
  console.log(JSON.stringify(await measureStepPhases(home, head as Address, scenario)));
}
