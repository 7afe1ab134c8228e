import type { Config } from "@uwf/protocol";

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Whether a variable holds a provider key: every `ANTHROPIC_*` and `*_API_KEY`
 * variable, and the names in `keyVariables` (each provider's `apiKeyEnv`).
 */
export function isProviderKeyVariable(name: string, keyVariables: readonly string[] = []): boolean {
  return name.startsWith("ANTHROPIC_") || name.endsWith("_API_KEY") || keyVariables.includes(name);
}

/** The `apiKeyEnv` of every provider in config.yaml. */
export function providerKeyVariables(config: Config | undefined): string[] {
  if (config === undefined) return [];
  return Object.values(config.providers).flatMap((provider) =>
    provider.apiKeyEnv === undefined ? [] : [provider.apiKeyEnv],
  );
}

export interface BuildChildEnvironmentOptions {
  /** The environment to start from. Default: this process's. */
  base?: Environment;
  /** Key variables beyond `ANTHROPIC_*` and `*_API_KEY`: see `providerKeyVariables`. */
  keyVariables?: readonly string[];
  /** Key variables the agent's config lets through (`passEnv`). */
  passEnv?: readonly string[];
  /** Other variables to leave out (`UWF_HOME` for the built-in agent's commands). */
  remove?: readonly string[];
  /** Set last, over everything else: the `UWF_*` variables and the agent's own `env`. */
  add?: Readonly<Record<string, string>>;
}

/**
 * The whole environment of a program uwf starts for an agent: this process's,
 * without the provider keys (unless passed) and the `remove` names, plus `add`.
 * Keys stay out unless the user opts in, so a program cannot print them into a
 * reply or a tool result, which is stored and sent to the model.
 */
export function buildChildEnvironment(options: BuildChildEnvironmentOptions = {}): Record<string, string> {
  const keyVariables = options.keyVariables ?? [];
  const passed = new Set(options.passEnv ?? []);
  const removed = new Set(options.remove ?? []);
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.base ?? process.env)) {
    if (value === undefined || removed.has(name)) continue;
    if (isProviderKeyVariable(name, keyVariables) && !passed.has(name)) continue;
    environment[name] = value;
  }
  return { ...environment, ...options.add };
}
