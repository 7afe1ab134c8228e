import type { Config } from "./config.ts";

/**
 * Names the shape of `configSchema`'s input and output. Parsed configs are cached by the text they
 * came from and this revision, so it must change whenever the schema does; a test pins the schema.
 */
export const CONFIG_SCHEMA_REVISION = 1;

/** What an empty `config.yaml` means: `configSchema.parse({})`, built without zod for the common case of no config file. */
export function defaultConfig(): Config {
  return { agents: {}, agentOverrides: {}, providers: {}, models: {}, retries: 2, timeout: 1800 };
}
