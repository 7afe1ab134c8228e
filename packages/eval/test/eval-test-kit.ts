// The eval package's test kit: a memory store, a temp uwf home, two fixture workflows (review.yaml: a
// worker that ends `approved` or `rejected`; judge.yaml: a role that replies pass/score/reason) and the
// scripted agent, so tests make real threads with the engine and score them.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createMemoryStore, type Store } from "@uwf/cas";
import { startThread, stepUntilDone } from "@uwf/engine";
import { type Config, defaultConfig, type ThreadRecord } from "@uwf/protocol";
import { ulid } from "ulid";
import type { JudgeContext } from "../src/index.ts";

export const FIXTURES = resolve(import.meta.dir, "fixtures");
export const REVIEW_WORKFLOW = join(FIXTURES, "review.yaml");
export const JUDGE_WORKFLOW = join(FIXTURES, "judge.yaml");

/** One reply of the scripted agent: the role it expects, its fields and body. */
export interface ScenarioEntry {
  role: string;
  output?: Record<string, unknown>;
  body?: string;
  reply?: string | string[];
}

export interface EvalTestKit {
  store: Store;
  home: string;
  config: Config;
  now(): Date;
  newId(): string;
  /** Writes a scenario into the home and returns the agent that plays it (`scripted:FILE`). */
  scriptedAgent(entries: readonly ScenarioEntry[]): string;
  /** A thread of review.yaml (or `workflow`) run with these replies until it ends, suspends or fails. */
  runThread(
    entries: readonly ScenarioEntry[],
    options?: { prompt?: string; workflow?: string; inputs?: Record<string, unknown> },
  ): Promise<ThreadRecord>;
  /** What judging threads need, run by `agent`. */
  judgeContext(agent?: string, overrides?: Partial<JudgeContext>): JudgeContext;
  cleanup(): void;
}

export function createEvalTestKit(): EvalTestKit {
  const store = createMemoryStore();
  const home = mkdtempSync(join(tmpdir(), "uwf-eval-kit-"));
  const config = defaultConfig();
  const now = () => new Date();
  let scenarios = 0;
  /** What starting a thread and judging one share: the kit's store and home, run in the fixtures folder. */
  const inFixtures = { store, config, home, cwd: FIXTURES, now, newId: ulid };
  const kit: EvalTestKit = {
    store,
    home,
    config,
    now,
    newId: ulid,
    scriptedAgent: (entries) => {
      scenarios += 1;
      const file = join(home, `scenario-${scenarios}.json`);
      writeFileSync(file, JSON.stringify({ steps: entries }));
      return `scripted:${file}`;
    },
    runThread: async (entries, options = {}) => {
      const record = await startThread({
        ...inFixtures,
        workflowReference: options.workflow ?? REVIEW_WORKFLOW,
        prompt: options.prompt ?? "Review the change",
        ...(options.inputs === undefined ? {} : { inputs: options.inputs }),
      });
      const done = await stepUntilDone({
        store,
        config,
        home,
        now,
        threadId: record.id,
        defaultAgent: kit.scriptedAgent(entries),
        signal: new AbortController().signal,
        host: "eval-test",
        onProgress: () => {},
        onStderr: () => {},
        maxSteps: Number.POSITIVE_INFINITY,
      });
      return done.record;
    },
    judgeContext: (agent, overrides = {}) => ({
      ...inFixtures,
      signal: new AbortController().signal,
      host: "eval-test",
      ...(agent === undefined ? {} : { defaultAgent: agent }),
      ...overrides,
    }),
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
  return kit;
}
