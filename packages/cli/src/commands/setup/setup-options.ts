/** The agents `uwf setup` can make the default. */
export const SETUP_AGENTS = ["anthropic", "claude-code"] as const;
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

/** The built-in agent's settings, from the flags or the questions. */
export interface SetupAnswers {
  provider: string;
  baseUrl: string | undefined;
  apiKeyEnv: string;
  apiKey: string | undefined;
  model: string;
  verify: boolean;
}
