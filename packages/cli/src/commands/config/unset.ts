import { existsSync, readFileSync } from "node:fs";
import { configFilePath } from "@uwf/agent-kit";
import { parseDocument } from "yaml";
import { ConfigKeyNotSetError } from "../../errors/config-key-not-set-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { getConfigValue, unsetConfigValue } from "./config-values.ts";
import { maskSecrets } from "./mask-secrets.ts";
import { refuseUnknownReferences } from "./refuse-unknown-references.ts";

/**
 * Removes one key from config.yaml, so its default (if any) applies again; the result's value is the
 * one now in effect, null when there is none. A key the file does not set is an error, as for `config
 * get`, so that a typo is noticed; so is removing what another setting names (`agents.claude` while
 * `defaultAgent: claude`).
 */
export async function configUnsetCommand(options: { key: string }, context: CommandContext) {
  const file = configFilePath(context.home);
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (!parseDocument(text).hasIn(options.key.split("."))) throw new ConfigKeyNotSetError(options.key, file);
  const config = await unsetConfigValue(context.home, options.key, {
    check: refuseUnknownReferences(`config unset ${options.key}`),
  });
  const value = getConfigValue(config, options.key);
  const result = { key: options.key, value: value === undefined ? null : maskSecrets(options.key, value) };
  return {
    result,
    format: (shown: typeof result) =>
      shown.value === null ? `${shown.key} unset` : `${shown.key} unset (default ${JSON.stringify(shown.value)})`,
  };
}
