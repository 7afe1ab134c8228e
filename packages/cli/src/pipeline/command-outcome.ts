import type { CommandContext } from "./command-context.ts";

/** What a command gives the pipeline: its data, how to show it to a person, and the exit code it implies. */
export interface CommandOutcome<Result> {
  result: Result;
  /**
   * The result as text; for a command that emitted events, only what their lines did not already say.
   * Built from its argument alone: on a terminal the printer passes the result with control characters escaped.
   * A method, so a command whose result is one of several shapes (`uwf run`: a step's or a start's) can
   * return the outcome of the command it ran: the printer only ever passes an outcome its own result.
   */
  format(result: Result, color: boolean): string;
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

export type LoadCommand<Result> = (context: CommandContext) => Promise<CommandOutcome<Result>>;

/** Wraps a command's loader into what commander (or the plain command line) calls: context, run, print. */
export type RunCommand = <Result>(load: LoadCommand<Result>) => () => Promise<void>;
