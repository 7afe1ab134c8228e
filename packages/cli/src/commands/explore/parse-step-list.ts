import { UsageError } from "../../errors/usage-error.ts";

/**
 * `--steps 2..7`, `--steps 3`, `--steps 1,4..6`: step numbers (from 1), each once, in order. Anything
 * else is a usage error naming the flag.
 */
export function parseStepList(text: string): number[] {
  const steps = new Set<number>();
  for (const part of text.split(",")) {
    const match = /^\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?$/.exec(part);
    const first = Number(match?.[1]);
    const last = match?.[2] === undefined ? first : Number(match[2]);
    if (match === null || first < 1 || last < first || !Number.isSafeInteger(last)) {
      throw new UsageError(`--steps ${text}: expected step numbers from 1, as 3, 2..7 or 1,4..6`, { steps: text });
    }
    for (let step = first; step <= last; step++) steps.add(step);
  }
  return [...steps].sort((left, right) => left - right);
}
