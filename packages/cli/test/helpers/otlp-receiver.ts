// The OpenTelemetry project's generated protobufjs root for the OTLP protos. @opentelemetry/otlp-transformer
// stopped shipping it (0.301.1, what packages/otel exports with, has a serializer and no decoder), so the
// receiver takes it from the 0.57.2 release, installed under the alias `otlp-proto-decoder` (a devDependency
// of this package). That release's package.json has no `exports` map, so this path inside it is importable.
import generatedRoot from "otlp-proto-decoder/build/src/generated/root.js";

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1, as a collector would be: it takes POSTs to /v1/traces, decodes
 * each body as an `ExportTraceServiceRequest` with the OpenTelemetry proto definitions' generated decoder,
 * and answers with an `ExportTraceServiceResponse` in the request's encoding. A protobuf body goes through
 * the generated `decode`; an OTLP/JSON body through the generated `fromObject`, after the one change the
 * OTLP/JSON mapping makes to the protobuf JSON mapping (trace and span ids are hex, not base64).
 * `answer` can refuse (an HTTP status) or never answer, to stand for a broken collector.
 */
export interface OtlpReceiver {
  url: string;
  /** Every request received, decoded, in order. */
  requests: ReceivedRequest[];
  /** Every span received, flattened from all requests; throws if a request could not be decoded. */
  spans(): ReceivedSpan[];
  /** Resolves once at least `count` spans have arrived, rejects if a request could not be decoded (the test's timeout bounds the wait). */
  waitForSpans(count: number): Promise<ReceivedSpan[]>;
  stop(): void;
}

export interface ReceivedRequest {
  path: string;
  contentType: string | null;
  headers: Record<string, string>;
  /** Which decoder read the body, from its content type. */
  encoding: "protobuf" | "json";
  /** The decoded `ExportTraceServiceRequest` as a plain object (ids as bytes, 64-bit integers as strings); null if decoding failed. */
  message: ExportTraceServiceRequest | null;
  /** Why the body could not be decoded; null when it was. */
  error: string | null;
  /** The body as sent (gunzipped if it was gzipped), for checks that some text was never sent at all. */
  body: Uint8Array;
}

/** The parts of `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest` the tests read. */
export interface ExportTraceServiceRequest {
  resourceSpans: {
    resource?: { attributes: KeyValue[] };
    scopeSpans: { scope?: { name: string; version?: string }; spans: Span[] }[];
  }[];
}

interface KeyValue {
  key: string;
  value?: AnyValue;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values: AnyValue[] };
  kvlistValue?: { values: KeyValue[] };
  bytesValue?: Uint8Array;
}

interface Span {
  traceId: Uint8Array;
  spanId: Uint8Array;
  parentSpanId?: Uint8Array;
  name: string;
  kind?: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KeyValue[];
  events: { name: string; timeUnixNano: string; attributes: KeyValue[] }[];
  links: { traceId: Uint8Array; spanId: Uint8Array; attributes: KeyValue[] }[];
  status?: { code?: number; message?: string };
}

/** A received span: ids as hex, attributes as a plain object. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** OTLP's SpanKind: 1 INTERNAL, 3 CLIENT… */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  /** 1 OK, 2 ERROR (OTLP's StatusCode). */
  status: { code: number; message: string | null };
  service: unknown;
  scope: string | null;
}

export type ReceiverAnswer = "ok" | "never" | number;

/** The generated message types used here; the generated `root.d.ts` types the root only as a protobufjs `Root`. */
interface GeneratedType {
  decode(bytes: Uint8Array): object;
  fromObject(object: object): object;
  toObject(message: object, options: { longs: StringConstructor; enums: NumberConstructor; arrays: boolean }): object;
  encode(message: object): { finish(): Uint8Array };
}
const otlp = (
  generatedRoot as unknown as {
    opentelemetry: {
      proto: {
        collector: {
          trace: { v1: { ExportTraceServiceRequest: GeneratedType; ExportTraceServiceResponse: GeneratedType } };
        };
      };
    };
  }
).opentelemetry.proto.collector.trace.v1;

