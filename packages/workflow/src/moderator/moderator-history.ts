import type { FanOutNode, Transition } from "@uwf/protocol";

/** One recorded step as the moderator sees it: the validated output fields and the markdown body. */
export interface ModeratorStep {
  role: string;
  output: Record<string, unknown>;
  body: string;
  agent: string;
  startedAt: string;
  completedAt: string;
  /**
   * On the step that answers a typed suspension (`uwf resume --answer`): the person's answer, as its
   * role's `answer:` schema accepted it. Conditions read `steps[-1].answer.approved`. Absent otherwise.
   */
  answer?: Record<string, unknown>;
}

/** What the moderator decides from: the thread's start, its id, and its steps oldest first. */
export interface ModeratorHistory {
  /** `inputs`: the values given when the thread started (`uwf start --input`), `{}` when none. */
  start: { prompt: string; workflow: string; cwd: string; inputs?: Record<string, unknown> };
  thread: { id: string };
  steps: readonly ModeratorStep[];
  /**
   * At a fan-out's join, and when routing the join role's reply: the branches' results (for
   * `parallel` an object by key, for `foreach` a list in item order; the engine builds them).
   * Conditions (JSONata) and edge prompts (Liquid) read it as `branches`; absent elsewhere.
   */
  branches?: unknown;
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

/**
 * A fan-out as the moderator plans it from the reply that routed to it: the protocol's `fan-out/1`
 * node without its `type` (the engine stores it as is): its branches in declaration or item order,
 * with their prompts and inputs rendered, and the join.
 */
export type PlannedFanOut = Omit<FanOutNode, "type">;

/**
 * The next role (or `$END`) and its rendered edge prompt; `from` is the node whose edge was taken.
 * On a fan-out edge `fanOut` is set, `role` is the join's role and `prompt` is empty: the join's
 * prompt is rendered once the branches have ended (renderJoinPrompt).
 */
export interface ModeratorDecision {
  role: string;
  prompt: string;
  transition: Transition;
  from: string;
  fanOut?: PlannedFanOut;
}

export const DEFAULT_CONDITION_TIMEOUT_MS = 2000;
