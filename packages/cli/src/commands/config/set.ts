import type { CommandContext } from "../../pipeline/command-context.ts";
import { getConfigValue, setConfigValue } from "./config-values.ts";
import { maskSecrets } from "./mask-secrets.ts";
import { refuseUnknownReferences } from "./refuse-unknown-references.ts";

/**
 * Sets one value (parsed as YAML, so `3` is a number); the whole config is validated before it is
 * written, and a value naming an agent, model or provider the config does not know is refused.
 */
export async function configSetCommand(options: { key: string; value: string }, context: CommandContext) {
  const config = await setConfigValue(context.home, options.key, options.value, {
    check: refuseUnknownReferences(`config set ${options.key}`),
  });
  const result = { key: options.key, value: maskSecrets(options.key, getConfigValue(config, options.key)) };
  return { result, format: (shown: typeof result) => `${shown.key} = ${JSON.stringify(shown.value)}` };
}
