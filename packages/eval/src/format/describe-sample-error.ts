import type { EvalSample } from "@uwf/protocol";

/** Why a sample errored, in a line: the run's error, or the first assertion that erred and why. */
export function describeSampleError(sample: EvalSample): string {
  if (sample.error !== null) return firstLine(sample.error);
  const score = sample.scores.find((entry) => entry.verdict === "errored");
  if (score === undefined) return "errored";
  return `assertion ${JSON.stringify(score.assertion)} errored${score.error === null ? "" : `: ${firstLine(score.error)}`}`;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
