// The @uwf/agent-kit entry: prompts, extraction, launching agents (command, shell, scripted, the built-in
// Anthropic agent, Claude Code) and reading config (the CLI edits it, in cli/src/commands/config/). Above
// @uwf/workflow; the fakes are @uwf/agent-kit/test.

export {
  type VerifyModelAccessOptions,
  type VerifyModelAccessResult,
  verifyModelAccess,
} from "./anthropic/verify-model-access.ts";
export { CLAUDE_CODE_COMMAND } from "./claude-code/build-claude-code-args.ts";
export type { ConfigReferenceProblem } from "./config/config-reference-problem.ts";
export { dotenvFilePath, parseDotenv, readDotenvText, readDotenvValue } from "./config/dotenv-file.ts";
export {
  CONFIG_FILE_NAME,
  configFilePath,
  loadConfig,
  readConfigText,
  safeLoadConfig,
} from "./config/load-config.ts";
export { parseConfig, safeParseConfig } from "./config/parse-config.ts";
export {
  AgentUnavailableError,
  type ConfigProblem,
  DotenvUnreadableError,
  formatConfigProblem,
  IncompleteHistoryError,
  InvalidConfigError,
  InvalidReplyError,
  InvalidScenarioError,
  NoAgentError,
  NoWorkingDirectoryError,
  PathOutsideWorkspaceError,
  RefusedFileError,
  type ReplyFile,
  UnknownAgentError,
  UnknownProviderError,
} from "./errors/index.ts";
export {
  type ExtractedFrontmatter,
  extractFrontmatter,
  safeExtractFrontmatter,
} from "./extract/extract-frontmatter.ts";
export {
  EXTRACTION_TOOL_NAME,
  type ExtractWithModelOptions,
  type ExtractWithModelResult,
} from "./extract/extract-with-model.ts";
export { extractWithModel } from "./extract/extract-with-model-on-demand.ts";
export { continuesConversation } from "./launch/continues-conversation.ts";
export { findConfigReferenceProblems } from "./launch/find-config-reference-problems.ts";
export { type LaunchAgentOptions, launchAgent } from "./launch/launch-agent.ts";
export {
  type LoadScenarioOptions,
  parseScenarioReference,
  type Scenario,
  type ScenarioReference,
  type ScenarioStep,
  safeLoadScenario,
} from "./launch/load-scenario.ts";
export { loadRecordedAnswer, type RecordedAnswer, type RecordedAnswerOptions } from "./launch/recorded-answer.ts";
export {
  type AgentSource,
  type ResolveAgentOptions,
  type ResolvedAgent,
  resolveAgent,
} from "./launch/resolve-agent.ts";
export { type RunScriptedAgentOptions, runScriptedAgent } from "./launch/scripted-agent.ts";
export type {
  AgentActivity,
  AgentEnvironment,
  AgentLaunchResult,
  AgentRunContext,
} from "./process/agent-launch-result.ts";
export { buildLaunchResult } from "./process/build-launch-result.ts";
export { formatSeconds } from "./process/format-seconds.ts";
export type { PreviousVisit } from "./process/previous-visit.ts";
export { type RunProcessGroupOptions, runProcessGroup } from "./process/run-process-group.ts";
export {
  assembleWholeThreadPrompt,
  type BuildContinuationPromptOptions,
  buildContinuationPrompt,
  buildContinuationPromptParts,
  DEFAULT_BODY_QUOTA,
  formatHistoryEntryOf,
  type PromptTextPart,
  type WholeThreadPromptOptions,
} from "./prompt/build-continuation-prompt.ts";
export {
  type BuildOutputFormatSectionOptions,
  buildOutputFormatSection,
} from "./prompt/build-output-format-section.ts";
export { type BuildRetryPromptOptions, buildRetryPrompt } from "./prompt/build-retry-prompt.ts";
export { firstShownStep } from "./prompt/first-shown-step.ts";
export {
  allotBodies,
  type BodyAllotment,
  type FormatHistorySectionOptions,
  formatHistorySection,
} from "./prompt/format-history-section.ts";
export type { HistoryEntry, NamedStep } from "./prompt/history-entry.ts";
export { type ApiKey, apiKeyHint, readApiKey } from "./tool-loop/read-api-key.ts";
export {
  DEFAULT_API_KEY_ENV,
  DEFAULT_MODEL,
  DEFAULT_OPENAI_API_KEY_ENV,
  type ModelSettings,
  type ResolveModelSettingsOptions,
  resolveModelSettings,
} from "./tool-loop/resolve-model-settings.ts";
