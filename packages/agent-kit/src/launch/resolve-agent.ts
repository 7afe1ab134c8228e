import { type AgentSpec, type Config, parseDuration, type Role } from "@uwf/protocol";
import { NoAgentError } from "../errors/no-agent-error.ts";
import { UnknownAgentError } from "../errors/unknown-agent-error.ts";

export interface ResolveAgentOptions {
  config: Config;
  workflowName: string;
  role: Role;
  roleName: string;
  /** `--agent ALIAS`. */
  flagAlias?: string | undefined;
  /** `--timeout SECONDS`. */
  timeoutSeconds?: number | undefined;
  /** The uwf home: relative scenario paths of agents defined in `config.yaml` are read from it. */
  home?: string | undefined;
}

/** Where the agent of a step came from, for messages and `uwf show`. */
export type AgentSource = "flag" | "override" | "role" | "default";

export interface ResolvedAgent {
  /** The config alias, or for an inline role spec its built-in, preset or command name. */
  alias: string;
  spec: AgentSpec;
  source: AgentSource;
  /** `--timeout`, else the role's `timeout:`, else the spec's `timeout`, else the config's, in milliseconds. */
  timeoutMs: number;
  /** Where a relative scenario path is read from, when the spec comes from `config.yaml` and `home` was given. */
  baseDir?: string;
}

/**
 * Picks the agent that plays a role: `agentOverrides[workflow][role]` in config.yaml
 * → the role's own `agent` in the workflow (an alias or an inline spec: a pipeline
 * stage keeps its shell command) → `--agent` → `defaultAgent`.
 * Throws `UnknownAgentError` for an alias the config does not define and
 * `NoAgentError` when nothing names an agent.
 */
export function resolveAgent(options: ResolveAgentOptions): ResolvedAgent {
  const { config, workflowName, roleName, role } = options;
  const override = config.agentOverrides[workflowName]?.[roleName];
  if (override !== undefined) {
    return fromAlias(options, override, "override", `agentOverrides.${workflowName}.${roleName} in config.yaml`);
  }
  if (typeof role.agent === "string") return fromAlias(options, role.agent, "role", `the agent of role ${roleName}`);
  if (role.agent !== undefined) {
    return {
      alias: inlineAlias(role.agent),
      spec: role.agent,
      source: "role",
      timeoutMs: timeoutMs(options, role.agent),
    };
  }
  if (options.flagAlias !== undefined) return fromAlias(options, options.flagAlias, "flag", "--agent");
  if (config.defaultAgent !== undefined)
    return fromAlias(options, config.defaultAgent, "default", "defaultAgent in config.yaml");
  throw new NoAgentError(workflowName, roleName);
}

/** `scripted:FILE` names the scripted built-in and its scenario without any config. */
export const SCRIPTED_ALIAS_PREFIX = "scripted:";

function fromAlias(options: ResolveAgentOptions, alias: string, source: AgentSource, where: string): ResolvedAgent {
  const { agents } = options.config;
  const configured = Object.hasOwn(agents, alias) ? agents[alias] : undefined;
  if (configured !== undefined) {
    const resolved: ResolvedAgent = { alias, spec: configured, source, timeoutMs: timeoutMs(options, configured) };
    if (options.home !== undefined) resolved.baseDir = options.home;
    return resolved;
  }
  if (alias.startsWith(SCRIPTED_ALIAS_PREFIX) && alias.length > SCRIPTED_ALIAS_PREFIX.length) {
    const spec: AgentSpec = { builtin: "scripted", scenario: alias.slice(SCRIPTED_ALIAS_PREFIX.length) };
    // The recorded alias is the built-in's name: the scenario path is in the spec, not worth repeating on every line.
    return { alias: "scripted", spec, source, timeoutMs: timeoutMs(options, spec) };
  }
  throw new UnknownAgentError(alias, where, Object.keys(agents).sort());
}

/** The agent's deadline: `--timeout` > the role's `timeout:` > the agent's config `timeout` > config.yaml's `timeout`. */
function timeoutMs(options: ResolveAgentOptions, spec: AgentSpec): number {
  if (options.timeoutSeconds !== undefined) return options.timeoutSeconds * 1000;
  return roleTimeoutMs(options.role) ?? (spec.timeout ?? options.config.timeout) * 1000;
}

/** A role's own `timeout:` in milliseconds (a number of seconds or a duration), or null when it sets none. */
function roleTimeoutMs(role: Role): number | null {
  const { timeout } = role;
  if (timeout === undefined) return null;
  return typeof timeout === "number" ? Math.round(timeout * 1000) : parseDuration(timeout);
}

/** A readable name for an agent given inline in the workflow: `scripted`, `shell`, `claude-code`, or the command. */
function inlineAlias(spec: AgentSpec): string {
  if ("builtin" in spec) return spec.builtin;
  if ("preset" in spec) return spec.preset;
  return spec.command;
}
