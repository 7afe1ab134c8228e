import { OTLPExporterBase } from "@opentelemetry/otlp-exporter-base";
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from "@opentelemetry/otlp-exporter-base/node-http";
import {
  JsonTraceSerializer,
  ProtobufTraceSerializer,
  TraceExporterMetricsHelper,
} from "@opentelemetry/otlp-transformer";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import type { OtelSettings } from "./otel-settings.ts";

export type SpanExporter = OTLPExporterBase<ReadableSpan[]>;

/**
 * An OTLP/HTTP span exporter for the settings' URL, protocol and headers, built from the OpenTelemetry
 * packages' own transport and serializers (JSON, or protobuf). Each request is given up after
 * `timeoutMillis` (retries of a 429 or 5xx included), and no connection is kept alive: a uwf process is
 * short, and an idle socket must not hold it open.
 */
export function createSpanExporter(settings: OtelSettings, timeoutMillis: number): SpanExporter {
  const json = settings.protocol === "http/json";
  const options = convertLegacyHttpOptions(
    { url: settings.url, headers: settings.headers, timeoutMillis, keepAlive: false },
    "TRACES",
    "v1/traces",
    { "Content-Type": json ? "application/json" : "application/x-protobuf" },
  );
  const delegate = createOtlpHttpExportDelegate(
    options,
    json ? JsonTraceSerializer : ProtobufTraceSerializer,
    json ? "otlp_http_json_span_exporter" : "otlp_http_span_exporter",
    TraceExporterMetricsHelper,
    undefined,
  );
  return new OTLPExporterBase(delegate);
}
