import type { Usage } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import { InvalidRecordError } from "../errors/invalid-record-error.ts";
import type { ChainIndex, ChainIndexStep, ChainStepDetails } from "./chain-refs.ts";

/** A chain index with its addresses in canonical form and every role a non-empty string. */
export function checkChainIndex(index: ChainIndex): ChainIndex {
  if (typeof index !== "object" || index === null) {
    throw new InvalidRecordError("chain index", ["expected { start, steps: [{ address, role }] }"]);
  }
  return { start: parseAddress(index.start), steps: checkChainIndexSteps(index.steps) };
}

/** Steps to append to a chain index, checked as `checkChainIndex` checks an index's steps. */
export function checkChainIndexSteps(steps: readonly ChainIndexStep[]): ChainIndexStep[] {
  if (!Array.isArray(steps)) throw new InvalidRecordError("chain index", ["steps: expected a list"]);
  return steps.map((step, position) => {
    if (typeof step !== "object" || step === null || typeof step.role !== "string" || step.role === "") {
      throw new InvalidRecordError("chain index", [
        `steps.${position}: expected { address, role: a non-empty string }`,
      ]);
    }
    const checked: ChainIndexStep = { address: parseAddress(step.address), role: step.role };
    if (step.details !== undefined) checked.details = checkChainStepDetails(step.details, position);
    return checked;
  });
}

/** A step's details with its addresses in canonical form and its usage's keys in canonical order. */
function checkChainStepDetails(details: ChainStepDetails, position: number): ChainStepDetails {
  const problem = (field: string, expected: string) =>
    new InvalidRecordError("chain index", [`steps.${position}.details.${field}: expected ${expected}`]);
  if (typeof details !== "object" || details === null) throw problem("", "an object");
  for (const field of ["agent", "startedAt", "completedAt"] as const) {
    if (typeof details[field] !== "string") throw problem(field, "a string");
  }
  if (details.status !== null && typeof details.status !== "string") throw problem("status", "a string or null");
  const usage = details.usage === null ? null : canonicalUsage(details.usage);
  if (usage === undefined) throw problem("usage", "null or an object of numbers");
  return {
    output: parseAddress(details.output),
    body: parseAddress(details.body),
    agent: details.agent,
    startedAt: details.startedAt,
    completedAt: details.completedAt,
    status: details.status,
    usage,
  };
}

/**
 * A usage object with its keys in canonical order, as the agent run read from the object store has them
 * (so a diff prints it alike from either); undefined when it is not an object of finite numbers (an
 * undefined value is left out, as canonical JSON leaves it out of the run).
 */
export function canonicalUsage(value: unknown): Usage | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const source = value as Record<string, unknown>;
  const usage: Record<string, number> = {};
  for (const key of Object.keys(source).sort()) {
    const amount = source[key];
    // Left out, as canonical JSON leaves it out of the agent run.
    if (amount === undefined) continue;
    if (typeof amount !== "number" || !Number.isFinite(amount)) return undefined;
    usage[key] = amount;
  }
  return usage as Usage;
}
