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

/** A uwf running under a pseudo-terminal, whose screen output can be waited for as it comes. */
export interface TerminalSession {
  /** Resolves once the terminal has shown text matching `pattern` (colour codes removed); rejects if uwf exits first. */
  waitForOutput(pattern: RegExp): Promise<void>;
  finished: Promise<TerminalRun>;
}

/**
 * Runs uwf under a real pseudo-terminal (util-linux `script`): stdin, stdout and stderr are all the
 * terminal, of the given size. The runner's own CI, colour and pager variables do not leak in.
 */
export function startOnTerminal(temp: TempHome, args: string[], options: TerminalOptions = {}): TerminalSession {
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(" ");
  const size = `stty cols ${options.columns ?? 100} rows ${options.rows ?? 30}`;
  const outer = environmentForTerminal();
  const child = Bun.spawn(["script", "-qec", `${size}; exec ${command}`, "/dev/null"], {
    cwd: temp.work,
    env: { ...outer, UWF_HOME: temp.home, TERM: "xterm-256color", ...options.env },
    stdin: options.input === undefined ? "ignore" : new Blob([options.input]),
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  const settle = () => {
    const screen = Bun.stripANSI(output);
    for (const waiter of [...waiters]) {
      if (!waiter.pattern.test(screen)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const finished = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      output += decoder.decode(chunk, { stream: true });
      settle();
    }
    return { exitCode: await child.exited, output };
  })();
  return {
    waitForOutput(pattern) {
      return new Promise<void>((resolve, reject) => {
        waiters.push({ pattern, resolve });
        settle();
        finished.then(() => reject(new Error(`uwf exited without showing ${pattern}:\n${output}`)), reject);
      });
    },
    finished,
  };
}

/** `startOnTerminal`, waited for to the end. */
export function runOnTerminal(temp: TempHome, args: string[], options: TerminalOptions = {}): Promise<TerminalRun> {
  return startOnTerminal(temp, args, options).finished;
}

/**
 * The test runner's environment without what would change how uwf draws on a terminal (CI, colour, pager,
 * size), so that a terminal test sees the same screen under CI as on a developer's machine.
 */
export function environmentForTerminal(): Record<string, string | undefined> {
  const outer = { ...process.env };
  for (const name of ["CI", "FORCE_COLOR", "NO_COLOR", "GITHUB_ACTIONS", "PAGER", "LESS", "COLUMNS", "LINES"]) {
    delete outer[name];
  }
  return outer;
}
