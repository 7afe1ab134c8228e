import type { Config, WorkflowProblem } from "@uwf/protocol";
import { InvalidSuiteError } from "../errors/invalid-suite-error.ts";
import type { Suite } from "../suite/suite.ts";
import { variantConfig } from "./variant-config.ts";

/**
 * The most runs one `uwf eval --suite` starts unless `--max-runs` allows more, as `uwf fork --count` caps
 * its forks: a typo (`repeat: 1000000000`) should be refused at once, not planned in memory.
 */
export const MAX_SUITE_RUNS = 1000;

/** How many runs the suite asks for: cases × variants × repeat, or variants × count with `from:`. */
export function countSuiteRuns(suite: Suite): number {
  const perVariant = suite.from === null ? suite.cases.length * suite.repeat : suite.count;
  return perVariant * suite.variants.length;
}

/** Refuses a suite that asks for more runs than `maxRuns` (exit 2), before anything is planned or started. */
export function checkSuiteRuns(suite: Suite, maxRuns: number): void {
  const runs = countSuiteRuns(suite);
  if (runs <= maxRuns) return;
  const field = suite.from === null ? "repeat" : "count";
  const how =
    suite.from === null
      ? `${suite.cases.length} case(s) × ${suite.variants.length} variant(s) × repeat ${suite.repeat}`
      : `${suite.variants.length} variant(s) × count ${suite.count}`;
  const message = `${how} is ${runs} runs, more than the ${maxRuns} one command starts; give --max-runs ${runs} to run them`;
  throw new InvalidSuiteError(suite.file, [problemAt(suite, field, new RegExp(`^${field}\\s*:`, "m"), message)]);
}

/**
 * Refuses a variant whose `agent:` names an alias its config (the home's, with the variant's `config:`
 * laid over it) does not define, before any thread is started: a mistake of the suite, not a failed run.
 * A variant whose config cannot be merged is left to its runs, which report it.
 */
export function checkSuiteAgents(suite: Suite, config: Config): void {
  const problems: WorkflowProblem[] = [];
  for (const [index, variant] of suite.variants.entries()) {
    const alias = variant.agent;
    if (alias === null || alias.startsWith("scripted:")) continue;
    let agents: Config["agents"];
    try {
      agents = variantConfig(config, variant).agents;
    } catch {
      continue;
    }
    if (Object.hasOwn(agents, alias)) continue;
    const known = Object.keys(agents).sort();
    const message = `unknown agent "${alias}"; ${known.length === 0 ? "no agents are configured" : `known agents: ${known.join(", ")}`}, or scripted:FILE`;
    const escaped = alias.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    problems.push(problemAt(suite, `variants[${index}].agent`, new RegExp(`agent\\s*:\\s*["']?${escaped}`), message));
  }
  if (problems.length > 0) throw new InvalidSuiteError(suite.file, problems);
}

/** A problem at the first place `pattern` matches in the suite's text (its first line when none does). */
export function problemAt(suite: Suite, path: string, pattern: RegExp, message: string): WorkflowProblem {
  const match = pattern.exec(suite.text);
  const before = match === null ? "" : suite.text.slice(0, match.index);
  const line = before.split("\n").length;
  const column = before.length - (before.lastIndexOf("\n") + 1) + 1;
  return { file: suite.file, line, column, path, message };
}
