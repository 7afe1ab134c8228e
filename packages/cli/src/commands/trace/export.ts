import type { RefStore } from "@uwf/cas";
import { resolveThread } from "@uwf/engine";
import type { TraceExportResult } from "@uwf/protocol";
import { TraceExportFailedError } from "../../errors/trace-export-failed-error.ts";
import { UsageError } from "../../errors/usage-error.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";
import { readThreadArguments } from "../thread/step/read-thread-arguments.ts";

export interface TraceExportCommandOptions {
  threads?: string[];
  /** The OTLP/HTTP endpoint (a base, `/v1/traces` is added), over OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint?: string;
  /** This thread and its forks, at any depth. */
  forksOf?: string;
}

/** Threads a family lists per page. */
const PAGE = 500;

/**
 * `uwf trace export THREAD… [--forks-of T] [--endpoint URL]`: sends stored threads' steps as OTLP
 * spans, the same spans (same ids) the processes that ran them export with OTEL_EXPORTER_OTLP_ENDPOINT
 * set, so exporting a thread again is idempotent at the collector. A thread's branches go with it.
 */
export async function traceExportCommand(options: TraceExportCommandOptions, context: CommandContext) {
  const given = options.threads ?? [];
  if (given.length === 0 && options.forksOf === undefined) {
    throw new UsageError("give the threads to export (THREAD…, - for stdin) or --forks-of THREAD");
  }
  if (options.endpoint !== undefined && !isHttpUrl(options.endpoint)) {
    throw new UsageError(
      `--endpoint ${JSON.stringify(options.endpoint)} is not an http:// or https:// URL (an OTLP/HTTP collector's base, such as http://localhost:4318)`,
      { endpoint: options.endpoint },
    );
  }
  const { collectThreadSpans, readOtelSettings, sendSpans } = await import("@uwf/otel");
  // OTEL_SDK_DISABLED turns off what runs by itself (the live export); this command is asked for by name.
  const settings = readOtelSettings({ ...context.env, OTEL_SDK_DISABLED: undefined }, options.endpoint);
  if (settings === null) {
    throw new UsageError("no collector to export to: give --endpoint URL or set OTEL_EXPORTER_OTLP_ENDPOINT");
  }
  const store = await context.openStore({ create: false });
  const references =
    given.length === 0 ? [] : await readThreadArguments(given, "nothing to export: stdin held no thread id");
  const ids: string[] = [];
  for (const reference of references) ids.push((await resolveThread(store.refs, reference)).id);
  if (options.forksOf !== undefined) ids.push(...(await family(store.refs, options.forksOf)));
  const threads = await withBranches(store.refs, [...new Set(ids)]);
  const collected = await collectThreadSpans({ store, threads, captureContent: settings.captureContent });
  try {
    await sendSpans(collected.spans, settings);
  } catch (error) {
    throw new TraceExportFailedError(settings.url, collected.spans.length, reasonOf(error), error);
  }
  const result: TraceExportResult = {
    endpoint: settings.url,
    threads: collected.threads,
    spans: collected.spans.length,
  };
  return { result, format: formatTraceExport };
}

/** A thread and its forks, at any depth. */
async function family(refs: RefStore, reference: string): Promise<string[]> {
  const parent = await resolveThread(refs, reference);
  const ids = [parent.id];
  for (let offset = 0; ; offset += PAGE) {
    const page = await refs.listThreads({ forksOf: { thread: parent.id, recursive: true }, limit: PAGE, offset });
    ids.push(...page.threads.map((thread) => thread.id));
    if (page.threads.length < PAGE) return ids;
  }
}

/** The threads, each followed by its branches (and theirs): a branch's spans hang under its parent's step. */
async function withBranches(refs: RefStore, threads: readonly string[]): Promise<string[]> {
  const seen = new Set<string>();
  const ordered: string[] = [];
  const visit = async (thread: string) => {
    if (seen.has(thread)) return;
    seen.add(thread);
    ordered.push(thread);
    for (const link of await refs.listBranches(thread)) await visit(link.thread);
  };
  for (const thread of threads) await visit(thread);
  return ordered;
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message === "" ? "the collector did not accept the spans" : message;
}

export function formatTraceExport(result: TraceExportResult): string {
  const lines = result.threads.map((thread) => `${thread.thread}  trace ${thread.traceId}  ${thread.spans} spans`);
  const plural = result.spans === 1 ? "" : "s";
  lines.push(`sent ${result.spans} span${plural} to ${result.endpoint}`);
  return lines.join("\n");
}

/** Whether `text` is an absolute http(s) URL. */
function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text.trim());
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
