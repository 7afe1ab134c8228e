import { TIMEOUT, type Transition } from "@uwf/protocol";

/**
 * Whether an edge is taken when a suspension's `suspendTimeout` passes unanswered: a map key `$timeout`
 * (status `$timeout`) or a list edge with `condition: $timeout`. Only such edges follow a timeout step,
 * and they never follow any other step.
 */
export function isTimeoutEdge(transition: Pick<Transition, "condition" | "status">): boolean {
  return transition.condition === TIMEOUT || transition.status === TIMEOUT;
}
