import type { Config, Prices } from "@uwf/protocol";
import { UnknownProviderError } from "../errors/unknown-provider-error.ts";
import { findDefaultContextWindow } from "./default-context-windows.ts";
import { findDefaultPrices } from "./default-prices.ts";

/** The model used when neither the agent, nor `defaultModel` in config.yaml, names one. */
export const DEFAULT_MODEL = "claude-sonnet-5-5";
export const DEFAULT_PROVIDER = "anthropic";
export const DEFAULT_API_KEY_ENV = "ANTHROPIC_API_KEY";
export const DEFAULT_MAX_TOKENS = 16_384;
export const DEFAULT_MAX_TURNS = 50;

/** Everything needed to call one model: where, with which key, how much, at what price. */
export interface ModelSettings {
  /** The name the model was asked for: a `models` alias in config.yaml or an API model id. */
  name: string;
  /** The model id sent to the API. */
  model: string;
  provider: string;
  /** Undefined: the SDK's default (`ANTHROPIC_BASE_URL`, else the Anthropic API). */
  baseUrl: string | undefined;
  /** The environment variable (or `.env` entry in the uwf home) holding the API key. */
  apiKeyEnv: string;
  maxTokens: number;
  maxTurns: number;
  /** The model's context window in tokens: the model entry's `contextWindow`, else the built-in table. */
  contextWindow: number;
  /** Null when neither config.yaml nor the built-in table knows the model: its cost counts as 0. */
  prices: Prices | null;
}

export interface ResolveModelSettingsOptions {
  config: Config;
  /** The agent's `model` (or `extractionModel`): an alias in `models`, or an API model id. */
  model?: string | undefined;
  maxTokens?: number | undefined;
  maxTurns?: number | undefined;
}

/**
 * Picks the model and its provider: the requested name (else `defaultModel`,
 * else {@link DEFAULT_MODEL}) is looked up in `models`; a name that is not an
 * alias is used as the API model id on the `anthropic` provider. Limits come
 * from the agent, then the model entry, then the defaults; prices from the
 * model entry, then the built-in table. Throws `UnknownProviderError`.
 */
export function resolveModelSettings(options: ResolveModelSettingsOptions): ModelSettings {
  const { config } = options;
  const name = options.model ?? config.defaultModel ?? DEFAULT_MODEL;
  const entry = Object.hasOwn(config.models, name) ? config.models[name] : undefined;
  const model = entry?.model ?? name;
  const provider = entry?.provider ?? DEFAULT_PROVIDER;
  const providerEntry = Object.hasOwn(config.providers, provider) ? config.providers[provider] : undefined;
  if (providerEntry === undefined && provider !== DEFAULT_PROVIDER) {
    throw new UnknownProviderError(provider, name, Object.keys(config.providers).sort());
  }
  return {
    name,
    model,
    provider,
    baseUrl: emptyToUndefined(providerEntry?.baseUrl),
    apiKeyEnv: emptyToUndefined(providerEntry?.apiKeyEnv) ?? DEFAULT_API_KEY_ENV,
    maxTokens: options.maxTokens ?? entry?.maxTokens ?? DEFAULT_MAX_TOKENS,
    maxTurns: options.maxTurns ?? entry?.maxTurns ?? DEFAULT_MAX_TURNS,
    contextWindow: entry?.contextWindow ?? findDefaultContextWindow(model),
    prices: entry?.prices ?? findDefaultPrices(model),
  };
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
