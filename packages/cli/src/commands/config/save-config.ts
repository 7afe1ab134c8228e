import { configFilePath, InvalidConfigError, safeParseConfig } from "@uwf/agent-kit";
import type { Config } from "@uwf/protocol";
import { formatYaml } from "@uwf/workflow";
import { writeFileAtomically } from "../../home/write-file-atomically.ts";

/**
 * Writes `config.yaml` of a uwf home with exactly the given settings (missing
 * keys keep their defaults when read back), after checking them. Atomic.
 * Use `setConfigValue` to change one key and keep the file's comments.
 */
export async function saveConfig(home: string, config: Partial<Config>): Promise<Config> {
  const file = configFilePath(home);
  const text = Object.keys(config).length === 0 ? "" : formatYaml(config);
  const parsed = safeParseConfig(text, file);
  if (!parsed.success)
    throw new InvalidConfigError(file, parsed.error.problems, `not saving ${file}, the settings are invalid`);
  await writeFileAtomically(file, text);
  return parsed.value;
}
