import { canonicalizeJson, type Store } from "@uwf/cas";
import type {
  DiffResult,
  DiffSide,
  DiffStep,
  DiffStepSide,
  DiffTotals,
  FieldDifference,
  ThreadRecord,
  WorkflowChange,
  WorkflowSwitch,
} from "@uwf/protocol";
import { createTwoFilesPatch } from "diff";
import { readChain, type ThreadChain } from "../history/read-chain.ts";
import { ThreadHistory } from "../history/thread-history.ts";
import { addStep, type ComparedStep, ComparedSteps, type Sums } from "./compared-steps.ts";

/** What one side of a diff names: a head, and the thread it is the head of when it was named by a thread. */
export interface DiffTarget {
  head: string;
  thread: ThreadRecord | null;
}

export interface DiffChainsOptions {
  /** Add a unified diff of each compared pair's bodies. */
  bodies?: boolean;
  /** Called as each phase of the diff ends, with its name (`UWF_TRACE` in the CLI). */
  trace?(phase: string): void;
}

/**
 * Compares two chains: finds the last step they share, then pairs the steps after it by number,
 * naming each output field that differs. Chains from different start nodes share nothing and are
 * compared from step 1; a chain against its own ancestor has only one side past the common steps;
 * a counterfactual fork's replaced step is the first pair. Totals cover each whole chain: the common
 * steps are read and added up once, for both sides, and each side's later steps are those compared.
 */
export async function diffChains(
  store: Pick<Store, "objects" | "refs">,
  left: DiffTarget,
  right: DiffTarget,
  options: DiffChainsOptions = {},
): Promise<DiffResult> {
  const [leftChain, rightChain] = await Promise.all([readTargetChain(store, left), readTargetChain(store, right)]);
  const sameStart = leftChain.startAddress === rightChain.startAddress;
  const commonSteps = sameStart ? countCommonSteps(leftChain, rightChain) : 0;
  options.trace?.("chains read");
  const leftHistory = new ThreadHistory(store.objects, leftChain);
  const rightHistory = new ThreadHistory(store.objects, rightChain);
  const compared = new ComparedSteps(store.objects);
  const withBodies = options.bodies === true;
  const leftBranch = await compared.read(leftHistory, commonSteps, withBodies);
  const rightBranch = await compared.read(rightHistory, commonSteps, withBodies);
  options.trace?.("branches read");
  const steps: DiffStep[] = [];
  for (let index = 0; index < Math.max(leftBranch.length, rightBranch.length); index++) {
    steps.push(await compareSteps(compared, commonSteps + index + 1, leftBranch[index], rightBranch[index], options));
  }
  options.trace?.("steps compared");
  const common = await compared.sum(leftHistory, commonSteps, rightChain.steps);
  // A side with no step of its own ends on the last common step.
  const oneSideEnded = leftBranch.length === 0 || rightBranch.length === 0;
  const commonLast =
    commonSteps > 0 && oneSideEnded ? await compared.status(leftHistory, commonSteps - 1, rightChain.steps) : null;
  const totals = {
    left: totalsOf(leftHistory.length, left.thread, common, commonLast, leftBranch),
    right: totalsOf(rightHistory.length, right.thread, common, commonLast, rightBranch),
  };
  options.trace?.("totals added");
  const workflowChange = await compareWorkflows(store, left.thread, right.thread);
  return {
    left: sideOf(left, leftChain),
    right: sideOf(right, rightChain),
    sameStart,
    commonSteps,
    commonAddress: sameStart ? (leftChain.steps[commonSteps - 1]?.address ?? leftChain.startAddress) : null,
    steps,
    totals,
    ...(workflowChange === null ? {} : { workflowChange }),
  };
}

/** How far up a lineage the switches of workflow version are looked for: a cycle only damage could make stops sooner. */
const MAX_LINEAGE_DEPTH = 1000;

/**
 * Two threads that run under different workflow addresses: each side's version, and where each side's
 * lineage moved onto another version (`fork --workflow`), oldest first. Null for the same version, and
 * when a side names a node rather than a thread.
 */
async function compareWorkflows(
  store: Pick<Store, "refs">,
  left: ThreadRecord | null,
  right: ThreadRecord | null,
): Promise<WorkflowChange | null> {
  if (left === null || right === null || left.workflowAddress === right.workflowAddress) return null;
  return {
    left: { name: left.workflow, address: left.workflowAddress },
    right: { name: right.workflow, address: right.workflowAddress },
    switches: { left: await workflowSwitches(store, left), right: await workflowSwitches(store, right) },
  };
}

