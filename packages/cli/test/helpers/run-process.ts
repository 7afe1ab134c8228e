import { resolve } from "node:path";

/** The CLI's sources. */
export const UWF_SOURCES = resolve(import.meta.dir, "../../src/bin.ts");

/**
 * The real `uwf`: the sources run by the Bun running the tests, or the compiled binary that
 * `$UWF_TEST_BINARY` names (`npm test` builds one from the same sources first: it starts several times
 * faster, and the e2e tests start thousands of uwf processes).
 */
export const UWF_COMMAND: readonly string[] = uwfCommand(process.env.UWF_TEST_BINARY);

function uwfCommand(binary: string | undefined): readonly string[] {
  return binary === undefined || binary === "" ? [process.execPath, UWF_SOURCES] : [binary];
}

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
