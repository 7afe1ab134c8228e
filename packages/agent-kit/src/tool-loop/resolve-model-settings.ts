import type { Config, Prices } from "@uwf/protocol";
import { UnknownProviderError } from "../errors/unknown-provider-error.ts";
import { findDefaultContextWindow } from "../model-tables/default-context-windows.ts";
import { findDefaultPrices } from "../model-tables/default-prices.ts";

/** The model used when neither the agent, nor `defaultModel` in config.yaml, names one. */
export const DEFAULT_MODEL = "claude-sonnet-5-5";
export const DEFAULT_PROVIDER = "anthropic";
export const DEFAULT_API_KEY_ENV = "ANTHROPIC_API_KEY";
/** The provider a model name that is no `models` alias is served by, for the built-in `openai` agent. */
export const DEFAULT_OPENAI_PROVIDER = "openai";
export const DEFAULT_OPENAI_API_KEY_ENV = "OPENAI_API_KEY";
export const DEFAULT_MAX_TOKENS = 16_384;
export const DEFAULT_MAX_TURNS = 50;

/** Which API a provider speaks: the Messages API, or the OpenAI Chat Completions API. */
export type ProviderType = "anthropic" | "openai";

/** Everything needed to call one model: where, with which key, how much, at what price. */
export interface ModelSettings {
  /** The name the model was asked for: a `models` alias in config.yaml or an API model id. */
  name: string;
  /** The model id sent to the API. */
  model: string;
  provider: string;
  /** The API the provider speaks (its `type` in config.yaml). */
  providerType: ProviderType;
  /** Undefined: the SDK's default (the Anthropic API, or the OpenAI API). */
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
  /**
   * The kind of built-in agent asking (default `anthropic`): a name that is no alias is served by
   * that kind's default provider (`anthropic`, or `openai`), with that kind's default key variable.
   */
  agentType?: ProviderType | undefined;
  /** The agent's own `baseUrl` and `apiKeyEnv` (the openai agent has them): they beat the provider's. */
  baseUrl?: string | undefined;
  apiKeyEnv?: string | undefined;
}

/**
 * Picks the model and its provider: the requested name (else `defaultModel`,
 * else {@link DEFAULT_MODEL}) is looked up in `models`; a name that is not an
 * alias is used as the API model id on the `anthropic` provider (`openai` for the openai agent). Limits come
 * from the agent, then the model entry, then the defaults; prices from the
 * model entry, then the built-in table. Throws `UnknownProviderError`.
 */
export function resolveModelSettings(options: ResolveModelSettingsOptions): ModelSettings {
  const { config } = options;
  const name = options.model ?? config.defaultModel ?? DEFAULT_MODEL;
  const entry = Object.hasOwn(config.models, name) ? config.models[name] : undefined;
  const model = entry?.model ?? name;
  const agentType = options.agentType ?? "anthropic";
  const defaultProvider = agentType === "openai" ? DEFAULT_OPENAI_PROVIDER : DEFAULT_PROVIDER;
  const provider = entry?.provider ?? defaultProvider;
  const providerEntry = Object.hasOwn(config.providers, provider) ? config.providers[provider] : undefined;
  if (providerEntry === undefined && provider !== DEFAULT_PROVIDER && provider !== DEFAULT_OPENAI_PROVIDER) {
    throw new UnknownProviderError(provider, name, Object.keys(config.providers).sort());
  }
  // The two built-in providers need no entry: `anthropic` and `openai` are of their own type.
  const providerType: ProviderType =
    providerEntry?.type ?? (provider === DEFAULT_OPENAI_PROVIDER ? "openai" : "anthropic");
  return {
    name,
    model,
    provider,
    providerType,
    baseUrl: emptyToUndefined(options.baseUrl) ?? emptyToUndefined(providerEntry?.baseUrl),
    apiKeyEnv:
      emptyToUndefined(options.apiKeyEnv) ??
      emptyToUndefined(providerEntry?.apiKeyEnv) ??
      (providerType === "openai" ? DEFAULT_OPENAI_API_KEY_ENV : DEFAULT_API_KEY_ENV),
    maxTokens: options.maxTokens ?? entry?.maxTokens ?? DEFAULT_MAX_TOKENS,
    maxTurns: options.maxTurns ?? entry?.maxTurns ?? DEFAULT_MAX_TURNS,
    contextWindow: entry?.contextWindow ?? findDefaultContextWindow(model),
    prices: entry?.prices ?? findDefaultPrices(model),
  };
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