export function startOtlpReceiver(answer: ReceiverAnswer = "ok"): OtlpReceiver {
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const sent = new Uint8Array(await request.arrayBuffer());
      const body = request.headers.get("content-encoding") === "gzip" ? Bun.gunzipSync(sent) : sent;
      const contentType = request.headers.get("content-type");
      const encoding = contentType?.includes("json") === true ? "json" : "protobuf";
      const decoded = decodeRequest(body, encoding);
      requests.push({
        path: new URL(request.url).pathname,
        contentType,
        headers: Object.fromEntries(request.headers.entries()),
        encoding,
        ...decoded,
        body,
      });
      for (const waiter of waiters.splice(0)) {
        if (decoded.error !== null)
          waiter.reject(new Error(`the OTLP receiver could not decode a request: ${decoded.error}`));
        else if (spansOf(requests).length >= waiter.count) waiter.resolve();
        else waiters.push(waiter);
      }
      if (answer === "never") return new Promise<Response>(() => {});
      if (typeof answer === "number") return new Response("refused", { status: answer });
      // A collector answers 400 to a body it cannot decode, as the OTLP/HTTP spec says.
      if (decoded.error !== null) return new Response(decoded.error, { status: 400 });
      return encoding === "json"
        ? Response.json({})
        : new Response(otlp.ExportTraceServiceResponse.encode({}).finish(), {
            headers: { "content-type": "application/x-protobuf" },
          });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    spans: () => spansOf(requests),
    waitForSpans(count) {
      try {
        if (spansOf(requests).length >= count) return Promise.resolve(spansOf(requests));
      } catch (error) {
        return Promise.reject(error);
      }
      return new Promise((resolve, reject) => {
        waiters.push({ count, resolve: () => resolve(spansOf(requests)), reject });
      });
    },
    stop: () => server.stop(true),
  };
}

function decodeRequest(
  body: Uint8Array,
  encoding: "protobuf" | "json",
): { message: ExportTraceServiceRequest | null; error: string | null } {
  try {
    const message =
      encoding === "protobuf"
        ? otlp.ExportTraceServiceRequest.decode(body)
        : otlp.ExportTraceServiceRequest.fromObject(hexIdsToBytes(JSON.parse(new TextDecoder().decode(body))));
    const plain = otlp.ExportTraceServiceRequest.toObject(message, { longs: String, enums: Number, arrays: true });
    return { message: plain as ExportTraceServiceRequest, error: null };
  } catch (error) {
    return { message: null, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * OTLP/JSON writes trace and span ids as hex where the protobuf JSON mapping (which `fromObject` follows)
 * has base64 bytes: turn them into bytes first. A malformed id is left as it is, for `fromObject` to reject.
 */
function hexIdsToBytes(json: unknown): object {
  const request = json as { resourceSpans?: { scopeSpans?: { spans?: Record<string, unknown>[] }[] }[] };
  for (const resourceSpans of request.resourceSpans ?? []) {
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        idsToBytes(span, ["traceId", "spanId", "parentSpanId"]);
        for (const link of (span.links as Record<string, unknown>[] | undefined) ?? []) {
          idsToBytes(link, ["traceId", "spanId"]);
        }
      }
    }
  }
  return request;
}

function idsToBytes(object: Record<string, unknown>, fields: readonly string[]): void {
  for (const field of fields) {
    const value = object[field];
    if (typeof value === "string" && /^([0-9a-f]{2})*$/i.test(value)) object[field] = Buffer.from(value, "hex");
  }
}

function spansOf(requests: readonly ReceivedRequest[]): ReceivedSpan[] {
  return requests.flatMap((request) => {
    if (request.message === null) throw new Error(`the OTLP receiver could not decode a request: ${request.error}`);
    return request.message.resourceSpans.flatMap((resourceSpans) => {
      const service = attributesOf(resourceSpans.resource?.attributes ?? [])["service.name"];
      return resourceSpans.scopeSpans.flatMap((scopeSpans) =>
        scopeSpans.spans.map((span) => toSpan(span, service, scopeSpans.scope?.name ?? null)),
      );
    });
  });
}

function toSpan(span: Span, service: unknown, scope: string | null): ReceivedSpan {
  const parent = hex(span.parentSpanId);
  return {
    traceId: hex(span.traceId),
    spanId: hex(span.spanId),
    parentSpanId: parent === "" ? null : parent,
    name: span.name,
    kind: span.kind ?? 0,
    startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
    endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
    attributes: attributesOf(span.attributes),
    events: span.events.map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })),
    links: span.links.map((link) => ({
      traceId: hex(link.traceId),
      spanId: hex(link.spanId),
      attributes: attributesOf(link.attributes),
    })),
    status: { code: span.status?.code ?? 0, message: span.status?.message || null },
    service,
    scope,
  };
}

function hex(bytes: Uint8Array | undefined): string {
  return bytes === undefined ? "" : Buffer.from(bytes).toString("hex");
}

function attributesOf(list: readonly KeyValue[]): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, anyValue(value)]));
}

function anyValue(value: AnyValue | undefined): unknown {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return value.arrayValue.values.map(anyValue);
  if (value.kvlistValue !== undefined) return attributesOf(value.kvlistValue.values);
  if (value.bytesValue !== undefined) return Buffer.from(value.bytesValue).toString("base64");
  return null;
}
