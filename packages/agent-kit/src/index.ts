export type {
  AgentActivity,
  AgentEnvironment,
  AgentLaunchResult,
  AgentRunContext,
} from "./agents/agent-launch-result.ts";
export { AgentUnavailableError } from "./agents/agent-unavailable-error.ts";
export { continuesConversation } from "./agents/continues-conversation.ts";
export { formatSeconds } from "./agents/format-seconds.ts";
export { InvalidScenarioError } from "./agents/invalid-scenario-error.ts";
export { type LaunchAgentOptions, launchAgent, type PreviousVisit } from "./agents/launch-agent.ts";
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
export { dotenvFilePath, readDotenvValue, writeDotenvValue } from "./anthropic/dotenv-file.ts";
export { ModelAccessError } from "./anthropic/model-access-error.ts";
export { type ApiKey, apiKeyHint, readApiKey } from "./anthropic/read-api-key.ts";
export {
  DEFAULT_API_KEY_ENV,
  DEFAULT_MODEL,
  type ModelSettings,
  type ResolveModelSettingsOptions,
  resolveModelSettings,
} from "./anthropic/resolve-model-settings.ts";
export { UnknownProviderError } from "./anthropic/unknown-provider-error.ts";
export {
  type VerifyModelAccessOptions,
  type VerifyModelAccessResult,
  verifyModelAccess,
} from "./anthropic/verify-model-access.ts";
export {
  type CheckClaudeCodeOptions,
  type CheckClaudeCodeResult,
  checkClaudeCode,
} from "./claude-code/check-claude-code.ts";
export {
  type ConfigEntry,
  type ConfigSetting,
  type EditConfigOptions,
  getConfigValue,
  listConfigValues,
  setConfigValue,
  setConfigValues,
  unsetConfigValue,
} from "./config/config-values.ts";
export {
  type ConfigReferenceProblem,
  findConfigReferenceProblems,
} from "./config/find-config-reference-problems.ts";
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
  type ExtractedFrontmatter,
  extractFrontmatter,
  safeExtractFrontmatter,
} from "./extract/extract-frontmatter.ts";
export {
  EXTRACTION_TOOL_NAME,
  type ExtractWithModelOptions,
  type ExtractWithModelResult,
  extractWithModel,
} from "./extract/extract-with-model.ts";
export { formatFrontmatter, formatYaml } from "./extract/format-frontmatter.ts";
export { InvalidOutputSchemaError } from "./extract/invalid-output-schema-error.ts";
export { InvalidReplyError, type ReplyFile } from "./extract/invalid-reply-error.ts";
export { listStatusBranches, type StatusBranch } from "./extract/status-branches.ts";
export { REASON_FIELD, STATUS_FIELD, SUSPEND_STATUS } from "./extract/status-fields.ts";
export { MAX_CONFIG_BYTES, MAX_INPUT_FILE_BYTES } from "./files/file-limits.ts";
export {
  type FileRefusal,
  type ReadBoundedFileOptions,
  type ReadBoundedFileResult,
  safeReadBoundedFile,
} from "./files/read-bounded-file.ts";
export { readBoundedStream } from "./files/read-bounded-stream.ts";
export type { CompiledCondition } from "./moderator/compile-condition.ts";
export { type CompiledEdge, type CompiledWorkflow, compileWorkflow } from "./moderator/compile-workflow.ts";
export { ConditionFailedError } from "./moderator/condition-failed-error.ts";
export { ConditionTimeoutError } from "./moderator/condition-timeout-error.ts";
export { EdgePromptError } from "./moderator/edge-prompt-error.ts";
export type { EdgeTemplate } from "./moderator/edge-template.ts";
export {
  DEFAULT_CONDITION_TIMEOUT_MS,
  type ModeratorDecision,
  type ModeratorHistory,
  type ModeratorMode,
  type ModeratorStep,
  type PickNextRoleOptions,
} from "./moderator/moderator-history.ts";
export { NoResumeEdgeError } from "./moderator/no-resume-edge-error.ts";
export { NoTransitionError, type TriedTransition } from "./moderator/no-transition-error.ts";
export { pickNextRole } from "./moderator/pick-next-role.ts";
export { type RenderEdgePromptOptions, renderEdgePrompt } from "./moderator/render-edge-prompt.ts";
export {
  type BuildContinuationPromptOptions,
  buildContinuationPrompt,
  DEFAULT_BODY_QUOTA,
} from "./prompt/build-continuation-prompt.ts";
export {
  type BuildOutputFormatSectionOptions,
  buildOutputFormatSection,
} from "./prompt/build-output-format-section.ts";
export { firstShownStep } from "./prompt/first-shown-step.ts";
export type { HistoryEntry, NamedStep } from "./prompt/history-entry.ts";
export { restoreWorkflowFieldOrder } from "./workflow/field-order.ts";
export type { FieldPath } from "./workflow/field-path.ts";
export { createFolderIncludeReader } from "./workflow/folder-include-reader.ts";
export { InvalidInputsError } from "./workflow/invalid-inputs-error.ts";
export { InvalidWorkflowError } from "./workflow/invalid-workflow-error.ts";
export { loadWorkflowFile, safeLoadWorkflowFile } from "./workflow/load-workflow-file.ts";
export {
  type ParsedWorkflow,
  type ParseWorkflowSourceOptions,
  parseWorkflowSource,
  safeParseWorkflowSource,
} from "./workflow/parse-workflow-source.ts";
export type { ReadInclude } from "./workflow/parse-workflow-yaml.ts";
export { UnknownRoleError } from "./workflow/unknown-role-error.ts";
export { validateStartInputs } from "./workflow/validate-start-inputs.ts";
export { type ValidateWorkflowOptions, validateWorkflow } from "./workflow/validate-workflow.ts";
export { formatWorkflowProblem, type WorkflowIssue } from "./workflow/workflow-issue.ts";
export { workflowToMermaid } from "./workflow/workflow-to-mermaid.ts";
export { describeYamlError } from "./yaml/describe-yaml-error.ts";
export { type ToJsonValueResult, toJsonValue } from "./yaml/to-json-value.ts";
export { MAX_YAML_ALIASES, MAX_YAML_NESTING } from "./yaml/yaml-limits.ts";
export { type YamlLimitProblem, type YamlToValueResult, yamlToValue } from "./yaml/yaml-to-value.ts";
