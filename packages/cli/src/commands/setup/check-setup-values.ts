import { DEFAULT_API_KEY_ENV, DEFAULT_OPENAI_API_KEY_ENV } from "@uwf/agent-kit";
import { UsageError } from "../../errors/usage-error.ts";
import { SETUP_AGENTS, type SetupAgent } from "./setup-options.ts";

/** A provider's name: letters, digits, `-` and `_` (it becomes a config key). */
export function checkName(value: string, what: string): string {
  const name = value.trim();
  if (!/^[A-Za-z0-9_-]+$/.test(name))
    throw new UsageError(`${what} must be a plain name (letters, digits, - and _), got "${value}"`);
  return name;
}

export function checkVariable(value: string): string {
  const name = value.trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`"${value}" is not an environment variable name`);
  return name;
}

export function checkAgent(value: string): SetupAgent {
  if ((SETUP_AGENTS as readonly string[]).includes(value)) return value as SetupAgent;
  throw new UsageError(`--agent must be one of ${SETUP_AGENTS.join(", ")}, got "${value}"`);
}

export function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** `ANTHROPIC_API_KEY` for the anthropic provider, `OPENAI_API_KEY` for the openai one, else `<PROVIDER>_API_KEY`. */
export function defaultKeyVariable(provider: string): string {
  if (provider === "anthropic") return DEFAULT_API_KEY_ENV;
  if (provider === "openai") return DEFAULT_OPENAI_API_KEY_ENV;
  return `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}
