import type { Config } from "@uwf/protocol";

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Whether a variable holds a provider key: every `ANTHROPIC_*` and `*_API_KEY`
 * variable, and the names in `keyVariables` (each provider's `apiKeyEnv`).
 */
export function isProviderKeyVariable(name: string, keyVariables: readonly string[] = []): boolean {
  return name.startsWith("ANTHROPIC_") || name.endsWith("_API_KEY") || keyVariables.includes(name);
}

/**
 * Whether a variable names or reaches the store: `UWF_STORE` (its URL holds the database's password)
 * and every `PG*` variable, which PostgreSQL clients read (`PGPASSWORD`, `PGPASSFILE`, `PGSERVICE`...).
 */
export function isStoreVariable(name: string): boolean {
  return name === "UWF_STORE" || name.startsWith("PG");
}

/** Shorter passwords are not looked for in other variables: they would match ordinary values. */
const MIN_SECRET_LENGTH = 4;

/**
 * The store's secrets an agent must not see: the password in the URL of the store in use (`store` in
 * config, which the CLI sets to the `--store` or `UWF_STORE` it was given) and in `UWF_STORE`, as
 * written and decoded. A store without a password has none.
 */
export function storeSecretValues(
  config: Pick<Config, "store"> | undefined,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): string[] {
  const values = new Set<string>();
  for (const url of [config?.store, environment.UWF_STORE]) {
    const password = passwordOf(url);
    if (password === null) continue;
    values.add(password);
    try {
      values.add(decodeURIComponent(password));
    } catch {
      // Not percent-encoded text: the password as written is the one to hide.
    }
  }
  return [...values].filter((value) => value.length >= MIN_SECRET_LENGTH);
}

function passwordOf(url: string | undefined): string | null {
  if (url === undefined || !url.includes("@")) return null;
  try {
    const password = new URL(url).password;
    return password === "" ? null : password;
  } catch {
    return /^[a-z][a-z0-9+.-]*:\/\/[^:/@]*:([^@]*)@/i.exec(url)?.[1] || null;
  }
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
  /** Key and store variables the agent's config lets through (`passEnv`). */
  passEnv?: readonly string[];
  /** Keep the provider keys (Claude Code, which calls the API itself); the store's variables still go. */
  keepProviderKeys?: boolean;
  /** Values no variable may carry (the store's password: `storeSecretValues`): such variables are left out. */
  secretValues?: readonly string[];
  /** Other variables to leave out (`UWF_HOME` for the built-in agent's commands). */
  remove?: readonly string[];
  /** Set last, over everything else: the `UWF_*` variables and the agent's own `env`. */
  add?: Readonly<Record<string, string>>;
}

/**
 * The whole environment of a program uwf starts for an agent: this process's,
 * without the provider keys, the store's variables (`UWF_STORE`, `PG*`) and any
 * variable holding one of `secretValues` (each unless passed), and the `remove`
 * names, plus `add`. Secrets stay out unless the user opts in, so a program cannot
 * print them into a reply or a tool result, which is stored (in a store others
 * may share) and sent to the model.
 */
export function buildChildEnvironment(options: BuildChildEnvironmentOptions = {}): Record<string, string> {
  const keyVariables = options.keyVariables ?? [];
  const passed = new Set(options.passEnv ?? []);
  const removed = new Set(options.remove ?? []);
  const secrets = options.secretValues ?? [];
  const isSecret = (name: string, value: string) =>
    (options.keepProviderKeys !== true && isProviderKeyVariable(name, keyVariables)) ||
    isStoreVariable(name) ||
    secrets.some((secret) => secret !== "" && value.includes(secret));
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.base ?? process.env)) {
    if (value === undefined || removed.has(name)) continue;
    if (!passed.has(name) && isSecret(name, value)) continue;
    environment[name] = value;
  }
  return { ...environment, ...options.add };
}
