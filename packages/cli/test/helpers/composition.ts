import { beforeAll, expect } from "bun:test";
import { join, resolve } from "node:path";
import { startTestPostgres, type TestPostgres } from "@uwf/cas/test";
import { type ListResult, listResultSchema, type ShownThread, shownThreadSchema } from "@uwf/protocol";
import type { TempHome } from "./temp-home.ts";

/** The composition tests' workflows and scenarios (packages/cli/test/fixtures/composition). */
export const COMPOSITION = resolve(import.meta.dir, "../fixtures/composition");

/** A workflow of the composition fixtures, and `scripted:` its scenario. */
export function compositionFixture(name: string): { workflow: string; agent: string; scenario: string } {
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

/** `uwf ARGS --json` that must exit `code`; its stdout parsed. */
export async function uwfJson<Value = unknown>(
  temp: TempHome,
  args: string[],
  env: Record<string, string>,
  code = 0,
): Promise<Value> {
  const run = await temp.uwf([...args, "--json"], { env });
  if (run.exitCode !== code)
    throw new Error(`uwf ${args.join(" ")} exited ${run.exitCode}, not ${code}: ${run.stderr}`);
  return run.json<Value>();
}

/** Every thread of the store, as `list --json` gives them. */
export async function listAll(temp: TempHome, env: Record<string, string>): Promise<ListResult["threads"]> {
  return listResultSchema.parse(await uwfJson(temp, ["list", "--limit", "0"], env)).threads;
}

/** The thread as `show --json` gives it. */
export async function showJson(temp: TempHome, thread: string, env: Record<string, string>): Promise<ShownThread> {
  return shownThreadSchema.parse(await uwfJson(temp, ["show", thread], env));
}

/** `cas verify` finds the store whole: every node reads back to its address, every link resolves. */
export async function expectStoreVerifies(temp: TempHome, env: Record<string, string>): Promise<void> {
  const verified = await temp.uwf(["cas", "verify"], { env });
  expect(verified.stderr).not.toContain("problem:");
  expect(verified.exitCode).toBe(0);
  expect(verified.stdout).toContain("0 problem(s)");
}

/** A thread's counts as every view reports them (docs/workflows.md#counting-steps). */
export interface ExpectedCounts {
  steps: number;
  inherited: number;
  replaced: number;
  taken: number;
  branchSteps: number;
}

/**
 * `show`, `log`, `list` and `tree` give the thread the same counts: `counts` in show and log, and the
 * same budget steps (taken + branch steps) in every budget figure they print.
 */
export async function expectCounts(
  temp: TempHome,
  thread: string,
  env: Record<string, string>,
  expected: ExpectedCounts,
): Promise<void> {
  const counts = { ...expected, budgetSteps: expected.taken + expected.branchSteps };
  const shown = await showJson(temp, thread, env);
  expect(shown.counts).toEqual(counts);
  expect(shown.stepCount).toBe(expected.steps);
  const log = await uwfJson<{ counts: unknown; budget?: { spent: { steps: number } } }>(temp, ["log", thread], env);
  expect(log.counts).toEqual(counts);
  const listed = (await listAll(temp, env)).find((row) => row.id === thread);
  expect(listed?.stepCount).toBe(expected.steps);
  if (shown.budget !== undefined) {
    expect(shown.budget.spent.steps).toBe(counts.budgetSteps);
    expect(log.budget?.spent.steps).toBe(counts.budgetSteps);
    expect(listed?.budget?.spent.steps).toBe(counts.budgetSteps);
  }
}
