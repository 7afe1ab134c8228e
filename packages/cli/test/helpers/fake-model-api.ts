import {
  type FakeAnthropicServer,
  type StartFakeAnthropicServerOptions,
  startFakeAnthropicServer,
} from "@uwf/agent-kit/test";
import type { TempHome } from "./temp-home.ts";

/** The variable uwf reads the fake Messages API's key from, and the key the fake API accepts. */
export const FAKE_MODEL_KEY_VARIABLE = "UWF_E2E_FAKE_ANTHROPIC_KEY";
export const FAKE_MODEL_KEY = "test-key-not-secret";
/** What a uwf run needs in its environment to reach the fake API. */
export const FAKE_MODEL_ENV: Readonly<Record<string, string>> = { [FAKE_MODEL_KEY_VARIABLE]: FAKE_MODEL_KEY };

/** A model alias of provider `fake`: its model id and prices in dollars per million tokens. */
export interface FakeModel {
  model: string;
  prices: { input: number; output: number };
}

export interface FakeModelConfigOptions {
  /** The built-in agent `model`'s turn limit; 5 unless given. */
  maxTurns?: number;
  /** The model aliases; `sonnet` (claude-sonnet-5-5 at $3 and $15) unless given. The first is the default model. */
  models?: Readonly<Record<string, FakeModel>>;
  /** More lines of config.yaml (`retries: 0`, `extractionModel: haiku`). */
  extra?: readonly string[];
}

const SONNET: FakeModel = { model: "claude-sonnet-5-5", prices: { input: 3, output: 15 } };

/**
 * config.yaml for uwf's built-in agent against the fake Messages API at `url`: the default agent
 * `model`, the provider `fake` with its key in FAKE_MODEL_KEY_VARIABLE, and the model aliases.
 */
export function fakeModelConfig(url: string, options: FakeModelConfigOptions = {}): string {
  const models = Object.entries(options.models ?? { sonnet: SONNET });
  return [
    "defaultAgent: model",
    "agents:",
    `  model: { builtin: anthropic, maxTurns: ${options.maxTurns ?? 5} }`,
    "providers:",
    `  fake: { baseUrl: "${url}", apiKeyEnv: ${FAKE_MODEL_KEY_VARIABLE} }`,
    "models:",
    ...models.map(
      ([alias, { model, prices }]) =>
        `  ${alias}: { provider: fake, model: ${model}, prices: { input: ${prices.input}, output: ${prices.output} } }`,
    ),
    `defaultModel: ${models[0]?.[0] ?? "sonnet"}`,
    ...(options.extra ?? []),
  ].join("\n");
}

/** Starts the fake Messages API (accepting FAKE_MODEL_KEY) and writes the temp home's config for it. */
export function startFakeModelApi(
  temp: TempHome,
  options: FakeModelConfigOptions & { server?: StartFakeAnthropicServerOptions } = {},
): FakeAnthropicServer {
  const server = startFakeAnthropicServer({ apiKey: FAKE_MODEL_KEY, ...options.server });
  temp.writeConfig(fakeModelConfig(server.url, options));
  return server;
}
