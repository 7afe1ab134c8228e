import { readFileSync, statSync } from "node:fs";
import type { Config, ModelUsage, Usage } from "@uwf/protocol";
import { findModelPrices } from "../claude-code/count-claude-code-usage.ts";
import type { AgentLaunchResult } from "../process/agent-launch-result.ts";
import { computeUsage } from "../tool-loop/compute-usage.ts";

/** Bytes of a usage file read at most: a few numbers and a model name. */
const MAX_USAGE_FILE_BYTES = 64 * 1024;

/** The fields a usage file may have, and whether each is required. */
const USAGE_FILE_FIELDS = {
  input_tokens: "count",
  output_tokens: "count",
  cache_read_tokens: "optional count",
  cache_write_tokens: "optional count",
  cost_usd: "optional amount",
  model: "optional name",
} as const;

/** What a command agent may write to `UWF_USAGE_FILE` (docs/agents.md). */
export interface UsageFile {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  cost_usd?: number;
  model?: string;
}

/** The usage a command agent reported: none (no file), its usage, or why the file could not be used. */
export type UsageFileResult =
  | { kind: "absent" }
  | { kind: "reported"; usage: Usage; modelUsage: ModelUsage | null }
  | { kind: "malformed"; problem: string };

/**
 * Reads the usage a command agent wrote to the file named by `UWF_USAGE_FILE`: JSON with
 * `input_tokens`, `output_tokens`, optional `cache_read_tokens` / `cache_write_tokens`, `cost_usd`
 * and `model`. Without `cost_usd` the cost comes from the model's prices (config.yaml's `models`,
 * else the built-in table), else 0. A file the agent did not write is no usage; a malformed one is
 * a problem to warn about and record, never a failed step.
 */
export function readUsageFile(path: string, config?: Config): UsageFileResult {
  let text: string;
  try {
    if (statSync(path).size > MAX_USAGE_FILE_BYTES) {
      return { kind: "malformed", problem: `larger than ${MAX_USAGE_FILE_BYTES} bytes` };
    }
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "absent" };
    return { kind: "malformed", problem: `cannot be read: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "malformed", problem: `not JSON: ${JSON.stringify(text.slice(0, 80))}` };
  }
  const problem = findUsageFileProblem(value);
  if (problem !== null) return { kind: "malformed", problem };
  const reported = value as UsageFile;
  const tokens = {
    input_tokens: reported.input_tokens,
    output_tokens: reported.output_tokens,
    cache_read_input_tokens: reported.cache_read_tokens ?? 0,
    cache_creation_input_tokens: reported.cache_write_tokens ?? 0,
  };
  const prices = reported.model === undefined ? null : findModelPrices(reported.model, config);
  const priced = computeUsage(tokens, prices);
  const usage = reported.cost_usd === undefined ? priced : { ...priced, costUsd: reported.cost_usd };
  return { kind: "reported", usage, modelUsage: reported.model === undefined ? null : { [reported.model]: usage } };
}

/** What is wrong with a usage file's JSON, field by field, or null. */
function findUsageFileProblem(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return `expected a JSON object with input_tokens and output_tokens, got ${JSON.stringify(value)?.slice(0, 80)}`;
  }
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (!(name in USAGE_FILE_FIELDS))
      return `unknown field "${name}" (expected ${Object.keys(USAGE_FILE_FIELDS).join(", ")})`;
  }
  for (const [name, kind] of Object.entries(USAGE_FILE_FIELDS)) {
    const field = record[name];
    if (field === undefined) {
      if (kind.startsWith("optional")) continue;
      return `"${name}" is missing`;
    }
    const ok = kind.endsWith("name")
      ? typeof field === "string" && field !== ""
      : typeof field === "number" &&
        Number.isFinite(field) &&
        field >= 0 &&
        (kind.endsWith("amount") || Number.isInteger(field));
    if (!ok) {
      const expected = kind.endsWith("name")
        ? "a model name"
        : kind.endsWith("amount")
          ? "a number ≥ 0"
          : "an integer ≥ 0";
      return `"${name}": expected ${expected}, got ${JSON.stringify(field)}`;
    }
  }
  return null;
}

/**
 * A command agent's launch result with the usage it wrote to `usageFile`: counted like a
 * built-in agent's, or, for a malformed file, the problem kept in the result and told to `onWarning`.
 */
export function addReportedUsage(
  result: AgentLaunchResult,
  usageFile: string,
  options: { config?: Config; onWarning?: (message: string) => void },
): AgentLaunchResult {
  const read = readUsageFile(usageFile, options.config);
  if (read.kind === "absent") return result;
  if (read.kind === "reported") return { ...result, usage: read.usage, modelUsage: read.modelUsage };
  options.onWarning?.(`the agent's usage file (UWF_USAGE_FILE) is malformed and was not counted: ${read.problem}`);
  return { ...result, usageProblem: read.problem };
}
