import type { Transition } from "@uwf/protocol";

/** One recorded step as the moderator sees it: the validated output fields and the markdown body. */
export interface ModeratorStep {
  role: string;
  output: Record<string, unknown>;
  body: string;
  agent: string;
  startedAt: string;
  completedAt: string;
}

/** What the moderator decides from: the thread's start, its id, and its steps oldest first. */
export interface ModeratorHistory {
  /** `inputs`: the values given when the thread started (`uwf start --input`), `{}` when none. */
  start: { prompt: string; workflow: string; cwd: string; inputs?: Record<string, unknown> };
  thread: { id: string };
  steps: readonly ModeratorStep[];
}

/**
 * `new`: a thread's first step (the `$START` edges with status `new` or none).
 * `resume`: continuing an ended thread (only the `$START` edges with status `resume`).
 * `continue`: the step after the last one (from `$START` as `new` when there is none).
 */
export type ModeratorMode = "new" | "resume" | "continue";

export interface PickNextRoleOptions {
  mode: ModeratorMode;
  /** Time each condition may take before the step fails; defaults to `DEFAULT_CONDITION_TIMEOUT_MS`. */
  timeoutMs?: number;
}

/** The next role (or `$END`) and its rendered edge prompt; `from` is the node whose edge was taken. */
export interface ModeratorDecision {
  role: string;
  prompt: string;
  transition: Transition;
  from: string;
}

export const DEFAULT_CONDITION_TIMEOUT_MS = 2000;
