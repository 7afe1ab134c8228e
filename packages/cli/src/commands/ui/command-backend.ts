import type { Store } from "@uwf/cas";
import { listThreadViews } from "@uwf/engine";
import type { CommandOutcome, UiBackend } from "@uwf/ui";
import { createContext } from "../../context/create-context.ts";
import { describeError } from "../../describe-error.ts";
import { exitCodeForError } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { findCommand, withoutUndefined } from "../find-command.ts";
import type { CommandTable } from "../table/define-command.ts";
import { listEnvironment, listQueryOf } from "../thread/view/list-query.ts";
import { showReference } from "../thread/view/show-reference.ts";
import { readThreadAgentOutput, readThreadLog, readThreadTree } from "../thread/view/thread-view-reads.ts";

/**
 * The web UI's backend, on the store `uwf ui` opened, so every request sees one store. A thread's view, its
 * log, its family tree, a node and a listing are read from the engine, through the checks the CLI's
 * `show`, `log`, `tree` and `list` make of their flags; any other call runs the command of the command
 * table that `uwf … --json` runs, with a context like the CLI's (quiet, non-interactive, machine output).
 * Errors either way are reported as the CLI reports them.
 */
export function createCommandBackend(
  commands: CommandTable,
  context: CommandContext,
  store: Store,
  watch: UiBackend["watch"],
): UiBackend {
  return {
    async run(command, options, signal): Promise<CommandOutcome> {
      const entry = findCommand(commands, command);
      const requestContext: CommandContext = {
        ...createMachineContext(context, signal),
        // config.yaml is read per request (the machine context's own loadConfig), so `uwf config set`
        // takes effect on the next action without a restart.
        // A request names workflows by what the store holds, never by a path (it could read any file).
        storedWorkflowsOnly: true,
        openStore: async () => store,
        close: async () => {},
      };
      try {
        const run = await entry.load();
        const outcome = await run(withoutUndefined(options), requestContext);
        if (outcome.error !== undefined) {
          const described = describeError(outcome.error);
          return { ok: false, error: described, exitCode: exitCodeForError(described.code), result: outcome.result };
        }
        return { ok: true, result: outcome.result, exitCode: outcome.exitCode ?? 0 };
      } catch (error) {
        const described = describeError(error);
        return { ok: false, error: described, exitCode: exitCodeForError(described.code) };
      }
    },
    show: (reference, text) =>
      read(
        async () =>
          (await showReference(store, { reference, prompt: text === "prompt", reply: text === "reply" })).result,
      ),
    threadLog: (thread) => read(() => readThreadLog(store, thread)),
    agentOutput: (thread, step) => read(() => readThreadAgentOutput(store, thread, step)),
    threadTree: (thread) => read(() => readThreadTree(store, { thread })),
    listThreads: (request) =>
      read(() =>
        // Warnings (a thread whose head is unreadable) go where a command's would.
        listThreadViews(store, listQueryOf(request), listEnvironment(createMachineContext(context, context.signal))),
      ),
    watch,
  };
}

/** What a read gave, or its error as the CLI reports it (code, message, data, and the exit code it maps to). */
async function read<Result>(reading: () => Promise<Result>): Promise<CommandOutcome<Result>> {
  try {
    return { ok: true, result: await reading(), exitCode: 0 };
  } catch (error) {
    const described = describeError(error);
    return { ok: false, error: described, exitCode: exitCodeForError(described.code) };
  }
}

/**
 * A context for a command run on behalf of someone who is not at a terminal (a page, a test): machine
 * output, quiet, no questions, no progress, events dropped; stopped by `signal`.
 */
export function createMachineContext(
  base: Pick<CommandContext, "home" | "storeFlag" | "cwd" | "env" | "newId">,
  signal: AbortSignal,
): CommandContext {
  return createContext({
    home: base.home,
    storeFlag: base.storeFlag,
    cwd: base.cwd,
    env: base.env,
    json: true,
    quiet: true,
    verbose: false,
    color: false,
    interactive: false,
    signal,
    secondSignal: () => signal,
    newId: base.newId,
    progress: () => {},
    emit: async () => {},
  });
}
