import type { SetupResult } from "./setup-result.ts";

/** What `uwf setup` wrote, where the key is, and whether it was checked. */
export function formatSetup(result: SetupResult): string {
  if (result.agent === "claude-code") {
    return [
      `Wrote ${result.configFile}`,
      `  agent     claude-code (defaultAgent), runs ${result.command}`,
      `  model     ${result.model ?? "Claude Code's default"}`,
      result.verified === true ? `Claude Code runs: ${result.version}.` : "Claude Code was not checked.",
      "Claude Code signs in on its own: claude /login, or ANTHROPIC_API_KEY in its environment.",
    ].join("\n");
  }
  const key =
    result.keySource === "dotenv"
      ? `in ${result.apiKeyEnv}, stored in ${result.dotenvFile ?? "the home's .env"} (mode 0600)`
      : result.keySource === "environment"
        ? `in ${result.apiKeyEnv} (from the environment)`
        : `${result.apiKeyEnv} is not set yet: export ${result.apiKeyEnv}=…`;
  return [
    `Wrote ${result.configFile}`,
    `  provider  ${result.provider}${result.baseUrl === null ? "" : ` at ${result.baseUrl}`}`,
    `  key       ${key}`,
    `  model     ${result.model} (defaultModel)`,
    `  agent     ${result.agent} (defaultAgent)`,
    result.verified === true ? "The key works: the model answered." : "The key was not checked.",
  ].join("\n");
}
