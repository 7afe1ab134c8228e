/** The agents `uwf setup` can make the default. */
export const SETUP_AGENTS = ["anthropic", "openai", "claude-code"] as const;
export type SetupAgent = (typeof SETUP_AGENTS)[number];

/** `uwf setup`'s flags. */
export interface SetupOptions {
  provider?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  /** A key to store in the home's `.env`; `-` reads it from stdin. */
  apiKey?: string;
  model?: string;
  agent?: string;
  /** `--no-verify` sets this to false. */
  verify?: boolean;
}

/** The built-in agents `uwf setup` configures with a provider: the agent's kind is the provider's type. */
export type BuiltinSetupAgent = Exclude<SetupAgent, "claude-code">;

/** The built-in agent's settings, from the flags or the questions. */
export interface SetupAnswers {
  /** `anthropic`: the Messages API; `openai`: an OpenAI-compatible Chat Completions API. */
  type: BuiltinSetupAgent;
  provider: string;
  baseUrl: string | undefined;
  apiKeyEnv: string;
  apiKey: string | undefined;
  model: string;
  verify: boolean;
}
