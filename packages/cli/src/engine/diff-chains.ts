import { canonicalizeJson, type Store } from "@uwf/cas";
import {
  addUsage,
  type DiffResult,
  type DiffSide,
  type DiffStep,
  type DiffStepSide,
  type DiffTotals,
  type FieldDifference,
  type ThreadRecord,
  ZERO_USAGE,
} from "@uwf/protocol";
import { createTwoFilesPatch } from "diff";
import type { HistoryStep } from "./load-history.ts";
import { readChain, type ThreadChain } from "./read-chain.ts";
import { ThreadHistory } from "./thread-history.ts";

/** What one side of a diff names: a head, and the thread it is the head of when it was named by a thread. */
export interface DiffTarget {
  head: string;
  thread: ThreadRecord | null;
}

export interface DiffChainsOptions {
  /** Add a unified diff of each compared pair's bodies. */
  bodies?: boolean;
}

/**
 * Compares two chains: finds the last step they share, then pairs the steps after it by number,
 * naming each output field that differs. Chains from different start nodes share nothing and are
 * compared from step 1; a chain against its own ancestor has only one side past the common steps;
 * a counterfactual fork's replaced step is the first pair. Totals cover each whole chain.
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
  const leftHistory = new ThreadHistory(store.objects, leftChain);
  const rightHistory = new ThreadHistory(store.objects, rightChain);
  const [leftBranch, rightBranch] = await Promise.all([
    leftHistory.stepsFrom(commonSteps),
    rightHistory.stepsFrom(commonSteps),
  ]);
  const steps: DiffStep[] = [];
  for (let index = 0; index < Math.max(leftBranch.length, rightBranch.length); index++) {
    steps.push(compareSteps(commonSteps + index + 1, leftBranch[index], rightBranch[index], options));
  }
  return {
    left: sideOf(left, leftChain),
    right: sideOf(right, rightChain),
    sameStart,
    commonSteps,
    commonAddress: sameStart ? (leftChain.steps[commonSteps - 1]?.address ?? leftChain.startAddress) : null,
    steps,
    totals: {
      left: await totalsOf(leftHistory, left.thread, leftBranch),
      right: await totalsOf(rightHistory, right.thread, rightBranch),
    },
  };
}

function readTargetChain(store: Pick<Store, "objects" | "refs">, target: DiffTarget): Promise<ThreadChain> {
  return readChain(store, target.head, target.thread === null ? {} : { thread: target.thread });
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

function compareSteps(
  number: number,
  left: HistoryStep | undefined,
  right: HistoryStep | undefined,
  options: DiffChainsOptions,
): DiffStep {
  const step: DiffStep = {
    number,
    left: left === undefined ? null : stepSideOf(left),
    right: right === undefined ? null : stepSideOf(right),
    fields: compareOutputs(left?.output ?? {}, right?.output ?? {}),
  };
  if (options.bodies === true) step.bodyDiff = diffBodies(number, left, right);
  return step;
}

function stepSideOf(step: HistoryStep): DiffStepSide {
  const status = step.output.$status;
  return {
    address: step.address,
    role: step.role,
    agent: step.agent,
    status: typeof status === "string" ? status : null,
    durationMs: Date.parse(step.completedAt) - Date.parse(step.startedAt),
    usage: step.usage,
  };
}

function compareOutputs(left: Record<string, unknown>, right: Record<string, unknown>): FieldDifference[] {
  const differences: FieldDifference[] = [];
  for (const [field, value] of Object.entries(left)) {
    if (!Object.hasOwn(right, field)) differences.push({ field, change: "removed", left: value });
    else if (canonicalizeJson(value) !== canonicalizeJson(right[field])) {
      differences.push({ field, change: "changed", left: value, right: right[field] });
    }
  }
  for (const [field, value] of Object.entries(right)) {
    if (!Object.hasOwn(left, field)) differences.push({ field, change: "added", right: value });
  }
  return differences;
}

/** A unified diff of two bodies, headed by the steps' addresses; "" when they are the same. */
function diffBodies(number: number, left: HistoryStep | undefined, right: HistoryStep | undefined): string {
  const leftBody = left?.body ?? "";
  const rightBody = right?.body ?? "";
  if (leftBody === rightBody) return "";
  const name = (step: HistoryStep | undefined) => (step === undefined ? "/dev/null" : `step ${number} ${step.address}`);
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

async function totalsOf(
  history: ThreadHistory,
  thread: ThreadRecord | null,
  branch: readonly HistoryStep[],
): Promise<DiffTotals> {
  let durationMs = 0;
  let usage = ZERO_USAGE;
  for (let index = 0; index < history.length; index++) {
    const node = await history.node(index);
    durationMs += Date.parse(node.completedAt) - Date.parse(node.startedAt);
    const run = await history.run(index);
    if (run.usage !== null) usage = addUsage(usage, run.usage);
  }
  const last = branch.at(-1) ?? (history.length > 0 ? await history.step(history.length - 1) : undefined);
  const lastStatus = last?.output.$status;
  return {
    steps: history.length,
    durationMs,
    usage,
    status: thread?.status ?? null,
    lastStatus: typeof lastStatus === "string" ? lastStatus : null,
  };
}
