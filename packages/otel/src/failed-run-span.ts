import type { ThreadRecord } from "@uwf/protocol";
import { runAttributes } from "./run-attributes.ts";
import { spanIdFor } from "./span-ids.ts";
import type { SpanSource } from "./span-source.ts";
import { attemptEvents } from "./step-spans.ts";
import type { UwfSpan } from "./uwf-span.ts";

/**
 * The span of the run that left a thread `failed` (its record's `failure.run`): no step node was
 * written, so the run is the span's subject, its status ERROR with the failure's code. Null when the
 * thread has no failure with a run.
 */
export async function failedRunSpan(source: SpanSource, record: ThreadRecord): Promise<UwfSpan | null> {
  const failure = record.failure;
  if (failure === undefined || failure.run == null) return null;
  const runAddress = failure.run;
  const run = await source.run(runAddress);
  const role = record.next ?? "unknown";
  const attributes = {
    ...(await runAttributes(source, record, run, role)),
    "uwf.step": record.stepCount + 1,
    "uwf.address": runAddress,
    "error.type": failure.code,
    "uwf.failure.attempts": failure.attempts,
  };
  const first = run?.attempts[0];
  const last = run?.attempts.at(-1);
  const failedAt = Date.parse(failure.failedAt);
  return {
    name: `invoke_agent ${role}`,
    traceId: await source.traceId(record.id),
    spanId: spanIdFor("failed-run", runAddress),
    parentSpanId: record.branchOf === undefined ? null : spanIdFor("step", record.branchOf.address),
    startTime: first === undefined ? failedAt : Date.parse(first.startedAt),
    endTime: last === undefined ? failedAt : Date.parse(last.completedAt),
    // The failure's message may quote the reply, so it goes with the content opt-in; its code always.
    status: { code: "error", message: source.captureContent ? `${failure.code}: ${failure.message}` : failure.code },
    attributes,
    events: attemptEvents(run, source.captureContent),
    links: [],
  };
}
