import {
  type AgentAttempt,
  type AgentRunNode,
  SUSPEND,
  type ThreadRecord,
  type ThreadStepNode,
  TIMEOUT,
} from "@uwf/protocol";
import { runAttributes } from "./run-attributes.ts";
import { spanIdFor } from "./span-ids.ts";
import type { SpanSource } from "./span-source.ts";
import type { SpanAttributeValue, UwfSpan, UwfSpanLink } from "./uwf-span.ts";

/**
 * The spans of one step of `record`'s thread: an `invoke_agent ROLE` span, and when the step answers
 * (or times out) a suspension of this thread, the suspension's wait, from the suspending step's end to
 * this step's start. Empty when the node is not a step the thread recorded itself (a fork's shared history).
 */
export async function spansOfStep(
  source: SpanSource,
  record: ThreadRecord,
  address: string,
  number: number,
): Promise<UwfSpan[]> {
  const node = await source.step(address);
  if (node === null || !(await isOwnStep(source, record, address, node))) return [];
  const run = await source.run(node.run);
  const traceId = await source.traceId(record.id);
  const parentSpanId = record.branchOf === undefined ? null : spanIdFor("step", record.branchOf.address);
  const previous = node.prev === null ? null : await source.step(node.prev);
  const previousOwn = node.prev !== null && previous !== null && (await isOwnStep(source, record, node.prev, previous));
  const links = previousOwn ? [] : await forkLinks(source, record);
  const fields = (await source.output(node.output))?.fields ?? {};
  const status = typeof fields.$status === "string" ? fields.$status : null;
  const attributes: Record<string, SpanAttributeValue> = {
    ...(await runAttributes(source, record, run, node.role)),
    "uwf.step": number,
    "uwf.address": address,
    ...(status === null ? {} : { "uwf.status": status }),
  };
  if (source.captureContent) {
    const body = await source.text(node.body);
    if (body !== null) attributes["uwf.reply.body"] = body;
    attributes["uwf.reply.fields"] = JSON.stringify(fields);
  }
  const spans: UwfSpan[] = [
    {
      name: `invoke_agent ${node.role}`,
      traceId,
      spanId: spanIdFor("step", address),
      parentSpanId,
      startTime: Date.parse(node.startedAt),
      endTime: Date.parse(node.completedAt),
      status: { code: "ok" },
      attributes,
      events: attemptEvents(run, source.captureContent),
      links,
    },
  ];
  if (previousOwn && node.prev !== null && previous !== null) {
    const wait = await suspensionSpan(source, record, { address: node.prev, node: previous }, node, number - 1);
    if (wait !== null) spans.unshift({ ...wait, traceId });
  }
  return spans;
}

/**
 * Whether the thread recorded this step itself rather than sharing it: not its fork point or branch
 * point, and run by it (runs name their thread; older runs do not, and count as the thread's own).
 */
export async function isOwnStep(
  source: SpanSource,
  record: ThreadRecord,
  address: string,
  node: ThreadStepNode,
): Promise<boolean> {
  if (record.forkedFrom?.address === address || record.branchOf?.address === address) return false;
  const run = await source.run(node.run);
  return run?.thread === undefined || run.thread === record.id;
}

/** A fork's first own step links to the step it came from (the replaced one for `fork --output`), in that thread's trace. */
async function forkLinks(source: SpanSource, record: ThreadRecord): Promise<UwfSpanLink[]> {
  const origin = record.forkedFrom;
  if (origin === null || origin.thread === null || origin.step === 0) return [];
  return [
    {
      traceId: await source.traceId(origin.thread),
      spanId: spanIdFor("step", origin.address),
      attributes: {
        "uwf.link": "forked-from",
        "uwf.thread": origin.thread,
        "uwf.step": origin.step ?? 0,
        "uwf.address": origin.address,
        "uwf.fork.replaced": origin.replaced === true,
      },
    },
  ];
}

/** The wait of a step that suspended, ended by `answer` (its next step); null when that step did not suspend. */
async function suspensionSpan(
  source: SpanSource,
  record: ThreadRecord,
  suspended: { address: string; node: ThreadStepNode },
  answer: ThreadStepNode,
  number: number,
): Promise<Omit<UwfSpan, "traceId"> | null> {
  const fields = (await source.output(suspended.node.output))?.fields ?? {};
  if (fields.$status !== SUSPEND) return null;
  const answerFields = (await source.output(answer.output))?.fields ?? {};
  const timedOut = answerFields.$status === TIMEOUT;
  const attributes: Record<string, SpanAttributeValue> = {
    "uwf.thread": record.id,
    "uwf.workflow": record.workflow,
    "uwf.role": suspended.node.role,
    "uwf.step": number,
    "uwf.address": suspended.address,
    "uwf.suspension.resolution": timedOut ? "timeout" : "answer",
  };
  if (source.captureContent && typeof fields.reason === "string") attributes["uwf.suspension.reason"] = fields.reason;
  return {
    name: `suspension ${suspended.node.role}`,
    spanId: spanIdFor("suspension", suspended.address),
    parentSpanId: spanIdFor("step", suspended.address),
    startTime: Date.parse(suspended.node.completedAt),
    endTime: Date.parse(answer.startedAt),
    status: { code: "ok" },
    attributes,
    events: [],
    links: [],
  };
}

/** Each try after the first as a `uwf.retry`, and each try that did not count as a `uwf.attempt.failed`, with why. */
export function attemptEvents(run: AgentRunNode | null, captureContent: boolean): UwfSpan["events"] {
  const events: UwfSpan["events"] = [];
  run?.attempts.forEach((attempt, index) => {
    if (index > 0)
      events.push({ name: "uwf.retry", time: Date.parse(attempt.startedAt), attributes: { "uwf.attempt": index + 1 } });
    const failure = attemptFailure(attempt);
    if (failure === null) return;
    const attributes: Record<string, SpanAttributeValue> = { "uwf.attempt": index + 1, "error.type": failure };
    if (attempt.exitCode !== null) attributes["process.exit.code"] = attempt.exitCode;
    // The problem may quote the reply (`approved: expected boolean, got "yes"`): content, so opt-in.
    if (captureContent && attempt.error !== null) attributes["uwf.attempt.error"] = attempt.error;
    events.push({ name: "uwf.attempt.failed", time: Date.parse(attempt.completedAt), attributes });
  });
  return events;
}

/** Why a try did not count, as a short category; null when it did. */
function attemptFailure(attempt: AgentAttempt): string | null {
  if (attempt.timedOut) return "timeout";
  if (attempt.interrupted) return "interrupted";
  if (attempt.signal !== null) return "signal";
  if (attempt.exitCode !== null && attempt.exitCode !== 0) return "exit";
  if (attempt.error !== null) return "invalid_reply";
  return null;
}
