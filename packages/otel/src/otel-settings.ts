/**
 * What the OpenTelemetry variables ask for. Read by the exporter only: the CLI decides whether to load
 * this package at all with its own one-line check (telemetry-wanted.ts), so a step without the
 * variables never imports it.
 */
export interface OtelSettings {
  /** The OTLP/HTTP traces URL the spans are posted to (`…/v1/traces`). */
  url: string;
  /** `http/protobuf` (the default, as in the OpenTelemetry SDKs) or `http/json`. */
  protocol: OtlpProtocol;
  /** Extra request headers (`OTEL_EXPORTER_OTLP_HEADERS`, `…_TRACES_HEADERS`). */
  headers: Record<string, string>;
  /** The resource's `service.name` (`OTEL_SERVICE_NAME`, default `uwf`). */
  serviceName: string;
  /** Prompts and replies go on the spans only when this is set (see readCaptureContent). */
  captureContent: boolean;
}

export type OtlpProtocol = "http/json" | "http/protobuf";

/** The path OTLP/HTTP serves traces on, appended to a base endpoint. */
const TRACES_PATH = "v1/traces";

/**
 * The settings the environment gives, or null when no endpoint is set or `OTEL_SDK_DISABLED=true`.
 * `endpoint` (`uwf trace export --endpoint`) stands for `OTEL_EXPORTER_OTLP_ENDPOINT` and beats both variables.
 */
export function readOtelSettings(env: NodeJS.ProcessEnv, endpoint?: string): OtelSettings | null {
  if (endpoint === undefined && (env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return null;
  const url = tracesUrl(env, endpoint);
  if (url === null) return null;
  return {
    url,
    protocol: readProtocol(env),
    headers: {
      ...parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
      ...parseHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
    },
    serviceName: nonEmpty(env.OTEL_SERVICE_NAME) ?? "uwf",
    captureContent: readCaptureContent(env),
  };
}

/** The signal-specific variable is the full URL; the general one is a base that `/v1/traces` is added to (as the OTLP spec says). */
function tracesUrl(env: NodeJS.ProcessEnv, endpoint: string | undefined): string | null {
  if (endpoint !== undefined) return withTracesPath(endpoint);
  const specific = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (specific !== undefined) return specific;
  const base = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  return base === undefined ? null : withTracesPath(base);
}

function withTracesPath(base: string): string {
  const trimmed = base.trim().replace(/\/+$/, "");
  return trimmed.endsWith(`/${TRACES_PATH}`) ? trimmed : `${trimmed}/${TRACES_PATH}`;
}

/** Any value but `http/json` (`grpc` included, which uwf does not speak) is the default, `http/protobuf`. */
function readProtocol(env: NodeJS.ProcessEnv): OtlpProtocol {
  const given = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  return given === "http/json" ? "http/json" : "http/protobuf";
}

/**
 * `UWF_OTEL_CAPTURE_CONTENT` or the GenAI conventions' `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`,
 * `true` (or `1`): prompts, replies and suspension reasons are what a team may not want in its tracing
 * backend, so they are off unless asked for.
 */
export function readCaptureContent(env: NodeJS.ProcessEnv): boolean {
  return [env.UWF_OTEL_CAPTURE_CONTENT, env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT].some((value) =>
    ["true", "1"].includes((value ?? "").trim().toLowerCase()),
  );
}

/** `key1=value1,key2=value2`, each part URL-decoded (the OTLP exporter variables' format); malformed parts are skipped. */
export function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of (text ?? "").split(",")) {
    const equals = part.indexOf("=");
    if (equals <= 0) continue;
    try {
      const key = decodeURIComponent(part.slice(0, equals).trim());
      const value = decodeURIComponent(part.slice(equals + 1).trim());
      if (key !== "") headers[key] = value;
    } catch {
      // A malformed escape: that header is left out rather than failing the step.
    }
  }
  return headers;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
