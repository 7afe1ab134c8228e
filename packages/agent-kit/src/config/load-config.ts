import { join } from "node:path";
import { type Config, defaultConfig, type SafeResult } from "@uwf/protocol";
import { MAX_CONFIG_BYTES, safeReadBoundedFile } from "@uwf/workflow";
import { InvalidConfigError } from "../errors/invalid-config-error.ts";
import { cacheConfig, readCachedConfig } from "./config-cache.ts";

export const CONFIG_FILE_NAME = "config.yaml";

/** Where the config of a uwf home lives. */
export function configFilePath(home: string): string {
  return join(home, CONFIG_FILE_NAME);
}

/** Reads `config.yaml` of a uwf home; a missing file gives the defaults. Throws `InvalidConfigError`. */
export async function loadConfig(home: string): Promise<Config> {
  const result = await safeLoadConfig(home);
  if (!result.success) throw result.error;
  return result.value;
}

/** `loadConfig` returning the problem instead of throwing it. */
export async function safeLoadConfig(home: string): Promise<SafeResult<Config, InvalidConfigError>> {
  const file = configFilePath(home);
  const text = readConfigText(file);
  if (typeof text !== "string") return { success: false, error: text };
  // No config at all is common (CI, `--agent scripted:FILE`): skip loading the YAML parser and zod for it.
  if (text.trim() === "") return { success: true, value: defaultConfig() };
  const cached = readCachedConfig(home, text);
  if (cached !== undefined) return { success: true, value: cached };
  const { safeParseConfig } = await import("./parse-config.ts");
  const parsed = safeParseConfig(text, file);
  if (parsed.success) cacheConfig(home, text, parsed.value);
  return parsed;
}

/**
 * The file's text, "" when it does not exist, or the error that kept it from being read: every
 * command reads it, so a config.yaml that is a link to `/dev/zero` or a FIFO, or is over
 * MAX_CONFIG_BYTES, is refused unread rather than hanging them all.
 */
export function readConfigText(file: string): string | InvalidConfigError {
  const read = safeReadBoundedFile(file, { maxBytes: MAX_CONFIG_BYTES });
  if (read.success) return read.value;
  if (read.reason === "missing") return "";
  const message = `cannot read the file: ${read.problem.replace(/^cannot read the file: /, "")}`;
  return new InvalidConfigError(file, [{ line: null, column: null, path: "", message }]);
}