/** The forks onto another version in a thread's lineage, itself included, oldest first: up through each fork's parent. */
async function workflowSwitches(store: Pick<Store, "refs">, thread: ThreadRecord): Promise<WorkflowSwitch[]> {
  const switches: WorkflowSwitch[] = [];
  const seen = new Set<string>();
  let current: ThreadRecord | null = thread;
  while (current !== null && !seen.has(current.id) && seen.size < MAX_LINEAGE_DEPTH) {
    seen.add(current.id);
    const origin: ThreadRecord["forkedFrom"] = current.forkedFrom;
    if (origin?.workflow !== undefined) {
      switches.unshift({
        thread: current.id,
        step: origin.step,
        from: origin.workflow,
        to: { name: current.workflow, address: current.workflowAddress },
      });
    }
    current = origin?.thread == null ? null : await store.refs.getThread(origin.thread);
  }
  return switches;
}

/** A side's chain, with the steps' details from the thread's chain index where it keeps them. */
function readTargetChain(store: Pick<Store, "objects" | "refs">, target: DiffTarget): Promise<ThreadChain> {
  return readChain(store, target.head, target.thread === null ? {} : { thread: target.thread, details: true });
}

function countCommonSteps(left: ThreadChain, right: ThreadChain): number {
  const shorter = Math.min(left.steps.length, right.steps.length);
  let common = 0;
  while (common < shorter && left.steps[common]?.address === right.steps[common]?.address) common++;
  return common;
}

function sideOf(target: DiffTarget, chain: ThreadChain): DiffSide {
  return { thread: target.thread?.id ?? null, head: target.head, start: chain.startAddress };
}

/** A pair of steps side by side; their outputs are read only when they are not the same node. */
async function compareSteps(
  compared: ComparedSteps,
  number: number,
  left: ComparedStep | undefined,
  right: ComparedStep | undefined,
  options: DiffChainsOptions,
): Promise<DiffStep> {
  const sameOutput = left !== undefined && right !== undefined && left.output === right.output;
  const step: DiffStep = {
    number,
    left: left === undefined ? null : stepSideOf(left),
    right: right === undefined ? null : stepSideOf(right),
    fields: sameOutput ? [] : compareOutputs(await compared.fields(left), await compared.fields(right)),
  };
  if (options.bodies === true) step.bodyDiff = diffBodies(number, left, right);
  return step;
}

function stepSideOf(step: ComparedStep): DiffStepSide {
  return {
    address: step.address,
    role: step.role,
    agent: step.agent,
    status: step.status,
    durationMs: Date.parse(step.completedAt) - Date.parse(step.startedAt),
    usage: step.usage,
  };
}

function compareOutputs(left: Record<string, unknown>, right: Record<string, unknown>): FieldDifference[] {
  const differences: FieldDifference[] = [];
  for (const [field, value] of Object.entries(left)) {
    if (!Object.hasOwn(right, field)) differences.push({ field, change: "removed", left: value });
    else if (!sameJson(value, right[field])) {
      differences.push({ field, change: "changed", left: value, right: right[field] });
    }
  }
  for (const [field, value] of Object.entries(right)) {
    if (!Object.hasOwn(left, field)) differences.push({ field, change: "added", right: value });
  }
  return differences;
}

/** Whether two JSON values are equal; only objects and arrays need their canonical text compared. */
function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) return false;
  return canonicalizeJson(left) === canonicalizeJson(right);
}

/** A unified diff of two bodies, headed by the steps' addresses; "" when they are the same. */
function diffBodies(number: number, left: ComparedStep | undefined, right: ComparedStep | undefined): string {
  const leftBody = left?.body ?? "";
  const rightBody = right?.body ?? "";
  if (leftBody === rightBody) return "";
  const name = (step: ComparedStep | undefined) =>
    step === undefined ? "/dev/null" : `step ${number} ${step.address}`;
  const patch = createTwoFilesPatch(
    name(left),
    name(right),
    withFinalNewline(leftBody),
    withFinalNewline(rightBody),
    undefined,
    undefined,
    { context: 3 },
  );
  // The "====" separator line before the file names says nothing here.
  return patch.slice(patch.indexOf("\n") + 1).trimEnd();
}

function withFinalNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/** A side's totals: the common steps' sums, then its own steps' (in chain order, as they were spent). */
function totalsOf(
  steps: number,
  thread: ThreadRecord | null,
  common: Sums,
  commonLastStatus: string | null,
  branch: readonly ComparedStep[],
): DiffTotals {
  const sums: Sums = { ...common };
  for (const step of branch) addStep(sums, step.startedAt, step.completedAt, step.usage);
  const last = branch.at(-1);
  return {
    steps,
    durationMs: sums.durationMs,
    usage: sums.usage,
    status: thread?.status ?? null,
    lastStatus: last === undefined ? commonLastStatus : last.status,
  };
}
