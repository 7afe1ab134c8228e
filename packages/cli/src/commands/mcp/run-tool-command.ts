import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@uwf/cas";
import type { CliEvent, UwfErrorJson } from "@uwf/protocol";
import { createContext } from "../../context/create-context.ts";
import { describeError } from "../../describe-error.ts";
import { UsageError } from "../../errors/usage-error.ts";
import { exitCodeForError } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { findCommand, withoutUndefined } from "../find-command.ts";
import type { CommandTable } from "../table/define-command.ts";
import type { McpToolSpec } from "./mcp-tool-spec.ts";

/** What one tool call did: the command's `--json` result and exit code, or the error the CLI would report. */
export type ToolCommandOutcome =
  | { ok: true; result: unknown; exitCode: number }
  | { ok: false; error: UwfErrorJson; exitCode: number; result?: unknown };

export interface RunToolCommandOptions {
  spec: McpToolSpec;
  input: Record<string, unknown>;
  commands: CommandTable;
  /** The server's own context (its home, store flag, cwd and environment). */
  context: CommandContext;
  store: Store;
  /** Aborted when the client cancels the request or the server stops. */
  signal: AbortSignal;
  /** Each event the command emits (a step started or finished), for progress notifications. */
  onEvent?: (event: CliEvent) => void;
}

/**
 * Answers a tool call on the server's store: a thread's view read from the engine (the tool's `read`), or
 * its command run as `uwf … --json` would, with a context that never writes to stdout: machine output, no
 * progress line, events handed to `onEvent` instead of stdout (stdout is the MCP channel). Every failure
 * comes back as the CLI's error object, never thrown.
 */
export async function runToolCommand(options: RunToolCommandOptions): Promise<ToolCommandOutcome> {
  const { spec, context, store, signal } = options;
  let scratch: string | undefined;
  try {
    const input = { ...options.input };
    const commandOptions = spec.toOptions(withoutUndefined(input));
    if (typeof input.outputText === "string") {
      if (input.output !== undefined) throw new UsageError("give output (a file) or outputText (the reply), not both");
      // The fork command reads a reply from a file, as `--output FILE` does.
      scratch = mkdtempSync(join(tmpdir(), "uwf-mcp-"));
      const file = join(scratch, "reply.md");
      writeFileSync(file, input.outputText);
      commandOptions.output = file;
    }
    const requestContext: CommandContext = {
      ...createContext({
        home: context.home,
        storeFlag: context.storeFlag,
        cwd: context.cwd,
        env: context.env,
        // Machine output: no notes; warnings still reach stderr, which clients keep in their logs.
        json: true,
        quiet: context.quiet,
        verbose: context.verbose,
        color: false,
        interactive: false,
        signal,
        secondSignal: () => signal,
        newId: context.newId,
        progress: () => {},
        emit: async (event) => options.onEvent?.(event),
      }),
      // Under --read-only, workflows are named only by what the store holds (see CommandContext).
      ...(context.storedWorkflowsOnly === true ? { storedWorkflowsOnly: true } : {}),
      openStore: async () => store,
      close: async () => {},
      loadConfig: () => context.loadConfig(),
    };
    if (spec.read !== undefined) {
      // A thread's view, read from the engine as the command reads it (its checks, its result).
      return {
        ok: true,
        result: await spec.read(store, withoutUndefined(commandOptions), requestContext),
        exitCode: 0,
      };
    }
    const run = await findCommand(options.commands, spec.command).load();
    const outcome = await run(withoutUndefined(commandOptions), requestContext);
    if (outcome.error !== undefined) {
      // The command recorded something before it failed (the steps before a failed one): both are told.
      const error = describeError(outcome.error);
      return { ok: false, error, exitCode: exitCodeForError(error.code), result: outcome.result };
    }
    return { ok: true, result: outcome.result, exitCode: outcome.exitCode ?? 0 };
  } catch (thrown) {
    const error = describeError(thrown);
    return { ok: false, error, exitCode: exitCodeForError(error.code) };
  } finally {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
}
