import {
  ADDRESS_PATTERN,
  BUDGET_LIMITS,
  type EvalReportEntry,
  THREAD_ID_PATTERN,
  THREAD_STATUSES,
  type ThreadRecord,
  type WorkflowEntry,
} from "@uwf/protocol";
import { OPTIONAL_RECORD_FIELDS } from "./optional-record-fields.ts";
import type { ThreadUpdate } from "./thread-refs.ts";

/*
 * Cheap checks for the records uwf writes itself, so that a step does not build zod's schemas to
 * accept a record it just made. Each accepts only values the protocol's zod schema accepts unchanged
 * (every key present, no key zod would strip or default); anything else goes to the schema, which
 * has the last word and the precise message. Pinned against the schemas in is-well-formed-record.test.ts.
 */

const RECORD_FIELDS: Record<keyof ThreadRecord, (value: unknown) => boolean> = {
  id: (value) => typeof value === "string" && THREAD_ID_PATTERN.test(value),
  workflow: (value) => typeof value === "string",
  workflowAddress: isAddress,
  start: isAddress,
  head: isAddress,
  status: (value) => (THREAD_STATUSES as readonly unknown[]).includes(value),
  next: (value) => value === null || typeof value === "string",
  reason: (value) => value === null || typeof value === "string",
  stepCount: isCount,
  createdAt: isTimestamp,
  updatedAt: isTimestamp,
  forkedFrom: (value) => value === null || isForkOrigin(value),
  usage: isUsage,
  failedUsage: isUsage,
  recoveredFrom: isAddress,
  budget: isThreadBudget,
  queued: (value) => typeof value === "boolean",
  failure: isThreadFailure,
  branchOf: isBranchOrigin,
  outcome: isThreadOutcome,
  scheduledBy: (value) =>
    hasExactly(value, ["schedule", "fireTime"]) &&
    typeof value.schedule === "string" &&
    value.schedule !== "" &&
    isTimestamp(value.fireTime),
  exploredBy: (value) =>
    hasExactly(value, ["exploration", "step"]) &&
    typeof value.exploration === "string" &&
    THREAD_ID_PATTERN.test(value.exploration) &&
    typeof value.step === "number" &&
    Number.isSafeInteger(value.step) &&
    value.step > 0,
  deadline: isTimestamp,
};

/** Keys a record may leave out (zod's `.optional()`): present only on some records. */
const OPTIONAL_FIELDS: ReadonlySet<string> = OPTIONAL_RECORD_FIELDS;
const REQUIRED_FIELDS = Object.keys(RECORD_FIELDS).filter((key) => !OPTIONAL_FIELDS.has(key));

const UPDATABLE_FIELDS = new Set(
  Object.keys(RECORD_FIELDS).filter((key) => !["id", "createdAt", "start", "recoveredFrom"].includes(key)),
);
const USAGE_COUNTS = ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens"];

export function isWellFormedThreadRecord(value: unknown): value is ThreadRecord {
  if (!isPlainObject(value)) return false;
  const optional = Object.keys(value).filter((key) => OPTIONAL_FIELDS.has(key));
  return hasExactly(value, [...REQUIRED_FIELDS, ...optional]) && everyFieldValid(value);
}

export function isWellFormedThreadUpdate(value: unknown): value is ThreadUpdate {
  if (!isPlainObject(value) || !Object.keys(value).every((key) => UPDATABLE_FIELDS.has(key))) return false;
  // An update removes a failure, an outcome or a deadline with null.
  const { failure, outcome, deadline, ...rest } = value;
  return (
    (failure === undefined || failure === null || isThreadFailure(failure)) &&
    (deadline === undefined || deadline === null || isTimestamp(deadline)) &&
    (outcome === undefined || outcome === null || isThreadOutcome(outcome)) &&
    everyFieldValid(rest)
  );
}

export function isWellFormedWorkflowEntry(value: unknown): value is WorkflowEntry {
  return (
    hasExactly(value, ["name", "address", "updatedAt"]) &&
    typeof value.name === "string" &&
    isAddress(value.address) &&
    isTimestamp(value.updatedAt)
  );
}

