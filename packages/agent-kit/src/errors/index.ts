/** Every error class of @uwf/agent-kit, one per file. */
export { AgentUnavailableError } from "./agent-unavailable-error.ts";
export { DotenvUnreadableError } from "./dotenv-unreadable-error.ts";
export { IncompleteHistoryError } from "./incomplete-history-error.ts";
export { type ConfigProblem, formatConfigProblem, InvalidConfigError } from "./invalid-config-error.ts";
export { InvalidReplyError, type ReplyFile } from "./invalid-reply-error.ts";
export { InvalidScenarioError } from "./invalid-scenario-error.ts";
export { McpServerFailedError } from "./mcp-server-failed-error.ts";
export { NoAgentError } from "./no-agent-error.ts";
export { NoWorkingDirectoryError } from "./no-working-directory-error.ts";
export { PathOutsideWorkspaceError } from "./path-outside-workspace-error.ts";
export { RefusedFileError } from "./refused-file-error.ts";
export { UnknownAgentError } from "./unknown-agent-error.ts";
export { UnknownProviderError } from "./unknown-provider-error.ts";
