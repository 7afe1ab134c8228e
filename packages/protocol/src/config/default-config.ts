import type { Config } from "./config.ts";

/**
 * Names how `config.yaml` text becomes a `Config`: the schema's input and output, and how the file is
 * read. Parsed configs are cached by the text they came from and this revision, so bump it whenever
 * either changes (a test pins the schema; a change in reading the YAML must be remembered by hand).
 */
export const CONFIG_SCHEMA_REVISION = 8;

/** What an empty `config.yaml` means: `configSchema.parse({})`, built without zod for the common case of no config file. */
export function defaultConfig(): Config {
  return { agents: {}, agentOverrides: {}, providers: {}, models: {}, retries: 2, timeout: 1800 };
}
