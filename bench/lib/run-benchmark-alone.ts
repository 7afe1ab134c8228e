/**
 * What a benchmark module does when run alone (`bun bench/lib/X.ts [--smoke]`): builds the CLI if it is
 * missing, measures (with the full or the smoke plan) in a temp root it removes after, and prints the result
 * as JSON, then its report lines (tables, `met`/`MISSED` targets).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { TargetCheck } from "./report.ts";

const repositoryRoot = resolve(import.meta.dir, "../..");

/** What a benchmark run alone measures with: the built CLI, a temp root removed after, each home's environment. */
export interface AloneContext {
  binary: string;
  temporaryRoot: string;
  environment(home: string): Record<string, string | undefined>;
  progress(message: string): void;
}

/** What every such module's measure function takes. */
export interface AloneOptions<Plan> extends AloneContext {
  plan: Plan;
}

/**
 * Builds the CLI from the sources as they are, measures in a temp root (named from `name`) it removes after, and
 * prints the result as JSON, then `report`'s lines.
 */
export async function runAlone<Result>(
  name: string,
  measure: (context: AloneContext) => Promise<Result>,
  report: (result: Result) => string[],
): Promise<void> {
  const binary = join(repositoryRoot, "packages/cli/dist/uwf");
  // Built every time (a few seconds): a binary left from an earlier checkout would measure an old build.
  const build = Bun.spawnSync([process.execPath, "run", "build"], { cwd: repositoryRoot, stdout: "inherit" });
  if (build.exitCode !== 0) throw new Error("bun run build failed");
  const temporaryRoot = mkdtempSync(join(tmpdir(), name));
  try {
    const result = await measure({
      binary,
      temporaryRoot,
      environment: (home) => {
        const { UWF_STORE: _store, UWF_HOME: _home, ...rest } = process.env;
        return { ...rest, UWF_HOME: home, HOME: temporaryRoot, NO_COLOR: "1" };
      },
      progress: (message) => console.error(`[bench] ${message}`),
    });
    console.log(JSON.stringify(result, null, 2));
    for (const line of report(result)) console.log(line);
  } finally {
    rmSync(temporaryRoot, { recursive: true, force: true });
  }
}

/** `runAlone` with the module's full plan, or its smoke plan under `--smoke`. */
export async function runBenchmarkAlone<Plan, Result>(module: {
  /** The temp root's name prefix. */
  name: string;
  plans: { full: Plan; smoke: Plan };
  measure(options: AloneOptions<Plan>): Promise<Result>;
  /** Lines printed after the JSON: tables, then targets. */
  report(result: Result): string[];
}): Promise<void> {
  const { values } = parseArgs({ options: { smoke: { type: "boolean", default: false } } });
  const plan = values.smoke ? module.plans.smoke : module.plans.full;
  await runAlone(module.name, (context) => module.measure({ ...context, plan }), module.report);
}

/** A target as its `met`/`MISSED` line. */
export function targetLines(targets: readonly TargetCheck[]): string[] {
  return targets.map((target) => `${target.met ? "met" : "MISSED"}: ${target.target}: ${target.measured}`);
}
