import type { LiveEvent, UwfErrorJson } from "@uwf/protocol";

/** A uwf command by its words in the command table: `["list"]`, `["workflow", "show"]`, `["eval", "show"]`. */
export type CommandPath = readonly string[];

/**
 * What a command gave: its `--json` result and exit code, or the error the CLI would have reported (with
 * the result it printed before it, if any: `uwf eval show` prints the report, then exits 3 for its gate).
 */
export type CommandOutcome =
  | { ok: true; result: unknown; exitCode: number }
  | { ok: false; error: UwfErrorJson; exitCode: number; result?: unknown };

/**
 * What the server asks of the CLI: to run a command exactly as `uwf COMMAND --json` would (same
 * options object as the command's flags, same engine calls, leases, budgets and errors), and the
 * store's change feed. The CLI implements it, so the UI package never loads the agents itself.
 */
export interface UiBackend {
  run(command: CommandPath, options: Record<string, unknown>, signal: AbortSignal): Promise<CommandOutcome>;
  /** Calls `listener` with each change any process makes to the store; returns a function that stops it. */
  watch(listener: (event: LiveEvent) => void): () => void;
}
