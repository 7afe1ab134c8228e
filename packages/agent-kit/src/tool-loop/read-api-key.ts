import { readDotenvValue } from "../config/dotenv-file.ts";

export interface ApiKey {
  value: string;
  /** Where it was found: the environment, or the uwf home's `.env` (written by `uwf setup --api-key`). */
  source: "environment" | "dotenv";
}

/** The API key in `apiKeyEnv`: from the environment, else from `.env` in the uwf home; null when neither has it. */
export async function readApiKey(
  apiKeyEnv: string,
  home: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ApiKey | null> {
  const fromEnvironment = environment[apiKeyEnv]?.trim();
  if (fromEnvironment !== undefined && fromEnvironment !== "") return { value: fromEnvironment, source: "environment" };
  const fromFile = (await readDotenvValue(home, apiKeyEnv))?.trim();
  if (fromFile !== undefined && fromFile !== "") return { value: fromFile, source: "dotenv" };
  return null;
}

/** How to give uwf a key, for error messages. */
export function apiKeyHint(apiKeyEnv: string): string {
  return `set it with \`export ${apiKeyEnv}=…\` or run \`uwf setup\``;
}
