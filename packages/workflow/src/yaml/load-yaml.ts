import type * as Yaml from "yaml";

let yamlModule: typeof Yaml | undefined;

/**
 * The `yaml` library, loaded on first use rather than at import: a step whose replies, prompts and
 * scenario stay on the fast paths (simple-yaml.ts, JSON scenarios) never needs it, and loading it
 * costs every step about 2 ms.
 */
export function loadYaml(): typeof Yaml {
  yamlModule ??= require("yaml") as typeof Yaml;
  return yamlModule;
}
