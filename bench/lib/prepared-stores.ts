import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { copyStore, openFileStore, openPostgresStore } from "../../packages/cas/src/index.ts";
import { type GeneratedChain, type GeneratedStore, generateStore } from "../generate-store.ts";
import type { SuiteContext } from "./process-groups.ts";

/**
 * The command agent of the step benchmark: `/bin/sh` printing a reply for the step it is told
 * (`UWF_STEP`). It reads none of its prompt and starts no other program, so what it costs beyond
 * the scripted agent is uwf's launching of a program (see docs/performance.md).
 */
export const COMMAND_AGENT_ALIAS = "sh";
const COMMAND_AGENT = {
  [COMMAND_AGENT_ALIAS]: {
    command: "/bin/sh",
    args: [
      "-c",
      `printf -- '---\\nn: %s\\ndone: false\\nsummary: benchmark step %s\\n---\\n\\nDid step %s of the benchmark thread.\\n' "$UWF_STEP" "$UWF_STEP" "$UWF_STEP"`,
    ],
  },
};

/** A generated store of the suite, by the name it is shown with. */
export interface PreparedStore {
  name: "small" | "large" | "postgres";
  generated: GeneratedStore;
}

/** The stores the step and live-feed benchmarks step, with the labels they are shown with. */
export interface SuiteStores {
  small: PreparedStore;
  large: PreparedStore;
  /** A copy of a store like the small one, with one chain of the shortest size, in PostgreSQL at `postgresUrl`. */
  postgres: PreparedStore;
  postgresUrl: string;
  labels: { small: string; large: string; postgres: string };
}

/**
 * Generates a store in the temp root (`fillerThreads` threads beside chains of `chainSteps` steps) whose
 * config.yaml defines the command agent, and flushes it to disk.
 */
export async function prepareStore(
  context: SuiteContext,
  name: "small" | "large" | "postgres",
  fillerThreads: number,
  chainSteps: number[],
  orphanRuns: number,
): Promise<PreparedStore> {
  const { progress } = context;
  progress(`generating the ${name} store (${fillerThreads} filler threads, chains of ${chainSteps.join(", ")} steps)`);
  const generated = await generateStore({
    home: join(context.temporaryRoot, `${name}-home`),
    fillerThreads,
    chains: chainSteps.map((steps) => ({ steps })),
    orphanRuns,
    cwd: context.work,
    onProgress: progress,
  });
  // Both stores define the command agent, so a step reads the same config.yaml whichever agent plays it.
  writeFileSync(join(generated.home, "config.yaml"), `${JSON.stringify({ agents: COMMAND_AGENT })}\n`);
  // Flush the generator's writes now, so the timed runs do not pay for their write-back.
  Bun.spawnSync(["sync"]);
  progress(
    `${name} store: ${generated.threads} threads, ${generated.nodes} nodes in ${generated.seconds.toFixed(1)} s`,
  );
  return { name, generated };
}

/** Copies the store of `home` into the PostgreSQL store at `url`, as `uwf store copy` does. */
export async function copyIntoPostgres(home: string, url: string): Promise<void> {
  const [source, target] = [await openFileStore(home), await openPostgresStore(url)];
  try {
    const report = await copyStore(source, target);
    if (report.problems.length > 0)
      throw new Error(`copying ${home} into PostgreSQL: ${JSON.stringify(report.problems)}`);
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
}

export function findChain(store: GeneratedStore, steps: number): GeneratedChain {
  const chain = store.chains.find((candidate) => candidate.steps === steps);
  if (chain === undefined) throw new Error(`no ${steps}-step chain in ${store.home}`);
  return chain;
}
