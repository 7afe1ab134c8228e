export type SetupResult = AnthropicSetupResult | ClaudeCodeSetupResult;

/** `uwf setup` for the built-in agent: a provider, its key, the default model. */
export interface AnthropicSetupResult {
  configFile: string;
  provider: string;
  baseUrl: string | null;
  apiKeyEnv: string;
  /** Where the key is: the environment, the home's `.env` (mode 0600), or nowhere yet. Never the key itself. */
  keySource: "environment" | "dotenv" | "missing";
  dotenvFile: string | null;
  model: string;
  /** The built-in agent made the default: `anthropic`, or `openai` (its provider is then of type openai). */
  agent: "anthropic" | "openai";
  /** True when one minimal request succeeded, null when not checked (`--no-verify`). */
  verified: boolean | null;
}

/** `uwf setup --agent claude-code`: the preset as default agent; Claude Code signs in on its own. */
export interface ClaudeCodeSetupResult {
  configFile: string;
  agent: "claude-code";
  /** The program the preset runs: its `command`, else `claude` from PATH. */
  command: string;
  /** The preset's `--model`, or null for Claude Code's own default. */
  model: string | null;
  /** What `claude --version` printed; null when not checked (`--no-verify`). */
  version: string | null;
  /** True when `claude --version` ran, null when not checked. */
  verified: boolean | null;
}