export function isWellFormedEvalReportEntry(value: unknown): value is EvalReportEntry {
  return (
    hasExactly(value, ["id", "address", "name", "createdAt"]) &&
    typeof value.id === "string" &&
    THREAD_ID_PATTERN.test(value.id) &&
    isAddress(value.address) &&
    typeof value.name === "string" &&
    isTimestamp(value.createdAt)
  );
}

function everyFieldValid(value: Record<string, unknown>): boolean {
  return Object.entries(value).every(([key, field]) => RECORD_FIELDS[key as keyof ThreadRecord](field));
}

function isThreadFailure(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  // `run` is absent from failures recorded before it was kept.
  const keys = ["code", "message", "attempts", "failedAt", ...(Object.hasOwn(value, "run") ? ["run"] : [])];
  return (
    hasExactly(value, keys) &&
    (value.run === undefined || value.run === null || isAddress(value.run)) &&
    typeof value.code === "string" &&
    value.code !== "" &&
    typeof value.message === "string" &&
    isPositiveCount(value.attempts) &&
    isTimestamp(value.failedAt)
  );
}

function isThreadOutcome(value: unknown): boolean {
  return (
    hasExactly(value, ["role", "status", "edge"]) &&
    typeof value.role === "string" &&
    (value.status === null || typeof value.status === "string") &&
    (value.edge === null || isOutcomeEdge(value.edge))
  );
}

/** The `$END` edge of an outcome (a `role:` branch's outcome has none: null, checked by the caller). */
function isOutcomeEdge(value: unknown): boolean {
  return (
    hasExactly(value, ["index", "condition", "key"]) &&
    isCount(value.index) &&
    (value.condition === null || typeof value.condition === "string") &&
    (value.key === null || typeof value.key === "string")
  );
}

function isBranchOrigin(value: unknown): boolean {
  return (
    hasExactly(value, ["thread", "step", "branch", "address", "role"]) &&
    typeof value.thread === "string" &&
    THREAD_ID_PATTERN.test(value.thread) &&
    isPositiveCount(value.step) &&
    typeof value.branch === "string" &&
    value.branch !== "" &&
    isAddress(value.address) &&
    (value.role === null || typeof value.role === "string")
  );
}

function isForkOrigin(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  // `workflow` is there only on a fork onto another workflow version.
  const keys = ["thread", "step", "address", "replaced", ...(Object.hasOwn(value, "workflow") ? ["workflow"] : [])];
  return (
    hasExactly(value, keys) &&
    (value.workflow === undefined || isAddress(value.workflow)) &&
    (value.thread === null || (typeof value.thread === "string" && THREAD_ID_PATTERN.test(value.thread))) &&
    (value.step === null || isCount(value.step)) &&
    isAddress(value.address) &&
    (value.replaced === null || typeof value.replaced === "boolean")
  );
}

function isUsage(value: unknown): boolean {
  return (
    hasExactly(value, [...USAGE_COUNTS, "costUsd"]) &&
    USAGE_COUNTS.every((key) => isCount(value[key])) &&
    typeof value.costUsd === "number" &&
    Number.isFinite(value.costUsd) &&
    value.costUsd >= 0
  );
}

function isThreadBudget(value: unknown): boolean {
  return (
    hasExactly(value, [...BUDGET_LIMITS, "exceeded"]) &&
    (value.maxSteps === null || isPositiveCount(value.maxSteps)) &&
    (value.maxTokens === null || isPositiveCount(value.maxTokens)) &&
    (value.maxCostUsd === null ||
      (typeof value.maxCostUsd === "number" && Number.isFinite(value.maxCostUsd) && value.maxCostUsd > 0)) &&
    (value.exceeded === null || (BUDGET_LIMITS as readonly unknown[]).includes(value.exceeded))
  );
}

function isPositiveCount(value: unknown): boolean {
  return isCount(value) && (value as number) > 0;
}

function isAddress(value: unknown): boolean {
  return typeof value === "string" && ADDRESS_PATTERN.test(value);
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The form `Date.prototype.toISOString` writes, for a real instant: a subset of what `z.iso.datetime()` accepts. */
function isTimestamp(value: unknown): boolean {
  if (typeof value !== "string" || value.length !== 24) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function hasExactly(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}
