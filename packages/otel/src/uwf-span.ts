/**
 * A span as uwf builds it from the store: plain data, with its ids and times fixed by what was
 * recorded, converted to the SDK's shape only to be sent (toReadableSpan).
 */
export interface UwfSpan {
  name: string;
  traceId: string;
  spanId: string;
  /** The span it is a child of (a branch's step under its parent's fan-out step), in the same trace. */
  parentSpanId: string | null;
  /** Epoch milliseconds. */
  startTime: number;
  endTime: number;
  status: { code: "ok" | "error"; message?: string };
  attributes: Record<string, SpanAttributeValue>;
  events: UwfSpanEvent[];
  links: UwfSpanLink[];
}

export type SpanAttributeValue = string | number | boolean | string[];

export interface UwfSpanEvent {
  name: string;
  time: number;
  attributes: Record<string, SpanAttributeValue>;
}

export interface UwfSpanLink {
  traceId: string;
  spanId: string;
  attributes: Record<string, SpanAttributeValue>;
}
