import type { EvalThreadView } from "@uwf/protocol";
import { type AssertionResult, passedOrFailed } from "./assertion-result.ts";

/** `outcome: STATUS`: the thread ended with this `$status`. A thread that has not ended fails. */
export function scoreOutcome(view: EvalThreadView, status: string): AssertionResult {
  if (view.status !== "ended") return passedOrFailed(false, null, `not ended (status ${view.status})`);
  const actual = view.outcome?.status ?? null;
  if (actual === status) return passedOrFailed(true);
  return passedOrFailed(false, null, actual === null ? "ended without a $status" : `ended with $status ${actual}`);
}

/** `status: STATUS`: the thread stands in this status. */
export function scoreStatus(view: EvalThreadView, status: string): AssertionResult {
  if (view.status === status) return passedOrFailed(true);
  return passedOrFailed(false, null, `status ${view.status}`);
}
