import { resolve } from "node:path";
import type { TempHome } from "./temp-home.ts";

const BIN = resolve(import.meta.dir, "../../src/bin.ts");

export interface TerminalOptions {
  env?: Record<string, string>;
  /** The terminal's size (`stty cols C rows R`); default 100×30, the size the issue was tried at. */
  columns?: number;
  rows?: number;
  /** Typed at the terminal (what `less` reads its keys from). */
  input?: string;
}

export interface TerminalRun {
  exitCode: number;
  /** Everything the terminal showed, stdout and stderr together, escape sequences included. */
  output: string;
}

/**
 * Runs uwf under a real pseudo-terminal (util-linux `script`): stdin, stdout and stderr are all the
 * terminal, of the given size. The runner's own CI, colour and pager variables do not leak in.
 */
export async function runOnTerminal(
  temp: TempHome,
  args: string[],
  options: TerminalOptions = {},
): Promise<TerminalRun> {
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(" ");
  const size = `stty cols ${options.columns ?? 100} rows ${options.rows ?? 30}`;
  const outer = { ...process.env };
  for (const name of ["CI", "FORCE_COLOR", "NO_COLOR", "GITHUB_ACTIONS", "PAGER", "LESS", "COLUMNS", "LINES"]) {
    delete outer[name];
  }
  const child = Bun.spawn(["script", "-qec", `${size}; exec ${command}`, "/dev/null"], {
    cwd: temp.work,
    env: { ...outer, UWF_HOME: temp.home, TERM: "xterm-256color", ...options.env },
    stdin: options.input === undefined ? "ignore" : new Blob([options.input]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [output, exitCode] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return { exitCode, output };
}
