/** Every error class of @uwf/workflow, one per file. */
export { ConditionFailedError } from "./condition-failed-error.ts";
export { ConditionTimeoutError } from "./condition-timeout-error.ts";
export { EdgePromptError } from "./edge-prompt-error.ts";
export { FanOutError } from "./fan-out-error.ts";
export { InvalidInputsError } from "./invalid-inputs-error.ts";
export { InvalidOutputSchemaError } from "./invalid-output-schema-error.ts";
export { InvalidWorkflowError } from "./invalid-workflow-error.ts";
export { NoResumeEdgeError } from "./no-resume-edge-error.ts";
export { NoTransitionError, type TriedTransition } from "./no-transition-error.ts";
export { UnknownRoleError } from "./unknown-role-error.ts";
