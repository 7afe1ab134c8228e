import type { EvalAssertion } from "@uwf/protocol";

/** Scored when no assertion is given: a thread passes when it ended, whatever its outcome. */
export const DEFAULT_ASSERTION: EvalAssertion = { name: "ended", kind: "status", status: "ended" };

/** The assertions to score with: those given, or the default (with a note saying so). */
export function withDefaultAssertion(
  assertions: readonly EvalAssertion[],
  onNote?: (message: string) => void,
): EvalAssertion[] {
  if (assertions.length > 0) return [...assertions];
  onNote?.('no assertion given: scoring with "ended=status: ended" (add --assert to judge outcomes)');
  return [DEFAULT_ASSERTION];
}
