import { beforeAll, expect } from "bun:test";
import { join, resolve } from "node:path";
import { startTestPostgres, type TestPostgres } from "@uwf/cas/test";
import {
  type ListResult,
  listResultSchema,
  type ShownThread,
  type StepResult,
  shownThreadSchema,
  stepResultSchema,
} from "@uwf/protocol";
import { type TempHome, type UwfRun, useTempHome } from "../../helpers/temp-home.ts";

/**
 * The composition tests' kit: their fixtures, the two stores each test runs on, and one home on one
 * store with the commands every test runs (run, list, show, counts, verify) bound to both.
 */

/** The composition tests' workflows and scenarios (packages/cli/test/fixtures/composition). */
export const COMPOSITION = resolve(import.meta.dir, "../../fixtures/composition");

/** A workflow of the composition fixtures, and `scripted:` its scenario. */
export interface CompositionFixture {
  workflow: string;
  agent: string;
  scenario: string;
}

export function compositionFixture(name: string): CompositionFixture {
  const scenario = join(COMPOSITION, `${name}.scenario.yaml`);
  return { workflow: join(COMPOSITION, `${name}.yaml`), agent: `scripted:${scenario}`, scenario };
}

/** The two stores every composition test runs on: the embedded home, and a fresh PostgreSQL store. */
export const STORES = ["embedded", "postgres"] as const;
export type StoreKind = (typeof STORES)[number];

/**
 * The environment that selects `kind`'s store for one test: none for the embedded store, `UWF_STORE`
 * naming a schema no test has used on the test PostgreSQL server (started once per test process).
 */
export function useStoreEnv(): (kind: StoreKind) => Record<string, string> {
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    server = await startTestPostgres();
  });
  return (kind): Record<string, string> => {
    if (kind === "embedded") return {};
    if (server === undefined) throw new Error("the test PostgreSQL server is not started");
    return { UWF_STORE: server.newStoreUrl() };
  };
}

/** A thread's counts as every view reports them (docs/workflows.md#counting-steps). */
export interface ExpectedCounts {
  steps: number;
  inherited: number;
  replaced: number;
  taken: number;
  branchSteps: number;
}

/** One home on one store, and the commands the composition tests run there. */
export interface CompositionStore {
  readonly temp: TempHome;
  readonly env: Record<string, string>;
  /** `uwf ARGS` on this store. */
  uwf(args: string[]): Promise<UwfRun>;
  /** `uwf ARGS --json` that must exit `code`; its stdout parsed. */
  json<Value = unknown>(args: string[], code?: number): Promise<Value>;
  /** `uwf run` of a fixture with its scripted agent, which must exit 0. */
  run(fixture: CompositionFixture, prompt: string): Promise<StepResult>;
  /** Every thread of the store, as `list --json` gives them. */
  list(): Promise<ListResult["threads"]>;
  /** The thread as `show --json` gives it. */
  show(thread: string): Promise<ShownThread>;
  /**
   * `show`, `log`, `list` and `tree` give the thread the same counts: `counts` in show and log, and the
   * same budget steps (taken + branch steps) in every budget figure they print.
   */
  expectCounts(thread: string, expected: ExpectedCounts): Promise<void>;
  /** `cas verify` finds the store whole: every node reads back to its address, every link resolves. */
  expectVerifies(): Promise<void>;
}

export function compositionStore(temp: TempHome, env: Record<string, string>): CompositionStore {
  const uwf = (args: string[]) => temp.uwf(args, { env });
  async function json<Value = unknown>(args: string[], code = 0): Promise<Value> {
    const run = await uwf([...args, "--json"]);
    if (run.exitCode !== code)
      throw new Error(`uwf ${args.join(" ")} exited ${run.exitCode}, not ${code}: ${run.stderr}`);
    return run.json<Value>();
  }
  const list = async () => listResultSchema.parse(await json(["list", "--limit", "0"])).threads;
  const show = async (thread: string) => shownThreadSchema.parse(await json(["show", thread]));
  return {
    temp,
    env,
    uwf,
    json,
    list,
    show,
    run: async (fixture, prompt) =>
      stepResultSchema.parse(await json(["run", fixture.workflow, "-p", prompt, "--agent", fixture.agent])),
    async expectCounts(thread, expected) {
      const counts = { ...expected, budgetSteps: expected.taken + expected.branchSteps };
      const shown = await show(thread);
      expect(shown.counts).toEqual(counts);
      expect(shown.stepCount).toBe(expected.steps);
      const log = await json<{ counts: unknown; budget?: { spent: { steps: number } } }>(["log", thread]);
      expect(log.counts).toEqual(counts);
      const listed = (await list()).find((row) => row.id === thread);
      expect(listed?.stepCount).toBe(expected.steps);
      if (shown.budget !== undefined) {
        expect(shown.budget.spent.steps).toBe(counts.budgetSteps);
        expect(log.budget?.spent.steps).toBe(counts.budgetSteps);
        expect(listed?.budget?.spent.steps).toBe(counts.budgetSteps);
      }
    },
    async expectVerifies() {
      const verified = await uwf(["cas", "verify"]);
      expect(verified.stderr).not.toContain("problem:");
      expect(verified.exitCode).toBe(0);
      expect(verified.stdout).toContain("0 problem(s)");
    },
  };
}

/**
 * A temp home for each test of the file, and `kind`'s store in it: call it inside a test of
 * `describe.each(STORES)`.
 */
export function useCompositionStores(): (kind: StoreKind) => CompositionStore {
  const temp = useTempHome();
  const storeEnv = useStoreEnv();
  return (kind) => compositionStore(temp, storeEnv(kind));
}

/** The thread that is `parent`'s branch `key`. */
export function branchOf(threads: ListResult["threads"], parent: string, key: string): ListResult["threads"][number] {
  const found = threads.find((thread) => thread.branchOf?.thread === parent && thread.branchOf.branch === key);
  if (found === undefined) throw new Error(`no branch ${key} of ${parent}`);
  return found;
}
