import type { Config } from "@uwf/protocol";
import type { CommandContext } from "../pipeline/command-context.ts";

/**
 * config.yaml as a command that launches agents uses it: `store` names the store the command uses
 * when `--store` or `UWF_STORE` gives one (they beat config, as in `openStoreFromEnvironment`), so its
 * password is kept out of every agent's environment, whichever variable holds it (@uwf/agent-kit'
 * `storeSecretValues`).
 */
export async function loadConfigForAgents(
  context: Pick<CommandContext, "loadConfig" | "storeFlag" | "env">,
): Promise<Config> {
  const config = await context.loadConfig();
  const given = [context.storeFlag, context.env.UWF_STORE].find((value) => value !== undefined && value !== "");
  return given === undefined ? config : { ...config, store: given };
}
