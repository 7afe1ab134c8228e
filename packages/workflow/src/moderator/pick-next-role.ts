import { START, TIMEOUT, type Transition } from "@uwf/protocol";
import { ConditionFailedError } from "../errors/condition-failed-error.ts";
import { NoResumeEdgeError } from "../errors/no-resume-edge-error.ts";
import { NoTransitionError, type TriedTransition } from "../errors/no-transition-error.ts";
import { isTimeoutEdge } from "../schema/timeout-edge.ts";
import type { CompiledWorkflow } from "./compile-workflow.ts";
import { evaluateCondition } from "./evaluate-condition.ts";
import {
  DEFAULT_CONDITION_TIMEOUT_MS,
  type ModeratorDecision,
  type ModeratorHistory,
  type ModeratorMode,
  type PickNextRoleOptions,
} from "./moderator-history.ts";
import { planFanOut } from "./plan-fan-out.ts";
import { renderEdgePrompt } from "./render-edge-prompt.ts";

/**
 * The moderator (DESIGN §2): from the source node — `$START` before the first step and on
 * resume, else the last step's role — try the edges in order; the first whose status and
 * condition both hold wins, and its prompt is rendered. A fan-out edge instead plans its branches
 * (planFanOut): the decision names the join's role, with an empty prompt (renderJoinPrompt renders
 * it once the branches have ended). A timeout step (`$status: $timeout`, recorded when a suspension
 * waited past its role's `suspendTimeout`) follows only the `$timeout` edges (the first that holds),
 * which no other step follows. Pure apart from the clock.
 */
export async function pickNextRole(
  compiled: CompiledWorkflow,
  history: ModeratorHistory,
  options: PickNextRoleOptions,
): Promise<ModeratorDecision> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONDITION_TIMEOUT_MS;
  const last = history.steps.at(-1);
  const mode: ModeratorMode = options.mode === "continue" && last === undefined ? "new" : options.mode;
  const from = mode === "continue" && last !== undefined ? last.role : START;
  const edges = compiled.edgesFrom(from);
  if (mode === "resume" && !edges.some((edge) => edge.transition.status === "resume")) {
    throw new NoResumeEdgeError(compiled.workflow.name);
  }

  const status = from === START ? undefined : last?.output.$status;
  const timedOut = from !== START && status === TIMEOUT;
  const tried: TriedTransition[] = [];
  for (const edge of edges) {
    const { transition, template } = edge;
    if (isTimeoutEdge(transition) !== timedOut) continue;
    tried.push(describe(transition));
    if (!statusHolds(transition, from, mode, status)) continue;
    // `condition: $timeout` is what marks the edge; a `status: $timeout` edge may test a condition of its own.
    if (transition.condition !== null && transition.condition !== TIMEOUT) {
      const condition = compiled.condition(transition.condition);
      // Validation rejects unknown names; a hand-made node could still carry one.
      if (condition === undefined) throw new ConditionFailedError(transition.condition, "no such condition", null);
      if (!(await evaluateCondition(condition, history, timeoutMs))) continue;
    }
    if (transition.fanOut !== undefined) {
      const fanOut = await planFanOut({ workflow: compiled.workflow, from, edge, history, timeoutMs });
      return { role: transition.role, prompt: "", transition, from, fanOut };
    }
    const prompt = await renderEdgePrompt({
      template,
      from,
      to: transition.role,
      history,
      workflow: compiled.workflow,
    });
    return { role: transition.role, prompt, transition, from };
  }
  throw new NoTransitionError(from, tried, status);
}

/** At `$START` the status is the mode (`new` also matches no status); elsewhere it is the last output's `$status`. */
function statusHolds(transition: Transition, from: string, mode: ModeratorMode, status: unknown): boolean {
  if (from === START) {
    return mode === "resume"
      ? transition.status === "resume"
      : transition.status === null || transition.status === "new";
  }
  if (transition.status === null) return true;
  return isPrimitive(status) && String(status) === transition.status;
}

function isPrimitive(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function describe(transition: Transition): TriedTransition {
  return { role: transition.role, condition: transition.condition, status: transition.status };
}
