export {
  collectThreadSpans,
  EXPORT_TIMEOUT_MS,
  type ExportedThreads,
  type ExportThreadsOptions,
  sendSpans,
} from "./export-threads.ts";
export { EXIT_FLUSH_DEADLINE_MS, type LiveExport, startLiveExport } from "./live-export.ts";
export {
  type OtelSettings,
  type OtlpProtocol,
  parseHeaders,
  readCaptureContent,
  readOtelSettings,
} from "./otel-settings.ts";
export { type SpanSubject, spanIdFor, traceIdFor } from "./span-ids.ts";
export type { SpanAttributeValue, UwfSpan, UwfSpanEvent, UwfSpanLink } from "./uwf-span.ts";
