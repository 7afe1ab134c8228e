import type { Config } from "./config.ts";

/** What an empty `config.yaml` means: `configSchema.parse({})`, built without zod for the common case of no config file. */
export function defaultConfig(): Config {
  return { agents: {}, agentOverrides: {}, providers: {}, models: {}, retries: 2, timeout: 1800 };
}
