import { getConfigValue } from "@uwf/agent-kit";
import { UwfError } from "@uwf/protocol";
import { stringify } from "yaml";
import type { CommandContext } from "../../context.ts";
import { maskSecrets } from "./mask-secrets.ts";

/** One value by dotted key; an unset key is an error so scripts notice typos. */
export async function configGetCommand(options: { key: string }, context: CommandContext) {
  const value = getConfigValue(await context.loadConfig(), options.key);
  if (value === undefined) {
    throw new UwfError("config-key-not-set", `${options.key} is not set in ${context.home}/config.yaml`, {
      data: { key: options.key },
    });
  }
  const result = { key: options.key, value: maskSecrets(options.key, value) };
  return {
    result,
    format: (shown: typeof result) =>
      typeof shown.value === "object" && shown.value !== null ? stringify(shown.value).trimEnd() : String(shown.value),
  };
}
