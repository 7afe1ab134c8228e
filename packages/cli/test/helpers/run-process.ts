import { resolve } from "node:path";

/** The real `uwf`: the sources run by the Bun running the tests. */
export const UWF_COMMAND: readonly string[] = [process.execPath, resolve(import.meta.dir, "../../src/bin.ts")];

/** What a finished process left: its exit code and everything it wrote. */
export interface ProcessRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunProcessOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Written to its stdin, which is then closed; without it stdin is /dev/null. */
  stdin?: string;
}

/** Runs a command to its end, reading stdout and stderr whole as it goes (so a full pipe never blocks it). */
export async function runProcess(command: readonly string[], options: RunProcessOptions = {}): Promise<ProcessRun> {
  const child = Bun.spawn([...command], {
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { exitCode, stdout, stderr };
}

/** Quotes a word for `sh`: `'it'\''s'`. */
export function quoteForShell(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
