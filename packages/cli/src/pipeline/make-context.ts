import { newThreadId } from "@uwf/engine";
import { createContext } from "../context/create-context.ts";
import { shouldAnimate } from "../terminal/should-animate.ts";
import { shouldColor } from "../terminal/should-color.ts";
import { stderrIsTerminal, stdoutIsTerminal } from "../terminal/standard-streams.ts";
import type { CommandContext, ProgressStatus } from "./command-context.ts";
import type { GlobalOptionValues } from "./global-option-values.ts";
import { type OutputMode, printEvent } from "./print.ts";

/** The events printed as a line per step (or fan-out, or join), which `-q` leaves out of text output. */
const STEP_LINE_EVENTS: ReadonlySet<string> = new Set([
  "step-started",
  "step-finished",
  "step-retry",
  "branches-started",
  "branches-joined",
]);

/** The context a command runs with, from the global flags, the environment and the terminal. */
export async function makeContext(
  globals: GlobalOptionValues,
  mode: OutputMode,
  signal: AbortSignal,
  secondSignal: () => AbortSignal,
): Promise<CommandContext> {
  const { resolveHome } = await import("../home/resolve-home.ts");
  const env = process.env;
  const cwd = process.cwd();
  const json = mode !== "text";
  const interactive = stderrIsTerminal() && !globals.quiet && !json;
  const color = shouldColor({ flag: globals.color !== false, env, terminal: stdoutIsTerminal() });
  // The status line is drawn only on a terminal (interactive), so its colour follows the same rules.
  const progress =
    interactive && shouldAnimate(env)
      ? await createProgress(shouldColor({ flag: globals.color !== false, env, terminal: true }))
      : () => {};
  return createContext({
    home: resolveHome({ flag: globals.home, env, cwd }),
    storeFlag: globals.store,
    cwd,
    env,
    json,
    jsonLines: mode === "jsonl",
    quiet: globals.quiet === true,
    verbose: globals.verbose === true,
    color,
    interactive,
    signal,
    secondSignal,
    newId: newThreadId,
    progress,
    emit: (event, options) => {
      // A step's line replaces the status line, so the spinner goes first.
      progress(null);
      // -q: no line per step; where the thread stands at the end is still printed (docs/cli.md).
      if (globals.quiet === true && mode === "text" && STEP_LINE_EVENTS.has(event.type)) return Promise.resolve();
      return printEvent(event, mode, color, options);
    },
  });
}

/**
 * The spinner's colours (yoctocolors) are decided once, when it loads, from the environment alone, by
 * Node's rules: `--no-color` would not reach them, and they colour under CI where a known CI vendor is
 * named. So FORCE_COLOR carries uwf's decision while the status line loads, and is then put back.
 */
async function createProgress(color: boolean): Promise<(status: ProgressStatus | null) => void> {
  const forceColor = process.env.FORCE_COLOR;
  process.env.FORCE_COLOR = color ? "1" : "0";
  try {
    const { createStatusLine } = await import("../terminal/status-line.ts");
    return createStatusLine();
  } finally {
    if (forceColor === undefined) delete process.env.FORCE_COLOR;
    else process.env.FORCE_COLOR = forceColor;
  }
}
