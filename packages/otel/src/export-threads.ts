import { ExportResultCode } from "@opentelemetry/core";
import type { Store } from "@uwf/cas";
import { createSpanExporter } from "./create-span-exporter.ts";
import { makeResource } from "./make-resource.ts";
import type { OtelSettings } from "./otel-settings.ts";
import { SpanSource } from "./span-source.ts";
import { spansOfThread } from "./thread-spans.ts";
import { toReadableSpan } from "./to-readable-span.ts";
import type { UwfSpan } from "./uwf-span.ts";

/** How long `uwf trace export` waits for the collector to take each request. */
export const EXPORT_TIMEOUT_MS = 10_000;

/** Spans per request: a long thread family goes in several. */
const SPANS_PER_REQUEST = 512;

export interface ExportThreadsOptions {
  store: Pick<Store, "objects" | "refs">;
  settings: OtelSettings;
  threads: readonly string[];
}

export interface ExportedThreads {
  /** Per thread, in the order given: its trace and how many spans it had. */
  threads: { thread: string; traceId: string; spans: number }[];
  spans: UwfSpan[];
}

/** The spans of `threads`, built as the live export built them (same ids), without sending them. */
export async function collectThreadSpans(
  options: Omit<ExportThreadsOptions, "settings"> & { captureContent: boolean },
): Promise<ExportedThreads> {
  const source = new SpanSource(options.store, { captureContent: options.captureContent });
  const result: ExportedThreads = { threads: [], spans: [] };
  for (const thread of options.threads) {
    const spans = await spansOfThread(source, thread);
    result.threads.push({ thread, traceId: await source.traceId(thread), spans: spans.length });
    result.spans.push(...spans);
  }
  return result;
}

/**
 * Sends spans to the settings' collector and waits for each request's answer: resolves when every
 * one was accepted, rejects with the collector's or the network's error otherwise.
 */
export async function sendSpans(spans: readonly UwfSpan[], settings: OtelSettings): Promise<void> {
  const exporter = createSpanExporter(settings, EXPORT_TIMEOUT_MS);
  const resource = makeResource(settings.serviceName);
  try {
    for (let index = 0; index < spans.length; index += SPANS_PER_REQUEST) {
      const batch = spans.slice(index, index + SPANS_PER_REQUEST).map((span) => toReadableSpan(span, resource));
      await new Promise<void>((resolve, reject) => {
        exporter.export(batch, (result) => {
          if (result.code === ExportResultCode.SUCCESS) resolve();
          else reject(result.error ?? new Error("the collector did not accept the spans"));
        });
      });
    }
  } finally {
    await exporter.shutdown().catch(() => {});
  }
}
