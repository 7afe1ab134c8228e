import type { BudgetLimits, EvalGate } from "@uwf/protocol";

/**
 * One item of an `assert:` list as the suite file wrote it, with its place: the assertion parser
 * (`src/assertions/`) reads `value`, and names `file:line:column` and `path` in its errors.
 */
export interface SuiteAssertionItem {
  /** The mapping as written (`{ name, expr }`, `{ outcome: approved }`, …). */
  value: Record<string, unknown>;
  file: string;
  /** 1-based; null when unknown. */
  line: number | null;
  column: number | null;
  /** Its field path in the file: `assert[1]`, `cases[0].assert[0]`. */
  path: string;
}

/** A case: what its threads start with. Paths are absolute, the prompt file is read. */
export interface SuiteCase {
  name: string;
  /** The prompt's text (from `prompt:` or read from `promptFile:`). */
  prompt: string;
  /** The prompt file, absolute; null when the prompt was written inline. */
  promptFile: string | null;
  inputs: Record<string, unknown>;
  /** The fixture folder, absolute; null without one. */
  fixture: string | null;
  /** The case's own assertions, added to the suite's for its samples. */
  assert: SuiteAssertionItem[];
}

/** A variant: what its runs change. An unnamed variant (the default, or the only one) has a null name. */
export interface SuiteVariant {
  name: string | null;
  /** As `--agent`: a config alias, or `scripted:FILE` with FILE made absolute. */
  agent: string | null;
  model: string | null;
  /** A workflow file (absolute) or a registered name; null uses the suite's. */
  workflow: string | null;
  /** Config overrides laid over the home's config (already checked against the config schema). */
  config: Record<string, unknown> | null;
}

/** A suite file loaded: every path resolved against the suite's folder, checked, and the file's text kept. */
export interface Suite {
  /** The suite file, absolute. */
  file: string;
  /** Its folder: what relative paths in it are resolved against. */
  dir: string;
  /** The file's text, as the report stores it (a `text/1` node). */
  text: string;
  name: string;
  description: string | null;
  /** A workflow file (absolute) or a registered name; null with `from:` (forks keep their thread's). */
  workflow: string | null;
  /** Threads per case and variant; 1 with `from:`. */
  repeat: number;
  /** Empty with `from:`. */
  cases: SuiteCase[];
  /** A thread (forked at its head) or a node, as written; null with `cases:`. */
  from: string | null;
  /** Forks per variant with `from:`; 0 with `cases:`. */
  count: number;
  /** At least one: the unnamed default when the file gives none. */
  variants: SuiteVariant[];
  /** Each thread's limits (`budget:`), as the budget flags give them. */
  budget: Partial<BudgetLimits>;
  /** The whole suite's spend limit (`max_cost_usd:`); null without. */
  maxCostUsd: number | null;
  /** The suite's assertions, for every sample. */
  assert: SuiteAssertionItem[];
  gate: EvalGate | null;
}
