import type { EvalScore } from "@uwf/protocol";

/** An assertion's result on one thread, before it is named: what each kind's scorer returns. */
export type AssertionResult = Omit<EvalScore, "assertion">;

export function passedOrFailed(
  pass: boolean,
  score: number | null = null,
  reason: string | null = null,
): AssertionResult {
  return { verdict: pass ? "passed" : "failed", score: score ?? (pass ? 1 : 0), reason, error: null, judge: null };
}

export function errored(error: string, judge: EvalScore["judge"] = null): AssertionResult {
  return { verdict: "errored", score: null, reason: null, error: oneLine(error), judge };
}

/** Text as one line: its lines joined with ` / `, blanks dropped, at most `limit` characters. */
export function oneLine(text: string, limit = 500): string {
  const line = text
    .split(/\r?\n/)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .join(" / ");
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}
