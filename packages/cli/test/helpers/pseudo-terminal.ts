/** A command running in a pseudo-terminal: its stdin, stdout and stderr are a TTY, as for a person at a terminal. */
export interface TerminalProcess {
  /** The process running the command (util-linux `script`, which passes on the command's exit code). */
  process: ReturnType<typeof Bun.spawn>;
  /** Types into the terminal: "\x03" is Ctrl-C, which the terminal turns into SIGINT for the command. */
  type(text: string): void;
  /** Everything the command wrote to the terminal (stdout and stderr together, as the screen shows them) and its exit code. */
  finished(): Promise<{ exitCode: number; screen: string }>;
}

/**
 * Runs `argv` in a pseudo-terminal with util-linux `script` (`-q` quiet, `-e` its exit code, `-f`
 * flushed at once, no typescript file), so a test sees what the terminal shows: status lines,
 * escape sequences and all.
 */
export function spawnInTerminal(
  argv: readonly string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): TerminalProcess {
  const child = Bun.spawn(["script", "-qefc", argv.map(quoteForShell).join(" "), "/dev/null"], {
    cwd: options.cwd,
    env: options.env,
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
      // Closed only now: script would otherwise pass the end of its input on to the command.
      await child.stdin.end();
      return { exitCode, screen: await screen };
    },
  };
}

function quoteForShell(argument: string): string {
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}
