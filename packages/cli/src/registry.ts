import type { Command } from "commander";
import { checkTemporaryDirectory } from "./check-temporary-directory.ts";
import { COMMAND_TABLE, GLOBAL_OPTIONS, isCommandGroup } from "./commands/command-table.ts";
import { parsePlainCommand } from "./commands/parse-plain-command.ts";
import { type CommandContext, createContext, type ProgressStatus } from "./context.ts";
import { EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_OK } from "./exit-codes.ts";
import { type OutputMode, printEvent, printResult } from "./print.ts";
import { shouldAnimate } from "./should-animate.ts";
import { shouldColor } from "./should-color.ts";
import { stderrIsTerminal, stdoutIsTerminal } from "./standard-streams.ts";
import { trace } from "./trace.ts";
import { VERSION } from "./version.ts";

/** What a command gives the registry: its data, how to show it to a person, and the exit code it implies. */
export interface CommandOutcome<Result> {
  result: Result;
  /**
   * The result as text; for a command that emitted events, only what their lines did not already say.
   * Built from its argument alone: on a terminal the printer passes the result with control characters escaped.
   */
  format: (result: Result, color: boolean) => string;
  exitCode?: number;
  /** A note for the person at the terminal, on stderr after the result (not with `-q` or `--json`). */
  hint?: string;
  /** The command emitted its data as events (`context.emit`): under `--jsonl` those lines are all it prints. */
  streamed?: boolean;
  /** Its text goes through the pager when stdout is a terminal it overflows (`uwf read`, unless `--no-pager`). */
  paged?: boolean;
  /**
   * The command failed after it had something to show (the steps it recorded before a step
   * failed): the result is printed, then this reaches the error boundary like any thrown error.
   */
  error?: unknown;
}

type Load<Result> = (context: CommandContext) => Promise<CommandOutcome<Result>>;

interface GlobalOptions {
  home?: string;
  store?: string;
  json?: boolean;
  jsonl?: boolean;
  color: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/**
 * Runs the command line. A plain command line (`uwf step THREAD --agent A`) is read straight from the
 * command table; any other is commander's, which builds the tree and prints help and usage errors.
 * Command modules are imported only when their command runs: every step is a new process.
 */
export async function runCli(argv: string[]): Promise<number> {
  let exitCode = EXIT_OK;
  const abort = new AbortController();
  const plain = parsePlainCommand(argv);
  let program: Command | undefined;

  const run =
    <Result>(load: Load<Result>) =>
    async () => {
      const globals = (plain?.globals ?? program?.opts()) as GlobalOptions;
      checkTemporaryDirectory(process.env);
      const mode = await outputMode(globals);
      const second: SecondSignal = { claimed: false, controller: new AbortController() };
      const secondSignal = () => {
        second.claimed = true;
        return second.controller.signal;
      };
      const context = await makeContext(globals, mode, abort.signal, secondSignal);
      trace("context ready");
      const installed = installSignalHandlers(abort, second);
      try {
        const outcome = await load(context);
        trace("command done");
        context.progress(null);
        await printResult(outcome.result, mode, (result) => outcome.format(result, context.color), {
          streamed: outcome.streamed === true,
          paged: outcome.paged === true,
        });
        if (outcome.error !== undefined) throw outcome.error;
        if (outcome.hint !== undefined) context.note(outcome.hint);
        exitCode = outcome.exitCode ?? EXIT_OK;
      } finally {
        context.progress(null);
        installed.remove();
        await context.close();
        trace("store closed");
      }
    };

  if (plain !== undefined) {
    trace("arguments read");
    const { entry, options } = plain;
    await run(async (context) => (await entry.load())(options, context))();
    return exitCode;
  }

  const { Command } = await import("commander");
  program = new Command("uwf")
    .description("Run multi-role agent workflows from the terminal: start, step, fork and read threads.")
    .version(VERSION, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .enablePositionalOptions(false);
  for (const option of GLOBAL_OPTIONS) program.option(option.flags, option.description);
  if (argv.includes("--json") || argv.includes("--jsonl")) program.configureOutput({ writeErr: () => {} });

  trace("commander loaded");
  const { registerCommands } = await import("./commands/register-commands.ts");
  registerCommands(program, run, commandName(argv));
  trace("commands registered");
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    // No command: commander shows the help on stderr, which --json silences, so say what is missing.
    if ((error as { code?: unknown }).code !== "commander.help" || !argv.includes("--json")) throw error;
    const { UsageError } = await import("./errors/usage-error.ts");
    throw new UsageError(missingCommandMessage(commandName(argv)));
  }
  return exitCode;
}

/** `uwf --json`, `uwf workflow --json`: which commands could have been given. */
function missingCommandMessage(name: string | undefined): string {
  const group = COMMAND_TABLE.find((entry) => entry.name === name);
  if (group === undefined || !isCommandGroup(group)) return "no command given; `uwf --help` lists the commands";
  const names = group.commands.map((command) => command.name).join(", ");
  return `uwf ${group.name} needs a command: ${names} (\`uwf ${group.name} --help\`)`;
}

/** Global options that take a value, so the command name can be found without parsing everything. */
const GLOBAL_OPTIONS_WITH_VALUE = new Set(
  GLOBAL_OPTIONS.filter((option) => option.flags.includes("<")).map((option) => option.flags.split(" ").at(-2)),
);

/** The first argument that is neither a global option nor its value: the top-level command's name, if any. */
export function commandName(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    if (argument === "--") return undefined;
    if (!argument.startsWith("-")) return argument;
    if (GLOBAL_OPTIONS_WITH_VALUE.has(argument)) index++;
  }
  return undefined;
}

