import type { Config } from "@uwf/protocol";
import type { ConfigSetting } from "../config/config-values.ts";
import type { SetupAnswers } from "./setup-options.ts";

/**
 * What `uwf setup` sets for the built-in agent, in order: the provider, the model's alias (unless the
 * model is already one), the default model, the built-in agent of the answers' type — `anthropic` or
 * `openai`, whose name is also the provider's type — (unless one of that kind is there, with its
 * maxTurns, model…) and the default agent. All of it is written to config.yaml at once.
 */
export function buildBuiltinSettings(
  answers: SetupAnswers,
  existing: Config,
): { settings: ConfigSetting[]; modelAlias: string } {
  const providerEntry: Record<string, string> = { type: answers.type, apiKeyEnv: answers.apiKeyEnv };
  if (answers.baseUrl !== undefined) providerEntry.baseUrl = answers.baseUrl;
  const settings: ConfigSetting[] = [
    { key: `providers.${answers.provider}`, valueText: JSON.stringify(providerEntry) },
  ];
  const known = Object.hasOwn(existing.models, answers.model);
  const modelAlias = known ? answers.model : aliasFor(answers.model);
  if (!known) {
    settings.push({
      key: `models.${modelAlias}`,
      valueText: JSON.stringify({ provider: answers.provider, model: answers.model }),
    });
  }
  settings.push({ key: "defaultModel", valueText: JSON.stringify(modelAlias) });
  const agentSpec = { builtin: answers.type };
  const configured = existing.agents[answers.type];
  if (configured === undefined || JSON.stringify(agentKind(configured)) !== JSON.stringify(agentSpec)) {
    settings.push({ key: `agents.${answers.type}`, valueText: JSON.stringify(agentSpec) });
  }
  settings.push({ key: "defaultAgent", valueText: answers.type });
  return { settings, modelAlias };
}

/**
 * What `uwf setup --agent claude-code` sets: the preset as agent `claude-code` (an agent of that name
 * that is already the preset keeps its command and args; `--model` sets its model), and the default agent.
 */
export function buildClaudeCodeSettings(model: string | undefined, existing: Config): ConfigSetting[] {
  const configured = existing.agents["claude-code"];
  const settings: ConfigSetting[] = [];
  if (configured === undefined || !("preset" in configured) || configured.preset !== "claude-code") {
    const spec = model === undefined ? { preset: "claude-code" } : { preset: "claude-code", model };
    settings.push({ key: "agents.claude-code", valueText: JSON.stringify(spec) });
  } else if (model !== undefined) {
    settings.push({ key: "agents.claude-code.model", valueText: JSON.stringify(model) });
  }
  settings.push({ key: "defaultAgent", valueText: "claude-code" });
  return settings;
}

function agentKind(spec: object): Record<string, unknown> {
  if ("builtin" in spec) return { builtin: spec.builtin };
  if ("preset" in spec) return { preset: spec.preset };
  return { command: true };
}

/** A `models` alias for a model id: the id itself when it makes a plain config key. */
function aliasFor(model: string): string {
  return model.replace(/[^A-Za-z0-9_-]+/g, "-");
}
