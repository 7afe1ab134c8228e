export type { AgentEnvironment, AgentLaunchResult } from "./agents/agent-launch-result.ts";
export { AgentUnavailableError } from "./agents/agent-unavailable-error.ts";
export { type LaunchAgentOptions, launchAgent } from "./agents/launch-agent.ts";
export { type Scenario, type ScenarioStep, safeLoadScenario } from "./agents/load-scenario.ts";
export { NoAgentError } from "./agents/no-agent-error.ts";
export {
  type AgentSource,
  type ResolveAgentOptions,
  type ResolvedAgent,
  resolveAgent,
} from "./agents/resolve-agent.ts";
export { type RunScriptedAgentOptions, runScriptedAgent } from "./agents/scripted-agent.ts";
export { UnknownAgentError } from "./agents/unknown-agent-error.ts";
export {
  type ConfigEntry,
  getConfigValue,
  listConfigValues,
  setConfigValue,
  unsetConfigValue,
} from "./config/config-values.ts";
export { type ConfigProblem, formatConfigProblem, InvalidConfigError } from "./config/invalid-config-error.ts";
export { CONFIG_FILE_NAME, configFilePath, loadConfig, safeLoadConfig } from "./config/load-config.ts";
export { parseConfig, safeParseConfig } from "./config/parse-config.ts";
export { saveConfig } from "./config/save-config.ts";
export {
  buildReplySchema,
  listRoleStatuses,
  type RoleStatuses,
  withStatusFields,
} from "./extract/build-reply-schema.ts";
export { type BuildRetryPromptOptions, buildRetryPrompt } from "./extract/build-retry-prompt.ts";
export {
  type ExtractFrontmatterResult,
  extractFrontmatter,
  extractFrontmatterOrThrow,
} from "./extract/extract-frontmatter.ts";
export { formatFrontmatter, formatYaml } from "./extract/format-frontmatter.ts";
export { InvalidOutputSchemaError } from "./extract/invalid-output-schema-error.ts";
export { InvalidReplyError } from "./extract/invalid-reply-error.ts";
export { REASON_FIELD, STATUS_FIELD, SUSPEND_STATUS } from "./extract/status-fields.ts";
export {
  type BuildContinuationPromptOptions,
  buildContinuationPrompt,
  DEFAULT_BODY_QUOTA,
} from "./prompt/build-continuation-prompt.ts";
export {
  type BuildOutputFormatSectionOptions,
  buildOutputFormatSection,
} from "./prompt/build-output-format-section.ts";
export type { HistoryEntry } from "./prompt/history-entry.ts";
