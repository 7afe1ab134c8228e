import { resolve } from "node:path";
import type { TempHome } from "./temp-home.ts";
import { environmentForTerminal } from "./terminal.ts";

const BIN = resolve(import.meta.dir, "../../src/bin.ts");

/** uwf running in a pseudo-terminal: its stdin, stdout and stderr are a TTY, as for a person at a terminal. */
export interface TerminalProcess {
  /** The process running uwf (util-linux `script`, which passes on uwf's exit code). */
  process: ReturnType<typeof Bun.spawn>;
  /** Types into the terminal: "\x03" is Ctrl-C, which the terminal turns into SIGINT for uwf. */
  type(text: string): void;
  /** Everything uwf wrote to the terminal (stdout and stderr together, as the screen shows them) and its exit code. */
  finished(): Promise<{ exitCode: number; screen: string }>;
}

/**
 * Runs uwf of the temp home in a pseudo-terminal with util-linux `script` (`-q` quiet, `-e` its exit
 * code, `-f` flushed at once, no typescript file), keeping the terminal's input open for `type`, so a
 * test sees what the terminal shows (status lines, escape sequences and all) when a person types keys.
 */
export function spawnInTerminal(
  temp: TempHome,
  args: readonly string[],
  env: Record<string, string> = {},
): TerminalProcess {
  const command = [process.execPath, BIN, ...args].map(quoteForShell).join(" ");
  const child = Bun.spawn(["script", "-qefc", command, "/dev/null"], {
    cwd: temp.work,
    env: { ...environmentForTerminal(), UWF_HOME: temp.home, NO_COLOR: "1", ...env },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const screen = new Response(child.stdout).text();
  return {
    process: child,
    type(text) {
      child.stdin.write(text);
      child.stdin.flush();
    },
    async finished() {
      const exitCode = await child.exited;
      // Closed only now: script would otherwise pass the end of its input on to uwf.
      await child.stdin.end();
      return { exitCode, screen: await screen };
    },
  };
}

function quoteForShell(argument: string): string {
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}
