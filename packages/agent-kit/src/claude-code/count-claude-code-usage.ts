import { addUsage, type Config, type ModelUsage, type Prices, type Usage } from "@uwf/protocol";
import { findDefaultPrices } from "../model-tables/default-prices.ts";
import { computeUsage } from "../tool-loop/compute-usage.ts";
import type { ClaudeCodeResult, ClaudeCodeTokens } from "./read-claude-code-stream.ts";

export interface CountClaudeCodeUsageOptions {
  result: ClaudeCodeResult;
  /** The session's main model (the `init` message's), which `usage` belongs to. */
  model: string | null;
  /** Whether the run resumed an earlier session, so its running totals may include that session's. */
  resumed: boolean;
  /** The totals recorded for the resumed session (its last run's `sessionUsage`); null when unknown. */
  base: ModelUsage | null;
  /** config.yaml: a `models` entry with `prices` for the model id beats the built-in table. */
  config?: Config;
}

export interface ClaudeCodeUsage {
  /** This run's tokens and cost, all models together. */
  usage: Usage;
  /** The same per model. */
  modelUsage: ModelUsage;
  /** The session's running totals after this run, as Claude Code reported them; null when it reported none. */
  sessionUsage: ModelUsage | null;
}

/**
 * The tokens and cost of one Claude Code run, counted by uwf rather than taken
 * from `total_cost_usd`. Claude Code reports `modelUsage` (tokens and cost per
 * model, subagents included) and `total_cost_usd` as running totals, which
 * Claude Code 2.1 carries over from a session it resumes; `usage` covers only
 * this run's own conversation. So a run's tokens per model are the reported
 * totals minus those recorded for the session it resumed, or the totals
 * themselves for a new session, or when the difference is smaller than the
 * run's own `usage` (the totals were not carried over). Without recorded
 * totals (a run recorded by an older uwf), the run's `usage` counts, under
 * the main model. The cost is the tokens at the model's prices (config.yaml,
 * else the built-in table); for a model neither knows, Claude Code's own cost
 * of those tokens (the difference of its running cost).
 */
export function countClaudeCodeUsage(options: CountClaudeCodeUsageOptions): ClaudeCodeUsage {
  const { result, config } = options;
  const reported = result.modelUsage !== null && Object.keys(result.modelUsage).length > 0 ? result.modelUsage : null;
  const mainModel = options.model ?? (reported === null ? null : (Object.keys(reported)[0] ?? null));
  let own: ModelUsage;
  if (reported === null) {
    // No figures per model: the run's usage, at Claude Code's cost only when that cannot include an earlier run's.
    const cost = options.resumed ? 0 : (result.totalCostUsd ?? 0);
    own = { [mainModel ?? "unknown"]: { ...result.usage, costUsd: cost } };
  } else if (!options.resumed) {
    own = reported;
  } else if (options.base !== null) {
    const difference = subtractModelUsage(reported, options.base);
    own = isCarriedOver(difference, result.usage, mainModel) ? (difference ?? reported) : reported;
  } else {
    own = { [mainModel ?? "unknown"]: { ...result.usage, costUsd: 0 } };
  }
  const modelUsage: ModelUsage = {};
  let usage: Usage | null = null;
  for (const [model, counted] of Object.entries(own)) {
    const prices = findModelPrices(model, config);
    const priced =
      prices === null
        ? counted
        : computeUsage(
            {
              input_tokens: counted.inputTokens,
              output_tokens: counted.outputTokens,
              cache_read_input_tokens: counted.cacheReadTokens,
              cache_creation_input_tokens: counted.cacheWriteTokens,
            },
            prices,
          );
    modelUsage[model] = priced;
    usage = usage === null ? priced : addUsage(usage, priced);
  }
  return {
    usage: usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    modelUsage,
    sessionUsage: reported,
  };
}

/**
 * The prices of a model id Claude Code reports: a config.yaml `models` entry
 * for that id (or alias) with `prices`, else the built-in table. A context
 * variant such as `claude-opus-5-5[1m]` is priced as its model.
 */
export function findModelPrices(model: string, config: Config | undefined): Prices | null {
  const id = model.replace(/\[[^\]]*\]$/, "");
  for (const [alias, entry] of Object.entries(config?.models ?? {})) {
    if ((entry.model === id || alias === id) && entry.prices !== undefined) return entry.prices;
  }
  return findDefaultPrices(id);
}

/** `reported − base`, model by model; null when some figure would be negative (the totals started afresh). */
function subtractModelUsage(reported: ModelUsage, base: ModelUsage): ModelUsage | null {
  for (const model of Object.keys(base)) if (reported[model] === undefined) return null;
  const difference: ModelUsage = {};
  for (const [model, total] of Object.entries(reported)) {
    const before = base[model];
    if (before === undefined) {
      difference[model] = total;
      continue;
    }
    const entry: Usage = {
      inputTokens: total.inputTokens - before.inputTokens,
      outputTokens: total.outputTokens - before.outputTokens,
      cacheReadTokens: total.cacheReadTokens - before.cacheReadTokens,
      cacheWriteTokens: total.cacheWriteTokens - before.cacheWriteTokens,
      costUsd: Math.round((total.costUsd - before.costUsd) * 1e6) / 1e6,
    };
    if (Object.values(entry).some((value) => value < 0)) return null;
    difference[model] = entry;
  }
  return difference;
}

/** The totals were carried over when taking the base away leaves at least the run's own usage of the main model. */
function isCarriedOver(difference: ModelUsage | null, own: ClaudeCodeTokens, mainModel: string | null): boolean {
  if (difference === null) return false;
  const main = mainModel === null ? undefined : difference[mainModel];
  if (main === undefined) return true;
  return (
    main.inputTokens >= own.inputTokens &&
    main.outputTokens >= own.outputTokens &&
    main.cacheReadTokens >= own.cacheReadTokens &&
    main.cacheWriteTokens >= own.cacheWriteTokens
  );
}
