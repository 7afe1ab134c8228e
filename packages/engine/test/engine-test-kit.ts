// The engine's test kit: a memory store, a temp uwf home, the fixture workflows and the scripted agent,
// so a test drives the engine's own functions (start, step, fork, diff) without the CLI.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createMemoryStore, type Store } from "@uwf/cas";
import { agentRunNodeSchema, type BudgetLimits, type Config, defaultConfig, type ThreadRecord } from "@uwf/protocol";
import { monotonicFactory } from "ulid";

/** Ids in the order they are made, as a listing by id expects, even within one millisecond. */
const ulid = monotonicFactory();

import {
  type ForkThreadOptions,
  forkThread,
  readChain,
  type StepThreadOptions,
  startThread,
  stepUntilDone,
} from "../src/index.ts";

export const FIXTURES = resolve(import.meta.dir, "fixtures");
/** Two roles in turn: planner (`plan`), then doer (`done`), then `$END`. */
export const LINEAR_WORKFLOW = join(FIXTURES, "linear.yaml");
/** The scripted agent playing linear.yaml: plan "write hello.txt", then done. */
export const LINEAR_SCRIPTED = `scripted:${join(FIXTURES, "linear.scenario.yaml")}`;

/** One entry of a scripted agent's scenario: its fields and body, or raw replies (one per attempt, the last repeating). */
export interface ScenarioEntry {
  role: string;
  output?: Record<string, unknown>;
  body?: string;
  reply?: string | string[];
  /** Played by a branch's steps (its key, or `*`), apart from the main sequence. */
  branch?: string;
}

export interface EngineTestKit {
  store: Store;
  home: string;
  config: Config;
  now(): Date;
  /** A new thread id (a ulid). */
  newId(): string;
  /** A thread of linear.yaml (or `workflow`), active at its start node. */
  startThread(options?: { prompt?: string; limits?: Partial<BudgetLimits>; workflow?: string }): Promise<ThreadRecord>;
  /** What stepThread needs for the thread, answered by linear.yaml's scripted agent unless `overrides` say otherwise. */
  stepOptions(threadId: string, overrides?: Partial<StepThreadOptions>): StepThreadOptions;
  /** A fork at `address` (a thread of its own), made with the kit's clock and ids; `overrides` add a parent or a replacement reply. */
  fork(address: string, overrides?: Partial<ForkThreadOptions>): Promise<ThreadRecord>;
  /** A thread of linear.yaml stepped to its end, with its two steps' addresses. */
  finishedThread(prompt?: string): Promise<{ record: ThreadRecord; planner: string; doer: string }>;
  /** Writes a scenario into the home and returns the agent alias that plays it (`scripted:FILE`). */
  scriptedAgent(entries: readonly ScenarioEntry[]): string;
  /** The text of a `text/1` node. */
  textOf(address: string): Promise<string>;
  /** The agent-run node of a run address. */
  runNode(address: string): Promise<ReturnType<typeof agentRunNodeSchema.parse>>;
  /** The addresses of the thread's steps, oldest first. */
  stepAddresses(record: ThreadRecord): Promise<string[]>;
  cleanup(): void;
}

/** A fresh memory store (or `store`) and temp home; `config` is laid over uwf's defaults. Call `cleanup` after the test. */
export function createEngineTestKit(options: { config?: Partial<Config>; store?: Store } = {}): EngineTestKit {
  const store = options.store ?? createMemoryStore();
  const home = mkdtempSync(join(tmpdir(), "uwf-engine-kit-"));
  const config: Config = { ...defaultConfig(), ...options.config };
  const now = () => new Date();
  let scenarios = 0;
  const kit: EngineTestKit = {
    store,
    home,
    config,
    now,
    newId: ulid,
    startThread: ({ prompt = "Say hello", limits, workflow = LINEAR_WORKFLOW } = {}) =>
      startThread({
        store,
        config,
        home,
        cwd: FIXTURES,
        now,
        workflowReference: workflow,
        prompt,
        newId: ulid,
        ...(limits === undefined ? {} : { limits }),
      }),
    stepOptions: (threadId, overrides = {}) => ({
      store,
      config,
      home,
      now,
      threadId,
      defaultAgent: LINEAR_SCRIPTED,
      signal: new AbortController().signal,
      host: "engine-test",
      onProgress: () => {},
      onStderr: () => {},
      ...overrides,
    }),
    fork: (address, overrides = {}) => forkThread({ store, address, now, newId: ulid, ...overrides }),
    finishedThread: async (prompt) => {
      const started = await kit.startThread(prompt === undefined ? {} : { prompt });
      const done = await stepUntilDone({ ...kit.stepOptions(started.id), maxSteps: Number.POSITIVE_INFINITY });
      if (done.error !== undefined) throw done.error;
      const [planner, doer] = done.steps.map((step) => step.address);
      if (planner === undefined || doer === undefined) throw new Error("expected two steps");
      return { record: done.record, planner, doer };
    },
    scriptedAgent: (entries) => {
      scenarios += 1;
      const file = join(home, `scenario-${scenarios}.json`);
      writeFileSync(file, JSON.stringify({ steps: entries }));
      return `scripted:${file}`;
    },
    textOf: async (address) => ((await store.objects.get(address)) as { text: string }).text,
    runNode: async (address) => agentRunNodeSchema.parse(await store.objects.get(address)),
    stepAddresses: async (record) => (await readChain(store, record.head)).steps.map((step) => step.address),
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
  return kit;
}
