/**
 * stdout and the terminal checks without `process.stdout` / `process.stderr`: creating those
 * Node streams (or importing node:tty) loads Node's stream machinery, about 3 ms of a compiled
 * uwf's start-up (measured), and every step is a new process. Messages on stderr still go
 * through `process.stderr`: they are rare, and it handles every kind of file descriptor.
 */
export async function writeStdout(text: string): Promise<void> {
  try {
    await Bun.write(Bun.stdout, text);
  } catch (error) {
    // The reader went away (`uwf read T | head`): stop quietly, as `git log | head` does.
    if ((error as NodeJS.ErrnoException | null)?.code !== "EPIPE") throw error;
    // Imported only on this path, as the error boundary is: it loads @uwf/protocol.
    const { StdoutClosedError } = await import("../errors/stdout-closed-error.ts");
    throw new StdoutClosedError(error);
  }
}

export function stdoutIsTerminal(): boolean {
  return isTerminal(1);
}

export function stderrIsTerminal(): boolean {
  return isTerminal(2);
}

type TtyBinding = { isTTY?: (fd: number) => boolean };

/** Bun's own `isTTY` binding costs nothing; node:tty, the documented way, is the fallback should it go away. */
function isTerminal(fd: number): boolean {
  let binding: TtyBinding | undefined;
  try {
    binding = (process as unknown as { binding(name: string): TtyBinding }).binding("tty_wrap");
  } catch {
    binding = undefined;
  }
  if (typeof binding?.isTTY === "function") return binding.isTTY(fd);
  const { isatty } = require("node:tty") as typeof import("node:tty");
  return isatty(fd);
}

/**
 * How wide the terminal on stdout is, for tables that fit it: `COLUMNS` when it is set to a number,
 * else what the terminal says; undefined when stdout is not a terminal (a pipe or a file gets whole
 * rows). Only the commands that fit a table ask: `process.stdout` costs start-up time.
 */
export function stdoutColumns(env: NodeJS.ProcessEnv): number | undefined {
  if (!stdoutIsTerminal()) return undefined;
  const fromEnvironment = Number(env.COLUMNS);
  if (Number.isInteger(fromEnvironment) && fromEnvironment > 0) return fromEnvironment;
  const columns = process.stdout.columns;
  return typeof columns === "number" && columns > 0 ? columns : undefined;
}