export type RunCommand = <Result>(load: Load<Result>) => () => Promise<void>;

async function outputMode(globals: GlobalOptions): Promise<OutputMode> {
  if (globals.json === true && globals.jsonl === true) {
    const { UsageError } = await import("./errors/usage-error.ts");
    throw new UsageError("--json and --jsonl: give one (a JSON document, or NDJSON events)");
  }
  return globals.jsonl === true ? "jsonl" : globals.json === true ? "json" : "text";
}

async function makeContext(
  globals: GlobalOptions,
  mode: OutputMode,
  signal: AbortSignal,
  secondSignal: () => AbortSignal,
): Promise<CommandContext> {
  const { resolveHome } = await import("./resolve-home.ts");
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
    quiet: globals.quiet === true,
    verbose: globals.verbose === true,
    color,
    interactive,
    signal,
    secondSignal,
    // ulid loads node:crypto (~5 ms); only commands that create a thread need it.
    newId: () => (require("ulid") as typeof import("ulid")).ulid(),
    progress,
    emit: (event, options) => {
      // A step's line replaces the status line, so the spinner goes first.
      progress(null);
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
    const { createStatusLine } = await import("./status-line.ts");
    return createStatusLine();
  } finally {
    if (forceColor === undefined) delete process.env.FORCE_COLOR;
    else process.env.FORCE_COLOR = forceColor;
  }
}

/** Signals that stop a command cleanly: the agent's process group is stopped and the lease released. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** The second stop signal, for a command that asked for it (`context.secondSignal()`). */
interface SecondSignal {
  claimed: boolean;
  controller: AbortController;
}

/**
 * The first stop signal aborts the command's signal, so a running agent is stopped and the thread left
 * as it was (InterruptedError: exit 130, or 129 for SIGHUP, the terminal closing); a second one exits at
 * once, unless the command claimed it (a draining worker), when it aborts that signal and a third exits.
 */
function installSignalHandlers(abort: AbortController, second: SecondSignal): { remove(): void } {
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted && second.claimed && !second.controller.signal.aborted) {
      second.controller.abort(signal);
      return;
    }
    if (abort.signal.aborted) process.exit(signal === "SIGHUP" ? EXIT_HANGUP : EXIT_INTERRUPTED);
    abort.abort(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return {
    remove() {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
}
