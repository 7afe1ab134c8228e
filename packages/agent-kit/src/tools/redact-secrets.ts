import { MAX_CONFIG_BYTES, safeReadBoundedFile } from "@uwf/workflow";
import { dotenvFilePath, parseDotenv } from "../config/dotenv-file.ts";
import { isProviderKeyVariable } from "../process/child-environment.ts";
import type { ToolContext } from "./agent-tool.ts";

/** Shorter values are not replaced: they would match ordinary text. */
const MIN_SECRET_LENGTH = 8;
export const REDACTED = "[redacted]";

/**
 * The values no tool result may show: the key in use, the provider key
 * variables of this process's environment, and every value in the home's `.env`.
 */
export async function collectSecretValues(
  context: Pick<ToolContext, "env" | "keyVariables" | "secretValues">,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Promise<string[]> {
  const values = new Set(context.secretValues ?? []);
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && isProviderKeyVariable(name, context.keyVariables)) values.add(value);
  }
  const read = safeReadBoundedFile(dotenvFilePath(context.env.home), { maxBytes: MAX_CONFIG_BYTES });
  const dotenv = read.success ? read.value : "";
  for (const value of parseDotenv(dotenv).values()) values.add(value);
  return [...values].map((value) => value.trim()).filter((value) => value.length >= MIN_SECRET_LENGTH);
}

/**
 * `text` with every occurrence of a secret replaced by `[redacted]`. A last line
 * of defence: what a tool returns is stored in the transcript and sent to the model.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of [...secrets].sort((left, right) => right.length - left.length)) {
    if (redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED);
  }
  return redacted;
}
