import { writeSync } from "node:fs";
import type { Command } from "commander";
import { COMMAND_TABLE } from "../commands/command-table.ts";
import { GLOBAL_OPTIONS } from "../commands/global-options.ts";
import { parsePlainCommand } from "../commands/parse-plain-command.ts";
import { isCommandGroup } from "../commands/table/define-command.ts";
import { EXIT_OK } from "../exit-codes.ts";
import { checkTemporaryDirectory } from "../home/check-temporary-directory.ts";
import { trace } from "../trace.ts";
import { VERSION } from "../version.ts";
import type { LoadCommand } from "./command-outcome.ts";
import type { GlobalOptionValues } from "./global-option-values.ts";
import { makeContext } from "./make-context.ts";
import { outputMode } from "./output-mode.ts";
import { printResult } from "./print.ts";
import { installSignalHandlers, type SecondSignal } from "./signals/install-signal-handlers.ts";

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
    <Result>(load: LoadCommand<Result>) =>
    async () => {
      const globals = (plain?.globals ?? program?.opts()) as GlobalOptionValues;
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
  // Help goes out with a plain write whose EPIPE (`uwf --help | head`) reaches the error boundary, which
  // ends quietly; process.stdout would raise it as an uncaught stream error.
  program.configureOutput({ writeOut: writeAllToStdout });
  for (const option of GLOBAL_OPTIONS) program.option(option.flags, option.description);
  if (argv.includes("--json") || argv.includes("--jsonl")) program.configureOutput({ writeErr: () => {} });

  trace("commander loaded");
  const { registerCommands } = await import("../commands/register-commands.ts");
  registerCommands(program, run, commandName(argv));
  trace("commands registered");
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    // No command: commander shows the help on stderr, which --json silences, so say what is missing.
    if ((error as { code?: unknown }).code !== "commander.help" || !argv.includes("--json")) throw error;
    const { UsageError } = await import("../errors/usage-error.ts");
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

/** Writes all of `text` to fd 1, synchronously; throws the write's error (EPIPE: the reader went away). */
function writeAllToStdout(text: string): void {
  const bytes = Buffer.from(text);
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(1, bytes, written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue;
      throw error;
    }
  }
}
