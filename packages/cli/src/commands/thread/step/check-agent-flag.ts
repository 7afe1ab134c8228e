import { UnknownAgentError } from "@uwf/agent-kit";
import type { Config } from "@uwf/protocol";
import { UsageError } from "../../../errors/usage-error.ts";

/**
 * `--agent ALIAS` names an agent config.yaml defines, or `scripted:FILE`: checked before anything is
 * started or stepped, so a mistyped alias is a usage error (exit 2) that leaves every thread as it was,
 * rather than a step that fails.
 */
export function checkAgentFlag(flag: string | undefined, config: Pick<Config, "agents">): void {
  if (flag === undefined || Object.hasOwn(config.agents, flag)) return;
  if (flag.startsWith("scripted:") && flag.length > "scripted:".length) return;
  const known = Object.keys(config.agents).sort();
  const unknown = new UnknownAgentError(flag, "--agent", known);
  throw new UsageError(unknown.message, { alias: flag, knownAliases: known });
}
