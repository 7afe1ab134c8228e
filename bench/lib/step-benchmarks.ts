import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openFileStore, openPostgresStore, type Store } from "../../packages/cas/src/index.ts";
import type { GeneratedChain, GeneratedStore } from "../generate-store.ts";
import type { MeasureProcessOptions } from "./measure.ts";
import { COMMAND_AGENT_ALIAS, findChain, type SuiteStores } from "./prepared-stores.ts";
import type { ProcessGroups, SuiteContext } from "./process-groups.ts";
import type { BenchResults } from "./report.ts";
import { resetSteppedThread } from "./reset-stepped-thread.ts";
import { measureStepTrace } from "./step-trace.ts";

export interface StepBenchmarkPlan {
  stepSizes: number[];
  stepRuns: number;
  phaseRuns: number;
  warmup: number;
}

/**
 * Every step benchmark in one round-robin, so the small/large, scripted/command and embedded/PostgreSQL
 * comparisons are not skewed by drift either; then the phases of a step of each size (UWF_TRACE).
 */
export async function measureStepBenchmarks(
  context: SuiteContext,
  groups: ProcessGroups,
  plan: StepBenchmarkPlan,
  stores: SuiteStores,
): Promise<BenchResults["stepPhases"]> {
  const { small, large, postgres, postgresUrl, labels } = stores;
  const shortest = plan.stepSizes[0] as number;
  const stepOptions = (
    store: GeneratedStore,
    chain: GeneratedChain,
    agent: "scripted" | "command",
    url?: string,
  ): MeasureProcessOptions => uwfStepOptions(context, plan, store, chain, agent, url);
  await groups.measureGroup([
    ...[small, large].flatMap((store) =>
      plan.stepSizes.map((steps) => ({
        id: `step-${store.name}-${steps}`,
        name: `uwf step (${steps.toLocaleString("en-US")}-step thread)`,
        store: store.name === "small" ? labels.small : labels.large,
        options: stepOptions(store.generated, findChain(store.generated, steps), "scripted"),
      })),
    ),
    {
      id: `step-small-${shortest}-command`,
      name: `uwf step (${shortest}-step thread, /bin/sh command agent)`,
      store: labels.small,
      options: stepOptions(small.generated, findChain(small.generated, shortest), "command"),
    },
    {
      id: `step-postgres-${shortest}`,
      name: `uwf step (${shortest}-step thread)`,
      store: labels.postgres,
      options: stepOptions(postgres.generated, findChain(postgres.generated, shortest), "scripted", postgresUrl),
    },
  ]);

  context.progress("step phases (UWF_TRACE)");
  const stepPhases: BenchResults["stepPhases"] = [];
  for (const steps of plan.stepSizes) {
    const options = stepOptions(small.generated, findChain(small.generated, steps), "scripted");
    stepPhases.push({ steps, agent: "scripted", trace: await measureStepTrace({ ...options, runs: plan.phaseRuns }) });
  }
  const commandStep = stepOptions(small.generated, findChain(small.generated, shortest), "command");
  stepPhases.push({
    steps: shortest,
    agent: "command",
    trace: await measureStepTrace({ ...commandStep, runs: plan.phaseRuns }),
  });
  const postgresStep = stepOptions(
    postgres.generated,
    findChain(postgres.generated, shortest),
    "scripted",
    postgresUrl,
  );
  stepPhases.push({
    steps: shortest,
    agent: "scripted",
    store: "postgres",
    trace: await measureStepTrace({ ...postgresStep, runs: plan.phaseRuns }),
  });
  return stepPhases;
}

/**
 * One `uwf step` on a thread of `chain.steps` steps, played by the scripted agent or the command
 * agent; with `postgresUrl`, on that PostgreSQL store (a copy of the home's) instead of the home's own. After
 * each run (outside the timing) the thread is checked to have advanced and is reset to the prepared head and
 * chain index, so every run steps the same, never-ended thread and the store keeps its thread count.
 */
function uwfStepOptions(
  context: SuiteContext,
  plan: StepBenchmarkPlan,
  store: GeneratedStore,
  chain: GeneratedChain,
  agent: "scripted" | "command",
  postgresUrl?: string,
): MeasureProcessOptions {
  const { environment } = context;
  const threadId = chain.threadIds[0] as string;
  const alias = agent === "command" ? COMMAND_AGENT_ALIAS : `scripted:${writeScenario(context, chain.steps)}`;
  return {
    command: [context.binary, "step", threadId, "--agent", alias],
    cwd: context.work,
    env: postgresUrl === undefined ? environment(store.home) : { ...environment(store.home), UWF_STORE: postgresUrl },
    runs: plan.stepRuns,
    warmup: plan.warmup,
    after: async () => {
      const opened: Store =
        postgresUrl === undefined ? await openFileStore(store.home) : await openPostgresStore(postgresUrl);
      try {
        await resetSteppedThread(opened, threadId, { head: chain.head, steps: chain.steps });
      } finally {
        await opened.close();
      }
    },
  };
}

/**
 * The scripted agent plays entry N for a thread of N steps: N placeholder entries, then the real reply.
 * JSON, so the benchmark times the engine rather than the test agent's YAML parse of a long scenario.
 */
function writeScenario(context: SuiteContext, steps: number): string {
  const file = join(context.temporaryRoot, `scenario-${steps}.json`);
  const placeholders = Array.from({ length: steps }, () => ({ role: "worker" }));
  const reply = {
    role: "worker",
    output: { n: steps + 1, done: false, summary: `benchmark step ${steps + 1}` },
    body: `Did step ${steps + 1} of the benchmark thread.`,
  };
  writeFileSync(file, JSON.stringify({ steps: [...placeholders, reply] }));
  return file;
}
