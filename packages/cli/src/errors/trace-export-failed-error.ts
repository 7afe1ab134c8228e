import { UwfError } from "@uwf/protocol";

/** `uwf trace export`: the collector refused the spans (an HTTP error), or did not answer in time, or could not be reached. */
export class TraceExportFailedError extends UwfError<"trace-export-failed"> {
  static override readonly code = "trace-export-failed" as const;
  static override readonly name = "TraceExportFailedError";

  constructor(endpoint: string, spans: number, reason: string, cause?: unknown) {
    super(`cannot export ${spans} span${spans === 1 ? "" : "s"} to ${endpoint}: ${reason}`, {
      data: { endpoint, spans, reason },
      cause,
    });
  }
}
