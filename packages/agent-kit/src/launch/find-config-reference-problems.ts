import type { Config } from "@uwf/protocol";
import type { ConfigReferenceProblem } from "../config/config-reference-problem.ts";
import { findMcpServerProblems } from "../mcp/find-mcp-server-problems.ts";
import { DEFAULT_PRICES, findDefaultPrices } from "../model-tables/default-prices.ts";
import { DEFAULT_OPENAI_PROVIDER, DEFAULT_PROVIDER } from "../tool-loop/resolve-model-settings.ts";
import { SCRIPTED_ALIAS_PREFIX } from "./resolve-agent.ts";

/**
 * Every setting that names something the config does not define, as a step would find it when it
 * resolves its agent and model: `defaultAgent` and `agentOverrides` name an alias of `agents` (or
 * `scripted:FILE`); `defaultModel`, `extractionModel` and a built-in anthropic agent's `model` name an
 * alias of `models` or a model id uwf knows the prices of; a `models` entry names one of `providers`
 * (or `anthropic` or `openai`, always known). A built-in openai agent's model may be any name its server knows,
 * and a built-in agent's `mcpServers` name tools the APIs accept and variables as `${NAME}` (see
 * `findMcpServerProblems`). The schema cannot say this: each key is valid alone.
 */
export function findConfigReferenceProblems(config: Config): ConfigReferenceProblem[] {
  const problems: ConfigReferenceProblem[] = [];
  const agents = Object.keys(config.agents).sort();
  const checkAgent = (key: string, alias: string) => {
    if (Object.hasOwn(config.agents, alias)) return;
    if (alias.startsWith(SCRIPTED_ALIAS_PREFIX) && alias.length > SCRIPTED_ALIAS_PREFIX.length) return;
    const known = agents.length === 0 ? "no agents are defined" : `known: ${agents.join(", ")}`;
    problems.push({
      key,
      message: `unknown agent "${alias}"; ${known} (or scripted:FILE); add one with uwf config set agents.${alias} '{ command: … }'`,
    });
  };
  const checkModel = (key: string, name: string) => {
    if (Object.hasOwn(config.models, name) || findDefaultPrices(name) !== null) return;
    const aliases = Object.keys(config.models).sort();
    const known = [...aliases, ...Object.keys(DEFAULT_PRICES)].join(", ");
    problems.push({
      key,
      message: `unknown model "${name}"; known: ${known}; another model id: uwf config set models.NAME '{ provider: …, model: ${name} }'`,
    });
  };

  if (config.defaultAgent !== undefined) checkAgent("defaultAgent", config.defaultAgent);
  for (const [workflow, roles] of Object.entries(config.agentOverrides)) {
    for (const [role, alias] of Object.entries(roles)) checkAgent(`agentOverrides.${workflow}.${role}`, alias);
  }
  if (config.defaultModel !== undefined) checkModel("defaultModel", config.defaultModel);
  if (config.extractionModel !== undefined) checkModel("extractionModel", config.extractionModel);
  for (const [alias, spec] of Object.entries(config.agents)) {
    if ("builtin" in spec && spec.builtin === "anthropic" && spec.model !== undefined) {
      checkModel(`agents.${alias}.model`, spec.model);
    }
  }
  const providers = [...new Set([DEFAULT_PROVIDER, DEFAULT_OPENAI_PROVIDER, ...Object.keys(config.providers)])].sort();
  for (const [alias, model] of Object.entries(config.models)) {
    if (providers.includes(model.provider)) continue;
    problems.push({
      key: `models.${alias}.provider`,
      message: `unknown provider "${model.provider}"; known: ${providers.join(", ")}; add one with uwf config set providers.${model.provider} '{ type: anthropic, … }'`,
    });
  }
  // MCP servers of built-in agents: tool names the APIs refuse, malformed ${NAME} references.
  for (const [alias, spec] of Object.entries(config.agents)) {
    if ("mcpServers" in spec) problems.push(...findMcpServerProblems(`agents.${alias}`, spec.mcpServers));
  }
  return problems;
}
