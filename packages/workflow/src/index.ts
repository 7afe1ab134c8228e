// The @uwf/workflow entry: the workflow language (loading, validation, the moderator, YAML limits, the
// reply schemas). It starts no process, reaches no network and loads no SDK (no-runtime-dependencies.test.ts).

export { workflowToMermaid } from "./diagram/workflow-to-mermaid.ts";
export {
  ConditionFailedError,
  ConditionTimeoutError,
  EdgePromptError,
  FanOutError,
  InvalidInputsError,
  InvalidOutputSchemaError,
  InvalidWorkflowError,
  NoResumeEdgeError,
  NoTransitionError,
  type TriedTransition,
  UnknownRoleError,
} from "./errors/index.ts";
export { MAX_CONFIG_BYTES, MAX_INPUT_FILE_BYTES } from "./files/file-limits.ts";
export { isPathInside } from "./files/is-path-inside.ts";
export {
  type FileRefusal,
  type ReadBoundedFileOptions,
  type ReadBoundedFileResult,
  safeReadBoundedFile,
} from "./files/read-bounded-file.ts";
export { readBoundedStream } from "./files/read-bounded-stream.ts";
export { type FieldPath, formatFieldPath } from "./issue/field-path.ts";
export { formatWorkflowProblem, type WorkflowIssue } from "./issue/workflow-issue.ts";
export { createFolderIncludeReader } from "./load/folder-include-reader.ts";
export { loadWorkflowFile, safeLoadWorkflowFile } from "./load/load-workflow-file.ts";
export { loadWorkflowFileOnDemand } from "./load/load-workflow-file-on-demand.ts";
export { type FieldLocation, fieldPathAt, locateField } from "./load/locate-field.ts";
export {
  type ParsedWorkflow,
  type ParseWorkflowSourceOptions,
  parseWorkflowSource,
  safeParseWorkflowSource,
} from "./load/parse-workflow-source.ts";
export type { IncludeRead, ReadInclude } from "./load/parse-workflow-yaml.ts";
export {
  type CompiledCondition,
  compileCondition,
  describeJsonataError,
  type JsonataCondition,
} from "./moderator/compile-condition.ts";
export { type CompiledEdge, type CompiledWorkflow, compileWorkflow } from "./moderator/compile-workflow.ts";
export { conditionStatus } from "./moderator/condition-status.ts";
export type { EdgeTemplate } from "./moderator/edge-template.ts";
export { historyFunctions } from "./moderator/history-functions.ts";
export { isTruthy } from "./moderator/is-truthy.ts";
export {
  DEFAULT_CONDITION_TIMEOUT_MS,
  type ModeratorDecision,
  type ModeratorHistory,
  type ModeratorMode,
  type ModeratorStep,
  type PickNextRoleOptions,
  type PlannedFanOut,
} from "./moderator/moderator-history.ts";
export { pickNextRole } from "./moderator/pick-next-role.ts";
export { type RenderEdgePromptOptions, renderEdgePrompt } from "./moderator/render-edge-prompt.ts";
export { type RenderJoinPromptOptions, renderJoinPrompt } from "./moderator/render-join-prompt.ts";
export { type CronProblem, checkCron, nextCronTime } from "./schedule/cron-schedule.ts";
export {
  buildReplySchema,
  listRoleStatuses,
  type RoleStatuses,
  withStatusFields,
} from "./schema/build-reply-schema.ts";
export { describeValue } from "./schema/describe-value.ts";
export { FIELD_ORDER_KEYWORD, restoreFieldOrder, restoreWorkflowFieldOrder } from "./schema/field-order.ts";
export { allBranchProperties, branchAnswers, listStatusBranches, type StatusBranch } from "./schema/status-branches.ts";
export { ASK_KEYWORD, CONVENTION_KEYWORD, REASON_FIELD, STATUS_FIELD, SUSPEND_STATUS } from "./schema/status-fields.ts";
export { isTimeoutEdge } from "./schema/timeout-edge.ts";
export { validateOutputFields } from "./schema/validate-output-fields.ts";
export { type SchemaIssue, schemaIssuesToWorkflowIssues } from "./validate/schema-issues.ts";
export { validateStartInputs } from "./validate/validate-start-inputs.ts";
export { type ValidateWorkflowOptions, validateWorkflow } from "./validate/validate-workflow.ts";
export { describeYamlError } from "./yaml/describe-yaml-error.ts";
export { formatFrontmatter, formatYaml } from "./yaml/format-frontmatter.ts";
export { loadYaml } from "./yaml/load-yaml.ts";
export { parseSimpleYamlMapping } from "./yaml/simple-yaml.ts";
export { type ToJsonValueResult, toJsonValue } from "./yaml/to-json-value.ts";
export { MAX_YAML_ALIASES, MAX_YAML_NESTING } from "./yaml/yaml-limits.ts";
export { type YamlLimitProblem, type YamlToValueResult, yamlToValue } from "./yaml/yaml-to-value.ts";
