/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, as a collector would be: it takes POSTs to /v1/traces
 * and keeps what it decoded. OTLP/JSON requests are decoded by the OTLP JSON mapping (what the
 * OpenTelemetry packages' JsonTraceSerializer writes: hex ids, attributes as typed `AnyValue`s).
 * `answer` can refuse (an HTTP status) or never answer, to stand for a broken collector.
 */
export interface OtlpReceiver {
  url: string;
  /** Every request received, decoded, in order. */
  requests: ReceivedRequest[];
  /** Every span received, flattened from all requests. */
  spans(): ReceivedSpan[];
  /** Resolves once at least `count` spans have arrived (the test's timeout bounds the wait). */
  waitForSpans(count: number): Promise<ReceivedSpan[]>;
  stop(): void;
}

export interface ReceivedRequest {
  path: string;
  contentType: string | null;
  headers: Record<string, string>;
  /** The decoded OTLP/JSON body; null for a protobuf body. */
  body: { resourceSpans: ResourceSpans[] } | null;
  bytes: number;
}

interface ResourceSpans {
  resource: { attributes: KeyValue[] };
  scopeSpans: { scope: { name: string }; spans: RawSpan[] }[];
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values: AnyValue[] };
};

interface RawSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  events?: { name: string; timeUnixNano: string; attributes: KeyValue[] }[];
  links?: { traceId: string; spanId: string; attributes: KeyValue[] }[];
  status: { code?: number; message?: string };
}

/** A received span with its attributes as a plain object. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  /** 1 OK, 2 ERROR (OTLP's StatusCode). */
  status: { code: number; message: string | null };
  service: unknown;
}

export type ReceiverAnswer = "ok" | "never" | number;

export function startOtlpReceiver(answer: ReceiverAnswer = "ok"): OtlpReceiver {
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const bytes = new Uint8Array(await request.arrayBuffer());
      const contentType = request.headers.get("content-type");
      const json = contentType?.includes("json") === true;
      requests.push({
        path: new URL(request.url).pathname,
        contentType,
        headers: Object.fromEntries(request.headers.entries()),
        body: json ? JSON.parse(new TextDecoder().decode(bytes)) : null,
        bytes: bytes.length,
      });
      const total = spansOf(requests).length;
      for (const waiter of waiters.filter((waiter) => total >= waiter.count)) waiter.resolve();
      if (answer === "never") return new Promise<Response>(() => {});
      if (typeof answer === "number") return new Response("refused", { status: answer });
      return Response.json({});
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    spans: () => spansOf(requests),
    waitForSpans(count) {
      if (spansOf(requests).length >= count) return Promise.resolve(spansOf(requests));
      return new Promise((resolve) => {
        waiters.push({ count, resolve: () => resolve(spansOf(requests)) });
      });
    },
    stop: () => server.stop(true),
  };
}

function spansOf(requests: readonly ReceivedRequest[]): ReceivedSpan[] {
  return requests.flatMap((request) =>
    (request.body?.resourceSpans ?? []).flatMap((resourceSpans) => {
      const service = attributesOf(resourceSpans.resource.attributes)["service.name"];
      return resourceSpans.scopeSpans.flatMap((scope) => scope.spans.map((span) => toSpan(span, service)));
    }),
  );
}

function toSpan(span: RawSpan, service: unknown): ReceivedSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId === undefined || span.parentSpanId === "" ? null : span.parentSpanId,
    name: span.name,
    startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
    endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
    attributes: attributesOf(span.attributes),
    events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })),
    links: (span.links ?? []).map((link) => ({
      traceId: link.traceId,
      spanId: link.spanId,
      attributes: attributesOf(link.attributes),
    })),
    status: { code: span.status.code ?? 0, message: span.status.message ?? null },
    service,
  };
}

function attributesOf(list: readonly KeyValue[]): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, decodeAnyValue(value)]));
}

function decodeAnyValue(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return value.arrayValue.values.map(decodeAnyValue);
  return null;
}
