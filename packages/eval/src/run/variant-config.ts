import { type AgentSpec, type Config, configSchema, isObject } from "@uwf/protocol";
import type { SuiteVariant } from "../suite/suite.ts";

/**
 * The config a variant's runs step with: its `config:` laid over the home's (maps merged key by key,
 * anything else replaced), checked with config.yaml's schema; its `model:` then becomes `defaultModel`
 * and the `model` of every built-in model agent (anthropic, openai) and preset (Claude Code) agent the config defines. Throws the
 * schema's error when the merged config is not one.
 */
export function variantConfig(base: Config, variant: SuiteVariant): Config {
  const merged =
    variant.config === null ? base : configSchema.parse(mergeObjects(base, variant.config) as Record<string, unknown>);
  const model = variant.model;
  if (model === null) return merged;
  const agents: Record<string, AgentSpec> = {};
  for (const [alias, spec] of Object.entries(merged.agents)) {
    const takesModel =
      ("builtin" in spec && (spec.builtin === "anthropic" || spec.builtin === "openai")) || "preset" in spec;
    agents[alias] = takesModel ? { ...spec, model } : spec;
  }
  return { ...merged, agents, defaultModel: model };
}

function mergeObjects(base: unknown, over: unknown): unknown {
  if (!isObject(base) || !isObject(over)) return over;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) result[key] = mergeObjects(base[key], value);
  return result;
}
