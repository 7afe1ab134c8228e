import { quoteForShell, UWF_COMMAND } from "./run-process.ts";
import type { TempHome } from "./temp-home.ts";

export interface TerminalOptions {
  /** Added to the terminal's environment (UWF_HOME, TERM and the runner's own variables without CI, colour and pager). */
  env?: Record<string, string>;
  /** The terminal's size (`stty cols C rows R`); default 100×30, the size the issue was tried at. */
  columns?: number;
  rows?: number;
  /** False: leave the terminal without a size, as `script` makes it (tools then fall back to their defaults). */
  sized?: boolean;
  /** Typed at the terminal all at once, then its end (what `less` reads its keys from). */
  input?: string;
  /** Keep the terminal's input open for `type` until uwf exits (a person at the keyboard). */
  interactive?: boolean;
}

export interface TerminalRun {
  exitCode: number;
  /** Everything the terminal showed, stdout and stderr together, escape sequences included. */
  output: string;
}

/** A uwf running under a pseudo-terminal, whose screen output can be waited for as it comes. */
export interface TerminalSession {
  /** The process running uwf (util-linux `script`, which passes on uwf's exit code). */
  process: ReturnType<typeof Bun.spawn>;
  /** Resolves once the terminal has shown text matching `pattern` (colour codes removed); rejects if uwf exits first. */
  waitForOutput(pattern: RegExp): Promise<void>;
  /** Types into the terminal (with `interactive`): "\x03" is Ctrl-C, which the terminal turns into SIGINT for uwf. */
  type(text: string): void;
  finished: Promise<TerminalRun>;
}

/**
 * Runs uwf of the temp home under a real pseudo-terminal (util-linux `script`: `-q` quiet, `-e` uwf's
 * exit code, `-f` flushed at once, no typescript file): stdin, stdout and stderr are all the terminal,
 * of the given size. The runner's own CI, colour and pager variables do not leak in.
 */
export function startOnTerminal(
  temp: TempHome,
  args: readonly string[],
  options: TerminalOptions = {},
): TerminalSession {
  const command = [...UWF_COMMAND, ...args].map(quoteForShell).join(" ");
  const size = `stty cols ${options.columns ?? 100} rows ${options.rows ?? 30}; `;
  const child = Bun.spawn(["script", "-qefc", `${options.sized === false ? "" : size}exec ${command}`, "/dev/null"], {
    cwd: temp.work,
    env: { ...environmentForTerminal(), UWF_HOME: temp.home, TERM: "xterm-256color", ...options.env },
    stdin: options.interactive === true ? "pipe" : options.input === undefined ? "ignore" : new Blob([options.input]),
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
    const exitCode = await child.exited;
    // Closed only now: script would otherwise pass the end of its input on to uwf.
    if (options.interactive === true) await (child.stdin as import("bun").FileSink).end();
    return { exitCode, output };
  })();
  return {
    process: child,
    waitForOutput(pattern) {
      return new Promise<void>((resolve, reject) => {
        waiters.push({ pattern, resolve });
        settle();
        finished.then(() => reject(new Error(`uwf exited without showing ${pattern}:\n${output}`)), reject);
      });
    },
    type(text) {
      const input = child.stdin as import("bun").FileSink;
      input.write(text);
      input.flush();
    },
    finished,
  };
}

/** `startOnTerminal`, waited for to the end. */
export function runOnTerminal(
  temp: TempHome,
  args: readonly string[],
  options: TerminalOptions = {},
): Promise<TerminalRun> {
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

/**
 * uwf on a pseudo-terminal left without a size (as `script` makes it, so tools fall back to their
 * defaults), with `env` added: its exit code and what it showed, the terminal's \r\n read as \n.
 */
export async function runOnBareTerminal(
  temp: TempHome,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<TerminalRun> {
  const { exitCode, output } = await runOnTerminal(temp, args, { env, sized: false });
  return { exitCode, output: output.replaceAll("\r\n", "\n") };
}

/** Why a terminal test is skipped here: util-linux `script` missing, or unable to open a pseudo-terminal; null when it works. */
export function terminalSkipReason(): string | null {
  if (Bun.which("script") === null) return "util-linux script is not installed";
  const tried = Bun.spawnSync(["script", "-qefc", "true", "/dev/null"], { stdin: "ignore" });
  return tried.success ? null : "util-linux script cannot run a pseudo-terminal here";
}
