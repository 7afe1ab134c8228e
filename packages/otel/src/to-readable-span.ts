import { type HrTime, SpanKind, SpanStatusCode, TraceFlags } from "@opentelemetry/api";
import type { Resource } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import type { UwfSpan } from "./uwf-span.ts";

/** The instrumentation scope uwf's spans carry. */
const SCOPE = { name: "uwf", version: "1" };

/**
 * A uwf span in the SDK's shape, ended, with the ids and times uwf chose: spans are built from the
 * store after the fact, never timed by a live tracer, so a re-export is the same span.
 */
export function toReadableSpan(span: UwfSpan, resource: Resource): ReadableSpan {
  const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
  const startTime = toHrTime(span.startTime);
  const endTime = toHrTime(Math.max(span.endTime, span.startTime));
  return {
    name: span.name,
    kind: SpanKind.INTERNAL,
    spanContext: () => context,
    ...(span.parentSpanId === null
      ? {}
      : { parentSpanContext: { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED } }),
    startTime,
    endTime,
    status:
      span.status.code === "ok"
        ? { code: SpanStatusCode.OK }
        : {
            code: SpanStatusCode.ERROR,
            ...(span.status.message === undefined ? {} : { message: span.status.message }),
          },
    attributes: span.attributes,
    links: span.links.map((link) => ({
      context: { traceId: link.traceId, spanId: link.spanId, traceFlags: TraceFlags.SAMPLED },
      attributes: link.attributes,
    })),
    events: span.events.map((event) => ({
      name: event.name,
      time: toHrTime(event.time),
      attributes: event.attributes,
    })),
    duration: toHrTime(Math.max(span.endTime - span.startTime, 0)),
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

function toHrTime(milliseconds: number): HrTime {
  const seconds = Math.floor(milliseconds / 1000);
  return [seconds, Math.round((milliseconds - seconds * 1000) * 1_000_000)];
}
