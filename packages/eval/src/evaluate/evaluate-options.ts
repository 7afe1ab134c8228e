import type { Store } from "@uwf/cas";
import type { Config, EvalGate } from "@uwf/protocol";

/** What every evaluation needs from its caller: the store and config, where it runs, the clock and ids. */
export interface EvaluateOptions {
  store: Store;
  config: Config;
  home: string;
  /** The current directory: relative paths (a judge's workflow, a scorer's cwd) are resolved against it. */
  cwd: string;
  host: string;
  now(): Date;
  newId(): string;
  signal: AbortSignal;
  /** `--assert` values, over (or, for a selection, instead of) a suite's assertions. */
  assertions: readonly string[];
  /** The report's name; default: the suite's name, or a label of the selection. */
  name?: string;
  /** The gate's flags, over a suite's `gate:`. */
  gate: EvalGate | null;
  /** The agent of roles (and judges) that name none, as `--agent`. */
  defaultAgent?: string;
  timeoutSeconds?: number;
  /**
   * false: a request's evaluation (`uwf mcp`): its workflows and judges must be what the store names,
   * never a file (see checkStoredJudges). Default true.
   */
  workflowFiles?: boolean;
  /** A note for the person at the terminal (the assertion used when none was given, judges reused). */
  onNote?(message: string): void;
}
