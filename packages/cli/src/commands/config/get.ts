import { stringify } from "yaml";
import { ConfigKeyNotSetError } from "../../errors/config-key-not-set-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { getConfigValue } from "./config-values.ts";
import { maskSecrets } from "./mask-secrets.ts";

/** One value by dotted key; an unset key is an error so scripts notice typos. */
export async function configGetCommand(options: { key: string }, context: CommandContext) {
  const value = getConfigValue(await context.loadConfig(), options.key);
  if (value === undefined) {
    throw new ConfigKeyNotSetError(options.key, `${context.home}/config.yaml`);
  }
  const result = { key: options.key, value: maskSecrets(options.key, value) };
  return {
    result,
    format: (shown: typeof result) =>
      typeof shown.value === "object" && shown.value !== null ? stringify(shown.value).trimEnd() : String(shown.value),
  };
}
