/**
 * Which modules a `uwf` command evaluates, read from the bundle the CLI ships as: the CLI is built with
 * Bun.build (code splitting, as packages/cli/scripts/build.ts builds it) with a metafile, the command runs
 * on that bundle under a preload that records the chunks it loads, and the metafile names the source modules
 * in each chunk. Deterministic: it depends on the import graph, not on timing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const repositoryRoot = resolve(import.meta.dir, "../..");

export interface CliBundle {
  folder: string;
  entry: string;
  /** Chunk file name → the source modules (paths relative to the repository root) in it. */
  chunkModules: Map<string, string[]>;
  remove(): void;
}

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

export async function buildCliBundle(): Promise<CliBundle> {
  const folder = mkdtempSync(join(tmpdir(), "uwf-module-set-"));
  const result = await Bun.build({
    entrypoints: [join(repositoryRoot, "packages/cli/src/bin.ts")],
    outdir: folder,
    root: repositoryRoot,
    splitting: true,
    target: "bun",
    format: "esm",
    metafile: true,
  });
  if (!result.success) throw new AggregateError(result.logs, "the CLI bundle did not build");
  const metafile = result.metafile as Metafile | undefined;
  if (metafile === undefined) throw new Error("Bun.build returned no metafile");
  const chunkModules = new Map<string, string[]>();
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    chunkModules.set(output.replace(/^\.\//, ""), Object.keys(inputs));
  }
  const entry = result.outputs.find((output) => output.kind === "entry-point")?.path;
  if (entry === undefined) throw new Error("the CLI bundle has no entry point");
  return { folder, entry, chunkModules, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

export interface ModuleSetRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The source modules evaluated, as paths relative to the repository root (node_modules shortened). */
  modules: string[];
}

/** Runs `uwf ARGS` from the bundle and lists the modules it evaluated. */
export function runRecordingModules(
  bundle: CliBundle,
  args: string[],
  environment: Record<string, string>,
): ModuleSetRun {
  const recordFile = join(bundle.folder, `loaded-${crypto.randomUUID()}.txt`);
  const result = Bun.spawnSync(
    [process.execPath, "--preload", join(import.meta.dir, "record-loaded-chunks.ts"), bundle.entry, ...args],
    {
      env: { ...environment, UWF_RECORD_CHUNKS: recordFile, UWF_RECORD_BUNDLE: bundle.folder },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const chunks = [bundle.entry.slice(bundle.folder.length + 1), ...readLines(recordFile)];
  const modules = new Set<string>();
  for (const chunk of chunks) {
    for (const module of bundle.chunkModules.get(chunk) ?? []) modules.add(shortenModulePath(module));
  }
  return {
    exitCode: result.exitCode ?? -1,
    stdout: result.stdout.toString(),
    stderr: result.stderr.toString(),
    modules: [...modules].sort(),
  };
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line !== "");
  } catch {
    return [];
  }
}

/** `node_modules/.bun/x@1/node_modules/@scope/x/dist/a.js` → `node_modules/@scope/x/dist/a.js`. */
export function shortenModulePath(path: string): string {
  return path.replace(/^.*node_modules\/(?!\.bun\/)/, "node_modules/");
}
